// KameraNN kernels. Written with clang vector extensions (one `v16` = one AVX-512
// register) and compiled in several versions (AVX-512, AVX2+FMA, baseline) chosen at load
// time by the dynamic linker, so one binary is fast on new machines and still runs on old.
#include "knn_kernels.h"
#include <math.h>
#include <string.h>

// Fuse multiply-adds (one rounding instead of two, and half the instructions): set
// here rather than by a compiler flag, which SwiftPM would refuse in a dependency.
#pragma clang fp contract(fast)

typedef float v16 __attribute__((ext_vector_type(16)));
typedef float v16u __attribute__((ext_vector_type(16), aligned(4)));
typedef float v8 __attribute__((ext_vector_type(8)));
typedef float v8u __attribute__((ext_vector_type(8), aligned(4)));
typedef float v4 __attribute__((ext_vector_type(4)));
typedef float v4u __attribute__((ext_vector_type(4), aligned(4)));

#if defined(__x86_64__) && defined(__clang__)
#define KNN_MULTIVERSION __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KNN_MULTIVERSION
#endif

// Helpers are macros, not functions: a 512-bit vector may not cross a call boundary in the
// AVX2 and baseline versions of the kernels (it would change the calling convention).
#define load16(p) (*(const v16u *)(p))
#define store16(p, v) (*(v16u *)(p) = (v))
#define splat(x) ((v16)(float)(x))
#define vmax(a, b) ({ v16 a_ = (a), b_ = (b); a_ > b_ ? a_ : b_; })
#define vmin(a, b) ({ v16 a_ = (a), b_ = (b); a_ < b_ ? a_ : b_; })
// A partial block: 8- and 4-lane vector stores, then scalars, so channel counts that are
// not multiples of 16 do not fall back to lane-by-lane extraction.
#define store_n(p, v, n) do {                                              \
        float *p_ = (p); v16 v_ = (v); size_t n_ = (n);                    \
        if (n_ >= KNN_BLOCK) { store16(p_, v_); break; }                   \
        v8 a_ = v_.lo;                                                     \
        if (n_ >= 8) { *(v8u *)p_ = a_; p_ += 8; n_ -= 8; a_ = v_.hi; }    \
        v4 c_ = a_.lo;                                                     \
        if (n_ >= 4) { *(v4u *)p_ = c_; p_ += 4; n_ -= 4; c_ = a_.hi; }    \
        if (n_ > 0) p_[0] = c_.x;                                          \
        if (n_ > 1) p_[1] = c_.y;                                          \
        if (n_ > 2) p_[2] = c_.z;                                          \
    } while (0)
#define activate(x, act, block) ({                                          \
        v16 x_ = (x);                                                       \
        switch ((act).kind) {                                               \
        case KNN_ACT_RELU: x_ = vmax(x_, splat(0)); break;                  \
        case KNN_ACT_RELU6: x_ = vmin(vmax(x_, splat(0)), splat(6)); break; \
        case KNN_ACT_RELU_N1_TO_1: x_ = vmin(vmax(x_, splat(-1)), splat(1)); break; \
        case KNN_ACT_PRELU: {                                               \
            v16 alpha_ = load16((act).alpha + (block) * KNN_BLOCK);         \
            x_ = x_ < 0 ? x_ * alpha_ : x_; break;                          \
        }                                                                   \
        default: break;                                                     \
        }                                                                   \
        x_;                                                                 \
    })

// --- GEMM ------------------------------------------------------------------
// Micro-tile: 6 rows × 32 columns = 12 accumulators, each k step two weight loads and six
// broadcasts (folded into the FMAs on AVX-512) for twelve FMAs.
#define MR 6

