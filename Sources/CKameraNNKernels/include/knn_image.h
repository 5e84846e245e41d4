// Input preparation for KameraNN's image models: RGB8 pixels to NHWC float tensors.
#ifndef KNN_IMAGE_H
#define KNN_IMAGE_H
#include <stddef.h>
#include <stdint.h>

/// The largest `factor` knn_reduce_rgb8 takes (column totals of 16 rows fit 16 bits).
#define KNN_REDUCE_MAX_FACTOR 16

/// Shrinks an RGB8 image by a power-of-two `factor` (1…KNN_REDUCE_MAX_FACTOR): each output
/// pixel is the rounded mean of a factor × factor block (`dst` is w/factor × h/factor;
/// leftover rows and columns are dropped). Returns 0, or -1 for another factor or no memory.
int knn_reduce_rgb8(const uint8_t *src, int w, int h, int src_stride, int factor, uint8_t *dst, int dst_stride);

/// Fills a `ow` × `oh` × 3 float tensor by bilinear sampling of an RGB8 image along an affine
/// map: tensor pixel (tx, ty) reads source position (x0 + tx·dxx + ty·dyx, y0 + tx·dxy + ty·dyy)
/// (pixel centres at integers). Taps outside the image count as zero, or with `replicate` as
/// the nearest edge pixel; values become v·scale + offset.
void knn_sample_rgb8(const uint8_t *src, int w, int h, int stride, float *out, int ow, int oh,
                     float x0, float y0, float dxx, float dxy, float dyx, float dyy, float scale, float offset,
                     int replicate);
/// The same tensor as OpenCV's `warpAffine`/`warpPerspective` with INTER_LINEAR on the 8-bit
/// image, then `convertTo` (MediaPipe's CPU image-to-tensor path): the source position of tensor
/// pixel (tx, ty), (x0 + tx·dxx + ty·dyx, y0 + tx·dxy + ty·dyy), is rounded to 1/32 of a pixel,
/// the taps are weighed in 15-bit fixed point and the sum rounded to a whole 8-bit value before
/// v·scale + offset. Taps outside the image read zero, or with `replicate` the nearest edge pixel.
void knn_warp_rgb8_fixed(const uint8_t *src, int w, int h, int stride, float *out, int ow, int oh, double x0,
                         double y0, double dxx, double dxy, double dyx, double dyy, float scale, float offset,
                         int replicate);
/// BT.601 luma of an RGB8 image (0.299 R + 0.587 G + 0.114 B in 16-bit fixed point, the
/// same arithmetic as KameraCore's conversion) into a `w` × `h` gray8 buffer.
void knn_luma_rgb8(const uint8_t *src, int w, int h, int src_stride, uint8_t *dst, int dst_stride);
#endif
