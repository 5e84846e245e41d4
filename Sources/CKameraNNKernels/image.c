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
#if defined(KNN_FORCE_AVX2)
#define KNN_IMAGE_MULTIVERSION __attribute__((target("arch=x86-64-v3")))
#else
#define KNN_IMAGE_MULTIVERSION __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
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

// A sample position held within two pixels of the image (a NaN goes to the low side): past
// that every tap reads the same (zero, or the edge pixel), and the int conversions below stay
// defined for positions a broken map put anywhere.
static inline __attribute__((always_inline)) float near_image(float v, int size) {
    if (!(v >= -2.0f)) return -2.0f;
    return v > (float)size + 1.0f ? (float)size + 1.0f : v;
}

// One bilinear sample whose taps may fall outside the image, into rgb: those contribute
// nothing (BORDER_ZERO, MediaPipe's letterbox), or with `replicate` read the nearest edge
// pixel (BORDER_REPLICATE, MediaPipe's landmark crops).
static inline __attribute__((always_inline)) void sample_at_border(const uint8_t *src, int w, int h, int stride,
                                                                    int ix, int iy, float fx, float fy, int replicate,
                                                                    float rgb[3]) {
    for (int dy = 0; dy < 2; dy++) {
        int yy = iy + dy;
        if (replicate) yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
        if (yy < 0 || yy >= h) continue;
        float wy = dy ? fy : 1 - fy;
        for (int dx = 0; dx < 2; dx++) {
            int xx = ix + dx;
            if (replicate) xx = xx < 0 ? 0 : xx >= w ? w - 1 : xx;
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
                                                                     float dxx, float dyy, float scale, float offset,
                                                                     int replicate) {
    if (ow > KNN_SAMPLE_MAX_COLUMNS) return 0;
    int column[KNN_SAMPLE_MAX_COLUMNS];
    float right[KNN_SAMPLE_MAX_COLUMNS];
    int first = ow, last = -1;  // columns whose two taps are both inside the image
    for (int tx = 0; tx < ow; tx++) {
        float x = near_image(x0 + (float)tx * dxx, w);
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
        float y = near_image(y0 + (float)ty * dyy, h);
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
            sample_at_border(src, w, h, stride, column[tx], iy, right[tx], fy, replicate, rgb);
            o[0] = rgb[0] * scale + offset;
            o[1] = rgb[1] * scale + offset;
            o[2] = rgb[2] * scale + offset;
        }
    }
    return 1;
}

#if defined(__x86_64__) && defined(__clang__)
#include "knn_image_taps.h"
// Eight tensor pixels of a row along a general (turned) map, when all their taps lie inside
// the image: coordinates, weights and blends in AVX2 registers, each pair of horizontal taps
// gathered as two 4-byte words. Returns 0 (nothing written) when any tap falls outside. The
// same arithmetic as `sample_one` in the AVX2 and AVX-512 builds (fused multiply-adds), so a
// pixel comes out the same whichever path took it. Not inlined (its own target): only
// pointers and scalars cross the call.
__attribute__((target("avx2,fma"))) static int sample_eight(const uint8_t *src, int w, int h, int stride, float *out,
                                                             float xr, float yr, int tx, float dxx, float dxy,
                                                             float scale, float offset) {
    __m256 t = _mm256_add_ps(_mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_ps((float)tx));
    __m256 x = _mm256_fmadd_ps(t, _mm256_set1_ps(dxx), _mm256_set1_ps(xr));
    __m256 y = _mm256_fmadd_ps(t, _mm256_set1_ps(dxy), _mm256_set1_ps(yr));
    __m256 left = _mm256_floor_ps(x), top = _mm256_floor_ps(y);
    __m256i ix = _mm256_cvttps_epi32(left), iy = _mm256_cvttps_epi32(top);
    if (knn_taps_outside(ix, iy, w, h)) return 0;
    __m256 fx = _mm256_sub_ps(x, left), fy = _mm256_sub_ps(y, top);
    __m256i taps[4];
    knn_gather_taps(src, stride, ix, iy, taps);
    __m256i top0 = taps[0], top1 = taps[1], bottom0 = taps[2], bottom1 = taps[3];
    const __m256i byte = _mm256_set1_epi32(255);
    float channel[3][8];
    for (int c = 0; c < 3; c++) {
        __m256 p00 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(top0, 8 * c), byte));
        __m256 p01 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(top1, 8 * c), byte));
        __m256 p10 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(bottom0, 8 * c), byte));
        __m256 p11 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(bottom1, 8 * c), byte));
        __m256 l = _mm256_fmadd_ps(_mm256_sub_ps(p10, p00), fy, p00);
        __m256 r = _mm256_fmadd_ps(_mm256_sub_ps(p11, p01), fy, p01);
        __m256 v = _mm256_fmadd_ps(_mm256_sub_ps(r, l), fx, l);
        _mm256_storeu_ps(channel[c], _mm256_fmadd_ps(v, _mm256_set1_ps(scale), _mm256_set1_ps(offset)));
    }
    knn_store_interleaved(out, channel);
    return 1;
}
#define knn_has_sample_eight() (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
#else
#define knn_has_sample_eight() 0
static int sample_eight(const uint8_t *src, int w, int h, int stride, float *out, float xr, float yr, int tx,
                        float dxx, float dxy, float scale, float offset) {
    return 0;
}
#endif

// One tensor pixel along a general map (taps outside the image count as zero, or as the
// nearest edge pixel with `replicate`).
static inline __attribute__((always_inline)) void sample_one(const uint8_t *src, int w, int h, int stride, float *out,
                                                              float x, float y, float scale, float offset,
                                                              int replicate) {
    x = near_image(x, w);
    y = near_image(y, h);
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
    } else if (replicate || (ix >= -1 && iy >= -1 && ix < w && iy < h)) {
        float rgb[3] = {0, 0, 0};
        // Far outside, the clamped taps are all one edge pixel.
        sample_at_border(src, w, h, stride, ix, iy, fx, fy, replicate, rgb);
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
                     float x0, float y0, float dxx, float dxy, float dyx, float dyy, float scale, float offset,
                     int replicate) {
    if (dxy == 0 && dyx == 0 &&
        sample_axis_aligned(src, w, h, stride, out, ow, oh, x0, y0, dxx, dyy, scale, offset, replicate))
        return;
    // Eight pixels at a time with AVX2 (AVX-512 machines too: a 16-lane version written with
    // Clang's generic vectors was slower, 0.12 against 0.11 ms a 192² crop, and on AVX2 slower
    // than this scalar loop), when the offsets fit an int (images up to 2 GB).
    const int vectors = knn_has_sample_eight() && (double)h * stride < 2147483647.0;
    for (int ty = 0; ty < oh; ty++) {
        float xr = x0 + (float)ty * dyx, yr = y0 + (float)ty * dyy;
        float *row = out + (size_t)ty * ow * 3;
        int tx = 0;
        for (; vectors && tx + 8 <= ow; tx += 8) {
            if (sample_eight(src, w, h, stride, row + 3 * tx, xr, yr, tx, dxx, dxy, scale, offset)) continue;
            for (int k = tx; k < tx + 8; k++)
                sample_one(src, w, h, stride, row + 3 * k, xr + (float)k * dxx, yr + (float)k * dxy, scale, offset,
                           replicate);
        }
        for (; tx < ow; tx++)
            sample_one(src, w, h, stride, row + 3 * tx, xr + (float)tx * dxx, yr + (float)tx * dxy, scale, offset,
                       replicate);
    }
}
