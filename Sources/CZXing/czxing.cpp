// C shim over zxing-cpp: converts between C structs and ZXing types and makes
// sure no C++ exception ever crosses into Swift.
#include "czxing.h"

#include <ZXing/Barcode.h>
#include <ZXing/BarcodeFormat.h>
#include <ZXing/CreateBarcode.h>
#include <ZXing/ReadBarcode.h>
#include <ZXing/ReaderOptions.h>
#include <ZXing/Version.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>

namespace {

void set_error(char *error, size_t size, const char *message) {
    if (error == nullptr || size == 0)
        return;
    std::strncpy(error, message, size - 1);
    error[size - 1] = '\0';
}

char *duplicate(const std::string &s) {
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p == nullptr)
        throw std::bad_alloc();
    std::memcpy(p, s.data(), s.size());
    p[s.size()] = '\0';
    return p;
}

const char *content_type_name(ZXing::ContentType type) {
    switch (type) {
    case ZXing::ContentType::Text: return "Text";
    case ZXing::ContentType::Binary: return "Binary";
    case ZXing::ContentType::Mixed: return "Mixed";
    case ZXing::ContentType::GS1: return "GS1";
    case ZXing::ContentType::ISO15434: return "ISO15434";
    case ZXing::ContentType::UnknownECI: return "UnknownECI";
    }
    return "Unknown";
}

void free_items(kzx_barcode *items, int count) {
    if (items == nullptr)
        return;
    for (int i = 0; i < count; ++i) {
        std::free(items[i].format);
        std::free(items[i].symbology);
        std::free(items[i].bytes);
        std::free(items[i].text);
        std::free(items[i].symbology_identifier);
        std::free(items[i].ec_level);
        std::free(items[i].content_type);
        std::free(items[i].ean_add_on);
    }
    std::free(items);
}

} // namespace

extern "C" int kzx_read(const uint8_t *pixels, int width, int height, int row_stride, kzx_pixel_format format,
                        const kzx_read_options *options, kzx_barcode_list *out,
                        char *error, size_t error_size) {
    if (out == nullptr || pixels == nullptr || options == nullptr) {
        set_error(error, error_size, "null argument");
        return -1;
    }
    out->items = nullptr;
    out->count = 0;
    kzx_barcode *items = nullptr;
    int filled = 0;
    try {
        ZXing::ImageFormat imageFormat = ZXing::ImageFormat::Lum;
        switch (format) {
        case KZX_GRAY: imageFormat = ZXing::ImageFormat::Lum; break;
        case KZX_RGB: imageFormat = ZXing::ImageFormat::RGB; break;
        case KZX_RGBA: imageFormat = ZXing::ImageFormat::RGBA; break;
        case KZX_BGRA: imageFormat = ZXing::ImageFormat::BGRA; break;
        }
        ZXing::ImageView image(pixels, width, height, imageFormat, row_stride);
        ZXing::ReaderOptions reader;
        if (options->formats != nullptr && options->formats[0] != '\0')
            reader.setFormats(ZXing::BarcodeFormatsFromString(options->formats));
        reader.setTryHarder(options->try_harder != 0);
        reader.setTryRotate(options->try_rotate != 0);
        reader.setTryInvert(options->try_invert != 0);
        reader.setTryDownscale(options->try_downscale != 0);
        reader.setTryDenoise(options->try_denoise != 0);
        reader.setIsPure(options->is_pure != 0);
        reader.setBinarizer(static_cast<ZXing::Binarizer>(options->binarizer));
        reader.setMaxNumberOfSymbols(options->max_symbols > 0 && options->max_symbols < 255
                                         ? static_cast<uint8_t>(options->max_symbols)
                                         : 255);
        reader.setTextMode(ZXing::TextMode::HRI);
        if (options->ean_add_on >= 0 && options->ean_add_on <= 2)
            reader.setEanAddOnSymbol(static_cast<ZXing::EanAddOnSymbol>(options->ean_add_on));

        ZXing::Barcodes barcodes = ZXing::ReadBarcodes(image, reader);
        if (!barcodes.empty()) {
            items = static_cast<kzx_barcode *>(std::calloc(barcodes.size(), sizeof(kzx_barcode)));
            if (items == nullptr)
                throw std::bad_alloc();
        }
        for (const auto &barcode : barcodes) {
            kzx_barcode &item = items[filled++];
            item.format = duplicate(ZXing::ToString(barcode.format()));
            item.symbology = duplicate(ZXing::ToString(barcode.symbology()));
            item.symbology_key = ZXing::SymbologyKey(barcode.format());
            item.variant_key = ZXing::VariantKey(barcode.format());
            const auto &bytes = barcode.bytes();
            item.byte_count = static_cast<int>(bytes.size());
            item.bytes = static_cast<uint8_t *>(std::malloc(bytes.size() + 1));
            if (item.bytes == nullptr)
                throw std::bad_alloc();
            if (!bytes.empty())
                std::memcpy(item.bytes, bytes.data(), bytes.size());
            // HRI adds GS1's parentheses, which we want, but also turns control characters
            // in ISO 15434 messages into Unicode control pictures; every other payload keeps
            // its characters as they are (JSON escapes them, the table shows <GS>).
            item.text = duplicate(barcode.contentType() == ZXing::ContentType::GS1 ? barcode.text(ZXing::TextMode::HRI)
                                                                                    : barcode.text(ZXing::TextMode::Plain));
            item.symbology_identifier = duplicate(barcode.symbologyIdentifier());
            item.ec_level = duplicate(barcode.ecLevel());
            item.content_type = duplicate(content_type_name(barcode.contentType()));
            const auto &position = barcode.position();
            for (int corner = 0; corner < 4; ++corner) {
                item.corners[corner * 2] = position[corner].x;
                item.corners[corner * 2 + 1] = position[corner].y;
            }
            item.orientation = barcode.orientation();
            item.is_mirrored = barcode.isMirrored() ? 1 : 0;
            item.is_inverted = barcode.isInverted() ? 1 : 0;
            item.line_count = barcode.lineCount();
            item.ean_add_on = duplicate(barcode.extra(ZXing::BarcodeExtra::EanAddOn));
        }
        out->items = items;
        out->count = filled;
        return 0;
    } catch (const std::exception &e) {
        free_items(items, filled);
        set_error(error, error_size, e.what());
    } catch (...) {
        free_items(items, filled);
        set_error(error, error_size, "unknown C++ exception in zxing-cpp");
    }
    return -1;
}

