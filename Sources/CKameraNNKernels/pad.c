// Zero padding of a 4-D NHWC tensor.
#include "knn_vector.h"

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
