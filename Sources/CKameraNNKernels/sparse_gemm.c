// GEMM with a sparse right-hand side: 1×1 convolutions whose weights are mostly zeros
// (BlazePose's detector stores three of every four as zeros). A zero can only be skipped per
// output channel, so a tile of pixels is turned channel-major (each input channel's values for
// the tile's pixels in one row), each output channel sums its non-zero weights times those
// rows — one broadcast and one FMA per weight and 16 pixels, as XNNPACK's sparse kernels do
// on NCHW tensors — and the tile is turned back to NHWC for the epilogue. The two turns cost
// (k + n) moves a pixel against the k·n·density multiply-adds they make skippable.
#include "knn_vector.h"
#include <stdint.h>
#include <stdlib.h>

// Pixels per tile: two 16-lane vectors.
#define TILE 32

typedef int32_t knn_index_alias __attribute__((may_alias));

// One stage of a 16×16 transpose held in 16 vectors: rows r and r + s (bit s of r clear)
// exchange the halves that differ in column bit s. After the stages 1, 2, 4 and 8, row i
// holds what column i held.
#define SWAP_STAGE(R, s, m0, m1)                                                        \
    for (int r_ = 0; r_ < 16; r_++) {                                                   \
        if (r_ & (s)) continue;                                                         \
        v16 a_ = R[r_], b_ = R[r_ + (s)];                                               \
        R[r_] = __builtin_shufflevector(a_, b_, m0);                                    \
        R[r_ + (s)] = __builtin_shufflevector(a_, b_, m1);                              \
    }
#define M1A 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30
#define M1B 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31
#define M2A 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29
#define M2B 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31
#define M4A 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27
#define M4B 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31
#define M8A 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23
#define M8B 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31
#define TRANSPOSE16(R)                                                                  \
    do {                                                                                \
        SWAP_STAGE(R, 1, M1A, M1B);                                                     \
        SWAP_STAGE(R, 2, M2A, M2B);                                                     \
        SWAP_STAGE(R, 4, M4A, M4B);                                                     \
        SWAP_STAGE(R, 8, M8A, M8B);                                                     \
    } while (0)

// A thread's channel-major tile and sums, grown to the largest it has needed ((k + n)·TILE
// floats: 168 KiB at k = 1152, n = 192). Kept for the thread's life: the kernel runs for every
// inference, and a fresh allocation this size each call would be mapped and faulted in anew.
static _Thread_local float *tile_buffer;
static _Thread_local size_t tile_capacity;

static float *scratch(size_t need) {
    if (need > tile_capacity) {
        free(tile_buffer);
        tile_buffer = aligned_alloc(64, need * sizeof(float));
        tile_capacity = tile_buffer ? need : 0;
    }
    return tile_buffer;
}

// Rows [r, r + count) of `a` (count ≤ TILE; missing rows repeat the last) into `t` as
// [k rounded up to 16][TILE]. A channel block past k reads into the next row or the slack
// behind the buffer (knn_kernels.h); those rows of `t` are never addressed.
static inline __attribute__((always_inline)) void turn_to_channel_major(const float *a, size_t r, size_t count,
                                                                        size_t k, size_t a_stride, float *t) {
    for (size_t half = 0; half < TILE; half += 16) {
        const float *rows[16];
        for (size_t p = 0; p < 16; p++) {
            size_t row = half + p < count ? half + p : count - 1;
            rows[p] = a + (r + row) * a_stride;
        }
        for (size_t c = 0; c < k; c += KNN_BLOCK) {
            v16 R[16];
            for (int p = 0; p < 16; p++) R[p] = load16(rows[p] + c);
            TRANSPOSE16(R);
            for (int i = 0; i < 16; i++) store16(t + (c + (size_t)i) * TILE + half, R[i]);
        }
    }
}

// The sums of output channels [0, n) for the tile's pixels: channel-major, [n][TILE]. Each
// pass over `chunk` input channels adds to them, so the tile's rows that pass reads stay in
// L1 (a whole tile of 1152 channels is 144 KiB, and the non-zero weights pick its rows at
// random).
static inline __attribute__((always_inline)) void sum_tile(const float *t, size_t k, size_t chunk,
                                                           const float *entry, size_t n, float *sums) {
    for (size_t c0 = 0; c0 < k; c0 += chunk) {
        for (size_t j = 0; j < n; j++) {
            float *sum = sums + j * TILE;
            v16 s0 = c0 ? load16(sum) : splat(0), s1 = c0 ? load16(sum + 16) : splat(0);
            v16 u0 = splat(0), u1 = splat(0);
            int32_t nonzero = *(const knn_index_alias *)entry;
            entry++;
            int32_t i = 0;
            // Two chains a pixel vector: an FMA's result is not waited on by the next.
            for (; i + 2 <= nonzero; i += 2, entry += 4) {
                const float *x = t + (size_t) * (const knn_index_alias *)entry * TILE;
                const float *y = t + (size_t) * (const knn_index_alias *)(entry + 2) * TILE;
                v16 w = splat(entry[1]), v = splat(entry[3]);
                s0 += w * load16(x); s1 += w * load16(x + 16);
                u0 += v * load16(y); u1 += v * load16(y + 16);
            }
            if (i < nonzero) {
                const float *x = t + (size_t) * (const knn_index_alias *)entry * TILE;
                v16 w = splat(entry[1]);
                s0 += w * load16(x); s1 += w * load16(x + 16);
                entry += 2;
            }
            store16(sum, s0 + u0);
            store16(sum + 16, s1 + u1);
        }
    }
}

