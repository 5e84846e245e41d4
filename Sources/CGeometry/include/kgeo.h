/*
 * A plain C API over the OpenCV parts of Kamera's geometric requests (rectangles, documents,
 * contours, registration, optical flow). Every entry point catches all C++ exceptions (one
 * reaching Swift would abort the process) and returns -1 with a message in `error`.
 */
#ifndef KAMERA_KGEO_H
#define KAMERA_KGEO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An 8-bit image the caller owns: 1 channel (gray) or 3 (RGB), rows `stride` bytes apart.
typedef struct kgeo_image {
    const uint8_t *pixels;
    int width;
    int height;
    int stride;
    int channels;
} kgeo_image;

/// A quadrilateral in pixels (top-left origin): topLeft, topRight, bottomRight, bottomLeft as
/// x,y pairs, clockwise on screen.
typedef struct kgeo_quad {
    double points[8];
    /// How much of the outline has an edge under it (0…1).
    double confidence;
} kgeo_quad;

/// Vision's rectangle parameters (aspect ratio = shorter side / longer side).
typedef struct kgeo_rectangle_options {
    double minimum_aspect_ratio;
    double maximum_aspect_ratio;
    double quadrature_tolerance; /* degrees a corner may differ from 90 */
    double minimum_size;         /* shorter side / the image's shorter dimension */
    double minimum_confidence;
    int maximum_observations;    /* 0 = all */
    int prefers_large;           /* rank by size as well as edge support (documents) */
} kgeo_rectangle_options;

/// Finds rectangles (projected: any convex quad within the tolerances) in a gray image, best
/// first. Writes at most `capacity` quads and their number to `count`. `fit_also`: further
/// gray planes of the same size (brightness, colour opponents; NULL when `fit_also_count` is
/// 0) each side is also fitted on, the plane where its edge is clearest winning (a card's side
/// can differ from what it lies on in brightness along one side and in colour along another).
int kgeo_detect_rectangles(const kgeo_image *gray, const kgeo_image *fit_also, int fit_also_count,
                           const kgeo_rectangle_options *options, kgeo_quad *out, int capacity, int *count,
                           char *error, size_t error_size);

/// Merges the results of several searches (`kgeo_detect_rectangles` on several planes of one
/// `width`×`height` image) into one order, in place: for documents (`prefers_large`) without
/// the outlines that are another one extended onto the background, best first (documents by
/// edge support and size, rectangles by edge support with size breaking near-ties), the same
/// rectangle once, at most `maximum_observations`. Writes how many are left to `kept`.
int kgeo_rank_rectangles(kgeo_quad *quads, int count, const kgeo_rectangle_options *options, int width, int height,
                         int *kept, char *error, size_t error_size);

/// Warps the quad `corners` (8 doubles, as kgeo_quad) of `source` to an upright
/// `width`×`height` image in `out` (same channels, tightly packed). With `whiten`, divides out
/// the page's uneven lighting so paper comes out white. Where the quad reaches past the image,
/// its edge pixels are repeated, or black with `black_outside`.
int kgeo_flatten_quad(const kgeo_image *source, const double *corners, int width, int height, int whiten,
                      int black_outside, uint8_t *out, char *error, size_t error_size);

/// Flat views of QR codes on bent paper, owned by the result (free with kgeo_qr_views_free).
typedef struct kgeo_qr_views {
    uint8_t *pixels;  /* views back to back, each sides[i]×sides[i] gray, 6 pixels a module, 4 modules of margin */
    int *sides;       /* each view's side in pixels */
    double *outlines; /* 8 doubles a view: the code's corners in the image (top-left, top-right, bottom-right, bottom-left) */
    int count;
} kgeo_qr_views;

/// Finds QR finder-pattern triples in `gray`, fits to each a sheet bent along one direction
/// (pose, bend direction and curvature across the code) from the finder corners and the timing
/// patterns' module edges, and samples the code on it into flat views (best first, at most
/// `maximum_views`) for a decoder.
int kgeo_qr_surface_views(const kgeo_image *gray, int maximum_views, kgeo_qr_views *out, char *error, size_t error_size);
void kgeo_qr_views_free(kgeo_qr_views *views);

