// GEMM with a packed, channel-blocked right-hand side: pointwise convolutions, transposed
// convolutions and the ONNX tail's matrix products.
#include "knn_vector.h"

// Micro-tile: 6 rows × 32 columns = 12 accumulators, each k step two weight loads and six
// broadcasts (folded into the FMAs on AVX-512) for twelve FMAs.
#define MR 6

// The six rows of the tile starting at row r, the last of `count` repeated past it: a last
// partial tile runs the full tile's code (its extra rows are computed and not stored), which
// costs less than rows taken one at a time, whose single accumulator chain waits on each FMA.
static inline __attribute__((always_inline)) void tile_rows(const float *a, size_t r, int count, size_t a_stride,
                                                            const float **a0, const float **a1, const float **a2,
                                                            const float **a3, const float **a4, const float **a5) {
    const float *last = a + (r + (size_t)count - 1) * a_stride;
    *a0 = a + r * a_stride;
    *a1 = count > 1 ? *a0 + a_stride : last;
    *a2 = count > 2 ? *a1 + a_stride : last;
    *a3 = count > 3 ? *a2 + a_stride : last;
    *a4 = count > 4 ? *a3 + a_stride : last;
    *a5 = count > 5 ? *a4 + a_stride : last;
}

// The accumulator `c` of row `row`, column block `blk`, plus the residual there (as many
// values a row as the output, or fewer where the skip connection's channels were padded with
// zeros, BlazeFace; `residual_block`, knn_vector.h).
#define RESIDUAL(c, row, blk)                                                                  \
    (residual && (size_t)(blk) * KNN_BLOCK < residual_channels                                  \
         ? (c) + residual_block(residual + (row) * residual_channels + (size_t)(blk) * KNN_BLOCK, \
                                residual_channels - (size_t)(blk) * KNN_BLOCK)                   \
         : (c))

// Rows [0, rows) for every column block, with or without a residual: inlined into each entry
// point, so the one without keeps no trace of it.
static inline __attribute__((always_inline)) void gemm_panel(const float *a, size_t rows, size_t k, size_t a_stride,
                                                             const float *packed, const float *bias, size_t n,
                                                             float *out, size_t out_stride, const float *residual,
                                                             size_t residual_channels, knn_activation act) {
    size_t blocks = (n + KNN_BLOCK - 1) / KNN_BLOCK;
    size_t b = 0;
    // Two column blocks per tile (12 accumulators) only where they fit in registers: 12
    // zmm on AVX-512. On AVX2 each 16-lane accumulator is two ymm, so 24 of 16 registers
    // would spill every k step (measured 1.8x slower than LiteRT on an AVX2 EPYC); there
    // the one-block tile (6 accumulators = 12 ymm) runs for every block.
    const int wide = knn_has_wide_vectors();
    for (; wide && b + 2 <= blocks; b += 2) {
        const float *w0 = packed + b * k * KNN_BLOCK, *w1 = w0 + k * KNN_BLOCK;
        v16 bias0 = load16(bias + b * KNN_BLOCK), bias1 = load16(bias + (b + 1) * KNN_BLOCK);
        size_t n1 = n - (b + 1) * KNN_BLOCK;
        for (size_t r = 0; r < rows; r += MR) {
            const int count = rows - r < MR ? (int)(rows - r) : MR;
            v16 c00 = bias0, c01 = bias1, c10 = bias0, c11 = bias1, c20 = bias0, c21 = bias1;
            v16 c30 = bias0, c31 = bias1, c40 = bias0, c41 = bias1, c50 = bias0, c51 = bias1;
            const float *a0, *a1, *a2, *a3, *a4, *a5;
            tile_rows(a, r, count, a_stride, &a0, &a1, &a2, &a3, &a4, &a5);
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
            store16(o, activate(RESIDUAL(c00, r + 0, b), act, b));
            store_n(o + KNN_BLOCK, activate(RESIDUAL(c01, r + 0, b + 1), act, b + 1), n1); o += out_stride;
            if (count < 2) continue;
            store16(o, activate(RESIDUAL(c10, r + 1, b), act, b));
            store_n(o + KNN_BLOCK, activate(RESIDUAL(c11, r + 1, b + 1), act, b + 1), n1); o += out_stride;
            if (count < 3) continue;
            store16(o, activate(RESIDUAL(c20, r + 2, b), act, b));
            store_n(o + KNN_BLOCK, activate(RESIDUAL(c21, r + 2, b + 1), act, b + 1), n1); o += out_stride;
            if (count < 4) continue;
            store16(o, activate(RESIDUAL(c30, r + 3, b), act, b));
            store_n(o + KNN_BLOCK, activate(RESIDUAL(c31, r + 3, b + 1), act, b + 1), n1); o += out_stride;
            if (count < 5) continue;
            store16(o, activate(RESIDUAL(c40, r + 4, b), act, b));
            store_n(o + KNN_BLOCK, activate(RESIDUAL(c41, r + 4, b + 1), act, b + 1), n1); o += out_stride;
            if (count < 6) continue;
            store16(o, activate(RESIDUAL(c50, r + 5, b), act, b));
            store_n(o + KNN_BLOCK, activate(RESIDUAL(c51, r + 5, b + 1), act, b + 1), n1);
        }
    }
    for (; b < blocks; b++) {
        const float *w0 = packed + b * k * KNN_BLOCK;
        v16 bias0 = load16(bias + b * KNN_BLOCK);
        size_t n0 = n - b * KNN_BLOCK;
        for (size_t r = 0; r < rows; r += MR) {
            const int count = rows - r < MR ? (int)(rows - r) : MR;
            v16 c0 = bias0, c1 = bias0, c2 = bias0, c3 = bias0, c4 = bias0, c5 = bias0;
            const float *a0, *a1, *a2, *a3, *a4, *a5;
            tile_rows(a, r, count, a_stride, &a0, &a1, &a2, &a3, &a4, &a5);
            for (size_t i = 0; i < k; i++) {
                v16 x0 = load16(w0 + i * KNN_BLOCK);
                c0 += splat(a0[i]) * x0; c1 += splat(a1[i]) * x0; c2 += splat(a2[i]) * x0;
                c3 += splat(a3[i]) * x0; c4 += splat(a4[i]) * x0; c5 += splat(a5[i]) * x0;
            }
            float *o = out + r * out_stride + b * KNN_BLOCK;
            store_n(o, activate(RESIDUAL(c0, r + 0, b), act, b), n0); o += out_stride;
            if (count < 2) continue;
            store_n(o, activate(RESIDUAL(c1, r + 1, b), act, b), n0); o += out_stride;
            if (count < 3) continue;
            store_n(o, activate(RESIDUAL(c2, r + 2, b), act, b), n0); o += out_stride;
            if (count < 4) continue;
            store_n(o, activate(RESIDUAL(c3, r + 3, b), act, b), n0); o += out_stride;
            if (count < 5) continue;
            store_n(o, activate(RESIDUAL(c4, r + 4, b), act, b), n0); o += out_stride;
            if (count < 6) continue;
            store_n(o, activate(RESIDUAL(c5, r + 5, b), act, b), n0);
        }
    }
}

