// Zero padding of a 4-D NHWC tensor.
#include "knn_vector.h"

void knn_pad(const float *in, const int in_shape[4], const int before[4], const int out_shape[4], float *out) {
    // Each output element is written once: zeros only where the input does not land (a
    // memset of the whole output first wrote the channel-padded blocks of BlazePose twice).
    const size_t channels = (size_t)out_shape[3], row = (size_t)out_shape[2] * channels;
    const size_t plane = (size_t)out_shape[1] * row;
    const size_t head = (size_t)before[3], tail = channels - head - (size_t)in_shape[3];
    for (int n = 0; n < out_shape[0]; n++) {
        float *image = out + (size_t)n * plane;
        int sn = n - before[0];
        if (sn < 0 || sn >= in_shape[0]) {
            memset(image, 0, plane * sizeof(float));
            continue;
        }
        for (int y = 0; y < out_shape[1]; y++) {
            float *line = image + (size_t)y * row;
            int sy = y - before[1];
            if (sy < 0 || sy >= in_shape[1]) {
                memset(line, 0, row * sizeof(float));
                continue;
            }
            memset(line, 0, (size_t)before[2] * channels * sizeof(float));
            const float *src = in + (((size_t)sn * in_shape[1] + sy) * in_shape[2]) * in_shape[3];
            float *dst = line + (size_t)before[2] * channels;
            if (head == 0 && tail == 0) {
                memcpy(dst, src, (size_t)in_shape[2] * channels * sizeof(float));
                dst += (size_t)in_shape[2] * channels;
            } else {
                for (int x = 0; x < in_shape[2]; x++) {
                    if (head) memset(dst, 0, head * sizeof(float));
                    memcpy(dst + head, src, (size_t)in_shape[3] * sizeof(float));
                    if (tail) memset(dst + head + in_shape[3], 0, tail * sizeof(float));
                    src += in_shape[3];
                    dst += channels;
                }
            }
            memset(dst, 0, (size_t)(out_shape[2] - before[2] - in_shape[2]) * channels * sizeof(float));
        }
    }
}
