/*
 * A plain C API over zxing-cpp. Every entry point catches all C++ exceptions
 * (a C++ exception reaching Swift would abort the process) and reports them
 * through the error buffer instead.
 */
#ifndef KAMERA_CZXING_H
#define KAMERA_CZXING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Options for one read. `formats` is a comma-separated list of zxing-cpp
/// format names ("QRCode,Aztec"), or NULL/empty for every readable format.
typedef struct kzx_read_options {
    const char *formats;
    int try_harder;
    int try_rotate;
    int try_invert;
    int try_downscale;
    int try_denoise;
    int is_pure;
    int binarizer; /* 0 local average, 1 global histogram, 2 fixed threshold, 3 bool cast */
    int max_symbols; /* 0 = unlimited (255) */
    int ean_add_on;  /* EAN-2/EAN-5 add-ons after EAN/UPC: 0 ignore, 1 read if present, 2 require */
} kzx_read_options;

/// One decoded symbol. All pointers are owned by the result list.
typedef struct kzx_barcode {
    char *format;              /* zxing-cpp format name, e.g. "QR Code" */
    char symbology_key;        /* ISO/IEC 15424 symbology character, e.g. 'Q' */
    char variant_key;          /* zxing-cpp variant character, e.g. 'm' for Micro QR */
    char *symbology;           /* the family, e.g. "QRCode" for "QRCodeModel2" */
    uint8_t *bytes;            /* raw payload bytes */
    int byte_count;
    char *text;                /* payload rendered as UTF-8 (HRI) */
    char *symbology_identifier;
    char *ec_level;
    char *content_type;        /* "Text", "Binary", "Mixed", "GS1", "ISO15434", "UnknownECI" */
    int corners[8];            /* topLeft, topRight, bottomRight, bottomLeft as x,y */
    int orientation;           /* degrees */
    int is_mirrored;
    int is_inverted;
    int line_count;
    char *ean_add_on;          /* the EAN-2/EAN-5 add-on's digits, "" if none */
} kzx_barcode;

typedef struct kzx_barcode_list {
    kzx_barcode *items;
    int count;
} kzx_barcode_list;

/// Pixel layouts the reader accepts directly (zxing-cpp computes luminance itself).
typedef enum kzx_pixel_format {
    KZX_GRAY = 0,
    KZX_RGB = 1,
    KZX_RGBA = 2,
    KZX_BGRA = 3,
} kzx_pixel_format;

/// Decodes every symbol in an 8-bit image with the given row stride.
/// Returns 0 on success, -1 on failure with a message in `error`.
int kzx_read(const uint8_t *pixels, int width, int height, int row_stride, kzx_pixel_format format,
             const kzx_read_options *options, kzx_barcode_list *out,
             char *error, size_t error_size);

void kzx_barcode_list_free(kzx_barcode_list *list);

/// A created symbol as a module matrix: one byte per module, 0 = dark, 255 = light,
/// without quiet zone.
typedef struct kzx_symbol {
    uint8_t *modules;
    int width;
    int height;
} kzx_symbol;

/// Creates a symbol. `format` is a zxing-cpp format name; `options` a zxing-cpp
/// creator option string ("ecLevel=30%"); `is_binary` selects byte mode.
int kzx_create(const char *format, const uint8_t *data, int size, int is_binary,
               const char *options, kzx_symbol *out, char *error, size_t error_size);

void kzx_symbol_free(kzx_symbol *symbol);

/// The zxing-cpp version this shim was built against, e.g. "3.1.1".
const char *kzx_version(void);

#ifdef __cplusplus
}
#endif

#endif