/// A contour tree as flat arrays, owned by the result (free with kgeo_contours_free).
typedef struct kgeo_contours {
    float *points;       /* x,y pairs in pixels of the analysed image, all contours back to back */
    int *point_offsets;  /* contour i's points: [point_offsets[i], point_offsets[i+1]) */
    int *parents;        /* index of the enclosing contour, -1 for top level */
    int count;
    int width;           /* the analysed (possibly downscaled) image's size */
    int height;
} kgeo_contours;

/// Finds contours as Vision's DetectContoursRequest: contrast adjusted about `pivot`
/// (negative: the image's mean), downscaled so its longer side is at most `maximum_dimension`,
/// dark-on-light or light-on-dark, then traced as a tree.
int kgeo_find_contours(const kgeo_image *gray, double contrast_adjustment, double pivot, int dark_on_light,
                       int maximum_dimension, kgeo_contours *out, char *error, size_t error_size);
void kgeo_contours_free(kgeo_contours *contours);

/// Translation mapping `moving`'s pixels onto `reference`'s (x_ref = x_moving + tx), by phase
/// correlation, coarse to fine. `confidence` is the normalized correlation peak (0…1).
int kgeo_register_translation(const kgeo_image *reference, const kgeo_image *moving, double *tx, double *ty,
                              double *confidence, char *error, size_t error_size);

/// Homography (row-major 3×3, h[8] = 1) mapping `moving`'s pixels onto `reference`'s: features
/// and a robust fit (ECC from the translation when there are no features). `confidence` is the
/// share of matches the fit explains (0…1); 0 and an identity when nothing matched.
int kgeo_register_homography(const kgeo_image *reference, const kgeo_image *moving, double *h,
                             double *confidence, char *error, size_t error_size);

/// Dense optical flow from `previous` to `next` (same size): `out` holds width×height x,y
/// pairs in pixels. `level` 0 low … 3 very high accuracy.
int kgeo_optical_flow(const kgeo_image *previous, const kgeo_image *next, int level, float *out,
                      char *error, size_t error_size);

/// The camera's motion from `previous` to `next` (same size, consecutive frames): the similarity
/// (shift, turn, scale) carrying `previous`'s pixels to where they are in `next`, as a row-major
/// 2×3 matrix (x' = m0·x + m1·y + m2, y' = m3·x + m4·y + m5), fitted robustly to corners spread
/// over the frame so that things moving in the scene do not count. `confidence`: the share of
/// the corners the fit explains (0 and an identity when too few could be followed).
int kgeo_camera_motion(const kgeo_image *previous, const kgeo_image *next, double *matrix, double *confidence,
                       char *error, size_t error_size);

/// `source` warped by the 2×3 `matrix` (as kgeo_camera_motion writes it: source pixels to
/// destination pixels) into `destination`, an image of the same size and channels the caller
/// owns, rows `destination_stride` bytes apart; bilinear. Where the source has no pixels,
/// `keep_outside` leaves the destination's own (the caller fills it first), else the
/// source's edge is repeated.
int kgeo_warp_affine(const kgeo_image *source, const double *matrix, int keep_outside, uint8_t *destination,
                     int destination_stride, char *error, size_t error_size);

/// A target followed from frame to frame (opaque; free with kgeo_tracker_free).
typedef struct kgeo_tracker kgeo_tracker;

/// Starts tracking the quad `corners` (8 doubles, as kgeo_quad; an axis-aligned box is a quad
/// too) in `frame`. `accurate`: more points, finer flow, re-detection on every lost frame.
/// `rectangle`: the target is a flat rectangle seen in perspective (its corners follow a
/// homography) rather than an object (a similarity: shift, scale, turn).
int kgeo_tracker_create(const kgeo_image *frame, const double *corners, int accurate, int rectangle,
                        kgeo_tracker **out, char *error, size_t error_size);

/// Follows the target into `frame` (same size as the first): its corners (8 doubles) and a
/// confidence (0…1) that falls when it is occluded or gone; after a loss the target is looked
/// for in the whole frame.
int kgeo_tracker_update(kgeo_tracker *tracker, const kgeo_image *frame, double *corners, double *confidence,
                        char *error, size_t error_size);

void kgeo_tracker_free(kgeo_tracker *tracker);

#ifdef __cplusplus
}
#endif

#endif
