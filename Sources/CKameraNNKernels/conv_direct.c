// Direct convolution for inputs with few channels (a model's first layer, on the RGB image).
#include "knn_vector.h"

// --- direct convolution --------------------------------------------------------
// With 3 input channels im2col writes each input pixel kh·kw times into a matrix whose
// rows are only 27 or 75 floats long, and that copy cost as much as the GEMM after it (a
// third of BlazeFace short range's time went to its 5×5 first layer). Here each output
// channel block keeps `P` neighbouring output pixels in registers and every tap is one weight
// load and `P` broadcast multiply-adds read straight from the input.

// `P` output pixels from column `ox` on, all of whose taps lie inside the row span
// [0, iw). The block's weights are `w` ([kh·kw·c][16]); rows outside [0, ih) are skipped.
#define DIRECT_RUN(P)                                                                                   \
    do {                                                                                                \
        v16 acc[P];                                                                                     \
        for (int p = 0; p < (P); p++) acc[p] = load16(bias + b * KNN_BLOCK);                            \
        for (int ky = ky0; ky < ky1; ky++) {                                                            \
            const float *row = in + (size_t)(iy0 + ky * dh) * iw * c;                                   \
            for (int kx = 0; kx < kw; kx++) {                                                           \
                const float *tap = row + (size_t)(ox * sw - pad_left + kx * dw) * c;                    \
                const float *wt = w + (size_t)(ky * kw + kx) * c * KNN_BLOCK;                           \
                for (int ci = 0; ci < c; ci++) {                                                        \
                    v16 weight = load16(wt + ci * KNN_BLOCK);                                           \
                    for (int p = 0; p < (P); p++) acc[p] += splat(tap[(size_t)p * sw * c + ci]) * weight; \
                }                                                                                       \
            }                                                                                           \
        }                                                                                               \
        for (int p = 0; p < (P); p++)                                                                   \
            store_n(out + ((size_t)oy * ow + ox + p) * n + b * KNN_BLOCK, activate(acc[p], act, b), width); \
    } while (0)

// As DIRECT_RUN for two column blocks at once (`b` and `b + 1`, the second `width2` wide):
// each input sample broadcast once serves both blocks' multiply-adds. With one block a tap
// took a weight load and P broadcasts for P FMAs; here two weight loads and P broadcasts
// for 2P (AVX-512 only: 16 sums and two weights are 18 of its 32 registers).
#define DIRECT_RUN2(P)                                                                                  \
    do {                                                                                                \
        v16 acc0[P], acc1[P];                                                                           \
        for (int p = 0; p < (P); p++) {                                                                 \
            acc0[p] = load16(bias + b * KNN_BLOCK);                                                     \
            acc1[p] = load16(bias + (b + 1) * KNN_BLOCK);                                               \
        }                                                                                               \
        for (int ky = ky0; ky < ky1; ky++) {                                                            \
            const float *row = in + (size_t)(iy0 + ky * dh) * iw * c;                                   \
            for (int kx = 0; kx < kw; kx++) {                                                           \
                const float *tap = row + (size_t)(ox * sw - pad_left + kx * dw) * c;                    \
                const float *wt = w + (size_t)(ky * kw + kx) * c * KNN_BLOCK;                           \
                const float *wt2 = w2 + (size_t)(ky * kw + kx) * c * KNN_BLOCK;                         \
                for (int ci = 0; ci < c; ci++) {                                                        \
                    v16 weight = load16(wt + ci * KNN_BLOCK), weight2 = load16(wt2 + ci * KNN_BLOCK);   \
                    for (int p = 0; p < (P); p++) {                                                     \
                        v16 x = splat(tap[(size_t)p * sw * c + ci]);                                    \
                        acc0[p] += x * weight;                                                          \
                        acc1[p] += x * weight2;                                                         \
                    }                                                                                   \
                }                                                                                       \
            }                                                                                           \
        }                                                                                               \
        for (int p = 0; p < (P); p++) {                                                                 \
            float *o = out + ((size_t)oy * ow + ox + p) * n + b * KNN_BLOCK;                            \
            store_n(o, activate(acc0[p], act, b), width);                                               \
            store_n(o + KNN_BLOCK, activate(acc1[p], act, b + 1), width2);                              \
        }                                                                                               \
    } while (0)

