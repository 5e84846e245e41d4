// Elementwise kernels: ADD, MUL, activations, LOGISTIC, HARD_SWISH.
#include "knn_vector.h"

// --- elementwise -------------------------------------------------------------
// `value(at)` is the pre-activation vector at float offset `at`. PReLU needs each channel
// block's alpha, so it walks pixel by pixel; the others run over the flat array.
#define ELEMENTWISE(value)                                                                  \
    do {                                                                                    \
        if (act.kind == KNN_ACT_PRELU) {                                                    \
            size_t blocks = (channels + KNN_BLOCK - 1) / KNN_BLOCK;                         \
            for (size_t p = 0; p < count; p++)                                              \
                for (size_t k = 0; k < blocks; k++) {                                       \
                    size_t at = p * channels + k * KNN_BLOCK;                               \
                    store_n(out + at, activate(value(at), act, k), channels - k * KNN_BLOCK); \
                }                                                                           \
            return;                                                                         \
        }                                                                                   \
        size_t total = count * channels, i = 0;                                             \
        for (; i + KNN_BLOCK <= total; i += KNN_BLOCK) store16(out + i, activate(value(i), act, 0)); \
        if (i < total) store_n(out + i, activate(value(i), act, 0), total - i);             \
    } while (0)

#define SUM_AT(at) (load16(a + (at)) + load16(b + (at)))
#define INPUT_AT(at) load16(in + (at))

KNN_MULTIVERSION
void knn_add(const float *a, const float *b, float *out, size_t count, size_t channels, knn_activation act) {
    ELEMENTWISE(SUM_AT);
}

KNN_MULTIVERSION
void knn_activate(const float *in, float *out, size_t count, size_t channels, knn_activation act) {
    ELEMENTWISE(INPUT_AT);
}

KNN_MULTIVERSION
void knn_logistic(const float *in, float *out, size_t count) {
    // With e = e^−|x|: 1 / (1 + e) for x ≥ 0, e / (1 + e) below (no overflow either way).
    size_t i = 0;
    for (; i + KNN_BLOCK <= count; i += KNN_BLOCK) {
        v16 x = load16(in + i);
        v16 e = EXP_NONPOSITIVE(x < 0 ? x : -x);
        v16 inverse = splat(1.0f) / (splat(1.0f) + e);
        store16(out + i, x >= 0 ? inverse : e * inverse);
    }
    for (; i < count; i++) out[i] = 1.0f / (1.0f + expf(-in[i]));
}

void knn_hard_swish(const float *in, float *out, size_t count) {
    for (size_t i = 0; i < count; i++) {
        float x = in[i], gate = x + 3.0f;
        gate = gate < 0 ? 0 : gate > 6 ? 6 : gate;
        out[i] = x * gate * (1.0f / 6.0f);
    }
}

KNN_MULTIVERSION
void knn_mul(const float *a, const float *b, float *out, size_t count, size_t channels, int b_per_channel,
             knn_activation act) {
    if (!b_per_channel) {
#define PRODUCT_AT(at) (load16(a + (at)) * load16(b + (at)))
        ELEMENTWISE(PRODUCT_AT);
#undef PRODUCT_AT
        return;
    }
    // One factor per channel (a squeeze-and-excitation gate): b holds `channels` values.
    size_t blocks = (channels + KNN_BLOCK - 1) / KNN_BLOCK;
    for (size_t p = 0; p < count; p++)
        for (size_t k = 0; k < blocks; k++) {
            size_t at = p * channels + k * KNN_BLOCK;
            v16 gate = load16(b + k * KNN_BLOCK);  // lanes past `channels` are slack, never stored
            store_n(out + at, activate(load16(a + at) * gate, act, k), channels - k * KNN_BLOCK);
        }
}

KNN_MULTIVERSION
void knn_softmax_rows(const float *in, float *out, size_t rows, size_t n) {
    for (size_t r = 0; r < rows; r++) {
        const float *x = in + r * n;
        float *y = out + r * n;
        float peak = -INFINITY;
        for (size_t i = 0; i < n; i++) peak = x[i] > peak ? x[i] : peak;
        v16 sum = splat(0);
        size_t i = 0;
        for (; i + KNN_BLOCK <= n; i += KNN_BLOCK) {
            v16 e = EXP_NONPOSITIVE(load16(x + i) - splat(peak));
            store16(y + i, e);
            sum += e;
        }
        v8 half = sum.lo + sum.hi;
        v4 quarter = half.lo + half.hi;
        float total = quarter.x + quarter.y + quarter.z + quarter.w;
        for (; i < n; i++) {
            y[i] = expf(x[i] - peak);
            total += y[i];
        }
        float inverse = 1.0f / total;
        i = 0;
        for (; i + KNN_BLOCK <= n; i += KNN_BLOCK) store16(y + i, load16(y + i) * splat(inverse));
        for (; i < n; i++) y[i] *= inverse;
    }
}
