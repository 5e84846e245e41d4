// MEAN over height and width, per channel.
#include "knn_vector.h"

// Sixteen channels at a time in float vectors, summed in runs of 256 pixels that are then
// added in double: a 128×128 map sums 16k values per channel, and one float running sum
// over all of them would lose the low digits.
#define MEAN_RUN 256

KNN_MULTIVERSION
void knn_spatial_mean(const float *in, size_t pixels, size_t channels, float *out) {
    for (size_t k0 = 0; k0 < channels; k0 += KNN_BLOCK) {
        size_t n = channels - k0 < KNN_BLOCK ? channels - k0 : KNN_BLOCK;
        double sums[KNN_BLOCK] = {0};
        for (size_t p0 = 0; p0 < pixels; p0 += MEAN_RUN) {
            size_t p1 = p0 + MEAN_RUN < pixels ? p0 + MEAN_RUN : pixels;
            v16 run = splat(0);
            // Whole 16-lane loads read past the last channel into the next pixel or the
            // buffer's slack; those lanes are never stored.
            for (size_t p = p0; p < p1; p++) run += load16(in + p * channels + k0);
            for (size_t k = 0; k < n; k++) sums[k] += run[k];
        }
        for (size_t k = 0; k < n; k++) out[k0 + k] = (float)(sums[k] / (double)pixels);
    }
}