extern "C" void kzx_barcode_list_free(kzx_barcode_list *list) {
    if (list == nullptr)
        return;
    free_items(list->items, list->count);
    list->items = nullptr;
    list->count = 0;
}

extern "C" int kzx_create(const char *format, const uint8_t *data, int size, int is_binary,
                          const char *options, kzx_symbol *out, char *error, size_t error_size) {
    if (out == nullptr || format == nullptr || (data == nullptr && size > 0)) {
        set_error(error, error_size, "null argument");
        return -1;
    }
    out->modules = nullptr;
    out->width = 0;
    out->height = 0;
    try {
        ZXing::BarcodeFormat barcodeFormat = ZXing::BarcodeFormatFromString(format);
        if (barcodeFormat == ZXing::BarcodeFormat::None) {
            set_error(error, error_size, "unknown barcode format");
            return -1;
        }
        ZXing::CreatorOptions creator(barcodeFormat, options != nullptr ? options : "");
        ZXing::Barcode barcode =
            is_binary != 0
                ? ZXing::CreateBarcodeFromBytes(data, size, creator)
                : ZXing::CreateBarcodeFromText(
                      std::string_view(reinterpret_cast<const char *>(data), static_cast<size_t>(size)), creator);
        if (!barcode.isValid()) {
            std::string message = barcode.error().msg();
            set_error(error, error_size, message.empty() ? "symbol could not be created" : message.c_str());
            return -1;
        }
        ZXing::ImageView symbol = barcode.symbol();
        const int width = symbol.width();
        const int height = symbol.height();
        auto *modules = static_cast<uint8_t *>(std::malloc(static_cast<size_t>(width) * height));
        if (modules == nullptr)
            throw std::bad_alloc();
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                modules[y * width + x] = *symbol.data(x, y) != 0 ? 255 : 0;
        out->modules = modules;
        out->width = width;
        out->height = height;
        return 0;
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, "unknown C++ exception in zxing-cpp");
    }
    return -1;
}

extern "C" void kzx_symbol_free(kzx_symbol *symbol) {
    if (symbol == nullptr)
        return;
    std::free(symbol->modules);
    symbol->modules = nullptr;
}

extern "C" const char *kzx_version(void) { return ZXING_VERSION_STR; }
