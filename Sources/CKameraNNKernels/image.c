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
#define knn_has_wide_vectors() __builtin_cpu_supports("avx512f")
#else
#define KNN_IMAGE_MULTIVERSION
#define knn_has_wide_vectors() 0
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

typedef float knn_lanes_f __attribute__((ext_vector_type(16)));
typedef float knn_pairs_f __attribute__((ext_vector_type(32)));
typedef int knn_lanes_i __attribute__((ext_vector_type(16)));

// Sixteen tensor pixels of a row along a general (turned) map, when all their taps lie inside
// the image: coordinates, weights and blends as 16-lane vectors, only the loads one by one
// (each pair of horizontal taps as two 4-byte words). Returns 0 (nothing written) when any
// tap falls outside. The same arithmetic as `sample_one`, so a pixel comes out the same
// whichever path took it. Inlined only: a 512-bit vector may not cross a call in the AVX2
// and baseline versions.
static inline __attribute__((always_inline)) int sample_sixteen(const uint8_t *src, int w, int h, int stride,
                                                                 float *out, float xr, float yr, int tx, float dxx,
                                                                 float dxy, float scale, float offset) {
    const knn_lanes_f lanes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    knn_lanes_f t = lanes + (float)tx;
    knn_lanes_f x = xr + t * dxx, y = yr + t * dxy;
    knn_lanes_i ix = __builtin_convertvector(x, knn_lanes_i), iy = __builtin_convertvector(y, knn_lanes_i);
    // floor: truncation rounds negatives up; a true comparison is -1.
    ix += x < __builtin_convertvector(ix, knn_lanes_f);
    iy += y < __builtin_convertvector(iy, knn_lanes_f);
    // ix + 2 < w: the second word of a tap pair ends one byte past the pair.
    knn_lanes_i inside = (ix >= 0) & (iy >= 0) & (ix + 2 < w) & (iy + 1 < h);
    if (!__builtin_reduce_and(inside)) return 0;
    knn_lanes_f fx = x - __builtin_convertvector(ix, knn_lanes_f), fy = y - __builtin_convertvector(iy, knn_lanes_f);
    knn_lanes_i at = iy * stride + ix * 3, top0, top1, bottom0, bottom1;
    for (int k = 0; k < 16; k++) {
        const uint8_t *p = src + at[k];
        uint32_t v;
        __builtin_memcpy(&v, p, 4), top0[k] = (int)v;
        __builtin_memcpy(&v, p + 3, 4), top1[k] = (int)v;
        __builtin_memcpy(&v, p + stride, 4), bottom0[k] = (int)v;
        __builtin_memcpy(&v, p + stride + 3, 4), bottom1[k] = (int)v;
    }
    knn_lanes_f channel[3];
    for (int c = 0; c < 3; c++) {
        knn_lanes_f p00 = __builtin_convertvector((top0 >> (8 * c)) & 255, knn_lanes_f);
        knn_lanes_f p01 = __builtin_convertvector((top1 >> (8 * c)) & 255, knn_lanes_f);
        knn_lanes_f p10 = __builtin_convertvector((bottom0 >> (8 * c)) & 255, knn_lanes_f);
        knn_lanes_f p11 = __builtin_convertvector((bottom1 >> (8 * c)) & 255, knn_lanes_f);
        knn_lanes_f left = p00 + (p10 - p00) * fy, right = p01 + (p11 - p01) * fy;
        channel[c] = (left + (right - left) * fx) * scale + offset;
    }
    // Interleave to R G B R G B …: red and green paired, then blue slotted in.
    knn_pairs_f rg = __builtin_shufflevector(channel[0], channel[1], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7,
                                             23, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    knn_pairs_f bb = __builtin_shufflevector(channel[2], channel[2], 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                                             15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    knn_lanes_f first = __builtin_shufflevector(rg, bb, 0, 1, 32, 2, 3, 33, 4, 5, 34, 6, 7, 35, 8, 9, 36, 10);
    knn_lanes_f second = __builtin_shufflevector(rg, bb, 11, 37, 12, 13, 38, 14, 15, 39, 16, 17, 40, 18, 19, 41, 20, 21);
    knn_lanes_f third = __builtin_shufflevector(rg, bb, 42, 22, 23, 43, 24, 25, 44, 26, 27, 45, 28, 29, 46, 30, 31, 47);
    __builtin_memcpy(out, &first, sizeof first);
    __builtin_memcpy(out + 16, &second, sizeof second);
    __builtin_memcpy(out + 32, &third, sizeof third);
    return 1;
}

// One tensor pixel along a general map (taps outside the image count as zero).
static inline __attribute__((always_inline)) void sample_one(const uint8_t *src, int w, int h, int stride, float *out,
                                                              float x, float y, float scale, float offset) {
    // floor without a libm call (baseline x86-64 has no rounding instruction).
    int ix = (int)x, iy = (int)y;
    ix -= x < (float)ix;
    iy -= y < (float)iy;
    float fx = x - (float)ix, fy = y - (float)iy;
    float r = 0, g = 0, b = 0;
    if (ix >= 0 && iy >= 0 && ix + 1 < w && iy + 1 < h) {
        const uint8_t *p = src + (size_t)iy * stride + (size_t)ix * 3, *q = p + stride;
        float r0 = p[0] + (q[0] - p[0]) * fy, r1 = p[3] + (q[3] - p[3]) * fy;
        float g0 = p[1] + (q[1] - p[1]) * fy, g1 = p[4] + (q[4] - p[4]) * fy;
        float b0 = p[2] + (q[2] - p[2]) * fy, b1 = p[5] + (q[5] - p[5]) * fy;
        r = r0 + (r1 - r0) * fx;
        g = g0 + (g1 - g0) * fx;
        b = b0 + (b1 - b0) * fx;
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

KNN_IMAGE_MULTIVERSION
void knn_sample_rgb8(const uint8_t *src, int w, int h, int stride, float *out, int ow, int oh,
                     float x0, float y0, float dxx, float dxy, float dyx, float dyy, float scale, float offset) {
    if (dxy == 0 && dyx == 0 && sample_axis_aligned(src, w, h, stride, out, ow, oh, x0, y0, dxx, dyy, scale, offset))
        return;
    // Sixteen lanes where they are one register (AVX-512) and the offsets fit an int (images
    // up to 2 GB). On AVX2 the same code, and an 8-lane version of it, ran slower than the
    // scalar loop, so there and on the baseline every pixel takes `sample_one`.
    const int vectors = knn_has_wide_vectors() && (double)h * stride < 2147483647.0;
    for (int ty = 0; ty < oh; ty++) {
        float xr = x0 + (float)ty * dyx, yr = y0 + (float)ty * dyy;
        float *row = out + (size_t)ty * ow * 3;
        int tx = 0;
        for (; vectors && tx + 16 <= ow; tx += 16) {
            if (sample_sixteen(src, w, h, stride, row + 3 * tx, xr, yr, tx, dxx, dxy, scale, offset)) continue;
            for (int k = tx; k < tx + 16; k++)
                sample_one(src, w, h, stride, row + 3 * k, xr + (float)k * dxx, yr + (float)k * dxy, scale, offset);
        }
        for (; tx < ow; tx++)
            sample_one(src, w, h, stride, row + 3 * tx, xr + (float)tx * dxx, yr + (float)tx * dxy, scale, offset);
    }
}
