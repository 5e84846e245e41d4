// The AVX2 steps the two bilinear image samplers share (image.c's float sampler, warp_fixed.c's
// OpenCV-exact one): whether eight pixels' taps all lie inside the image, the four taps of each
// gathered as 4-byte words, and eight RGB results stored interleaved.
#ifndef KNN_IMAGE_TAPS_H
#define KNN_IMAGE_TAPS_H
#if defined(__x86_64__) && defined(__clang__)
#include <immintrin.h>
#include <stdint.h>

#define KNN_TAPS_AVX2 __attribute__((target("avx2"), always_inline)) static inline

/// Nonzero when any of eight top-left taps (ix, iy) has a tap outside a w × h image — or, as
/// each pair of horizontal taps is read as two 4-byte words ending one byte past the pair, when
/// ix + 2 reaches the row's end.
KNN_TAPS_AVX2 int knn_taps_outside(__m256i ix, __m256i iy, int w, int h) {
    __m256i zero = _mm256_setzero_si256();
    __m256i outside = _mm256_or_si256(_mm256_cmpgt_epi32(zero, ix), _mm256_cmpgt_epi32(zero, iy));
    outside = _mm256_or_si256(outside, _mm256_cmpgt_epi32(_mm256_add_epi32(ix, _mm256_set1_epi32(3)), _mm256_set1_epi32(w)));
    outside = _mm256_or_si256(outside, _mm256_cmpgt_epi32(_mm256_add_epi32(iy, _mm256_set1_epi32(2)), _mm256_set1_epi32(h)));
    return !_mm256_testz_si256(outside, outside);
}

/// The four taps of eight pixels of a packed RGB8 image, each a 4-byte word whose low three
/// bytes are the tap's R, G, B: top-left, top-right, bottom-left, bottom-right.
KNN_TAPS_AVX2 void knn_gather_taps(const uint8_t *src, int stride, __m256i ix, __m256i iy, __m256i taps[4]) {
    __m256i at = _mm256_add_epi32(_mm256_mullo_epi32(iy, _mm256_set1_epi32(stride)),
                                  _mm256_mullo_epi32(ix, _mm256_set1_epi32(3)));
    const int *base = (const int *)src;
    taps[0] = _mm256_i32gather_epi32(base, at, 1);
    taps[1] = _mm256_i32gather_epi32(base, _mm256_add_epi32(at, _mm256_set1_epi32(3)), 1);
    taps[2] = _mm256_i32gather_epi32(base, _mm256_add_epi32(at, _mm256_set1_epi32(stride)), 1);
    taps[3] = _mm256_i32gather_epi32(base, _mm256_add_epi32(at, _mm256_set1_epi32(stride + 3)), 1);
}

/// The four taps of eight pixels, as `knn_gather_taps`, with each tap's column and row clamped
/// to the image (a replicated border: a tap past an edge reads the edge pixel). A word is four
/// bytes, one past its pixel: the image's last pixel is read from one byte before and shifted,
/// so nothing past the image is read. `ix` and `iy` must be sums that do not overflow (the
/// caller leaves positions out of int range to its scalar path).
KNN_TAPS_AVX2 void knn_gather_clamped_taps(const uint8_t *src, int w, int h, int stride, __m256i ix, __m256i iy,
                                           __m256i taps[4]) {
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    const __m256i lastX = _mm256_set1_epi32(w - 1), lastY = _mm256_set1_epi32(h - 1);
    __m256i x0 = _mm256_min_epi32(_mm256_max_epi32(ix, zero), lastX);
    __m256i x1 = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(ix, one), zero), lastX);
    __m256i y0 = _mm256_min_epi32(_mm256_max_epi32(iy, zero), lastY);
    __m256i y1 = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(iy, one), zero), lastY);
    __m256i rows[2] = {_mm256_mullo_epi32(y0, _mm256_set1_epi32(stride)), _mm256_mullo_epi32(y1, _mm256_set1_epi32(stride))};
    __m256i columns[2] = {_mm256_mullo_epi32(x0, _mm256_set1_epi32(3)), _mm256_mullo_epi32(x1, _mm256_set1_epi32(3))};
    // The last pixel's word would end one byte past the image.
    const __m256i lastWord = _mm256_set1_epi32((h - 1) * stride + (w - 1) * 3);
    const int *base = (const int *)src;
    for (int k = 0; k < 4; k++) {
        __m256i at = _mm256_add_epi32(rows[k >> 1], columns[k & 1]);
        __m256i last = _mm256_cmpeq_epi32(at, lastWord);
        __m256i word = _mm256_i32gather_epi32(base, _mm256_add_epi32(at, last), 1);
        taps[k] = _mm256_srlv_epi32(word, _mm256_and_si256(last, _mm256_set1_epi32(8)));
    }
}

/// Eight pixels' three channels, channel by channel, written as RGB triples.
static inline void knn_store_interleaved(float *out, const float channel[3][8]) {
    for (int k = 0; k < 8; k++) out[3 * k] = channel[0][k], out[3 * k + 1] = channel[1][k], out[3 * k + 2] = channel[2][k];
}
#endif
#endif