KNN_MULTIVERSION
void knn_gemm(const float *a, size_t rows, size_t k, size_t a_stride,
              const float *packed, const float *bias, size_t n,
              float *out, size_t out_stride, knn_activation act) {
    size_t blocks = (n + KNN_BLOCK - 1) / KNN_BLOCK;
    size_t b = 0;
    for (; b + 2 <= blocks; b += 2) {
        const float *w0 = packed + b * k * KNN_BLOCK, *w1 = w0 + k * KNN_BLOCK;
        v16 bias0 = load16(bias + b * KNN_BLOCK), bias1 = load16(bias + (b + 1) * KNN_BLOCK);
        size_t n1 = n - (b + 1) * KNN_BLOCK;
        size_t r = 0;
        for (; r + MR <= rows; r += MR) {
            v16 c00 = bias0, c01 = bias1, c10 = bias0, c11 = bias1, c20 = bias0, c21 = bias1;
            v16 c30 = bias0, c31 = bias1, c40 = bias0, c41 = bias1, c50 = bias0, c51 = bias1;
            const float *a0 = a + r * a_stride, *a1 = a0 + a_stride, *a2 = a1 + a_stride;
            const float *a3 = a2 + a_stride, *a4 = a3 + a_stride, *a5 = a4 + a_stride;
            for (size_t i = 0; i < k; i++) {
                v16 x0 = load16(w0 + i * KNN_BLOCK), x1 = load16(w1 + i * KNN_BLOCK);
                v16 s;
                s = splat(a0[i]); c00 += s * x0; c01 += s * x1;
                s = splat(a1[i]); c10 += s * x0; c11 += s * x1;
                s = splat(a2[i]); c20 += s * x0; c21 += s * x1;
                s = splat(a3[i]); c30 += s * x0; c31 += s * x1;
                s = splat(a4[i]); c40 += s * x0; c41 += s * x1;
                s = splat(a5[i]); c50 += s * x0; c51 += s * x1;
            }
            float *o = out + r * out_stride + b * KNN_BLOCK;
            store16(o, activate(c00, act, b)); store_n(o + KNN_BLOCK, activate(c01, act, b + 1), n1); o += out_stride;
            store16(o, activate(c10, act, b)); store_n(o + KNN_BLOCK, activate(c11, act, b + 1), n1); o += out_stride;
            store16(o, activate(c20, act, b)); store_n(o + KNN_BLOCK, activate(c21, act, b + 1), n1); o += out_stride;
            store16(o, activate(c30, act, b)); store_n(o + KNN_BLOCK, activate(c31, act, b + 1), n1); o += out_stride;
            store16(o, activate(c40, act, b)); store_n(o + KNN_BLOCK, activate(c41, act, b + 1), n1); o += out_stride;
            store16(o, activate(c50, act, b)); store_n(o + KNN_BLOCK, activate(c51, act, b + 1), n1);
        }
        for (; r < rows; r++) {
            v16 c0 = bias0, c1 = bias1;
            const float *ar = a + r * a_stride;
            for (size_t i = 0; i < k; i++) {
                v16 s = splat(ar[i]);
                c0 += s * load16(w0 + i * KNN_BLOCK);
                c1 += s * load16(w1 + i * KNN_BLOCK);
            }
            float *o = out + r * out_stride + b * KNN_BLOCK;
            store16(o, activate(c0, act, b));
            store_n(o + KNN_BLOCK, activate(c1, act, b + 1), n1);
        }
    }
    if (b < blocks) {
        const float *w0 = packed + b * k * KNN_BLOCK;
        v16 bias0 = load16(bias + b * KNN_BLOCK);
        size_t n0 = n - b * KNN_BLOCK;
        size_t r = 0;
        for (; r + MR <= rows; r += MR) {
            v16 c0 = bias0, c1 = bias0, c2 = bias0, c3 = bias0, c4 = bias0, c5 = bias0;
            const float *a0 = a + r * a_stride, *a1 = a0 + a_stride, *a2 = a1 + a_stride;
            const float *a3 = a2 + a_stride, *a4 = a3 + a_stride, *a5 = a4 + a_stride;
            for (size_t i = 0; i < k; i++) {
                v16 x0 = load16(w0 + i * KNN_BLOCK);
                c0 += splat(a0[i]) * x0; c1 += splat(a1[i]) * x0; c2 += splat(a2[i]) * x0;
                c3 += splat(a3[i]) * x0; c4 += splat(a4[i]) * x0; c5 += splat(a5[i]) * x0;
            }
            float *o = out + r * out_stride + b * KNN_BLOCK;
            store_n(o, activate(c0, act, b), n0); o += out_stride;
            store_n(o, activate(c1, act, b), n0); o += out_stride;
            store_n(o, activate(c2, act, b), n0); o += out_stride;
            store_n(o, activate(c3, act, b), n0); o += out_stride;
            store_n(o, activate(c4, act, b), n0); o += out_stride;
            store_n(o, activate(c5, act, b), n0);
        }
        for (; r < rows; r++) {
            v16 c0 = bias0;
            const float *ar = a + r * a_stride;
            for (size_t i = 0; i < k; i++) c0 += splat(ar[i]) * load16(w0 + i * KNN_BLOCK);
            store_n(out + r * out_stride + b * KNN_BLOCK, activate(c0, act, b), n0);
        }
    }
}

