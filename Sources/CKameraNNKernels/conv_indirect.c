// Convolution as a GEMM whose left-hand rows are read in place (XNNPACK's "indirect GEMM").
#include "knn_vector.h"

// im2col copies every input pixel kh·kw times into a matrix before the GEMM reads it: for a
// 3×3 convolution of 96 channels on a 248×184 map that is 158 MB written and read again per
// layer, most of the time PP-OCR's detector spent in its 3×3 layers. Here each tile of six
// output pixels keeps, per tap, a pointer to the input pixel it reads (or to a row of zeros
// outside the image), and the multiply-adds walk the input where it lies. The packed
// weights are the im2col GEMM's ([kh·kw·c][16] per block of 16 outputs), so both paths share
// one packing.

#define TILE 6

// Pointers for output pixels p .. p+TILE-1 (the last repeated past `count`), tap-major:
// rows[t * TILE + r] is tap t of row r.
static inline void tile_rows(const float *in, int ih, int iw, int c, int kh, int kw, int sh, int sw, int dh, int dw,
                             int pad_top, int pad_left, int ow, size_t p, int count, const float *zeros,
                             const float **rows) {
    for (int r = 0; r < TILE; r++) {
        size_t pixel = p + (size_t)(r < count ? r : count - 1);
        int oy = (int)(pixel / (size_t)ow), ox = (int)(pixel % (size_t)ow);
        int iy0 = oy * sh - pad_top, ix0 = ox * sw - pad_left;
        for (int ky = 0; ky < kh; ky++) {
            int iy = iy0 + ky * dh;
            for (int kx = 0; kx < kw; kx++) {
                int ix = ix0 + kx * dw;
                int inside = iy >= 0 && iy < ih && ix >= 0 && ix < iw;
                rows[(ky * kw + kx) * TILE + r] = inside ? in + ((size_t)iy * iw + ix) * c : zeros;
            }
        }
    }
}

