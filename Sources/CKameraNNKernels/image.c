// Image → tensor preparation, in C so the per-pixel work is free of bounds checks and
// conversions the Swift version paid for (it cost as much as the detector model itself).
#include "knn_image.h"
#include <math.h>
#include <stdlib.h>

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

// out[i] = in[i] + in[i + reach]: one channel's totals of neighbouring pixel groups added
// pairwise. A function of its own so `restrict` tells the compiler the buffers are apart.
static inline __attribute__((always_inline)) void add_pairwise(const uint16_t *restrict in, uint16_t *restrict out,
                                                                int count, int reach) {
    for (int i = 0; i < count; i++) out[i] = (uint16_t)(in[i] + in[i + reach]);
}

KNN_IMAGE_MULTIVERSION
int knn_reduce_rgb8(const uint8_t *src, int w, int h, int src_stride, int factor, uint8_t *dst, int dst_stride) {
    if (factor < 1 || factor > KNN_REDUCE_MAX_FACTOR || (factor & (factor - 1)) != 0) return -1;
    int ow = w / factor, oh = h / factor, row = ow * factor * 3;
    if (ow == 0 || oh == 0) return 0;
    // Loops the compiler vectorizes (the old per-pixel 2×2 loop did not): each output row's
    // `factor` source rows are summed into 16-bit column totals, then neighbouring pixels'
    // totals are added pairwise log2(factor) times between two buffers (same channel, 3·span
    // apart), so the output reads one total per channel. Sums of up to 16 × 16 bytes fit 16 bits.
    uint16_t *buffers = malloc((size_t)row * 2 * sizeof(uint16_t));
    if (!buffers) return -1;
    int shift = 2 * __builtin_ctz((unsigned)factor);
    uint32_t half = (1u << shift) >> 1;
    for (int y = 0; y < oh; y++) {
        uint16_t *sums = buffers, *other = buffers + row;
        const uint8_t *p = src + (size_t)y * factor * src_stride;
        for (int i = 0; i < row; i++) sums[i] = p[i];
        for (int k = 1; k < factor; k++) {
            p = src + (size_t)(y * factor + k) * src_stride;
            for (int i = 0; i < row; i++) sums[i] = (uint16_t)(sums[i] + p[i]);
        }
        for (int span = 1; span < factor; span *= 2) {
            add_pairwise(sums, other, row - 3 * span, 3 * span);
            uint16_t *swap = sums;
            sums = other;
            other = swap;
        }
        uint8_t *o = dst + (size_t)y * dst_stride;
        for (int x = 0; x < ow; x++) {
            const uint16_t *t = sums + (size_t)x * factor * 3;
            o[3 * x] = (uint8_t)((t[0] + half) >> shift);
            o[3 * x + 1] = (uint8_t)((t[1] + half) >> shift);
            o[3 * x + 2] = (uint8_t)((t[2] + half) >> shift);
        }
    }
    free(buffers);
    return 0;
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

// One bilinear sample whose taps may fall outside the image: those contribute nothing
// (BORDER_ZERO, MediaPipe's letterbox), into rgb.
static inline __attribute__((always_inline)) void sample_at_border(const uint8_t *src, int w, int h, int stride,
                                                                    int ix, int iy, float fx, float fy, float rgb[3]) {
    for (int dy = 0; dy < 2; dy++) {
        int yy = iy + dy;
        if (yy < 0 || yy >= h) continue;
        float wy = dy ? fy : 1 - fy;
        for (int dx = 0; dx < 2; dx++) {
            int xx = ix + dx;
            if (xx < 0 || xx >= w) continue;
            float wt = (dx ? fx : 1 - fx) * wy;
            const uint8_t *p = src + (size_t)yy * stride + (size_t)xx * 3;
            rgb[0] += p[0] * wt;
            rgb[1] += p[1] * wt;
            rgb[2] += p[2] * wt;
        }
    }
}

// Bilinear sampling along an axis-aligned map: every tensor row reads the same two source
// rows and every column the same two source columns, so taps and weights are worked out
// once per column instead of once per pixel (whole-image looks, tiles and live frames).
// Returns 0 when the map is not axis-aligned or the tensor is wider than the tables.
enum { KNN_SAMPLE_MAX_COLUMNS = 1024 };
static inline __attribute__((always_inline)) int sample_axis_aligned(const uint8_t *src, int w, int h, int stride,
                                                                     float *out, int ow, int oh, float x0, float y0,
                                                                     float dxx, float dyy, float scale, float offset) {
    if (ow > KNN_SAMPLE_MAX_COLUMNS) return 0;
    int column[KNN_SAMPLE_MAX_COLUMNS];
    float right[KNN_SAMPLE_MAX_COLUMNS];
    int first = ow, last = -1;  // columns whose two taps are both inside the image
    for (int tx = 0; tx < ow; tx++) {
        float x = x0 + (float)tx * dxx;
        int ix = (int)x;
        ix -= x < (float)ix;
        column[tx] = ix;
        right[tx] = x - (float)ix;
        if (ix >= 0 && ix + 1 < w) {
            if (first == ow) first = tx;
            last = tx;
        }
    }
    for (int ty = 0; ty < oh; ty++) {
        float y = y0 + (float)ty * dyy;
        int iy = (int)y;
        iy -= y < (float)iy;
        float fy = y - (float)iy;
        float *o = out + (size_t)ty * ow * 3;
        // Rows partly outside the image take per-tap checks; so do columns outside [first, last].
        int inside = iy >= 0 && iy + 1 < h;
        for (int tx = 0; tx < ow; tx++, o += 3) {
            if (inside && tx >= first && tx <= last) {
                const uint8_t *p = src + (size_t)iy * stride + (size_t)column[tx] * 3, *q = p + stride;
                float fx = right[tx];
                // Interpolate down the two columns first, then across: five multiplies per channel pair.
                float r0 = p[0] + (q[0] - p[0]) * fy, r1 = p[3] + (q[3] - p[3]) * fy;
                float g0 = p[1] + (q[1] - p[1]) * fy, g1 = p[4] + (q[4] - p[4]) * fy;
                float b0 = p[2] + (q[2] - p[2]) * fy, b1 = p[5] + (q[5] - p[5]) * fy;
                o[0] = (r0 + (r1 - r0) * fx) * scale + offset;
                o[1] = (g0 + (g1 - g0) * fx) * scale + offset;
                o[2] = (b0 + (b1 - b0) * fx) * scale + offset;
                continue;
            }
            float rgb[3] = {0, 0, 0};
            sample_at_border(src, w, h, stride, column[tx], iy, right[tx], fy, rgb);
            o[0] = rgb[0] * scale + offset;
            o[1] = rgb[1] * scale + offset;
            o[2] = rgb[2] * scale + offset;
        }
    }
    return 1;
}

KNN_IMAGE_MULTIVERSION
void knn_sample_rgb8(const uint8_t *src, int w, int h, int stride, float *out, int ow, int oh,
                     float x0, float y0, float dxx, float dxy, float dyx, float dyy, float scale, float offset) {
    if (dxy == 0 && dyx == 0 && sample_axis_aligned(src, w, h, stride, out, ow, oh, x0, y0, dxx, dyy, scale, offset))
        return;
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
                float rgb[3] = {0, 0, 0};
                sample_at_border(src, w, h, stride, ix, iy, fx, fy, rgb);
                r = rgb[0];
                g = rgb[1];
                b = rgb[2];
            }
            out[0] = r * scale + offset;
            out[1] = g * scale + offset;
            out[2] = b * scale + offset;
        }
    }
}
