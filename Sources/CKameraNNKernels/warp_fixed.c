// OpenCV's bilinear warp of 8-bit images, reproduced: MediaPipe prepares its people models'
// inputs with cv::warpPerspective (INTER_LINEAR) on the 8-bit image, then converts to floats.
// OpenCV does not interpolate in floats: a source position is rounded to 1/32 of a pixel, the
// four taps are weighed in 15-bit fixed point and the result is rounded back to a whole grey
// level. Joints the models are unsure of move with any change of input, so the inputs are made
// the same as MediaPipe's, sample for sample, rather than merely close.
#include "knn_image.h"
#include <limits.h>
#include <math.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

// Every product rounded before its sum, in the vector path as in the scalar one: a fused
// multiply-add would move positions sitting on a 1/32-pixel rounding tie.
#pragma clang fp contract(off)

// Each tap's weight: a product of two subpixel counts (0…32) times UNIT, the four summing to 2^15.
enum { SUBPIXEL_BITS = 5, SUBPIXELS = 1 << SUBPIXEL_BITS, WEIGHT_BITS = 15 };
enum { UNIT = 1 << (WEIGHT_BITS - 2 * SUBPIXEL_BITS) };

// cv::saturate_cast<int>(double): the nearest int, ties to even (the default rounding mode).
static inline int round_to_int(double v) {
    if (!(v == v)) return 0;
    if (v <= (double)INT_MIN) return INT_MIN;
    if (v >= (double)INT_MAX) return INT_MAX;
#if defined(__x86_64__)
    return _mm_cvtsd_si32(_mm_set_sd(v));  // lrint's rounding in one instruction, not a libm call
#else
    return (int)lrint(v);
#endif
}

static inline int clamp_index(int v, int size) { return v < 0 ? 0 : (v >= size ? size - 1 : v); }

// Tensor pixels first…end of a row, one at a time, with every border case.
static void warp_pixels(const uint8_t *src, int w, int h, int stride, float *o, double rowX, double rowY, int first,
                        int end, double dxx, double dxy, float scale, float offset, int replicate) {
    for (int tx = first; tx < end; tx++, o += 3) {
        int X = round_to_int((rowX + dxx * (double)tx) * SUBPIXELS);
        int Y = round_to_int((rowY + dxy * (double)tx) * SUBPIXELS);
        int sx = X >> SUBPIXEL_BITS, sy = Y >> SUBPIXEL_BITS;
        int ax = X & (SUBPIXELS - 1), ay = Y & (SUBPIXELS - 1);
        int wx1 = ax * UNIT, wx0 = (SUBPIXELS - ax) * UNIT;
        int w00 = wx0 * (SUBPIXELS - ay), w01 = wx1 * (SUBPIXELS - ay), w10 = wx0 * ay, w11 = wx1 * ay;
        const uint8_t *taps[4];
        static const uint8_t black[3] = {0, 0, 0};
        if (sx >= 0 && sy >= 0 && sx < w - 1 && sy < h - 1) {
            taps[0] = src + (size_t)sy * stride + (size_t)sx * 3;
            taps[1] = taps[0] + 3;
            taps[2] = taps[0] + stride;
            taps[3] = taps[2] + 3;
        } else if (!replicate && (sx >= w || sx + 1 < 0 || sy >= h || sy + 1 < 0)) {
            o[0] = o[1] = o[2] = offset;
            continue;
        } else {
            // A tap outside the image reads black (OpenCV's constant border) or the nearest
            // edge pixel (its replicated border).
            for (int k = 0; k < 4; k++) {
                int x = sx + (k & 1), y = sy + (k >> 1);
                if (replicate)
                    taps[k] = src + (size_t)clamp_index(y, h) * stride + (size_t)clamp_index(x, w) * 3;
                else
                    taps[k] = x >= 0 && x < w && y >= 0 && y < h ? src + (size_t)y * stride + (size_t)x * 3 : black;
            }
        }
        for (int c = 0; c < 3; c++) {
            int sum = taps[0][c] * w00 + taps[1][c] * w01 + taps[2][c] * w10 + taps[3][c] * w11;
            int v = (sum + (1 << (WEIGHT_BITS - 1))) >> WEIGHT_BITS;
            o[c] = (float)(v > 255 ? 255 : v) * scale + offset;
        }
    }
}

#if defined(__x86_64__) && defined(__clang__)
#include "knn_image_taps.h"
#define KNN_AVX2 __attribute__((target("avx2"), always_inline)) static inline

// Eight positions along a row in 1/32 pixels: (row + step·t)·32, rounded as lrint rounds
// (cvtpd: to nearest, ties to even); out of int range, INT_MIN.
KNN_AVX2 __m256i subpixel_positions(double row, double step, int tx) {
    const __m256d subpixels = _mm256_set1_pd(SUBPIXELS), origin = _mm256_set1_pd(row), stride = _mm256_set1_pd(step);
    __m256d t0 = _mm256_add_pd(_mm256_setr_pd(0, 1, 2, 3), _mm256_set1_pd((double)tx));
    __m256d t1 = _mm256_add_pd(t0, _mm256_set1_pd(4));
    __m128i low = _mm256_cvtpd_epi32(_mm256_mul_pd(_mm256_add_pd(origin, _mm256_mul_pd(stride, t0)), subpixels));
    __m128i high = _mm256_cvtpd_epi32(_mm256_mul_pd(_mm256_add_pd(origin, _mm256_mul_pd(stride, t1)), subpixels));
    return _mm256_set_m128i(high, low);
}