// One output pixel whose window may cross the left or right edge.
#define DIRECT_EDGE(ox)                                                                                 \
    do {                                                                                                \
        v16 acc = load16(bias + b * KNN_BLOCK);                                                         \
        int ix0 = (ox) * sw - pad_left;                                                                 \
        for (int ky = ky0; ky < ky1; ky++) {                                                            \
            const float *row = in + (size_t)(iy0 + ky * dh) * iw * c;                                   \
            for (int kx = 0; kx < kw; kx++) {                                                           \
                int ix = ix0 + kx * dw;                                                                 \
                if (ix < 0 || ix >= iw) continue;                                                       \
                const float *wt = w + (size_t)(ky * kw + kx) * c * KNN_BLOCK;                           \
                for (int ci = 0; ci < c; ci++) acc += splat(row[(size_t)ix * c + ci]) * load16(wt + ci * KNN_BLOCK); \
            }                                                                                           \
        }                                                                                               \
        store_n(out + ((size_t)oy * ow + (ox)) * n + b * KNN_BLOCK, activate(acc, act, b), width);      \
    } while (0)

KNN_MULTIVERSION
void knn_conv_direct(const float *in, int ih, int iw, int c, int kh, int kw, int sh, int sw, int dh, int dw,
                     int pad_top, int pad_left, const float *packed, const float *bias, int n, float *out,
                     int oy0, int oy1, int ow, knn_activation act) {
    const int blocks = (n + KNN_BLOCK - 1) / KNN_BLOCK;
    const size_t k = (size_t)kh * kw * c;
    // Eight pixels' accumulators fill half of AVX-512's registers; with AVX2 a 16-float
    // vector is two registers, so four.
    const int wide = knn_has_wide_vectors();
    int ox_lo, ox_hi;
    knn_inner_columns(iw, kw, sw, dw, pad_left, ow, &ox_lo, &ox_hi);
    for (int oy = oy0; oy < oy1; oy++) {
        int iy0, ky0, ky1;
        knn_rows_inside(oy, sh, pad_top, kh, dh, ih, &iy0, &ky0, &ky1);
        // Whether this block's interior already ran with the block before it (DIRECT_RUN2).
        int paired = 0;
        for (int b = 0; b < blocks; b++) {
            const float *w = packed + (size_t)b * k * KNN_BLOCK;
            const size_t width = (size_t)(n - b * KNN_BLOCK);
            int ox = ox_lo;
            if (paired) {
                paired = 0;
            } else if (wide && b + 1 < blocks) {
                const float *w2 = w + k * KNN_BLOCK;
                const size_t width2 = (size_t)(n - (b + 1) * KNN_BLOCK);
                for (; ox + 8 <= ox_hi; ox += 8) DIRECT_RUN2(8);
                for (; ox < ox_hi; ox++) DIRECT_RUN2(1);
                paired = 1;
            } else {
                if (wide)
                    for (; ox + 8 <= ox_hi; ox += 8) DIRECT_RUN(8);
                for (; ox + 4 <= ox_hi; ox += 4) DIRECT_RUN(4);
                for (; ox < ox_hi; ox++) DIRECT_RUN(1);
            }
            // Columns whose window crosses the left or right edge (a few a row), one block at
            // a time: taps outside add nothing.
            for (ox = 0; ox < ox_lo; ox++) DIRECT_EDGE(ox);
            for (ox = ox_hi; ox < ow; ox++) DIRECT_EDGE(ox);
        }
    }
}
