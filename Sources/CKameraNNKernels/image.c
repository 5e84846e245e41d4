// Image → tensor preparation, in C so the per-pixel work is free of bounds checks and
// conversions the Swift version paid for (it cost as much as the detector model itself).
#include "knn_image.h"
#include <math.h>

// Fuse multiply-adds (one rounding instead of two, and half the instructions): set
// here rather than by a compiler flag, which SwiftPM would refuse in a dependency.
#pragma clang fp contract(fast)

// Built for AVX2 and AVX-512 as well as the baseline, as the model kernels are (FMA for the
// bilinear weights, wider vectors where the compiler finds them); see knn_vector.h.
#if defined(__x86_64__) && defined(__clang__)
#define KNN_IMAGE_MULTIVERSION __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KNN_IMAGE_MULTIVERSION
#endif

KNN_IMAGE_MULTIVERSION
void knn_halve_rgb8(const uint8_t *src, int w, int h, int src_stride, uint8_t *dst, int dst_stride) {
    int ow = w / 2, oh = h / 2;
    for (int y = 0; y < oh; y++) {
        const uint8_t *r0 = src + (size_t)(2 * y) * src_stride, *r1 = r0 + src_stride;
        uint8_t *o = dst + (size_t)y * dst_stride;
        for (int x = 0; x < ow * 3; x += 3) {
            const uint8_t *a = r0 + 2 * x, *b = r1 + 2 * x;
            o[x] = (uint8_t)((a[0] + a[3] + b[0] + b[3] + 2) >> 2);
            o[x + 1] = (uint8_t)((a[1] + a[4] + b[1] + b[4] + 2) >> 2);
            o[x + 2] = (uint8_t)((a[2] + a[5] + b[2] + b[5] + 2) >> 2);
        }
    }
}

KNN_IMAGE_MULTIVERSION
void knn_luma_rgb8(const uint8_t *src, int w, int h, int src_stride, uint8_t *dst, int dst_stride) {
    for (int y = 0; y < h; y++) {
        const uint8_t *restrict p = src + (size_t)y * src_stride;
        uint8_t *restrict o = dst + (size_t)y * dst_stride;
        // Fixed stride and no aliasing: the loop vectorizes (interleaved loads) on AVX2.
        for (int x = 0; x < w; x++) {
            uint32_t r = p[3 * x], g = p[3 * x + 1], b = p[3 * x + 2];
            o[x] = (uint8_t)((r * 19595u + g * 38470u + b * 7471u + 32768u) >> 16);
        }
    }
}

KNN_IMAGE_MULTIVERSION
void knn_sample_rgb8(const uint8_t *src, int w, int h, int stride, float *out, int ow, int oh,
                     float x0, float y0, float dxx, float dxy, float dyx, float dyy, float scale, float offset) {
    for (int ty = 0; ty < oh; ty++) {
        float x = x0 + (float)ty * dyx, y = y0 + (float)ty * dyy;
        for (int tx = 0; tx < ow; tx++, x += dxx, y += dxy, out += 3) {
            // floor without a libm call (baseline x86-64 has no rounding instruction).
            int ix = (int)x, iy = (int)y;
            ix -= x < (float)ix;
            iy -= y < (float)iy;
            float fx = x - (float)ix, fy = y - (float)iy;
            float r = 0, g = 0, b = 0;
            if (ix >= 0 && iy >= 0 && ix + 1 < w && iy + 1 < h) {
                const uint8_t *p = src + (size_t)iy * stride + (size_t)ix * 3, *q = p + stride;
                float w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy;
                r = p[0] * w00 + p[3] * w01 + q[0] * w10 + q[3] * w11;
                g = p[1] * w00 + p[4] * w01 + q[1] * w10 + q[4] * w11;
                b = p[2] * w00 + p[5] * w01 + q[2] * w10 + q[5] * w11;
            } else if (ix >= -1 && iy >= -1 && ix < w && iy < h) {
                // At the border: taps outside the image contribute nothing (BORDER_ZERO).
                for (int dy = 0; dy < 2; dy++) {
                    int yy = iy + dy;
                    if (yy < 0 || yy >= h) continue;
                    float wy = dy ? fy : 1 - fy;
                    for (int dx = 0; dx < 2; dx++) {
                        int xx = ix + dx;
                        if (xx < 0 || xx >= w) continue;
                        float wt = (dx ? fx : 1 - fx) * wy;
                        const uint8_t *p = src + (size_t)yy * stride + (size_t)xx * 3;
                        r += p[0] * wt; g += p[1] * wt; b += p[2] * wt;
                    }
                }
            }
            out[0] = r * scale + offset;
            out[1] = g * scale + offset;
            out[2] = b * scale + offset;
        }
    }
}
