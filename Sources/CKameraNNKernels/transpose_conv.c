// Transposed convolution whose kernel equals its stride (MediaPipe's
// Convolution2DTransposeBias in its segmentation models): every input pixel spreads into its
// own kh×kw block of the output, with no overlap and no padding.
#include "knn_vector.h"

void knn_transpose_conv_blocks(const float *in, int ih, int iw, int c, const float *weights, const float *bias,
                               int oc, int kh, int kw, float *out, int oy0, int oy1) {
    const int ow = iw * kw;
    for (int y = oy0; y < oy1; y++) {
        for (int x = 0; x < iw; x++) {
            const float *pixel = in + ((size_t)y * iw + x) * c;
            for (int dy = 0; dy < kh; dy++) {
                for (int dx = 0; dx < kw; dx++) {
                    float *o = out + ((size_t)(y * kh + dy) * ow + (x * kw + dx)) * oc;
                    for (int k = 0; k < oc; k++) {
                        const float *w = weights + (((size_t)k * kh + dy) * kw + dx) * c;
                        float sum = bias[k];
                        for (int i = 0; i < c; i++) sum += pixel[i] * w[i];
                        o[k] = sum;
                    }
                }
            }
        }
    }
}