// --- im2col ------------------------------------------------------------------
void knn_im2col(const float *in, int ih, int iw, int c, int kh, int kw, int sh, int sw,
                int dh, int dw, int pad_top, int pad_left, int oy0, int oy1, int ow, float *col) {
    size_t patch = (size_t)kh * kw * c;
    for (int oy = oy0; oy < oy1; oy++) {
        for (int ox = 0; ox < ow; ox++) {
            float *dst = col + ((size_t)(oy - oy0) * ow + ox) * patch;
            int ix0 = ox * sw - pad_left;
            // With dilation 1 a kernel row is kw·c contiguous floats when fully inside.
            int row_inside = dw == 1 && ix0 >= 0 && ix0 + kw <= iw;
            for (int ky = 0; ky < kh; ky++) {
                int iy = oy * sh - pad_top + ky * dh;
                if (iy < 0 || iy >= ih) {
                    for (int i = 0; i < kw * c; i++) dst[i] = 0;
                } else if (row_inside) {
                    const float *src = in + ((size_t)iy * iw + ix0) * c;
                    for (int i = 0; i < kw * c; i++) dst[i] = src[i];
                } else {
                    for (int kx = 0; kx < kw; kx++) {
                        int ix = ix0 + kx * dw;
                        const float *src = in + ((size_t)iy * iw + ix) * c;
                        int inside = ix >= 0 && ix < iw;
                        for (int i = 0; i < c; i++) dst[kx * c + i] = inside ? src[i] : 0;
                    }
                }
                dst += kw * c;
            }
        }
    }
}

// --- depthwise ---------------------------------------------------------------
// One output pixel of any window, with the taps clipped to the image.
#define DEPTHWISE_PIXEL(ox) do {                                                               \
        int ix0 = (ox) * sw - pad_left;                                                        \
        int kx0 = 0, kx1 = kw;                                                                 \
        while (kx0 < kw && ix0 + kx0 * dw < 0) kx0++;                                          \
        while (kx1 > kx0 && ix0 + (kx1 - 1) * dw >= iw) kx1--;                                 \
        float *o = out + ((size_t)oy * ow + (ox)) * c;                                         \
        for (int b = 0; b < blocks; b++) {                                                     \
            v16 acc = load16(bias + b * KNN_BLOCK);                                            \
            for (int ky = ky0; ky < ky1; ky++) {                                               \
                const float *row = in + ((size_t)(iy0 + ky * dh) * iw) * c + b * KNN_BLOCK;    \
                const float *wrow = packed + (size_t)ky * kw * cpad + b * KNN_BLOCK;           \
                for (int kx = kx0; kx < kx1; kx++)                                             \
                    acc += load16(row + (size_t)(ix0 + kx * dw) * c) * load16(wrow + (size_t)kx * cpad); \
            }                                                                                  \
            store_n(o + b * KNN_BLOCK, activate(acc, act, b), (size_t)(c - b * KNN_BLOCK));    \
        }                                                                                      \
    } while (0)