// One channel's byte of eight gathered words, times its weights.
KNN_AVX2 __m256i weighed(__m256i words, int channel, __m256i weights) {
    return _mm256_mullo_epi32(_mm256_and_si256(_mm256_srli_epi32(words, 8 * channel), _mm256_set1_epi32(255)), weights);
}

// Eight tensor pixels of a row: the same integer arithmetic as `warp_pixels`, eight lanes
// wide. Taps outside the image are read from its edge with a replicated border; with a black
// one, or a position out of int range, returns 0, writing nothing (the scalar path's cases).
__attribute__((target("avx2"))) static int warp_eight(const uint8_t *src, int w, int h, int stride, float *out,
                                                      double rowX, double rowY, int tx, double dxx, double dxy,
                                                      float scale, float offset, int replicate) {
    __m256i X = subpixel_positions(rowX, dxx, tx), Y = subpixel_positions(rowY, dxy, tx);
    __m256i ix = _mm256_srai_epi32(X, SUBPIXEL_BITS), iy = _mm256_srai_epi32(Y, SUBPIXEL_BITS);
    __m256i taps[4];
    if (!knn_taps_outside(ix, iy, w, h)) {
        knn_gather_taps(src, stride, ix, iy, taps);
    } else {
        // cvtpd's out-of-range answer is INT_MIN: those lanes take the scalar path's saturation.
        __m256i invalid = _mm256_or_si256(_mm256_cmpeq_epi32(X, _mm256_set1_epi32(INT_MIN)),
                                          _mm256_cmpeq_epi32(Y, _mm256_set1_epi32(INT_MIN)));
        if (!replicate || !_mm256_testz_si256(invalid, invalid)) return 0;
        knn_gather_clamped_taps(src, w, h, stride, ix, iy, taps);
    }
    const __m256i fraction = _mm256_set1_epi32(SUBPIXELS - 1), whole = _mm256_set1_epi32(SUBPIXELS);
    __m256i ax = _mm256_and_si256(X, fraction), ay = _mm256_and_si256(Y, fraction), ay0 = _mm256_sub_epi32(whole, ay);
    __m256i wx1 = _mm256_mullo_epi32(ax, _mm256_set1_epi32(UNIT));
    __m256i wx0 = _mm256_mullo_epi32(_mm256_sub_epi32(whole, ax), _mm256_set1_epi32(UNIT));
    __m256i w00 = _mm256_mullo_epi32(wx0, ay0), w01 = _mm256_mullo_epi32(wx1, ay0);
    __m256i w10 = _mm256_mullo_epi32(wx0, ay), w11 = _mm256_mullo_epi32(wx1, ay);
    const __m256i half = _mm256_set1_epi32(1 << (WEIGHT_BITS - 1));
    float channel[3][8];
    for (int c = 0; c < 3; c++) {
        __m256i sum = _mm256_add_epi32(weighed(taps[0], c, w00), weighed(taps[1], c, w01));
        sum = _mm256_add_epi32(sum, _mm256_add_epi32(weighed(taps[2], c, w10), weighed(taps[3], c, w11)));
        __m256 v = _mm256_cvtepi32_ps(_mm256_srli_epi32(_mm256_add_epi32(sum, half), WEIGHT_BITS));
        _mm256_storeu_ps(channel[c], _mm256_add_ps(_mm256_mul_ps(v, _mm256_set1_ps(scale)), _mm256_set1_ps(offset)));
    }
    knn_store_interleaved(out, channel);
    return 1;
}
#define knn_has_warp_eight() __builtin_cpu_supports("avx2")
#else
#define knn_has_warp_eight() 0
static int warp_eight(const uint8_t *src, int w, int h, int stride, float *out, double rowX, double rowY, int tx,
                      double dxx, double dxy, float scale, float offset, int replicate) {
    return 0;
}
#endif

void knn_warp_rgb8_fixed(const uint8_t *src, int w, int h, int stride, float *out, int ow, int oh, double x0,
                         double y0, double dxx, double dxy, double dyx, double dyy, float scale, float offset,
                         int replicate) {
    // OpenCV's weight table: products of (1 − f, f) for f = i/32, each scaled to 2^15. With 32
    // steps every product is a whole multiple of 2^5, so the four always sum to exactly 2^15
    // and OpenCV's correction of the sum never applies.
    const int vectors = knn_has_warp_eight() && (double)h * stride < 2147483647.0;
    for (int ty = 0; ty < oh; ty++) {
        double rowX = x0 + dyx * (double)ty, rowY = y0 + dyy * (double)ty;
        float *o = out + (size_t)ty * ow * 3;
        if (!replicate && dxy == 0) {
            // A letterbox's bands above and below the image: rows wholly outside it.
            int sy = round_to_int(rowY * SUBPIXELS) >> SUBPIXEL_BITS;
            if (sy >= h || sy + 1 < 0) {
                for (int i = 0; i < ow * 3; i++) o[i] = offset;
                continue;
            }
        }
        int tx = 0;
        for (; vectors && tx + 8 <= ow; tx += 8, o += 24)
            if (!warp_eight(src, w, h, stride, o, rowX, rowY, tx, dxx, dxy, scale, offset, replicate))
                warp_pixels(src, w, h, stride, o, rowX, rowY, tx, tx + 8, dxx, dxy, scale, offset, replicate);
        warp_pixels(src, w, h, stride, o, rowX, rowY, tx, ow, dxx, dxy, scale, offset, replicate);
    }
}
