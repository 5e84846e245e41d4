// Average pooling and the spatial mean (MEAN over height and width).
#include "knn_vector.h"

KNN_MULTIVERSION
void knn_average_pool(const float *in, int ih, int iw, int c, int kh, int kw, int sh, int sw,
                      int pad_top, int pad_left, float *out, int oy0, int oy1, int ow, knn_activation act) {
    int blocks = (c + KNN_BLOCK - 1) / KNN_BLOCK;
    for (int oy = oy0; oy < oy1; oy++) {
        for (int ox = 0; ox < ow; ox++) {
            float *o = out + ((size_t)oy * ow + ox) * c;
            for (int b = 0; b < blocks; b++) {
                v16 sum = splat(0);
                int cells = 0;
                for (int ky = 0; ky < kh; ky++) {
                    int iy = oy * sh - pad_top + ky;
                    if (iy < 0 || iy >= ih) continue;
                    for (int kx = 0; kx < kw; kx++) {
                        int ix = ox * sw - pad_left + kx;
                        if (ix < 0 || ix >= iw) continue;
                        sum += load16(in + ((size_t)iy * iw + ix) * c + b * KNN_BLOCK);
                        cells++;
                    }
                }
                // Padded cells are not counted (TFLite's rule).
                v16 mean = sum * splat(cells > 0 ? 1.0f / (float)cells : 0.0f);
                store_n(o + b * KNN_BLOCK, activate(mean, act, b), (size_t)(c - b * KNN_BLOCK));
            }
        }
    }
}

void knn_spatial_mean(const float *in, size_t pixels, size_t channels, float *out) {
    // Double accumulators: a 128×128 map sums 16k values per channel.
    for (size_t k = 0; k < channels; k++) out[k] = 0;
    double sums[KNN_BLOCK];
    for (size_t k0 = 0; k0 < channels; k0 += KNN_BLOCK) {
        size_t n = channels - k0 < KNN_BLOCK ? channels - k0 : KNN_BLOCK;
        for (size_t k = 0; k < n; k++) sums[k] = 0;
        for (size_t p = 0; p < pixels; p++) {
            const float *row = in + p * channels + k0;
            for (size_t k = 0; k < n; k++) sums[k] += row[k];
        }
        for (size_t k = 0; k < n; k++) out[k0 + k] = (float)(sums[k] / (double)pixels);
    }
}
