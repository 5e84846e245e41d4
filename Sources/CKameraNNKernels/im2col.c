// im2col: receptive fields as rows, so a K×K convolution is one GEMM.
#include "knn_vector.h"

// --- im2col ------------------------------------------------------------------
KNN_MULTIVERSION
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
