// KameraNN's compute kernels: NHWC fp32, channel blocks of 16 lanes (one AVX-512 register).
// Packed weights and per-channel vectors (bias, PReLU alpha) are padded to a multiple of 16
// channels; input buffers must have 16 floats of slack after their end because kernels
// read whole channel blocks (the extra lanes are computed and never stored).
#ifndef KNN_KERNELS_H
#define KNN_KERNELS_H
#include <stddef.h>
#include "knn_image.h"

#define KNN_BLOCK 16

/// Fused activation applied in a kernel's epilogue.
typedef enum {
    KNN_ACT_NONE = 0,
    KNN_ACT_RELU = 1,
    KNN_ACT_RELU6 = 2,
    KNN_ACT_RELU_N1_TO_1 = 3,
    KNN_ACT_PRELU = 4,   // per-channel alpha, padded to the channel blocks
    KNN_ACT_HARD_SWISH = 5,  // x · relu6(x + 3) / 6
} knn_activation_kind;

/// The activation, then `· scale + shift` (1 and 0 for none: PP-OCR's "learnable affine
/// blocks" follow most of its activations).
typedef struct {
    knn_activation_kind kind;
    const float *alpha;
    float scale, shift;
} knn_activation;

/// No activation and no affine.
static inline knn_activation knn_identity_activation(void) {
    knn_activation act = {KNN_ACT_NONE, 0, 1.0f, 0.0f};
    return act;
}

/// out[r, n] = act(bias[n] + Σk a[r, k] · w[k, n]) for rows [0, rows).
/// `packed` holds ceil(n/16) blocks of [k][16]; `a` rows are `a_stride` floats apart.
void knn_gemm(const float *a, size_t rows, size_t k, size_t a_stride,
              const float *packed, const float *bias, size_t n,
              float *out, size_t out_stride, knn_activation act);

/// As knn_gemm, with a residual added before the activation: out[r, j] = act(bias[j] +
/// Σk a[r, k] · w[k, j] + residual[r, j]) (a 1×1 convolution and the ADD of a skip connection
/// after it, in one pass over memory). `residual` has `residual_channels` ≤ n values a row;
/// columns past them add nothing (a skip connection's channels padded with zeros).
void knn_gemm_residual(const float *a, size_t rows, size_t k, size_t a_stride,
                       const float *packed, const float *bias, size_t n,
                       float *out, size_t out_stride, const float *residual, size_t residual_channels,
                       knn_activation act);

/// As knn_gemm_residual (`residual` may be null), with the weights sparse, in passes over
/// `chunk` input channels (0: all k at once): for each pass, for each output channel in turn,
/// its count of non-zero weights in the pass (an int32's bits), then that many pairs of input
/// channel (an int32's bits) and weight. Rows are taken 32 at a time and turned channel-major,
/// so each non-zero weight costs one multiply-add per 16 rows; worth it where an output
/// channel has a dozen or more non-zero weights and most are zeros.
void knn_sparse_gemm(const float *a, size_t rows, size_t k, size_t a_stride, const float *sparse, size_t chunk,
                     const float *bias, size_t n, float *out, size_t out_stride, const float *residual,
                     size_t residual_channels, knn_activation act);

/// The most taps (kh·kw) knn_conv_indirect takes: 9×9.
#define KNN_INDIRECT_MAX_TAPS 81

/// A K×K convolution for output pixels [p0, p1) (row-major over the output's `ow` columns)
/// as a GEMM reading each tap's input pixel in place (no im2col copy). `packed` and `bias` as
/// for knn_gemm with k = kh·kw·c in (ky, kx, channel) order; `zeros` holds at least `c` zeros
/// (read for taps outside the image); at most KNN_INDIRECT_MAX_TAPS taps.
void knn_conv_indirect(const float *in, int ih, int iw, int c, int kh, int kw, int sh, int sw, int dh, int dw,
                       int pad_top, int pad_left, const float *packed, const float *bias, size_t n, float *out,
                       int ow, size_t p0, size_t p1, const float *zeros, knn_activation act);

/// A K×K convolution for output rows [oy0, oy1) read straight from the input, for inputs of
/// few channels (an image's 3), where im2col's copy costs as much as the GEMM. `packed` and
/// `bias` as for knn_gemm (k = kh·kw·c in (ky, kx, channel) order, blocks of 16 outputs).
void knn_conv_direct(const float *in, int ih, int iw, int c, int kh, int kw, int sh, int sw, int dh, int dw,
                     int pad_top, int pad_left, const float *packed, const float *bias, int n, float *out,
                     int oy0, int oy1, int ow, knn_activation act);

/// Depthwise convolution (multiplier 1) for output rows [oy0, oy1). `packed` is
/// [kh][kw][cpad] with cpad = c rounded up to 16.
void knn_depthwise(const float *in, int ih, int iw, int c, const float *packed, const float *bias,
                   int kh, int kw, int sh, int sw, int dh, int dw, int pad_top, int pad_left,
                   float *out, int oy0, int oy1, int ow, knn_activation act);

/// Max pooling, or with `average` average pooling, for output rows [oy0, oy1); padded cells
/// are ignored (TFLite's rule for both).
void knn_pool(const float *in, int ih, int iw, int c, int kh, int kw, int sh, int sw, int pad_top, int pad_left,
              int average, float *out, int oy0, int oy1, int ow, knn_activation act);

/// out = act(a + b) elementwise over `count` values of `channels` channels each.
void knn_add(const float *a, const float *b, float *out, size_t count, size_t channels, knn_activation act);

/// out = act(in) elementwise (ReLU family or per-channel PReLU).
void knn_activate(const float *in, float *out, size_t count, size_t channels, knn_activation act);

/// out = 1 / (1 + e^-in).
void knn_logistic(const float *in, float *out, size_t count);

/// Softmax of each of `rows` rows of `n` values (in and out may be the same).
void knn_softmax_rows(const float *in, float *out, size_t rows, size_t n);

/// out = in · relu6(in + 3) / 6.
void knn_hard_swish(const float *in, float *out, size_t count);

/// out = act(a · b) over `count` pixels of `channels` channels; b is elementwise like a, or
/// (`b_per_channel`) one value per channel broadcast over the pixels.
void knn_mul(const float *a, const float *b, float *out, size_t count, size_t channels, int b_per_channel,
             knn_activation act);

/// out[k] = the mean of channel k over `pixels` pixels.
void knn_spatial_mean(const float *in, size_t pixels, size_t channels, float *out);

/// DEPTH_TO_SPACE (DCR): each input pixel's c channels become a block×block patch of c/block²
/// channels.
void knn_depth_to_space(const float *in, int h, int w, int c, int block, float *out);

/// Constant padding of a 4-D NHWC tensor with zeros.
void knn_pad(const float *in, const int in_shape[4], const int before[4], const int out_shape[4], float *out);

/// Bilinear resize of one NHWC image, TFLite's coordinate rules.
void knn_resize_bilinear(const float *in, int ih, int iw, int c, float *out, int oh, int ow,
                         int align_corners, int half_pixel_centers);
#endif
