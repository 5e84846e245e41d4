// DEPTH_TO_SPACE: channels into spatial blocks.
#include <string.h>

#include "knn_vector.h"

void knn_depth_to_space(const float *in, int h, int w, int c, int block, float *out) {
    const int oc = c / (block * block), ow = w * block;
    // Output pixel (y·b + dy, x·b + dx) takes input channels [(dy·b + dx)·oc, +oc) of (y, x).
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const float *pixel = in + ((size_t)y * w + x) * c;
            for (int dy = 0; dy < block; dy++)
                for (int dx = 0; dx < block; dx++)
                    memcpy(out + ((size_t)(y * block + dy) * ow + (x * block + dx)) * oc, pixel + (dy * block + dx) * oc,
                           sizeof(float) * (size_t)oc);
        }
}
