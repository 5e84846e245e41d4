// MEAN over height and width, per channel.
#include "knn_vector.h"

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
