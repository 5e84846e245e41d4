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

void knn_logistic(const float *in, float *out, size_t count) {
    for (size_t i = 0; i < count; i++) out[i] = 1.0f / (1.0f + expf(-in[i]));
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