KNN_MULTIVERSION
void knn_depthwise(const float *in, int ih, int iw, int c, const float *packed, const float *bias,
                   int kh, int kw, int sh, int sw, int dh, int dw, int pad_top, int pad_left,
                   float *out, int oy0, int oy1, int ow, knn_activation act) {
    int blocks = (c + KNN_BLOCK - 1) / KNN_BLOCK;
    int cpad = blocks * KNN_BLOCK;
    // Output columns whose whole window is inside the image.
    int ox_lo = (pad_left + sw - 1) / sw;
    int ox_hi = (iw - (kw - 1) * dw - 1 + pad_left) / sw + 1;
    if (ox_hi > ow) ox_hi = ow;
    if (ox_lo > ox_hi) ox_lo = ox_hi;
    for (int oy = oy0; oy < oy1; oy++) {
        int iy0 = oy * sh - pad_top;
        int ky0 = 0, ky1 = kh;
        while (ky0 < kh && iy0 + ky0 * dh < 0) ky0++;
        while (ky1 > ky0 && iy0 + (ky1 - 1) * dh >= ih) ky1--;
        int full_rows = ky0 == 0 && ky1 == kh;
        if (!(kh == 3 && kw == 3 && dh == 1 && dw == 1 && full_rows)) {
            for (int ox = 0; ox < ow; ox++) DEPTHWISE_PIXEL(ox);
            continue;
        }
        for (int ox = 0; ox < ox_lo; ox++) DEPTHWISE_PIXEL(ox);
        // 3×3 interior: the block's nine weights stay in registers across the row.
        for (int b = 0; b < blocks; b++) {
            const float *w = packed + b * KNN_BLOCK;
            v16 w0 = load16(w), w1 = load16(w + cpad), w2 = load16(w + 2 * cpad);
            v16 w3 = load16(w + 3 * cpad), w4 = load16(w + 4 * cpad), w5 = load16(w + 5 * cpad);
            v16 w6 = load16(w + 6 * cpad), w7 = load16(w + 7 * cpad), w8 = load16(w + 8 * cpad);
            v16 bv = load16(bias + b * KNN_BLOCK);
            size_t left = (size_t)(c - b * KNN_BLOCK);
            const float *r0 = in + (size_t)iy0 * iw * c + b * KNN_BLOCK;
            const float *r1 = r0 + (size_t)iw * c, *r2 = r1 + (size_t)iw * c;
            for (int ox = ox_lo; ox < ox_hi; ox++) {
                size_t x = (size_t)(ox * sw - pad_left) * c;
                v16 acc = bv;
                acc += load16(r0 + x) * w0; acc += load16(r0 + x + c) * w1; acc += load16(r0 + x + 2 * c) * w2;
                acc += load16(r1 + x) * w3; acc += load16(r1 + x + c) * w4; acc += load16(r1 + x + 2 * c) * w5;
                acc += load16(r2 + x) * w6; acc += load16(r2 + x + c) * w7; acc += load16(r2 + x + 2 * c) * w8;
                store_n(out + ((size_t)oy * ow + ox) * c + b * KNN_BLOCK, activate(acc, act, b), left);
            }
        }
        for (int ox = ox_hi; ox < ow; ox++) DEPTHWISE_PIXEL(ox);
    }
}

// --- pooling -----------------------------------------------------------------
KNN_MULTIVERSION
void knn_max_pool(const float *in, int ih, int iw, int c, int kh, int kw, int sh, int sw,
                  int pad_top, int pad_left, float *out, int oy0, int oy1, int ow, knn_activation act) {
    int blocks = (c + KNN_BLOCK - 1) / KNN_BLOCK;
    for (int oy = oy0; oy < oy1; oy++) {
        for (int ox = 0; ox < ow; ox++) {
            float *o = out + ((size_t)oy * ow + ox) * c;
            for (int b = 0; b < blocks; b++) {
                v16 m = splat(-INFINITY);
                for (int ky = 0; ky < kh; ky++) {
                    int iy = oy * sh - pad_top + ky;
                    if (iy < 0 || iy >= ih) continue;
                    for (int kx = 0; kx < kw; kx++) {
                        int ix = ox * sw - pad_left + kx;
                        if (ix < 0 || ix >= iw) continue;
                        m = vmax(m, load16(in + ((size_t)iy * iw + ix) * c + b * KNN_BLOCK));
                    }
                }
                store_n(o + b * KNN_BLOCK, activate(m, act, b), (size_t)(c - b * KNN_BLOCK));
            }
        }
    }
}