// Rows per panel: every column block runs over a panel before the next, so the panel's rows
// of `a` (at most 192 × k floats: 96 KiB at k = 128) are read from cache by all but the first.
// A whole 112×112 feature map at once is 12,544 rows, megabytes, read again for each pair of
// column blocks. (On a Xeon with 2 MiB of L2 a core this gained 2 % on BlazePose's detector;
// it is for smaller caches, such as the 512 KiB of an AMD EPYC's, where it was not measured.)
#define PANEL_ROWS (32 * MR)

static inline __attribute__((always_inline)) void gemm(const float *a, size_t rows, size_t k, size_t a_stride,
                                                       const float *packed, const float *bias, size_t n, float *out,
                                                       size_t out_stride, const float *residual, size_t residual_channels,
                                                       knn_activation act) {
    for (size_t r = 0; r < rows; r += PANEL_ROWS) {
        size_t count = rows - r < PANEL_ROWS ? rows - r : PANEL_ROWS;
        gemm_panel(a + r * a_stride, count, k, a_stride, packed, bias, n, out + r * out_stride, out_stride,
                   residual ? residual + r * residual_channels : residual, residual_channels, act);
    }
}

KNN_MULTIVERSION
void knn_gemm(const float *a, size_t rows, size_t k, size_t a_stride,
              const float *packed, const float *bias, size_t n,
              float *out, size_t out_stride, knn_activation act) {
    gemm(a, rows, k, a_stride, packed, bias, n, out, out_stride, 0, 0, act);
}

KNN_MULTIVERSION
void knn_gemm_residual(const float *a, size_t rows, size_t k, size_t a_stride,
                       const float *packed, const float *bias, size_t n,
                       float *out, size_t out_stride, const float *residual, size_t residual_channels,
                       knn_activation act) {
    gemm(a, rows, k, a_stride, packed, bias, n, out, out_stride, residual, residual_channels, act);
}