// Without the scratch (its allocation failed): the same sums a row and a weight at a time,
// accumulated in the output row, then the epilogue a block at a time.
static inline __attribute__((always_inline)) void sparse_gemm_plain(const float *a, size_t rows, size_t k,
                                                                    size_t a_stride, const float *sparse,
                                                                    size_t chunk, const float *bias, size_t n,
                                                                    float *out, size_t out_stride,
                                                                    const float *residual, size_t residual_channels,
                                                                    knn_activation act) {
    for (size_t r = 0; r < rows; r++) {
        float *o = out + r * out_stride;
        const float *x = a + r * a_stride;
        for (size_t j = 0; j < n; j++) o[j] = bias[j];
        const float *entry = sparse;
        for (size_t c0 = 0; c0 < k; c0 += chunk) {
            for (size_t j = 0; j < n; j++) {
                int32_t nonzero = *(const knn_index_alias *)entry;
                entry++;
                for (int32_t i = 0; i < nonzero; i++, entry += 2) o[j] += x[*(const knn_index_alias *)entry] * entry[1];
            }
        }
        for (size_t j = 0; j < n; j++) {
            if (residual && j < residual_channels) o[j] += residual[r * residual_channels + j];
        }
        // Whole blocks read past the row's n values (the next row's, or the slack every tensor has).
        for (size_t b = 0; b * KNN_BLOCK < n; b++) {
            store_n(o + b * KNN_BLOCK, activate(load16(o + b * KNN_BLOCK), act, b), n - b * KNN_BLOCK);
        }
    }
}

static inline __attribute__((always_inline)) void sparse_gemm(const float *a, size_t rows, size_t k,
                                                              size_t a_stride, const float *sparse, size_t chunk,
                                                              const float *bias, size_t n, float *out,
                                                              size_t out_stride, const float *residual,
                                                              size_t residual_channels, knn_activation act) {
    size_t blocks = (n + KNN_BLOCK - 1) / KNN_BLOCK;
    float *t = scratch((k + KNN_BLOCK) * TILE + blocks * KNN_BLOCK * TILE);
    if (!t) {
        sparse_gemm_plain(a, rows, k, a_stride, sparse, chunk, bias, n, out, out_stride, residual, residual_channels,
                          act);
        return;
    }
    float *sums = t + (k + KNN_BLOCK) * TILE;
    // Channels past n (a partial last block) are transposed with the rest and never stored.
    memset(sums + n * TILE, 0, (blocks * KNN_BLOCK - n) * TILE * sizeof(float));
    for (size_t r = 0; r < rows; r += TILE) {
        size_t count = rows - r < TILE ? rows - r : TILE;
        turn_to_channel_major(a, r, count, k, a_stride, t);
        sum_tile(t, k, chunk, sparse, n, sums);
        for (size_t b = 0; b < blocks; b++) {
            v16 b16 = load16(bias + b * KNN_BLOCK);
            size_t left = n - b * KNN_BLOCK;
            for (size_t half = 0; half * 16 < count; half++) {
                v16 R[16];
                for (int j = 0; j < 16; j++) R[j] = load16(sums + (b * KNN_BLOCK + (size_t)j) * TILE + half * 16);
                TRANSPOSE16(R);
                for (size_t p = 0; p < 16 && half * 16 + p < count; p++) {
                    size_t row = r + half * 16 + p;
                    v16 c = R[p] + b16;
                    if (residual && b * KNN_BLOCK < residual_channels) {
                        c += residual_block(residual + row * residual_channels + b * KNN_BLOCK,
                                            residual_channels - b * KNN_BLOCK);
                    }
                    store_n(out + row * out_stride + b * KNN_BLOCK, activate(c, act, b), left);
                }
            }
        }
    }
}

KNN_MULTIVERSION
void knn_sparse_gemm(const float *a, size_t rows, size_t k, size_t a_stride, const float *sparse, size_t chunk,
                     const float *bias, size_t n, float *out, size_t out_stride, const float *residual,
                     size_t residual_channels, knn_activation act) {
    if (chunk == 0) chunk = k;
    sparse_gemm(a, rows, k, a_stride, sparse, chunk, bias, n, out, out_stride, residual, residual_channels, act);
}