// --- elementwise -------------------------------------------------------------
// `value(at)` is the pre-activation vector at float offset `at`. PReLU needs each channel
// block's alpha, so it walks pixel by pixel; the others run over the flat array.
#define ELEMENTWISE(value)                                                                  \
    do {                                                                                    \
        if (act.kind == KNN_ACT_PRELU) {                                                    \
            size_t blocks = (channels + KNN_BLOCK - 1) / KNN_BLOCK;                         \
            for (size_t p = 0; p < count; p++)                                              \
                for (size_t k = 0; k < blocks; k++) {                                       \
                    size_t at = p * channels + k * KNN_BLOCK;                               \
                    store_n(out + at, activate(value(at), act, k), channels - k * KNN_BLOCK); \
                }                                                                           \
            return;                                                                         \
        }                                                                                   \
        size_t total = count * channels, i = 0;                                             \
        for (; i + KNN_BLOCK <= total; i += KNN_BLOCK) store16(out + i, activate(value(i), act, 0)); \
        if (i < total) store_n(out + i, activate(value(i), act, 0), total - i);             \
    } while (0)

#define SUM_AT(at) (load16(a + (at)) + load16(b + (at)))
#define INPUT_AT(at) load16(in + (at))

KNN_MULTIVERSION
void knn_add(const float *a, const float *b, float *out, size_t count, size_t channels, knn_activation act) {
    ELEMENTWISE(SUM_AT);
}

KNN_MULTIVERSION
void knn_activate(const float *in, float *out, size_t count, size_t channels, knn_activation act) {
    ELEMENTWISE(INPUT_AT);
}

void knn_logistic(const float *in, float *out, size_t count) {
    for (size_t i = 0; i < count; i++) out[i] = 1.0f / (1.0f + expf(-in[i]));
}

void knn_pad(const float *in, const int in_shape[4], const int before[4], const int out_shape[4], float *out) {
    size_t total = (size_t)out_shape[0] * out_shape[1] * out_shape[2] * out_shape[3];
    memset(out, 0, total * sizeof(float));
    for (int n = 0; n < in_shape[0]; n++)
        for (int y = 0; y < in_shape[1]; y++)
            for (int x = 0; x < in_shape[2]; x++) {
                const float *src = in + (((size_t)n * in_shape[1] + y) * in_shape[2] + x) * in_shape[3];
                float *dst = out + ((((size_t)(n + before[0]) * out_shape[1] + (y + before[1])) * out_shape[2]
                                     + (x + before[2])) * out_shape[3] + before[3]);
                memcpy(dst, src, sizeof(float) * in_shape[3]);
            }
}

void knn_resize_bilinear(const float *in, int ih, int iw, int c, float *out, int oh, int ow,
                         int align_corners, int half_pixel_centers) {
    float scale_y = (align_corners && oh > 1) ? (float)(ih - 1) / (oh - 1) : (float)ih / oh;
    float scale_x = (align_corners && ow > 1) ? (float)(iw - 1) / (ow - 1) : (float)iw / ow;
    for (int y = 0; y < oh; y++) {
        float fy = half_pixel_centers ? ((float)y + 0.5f) * scale_y - 0.5f : (float)y * scale_y;
        if (fy < 0) fy = 0;
        int y0 = (int)floorf(fy);
        int y1 = y0 + 1 < ih ? y0 + 1 : ih - 1;
        if (y0 > ih - 1) y0 = ih - 1;
        float wy = fy - (float)y0;
        for (int x = 0; x < ow; x++) {
            float fx = half_pixel_centers ? ((float)x + 0.5f) * scale_x - 0.5f : (float)x * scale_x;
            if (fx < 0) fx = 0;
            int x0 = (int)floorf(fx);
            int x1 = x0 + 1 < iw ? x0 + 1 : iw - 1;
            if (x0 > iw - 1) x0 = iw - 1;
            float wx = fx - (float)x0;
            const float *p00 = in + ((size_t)y0 * iw + x0) * c, *p01 = in + ((size_t)y0 * iw + x1) * c;
            const float *p10 = in + ((size_t)y1 * iw + x0) * c, *p11 = in + ((size_t)y1 * iw + x1) * c;
            float *o = out + ((size_t)y * ow + x) * c;
            for (int k = 0; k < c; k++) {
                float top = p00[k] + (p01[k] - p00[k]) * wx;
                float bottom = p10[k] + (p11[k] - p10[k]) * wx;
                o[k] = top + (bottom - top) * wy;
            }
        }
    }
}