KNN_MULTIVERSION
void knn_conv_indirect(const float *in, int ih, int iw, int c, int kh, int kw, int sh, int sw, int dh, int dw,
                       int pad_top, int pad_left, const float *packed, const float *bias, size_t n, float *out,
                       int ow, size_t p0, size_t p1, const float *zeros, knn_activation act) {
    const int taps = kh * kw;
    const size_t k = (size_t)taps * c;
    const float *rows[KNN_INDIRECT_MAX_TAPS * TILE];
    size_t blocks = (n + KNN_BLOCK - 1) / KNN_BLOCK;
    size_t b = 0;
    // Two column blocks per tile only with 32 vector registers (AVX-512), as in knn_gemm.
    const int wide = knn_has_wide_vectors();
    for (; wide && b + 2 <= blocks; b += 2) {
        const float *w0 = packed + b * k * KNN_BLOCK, *w1 = w0 + k * KNN_BLOCK;
        v16 bias0 = load16(bias + b * KNN_BLOCK), bias1 = load16(bias + (b + 1) * KNN_BLOCK);
        size_t n1 = n - (b + 1) * KNN_BLOCK;
        for (size_t p = p0; p < p1; p += TILE) {
            int count = p1 - p < TILE ? (int)(p1 - p) : TILE;
            tile_rows(in, ih, iw, c, kh, kw, sh, sw, dh, dw, pad_top, pad_left, ow, p, count, zeros, rows);
            v16 c00 = bias0, c01 = bias1, c10 = bias0, c11 = bias1, c20 = bias0, c21 = bias1;
            v16 c30 = bias0, c31 = bias1, c40 = bias0, c41 = bias1, c50 = bias0, c51 = bias1;
            for (int t = 0; t < taps; t++) {
                const float *a0 = rows[t * TILE], *a1 = rows[t * TILE + 1], *a2 = rows[t * TILE + 2];
                const float *a3 = rows[t * TILE + 3], *a4 = rows[t * TILE + 4], *a5 = rows[t * TILE + 5];
                const float *x0p = w0 + (size_t)t * c * KNN_BLOCK, *x1p = w1 + (size_t)t * c * KNN_BLOCK;
                for (int i = 0; i < c; i++) {
                    v16 x0 = load16(x0p + i * KNN_BLOCK), x1 = load16(x1p + i * KNN_BLOCK);
                    v16 s;
                    s = splat(a0[i]); c00 += s * x0; c01 += s * x1;
                    s = splat(a1[i]); c10 += s * x0; c11 += s * x1;
                    s = splat(a2[i]); c20 += s * x0; c21 += s * x1;
                    s = splat(a3[i]); c30 += s * x0; c31 += s * x1;
                    s = splat(a4[i]); c40 += s * x0; c41 += s * x1;
                    s = splat(a5[i]); c50 += s * x0; c51 += s * x1;
                }
            }
            float *o = out + p * n + b * KNN_BLOCK;
            store16(o, activate(c00, act, b)); store_n(o + KNN_BLOCK, activate(c01, act, b + 1), n1);
            if (count > 1) { o += n; store16(o, activate(c10, act, b)); store_n(o + KNN_BLOCK, activate(c11, act, b + 1), n1); }
            if (count > 2) { o += n; store16(o, activate(c20, act, b)); store_n(o + KNN_BLOCK, activate(c21, act, b + 1), n1); }
            if (count > 3) { o += n; store16(o, activate(c30, act, b)); store_n(o + KNN_BLOCK, activate(c31, act, b + 1), n1); }
            if (count > 4) { o += n; store16(o, activate(c40, act, b)); store_n(o + KNN_BLOCK, activate(c41, act, b + 1), n1); }
            if (count > 5) { o += n; store16(o, activate(c50, act, b)); store_n(o + KNN_BLOCK, activate(c51, act, b + 1), n1); }
        }
    }
    for (; b < blocks; b++) {
        const float *w0 = packed + b * k * KNN_BLOCK;
        v16 bias0 = load16(bias + b * KNN_BLOCK);
        size_t n0 = n - b * KNN_BLOCK;
        for (size_t p = p0; p < p1; p += TILE) {
            int count = p1 - p < TILE ? (int)(p1 - p) : TILE;
            tile_rows(in, ih, iw, c, kh, kw, sh, sw, dh, dw, pad_top, pad_left, ow, p, count, zeros, rows);
            v16 c0 = bias0, c1 = bias0, c2 = bias0, c3 = bias0, c4 = bias0, c5 = bias0;
            for (int t = 0; t < taps; t++) {
                const float *a0 = rows[t * TILE], *a1 = rows[t * TILE + 1], *a2 = rows[t * TILE + 2];
                const float *a3 = rows[t * TILE + 3], *a4 = rows[t * TILE + 4], *a5 = rows[t * TILE + 5];
                const float *x0p = w0 + (size_t)t * c * KNN_BLOCK;
                for (int i = 0; i < c; i++) {
                    v16 x0 = load16(x0p + i * KNN_BLOCK);
                    c0 += splat(a0[i]) * x0; c1 += splat(a1[i]) * x0; c2 += splat(a2[i]) * x0;
                    c3 += splat(a3[i]) * x0; c4 += splat(a4[i]) * x0; c5 += splat(a5[i]) * x0;
                }
            }
            float *o = out + p * n + b * KNN_BLOCK;
            store_n(o, activate(c0, act, b), n0);
            if (count > 1) store_n(o + n, activate(c1, act, b), n0);
            if (count > 2) store_n(o + 2 * n, activate(c2, act, b), n0);
            if (count > 3) store_n(o + 3 * n, activate(c3, act, b), n0);
            if (count > 4) store_n(o + 4 * n, activate(c4, act, b), n0);
            if (count > 5) store_n(o + 5 * n, activate(c5, act, b), n0);
        }
    }
}
