// Max and average pooling (padded cells ignored: TFLite's rule for both), and the spatial
// mean (MEAN over height and width).
#include "knn_vector.h"

KNN_MULTIVERSION
void knn_pool(const float *in, int ih, int iw, int c, int kh, int kw, int sh, int sw, int pad_top, int pad_left,
              int average, float *out, int oy0, int oy1, int ow, knn_activation act) {
    int blocks = (c + KNN_BLOCK - 1) / KNN_BLOCK;
    for (int oy = oy0; oy < oy1; oy++) {
        for (int ox = 0; ox < ow; ox++) {
            float *o = out + ((size_t)oy * ow + ox) * c;
            for (int b = 0; b < blocks; b++) {
                v16 m = splat(average ? 0.0f : -INFINITY);
                int cells = 0;
                for (int ky = 0; ky < kh; ky++) {
                    int iy = oy * sh - pad_top + ky;
                    if (iy < 0 || iy >= ih) continue;
                    for (int kx = 0; kx < kw; kx++) {
                        int ix = ox * sw - pad_left + kx;
                        if (ix < 0 || ix >= iw) continue;
                        v16 v = load16(in + ((size_t)iy * iw + ix) * c + b * KNN_BLOCK);
                        m = average ? m + v : vmax(m, v);
                        cells++;
                    }
                }
                if (average) m = m * splat(cells > 0 ? 1.0f / (float)cells : 0.0f);
                store_n(o + b * KNN_BLOCK, activate(m, act, b), (size_t)(c - b * KNN_BLOCK));
            }
        }
    }
}
