// Depthwise convolution (multiplier 1), with 3×3 and 5×5 interior paths.
#include "knn_vector.h"

// --- depthwise ---------------------------------------------------------------
// One output pixel of any window, with the taps clipped to the image. Four channel blocks at
// a time: four independent sums, where one block at a time made each tap wait on the one
// before it (a chain of dependent FMAs). Most pixels of the small maps take this path — a
// 7×7 map under a 5×5 window has 9 interior pixels of 49 — and so do strided windows. Each
// channel's taps are summed in the same order either way.
#define DEPTHWISE_PIXEL(ox) do {                                                               \
        int ix0 = (ox) * sw - pad_left;                                                        \
        int kx0 = 0, kx1 = kw;                                                                 \
        while (kx0 < kw && ix0 + kx0 * dw < 0) kx0++;                                          \
        while (kx1 > kx0 && ix0 + (kx1 - 1) * dw >= iw) kx1--;                                 \
        float *o = out + ((size_t)oy * ow + (ox)) * c;                                         \
        int b = 0;                                                                             \
        for (; b + 4 <= blocks; b += 4) {                                                      \
            const float *bb = bias + b * KNN_BLOCK;                                            \
            v16 a0 = load16(bb), a1 = load16(bb + KNN_BLOCK);                                  \
            v16 a2 = load16(bb + 2 * KNN_BLOCK), a3 = load16(bb + 3 * KNN_BLOCK);              \
            for (int ky = ky0; ky < ky1; ky++) {                                               \
                const float *row = in + ((size_t)(iy0 + ky * dh) * iw) * c + b * KNN_BLOCK;    \
                const float *wrow = packed + (size_t)ky * kw * cpad + b * KNN_BLOCK;           \
                for (int kx = kx0; kx < kx1; kx++) {                                           \
                    const float *t = row + (size_t)(ix0 + kx * dw) * c;                        \
                    const float *wt = wrow + (size_t)kx * cpad;                                \
                    a0 += load16(t) * load16(wt);                                              \
                    a1 += load16(t + KNN_BLOCK) * load16(wt + KNN_BLOCK);                      \
                    a2 += load16(t + 2 * KNN_BLOCK) * load16(wt + 2 * KNN_BLOCK);              \
                    a3 += load16(t + 3 * KNN_BLOCK) * load16(wt + 3 * KNN_BLOCK);              \
                }                                                                              \
            }                                                                                  \
            store_n(o + b * KNN_BLOCK, activate(a0, act, b), (size_t)(c - b * KNN_BLOCK));     \
            store_n(o + (b + 1) * KNN_BLOCK, activate(a1, act, b + 1), (size_t)(c - (b + 1) * KNN_BLOCK)); \
            store_n(o + (b + 2) * KNN_BLOCK, activate(a2, act, b + 2), (size_t)(c - (b + 2) * KNN_BLOCK)); \
            store_n(o + (b + 3) * KNN_BLOCK, activate(a3, act, b + 3), (size_t)(c - (b + 3) * KNN_BLOCK)); \
        }                                                                                      \
        for (; b < blocks; b++) {                                                              \
            v16 acc = load16(bias + b * KNN_BLOCK);                                            \
            for (int ky = ky0; ky < ky1; ky++) {                                               \
                const float *row = in + ((size_t)(iy0 + ky * dh) * iw) * c + b * KNN_BLOCK;    \
                const float *wrow = packed + (size_t)ky * kw * cpad + b * KNN_BLOCK;           \
                for (int kx = kx0; kx < kx1; kx++)                                             \
                    acc += load16(row + (size_t)(ix0 + kx * dw) * c) * load16(wrow + (size_t)kx * cpad); \
            }                                                                                  \
            store_n(o + b * KNN_BLOCK, activate(acc, act, b), (size_t)(c - b * KNN_BLOCK));    \
        }                                                                                      \
    } while (0)

KNN_MULTIVERSION
void knn_depthwise(const float *in, int ih, int iw, int c, const float *packed, const float *bias,
                   int kh, int kw, int sh, int sw, int dh, int dw, int pad_top, int pad_left,
                   float *out, int oy0, int oy1, int ow, knn_activation act) {
    int blocks = (c + KNN_BLOCK - 1) / KNN_BLOCK;
    int cpad = blocks * KNN_BLOCK;
    const int wide = knn_has_wide_vectors();
    // A row of the input, and the step from one output pixel's window to the next.
    const size_t rs = (size_t)iw * c, step = (size_t)sw * c;
    int ox_lo, ox_hi;
    knn_inner_columns(iw, kw, sw, dw, pad_left, ow, &ox_lo, &ox_hi);
    for (int oy = oy0; oy < oy1; oy++) {
        int iy0, ky0, ky1;
        knn_rows_inside(oy, sh, pad_top, kh, dh, ih, &iy0, &ky0, &ky1);
        int full_rows = ky0 == 0 && ky1 == kh;
        if (kh == 5 && kw == 5 && dh == 1 && dw == 1 && full_rows) {
            // 5×5 interior (the palm and pose models): no clipping, the 25 taps unrolled; the
            // weights come from L1 (25 of them would not stay in registers), each load shared
            // by four output pixels. One pixel at a time (a chain of 25 dependent FMAs and
            // a weight load for each) took 1.15–1.3× as long on the palm detector's layers
            // (Intel Xeon, AVX-512), 1.3–1.4× with the AVX2 kernels.
            for (int ox = 0; ox < ox_lo; ox++) DEPTHWISE_PIXEL(ox);
            for (int b = 0; b < blocks; b++) {
                const float *w = packed + b * KNN_BLOCK;
                v16 bv = load16(bias + b * KNN_BLOCK);
                size_t left = (size_t)(c - b * KNN_BLOCK);
                const float *p = in + (size_t)iy0 * rs + (size_t)(ox_lo * sw - pad_left) * c + b * KNN_BLOCK;
                float *o = out + ((size_t)oy * ow + ox_lo) * c + b * KNN_BLOCK;
                int ox = ox_lo;
                // With AVX-512 (32 registers) and stride 1, eight pixels: each row's twelve
                // input vectors are loaded once and each weight serves the eight sums, eight
                // independent chains where four left the FMA units waiting on their latency.
                for (; wide && sw == 1 && ox + 8 <= ox_hi; ox += 8, p += 8 * step, o += 8 * (size_t)c) {
                    v16 a[8] = {bv, bv, bv, bv, bv, bv, bv, bv};
                    for (int ky = 0; ky < 5; ky++) {
                        const float *r = p + (size_t)ky * rs, *wr = w + (size_t)ky * 5 * cpad;
                        v16 row[12];
                        for (int k = 0; k < 12; k++) row[k] = load16(r + (size_t)k * c);
                        for (int kx = 0; kx < 5; kx++) {
                            v16 wv = load16(wr + (size_t)kx * cpad);
                            for (int k = 0; k < 8; k++) a[k] += row[k + kx] * wv;
                        }
                    }
                    for (int k = 0; k < 8; k++) store_n(o + (size_t)k * c, activate(a[k], act, b), left);
                }
                for (; ox + 4 <= ox_hi; ox += 4, p += 4 * step, o += 4 * (size_t)c) {
                    v16 a0 = bv, a1 = bv, a2 = bv, a3 = bv;
                    for (int ky = 0; ky < 5; ky++) {
                        const float *r = p + (size_t)ky * rs, *wr = w + (size_t)ky * 5 * cpad;
                        for (int kx = 0; kx < 5; kx++) {
                            v16 wv = load16(wr + (size_t)kx * cpad);
                            const float *t = r + (size_t)kx * c;
                            a0 += load16(t) * wv;
                            a1 += load16(t + step) * wv;
                            a2 += load16(t + 2 * step) * wv;
                            a3 += load16(t + 3 * step) * wv;
                        }
                    }
                    store_n(o, activate(a0, act, b), left);
                    store_n(o + c, activate(a1, act, b), left);
                    store_n(o + 2 * (size_t)c, activate(a2, act, b), left);
                    store_n(o + 3 * (size_t)c, activate(a3, act, b), left);
                }
                for (; ox < ox_hi; ox++, p += step, o += c) {
                    v16 acc = bv;
                    for (int ky = 0; ky < 5; ky++) {
                        const float *r = p + (size_t)ky * rs, *wr = w + (size_t)ky * 5 * cpad;
                        for (int kx = 0; kx < 5; kx++) acc += load16(r + (size_t)kx * c) * load16(wr + (size_t)kx * cpad);
                    }
                    store_n(o, activate(acc, act, b), left);
                }
            }
            for (int ox = ox_hi; ox < ow; ox++) DEPTHWISE_PIXEL(ox);
            continue;
        }
        if (!(kh == 3 && kw == 3 && dh == 1 && dw == 1 && full_rows)) {
            for (int ox = 0; ox < ow; ox++) DEPTHWISE_PIXEL(ox);
            continue;
        }
        for (int ox = 0; ox < ox_lo; ox++) DEPTHWISE_PIXEL(ox);
        // 3×3 interior: the block's nine weights stay in registers across the row. On AVX2 a
        // 16-lane weight is two ymm, and nine of them plus bias and sum (22 ymm) would spill
        // every pixel, so there each half block runs on its own with 8-lane vectors.
        if (!wide) {
            for (int b = 0; b < blocks; b++) {
                for (int h = 0; h < KNN_BLOCK && b * KNN_BLOCK + h < c; h += 8) {
                    const float *w = packed + b * KNN_BLOCK + h;
                    v8 w0 = load8(w), w1 = load8(w + cpad), w2 = load8(w + 2 * cpad);
                    v8 w3 = load8(w + 3 * cpad), w4 = load8(w + 4 * cpad), w5 = load8(w + 5 * cpad);
                    v8 w6 = load8(w + 6 * cpad), w7 = load8(w + 7 * cpad), w8 = load8(w + 8 * cpad);
                    v8 bv = load8(bias + b * KNN_BLOCK + h);
                    size_t left = (size_t)(c - b * KNN_BLOCK - h);
                    const float *r0 = in + (size_t)iy0 * iw * c + b * KNN_BLOCK + h;
                    const float *r1 = r0 + (size_t)iw * c, *r2 = r1 + (size_t)iw * c;
                    for (int ox = ox_lo; ox < ox_hi; ox++) {
                        size_t x = (size_t)(ox * sw - pad_left) * c;
                        v8 acc = bv;
                        acc += load8(r0 + x) * w0; acc += load8(r0 + x + c) * w1; acc += load8(r0 + x + 2 * c) * w2;
                        acc += load8(r1 + x) * w3; acc += load8(r1 + x + c) * w4; acc += load8(r1 + x + 2 * c) * w5;
                        acc += load8(r2 + x) * w6; acc += load8(r2 + x + c) * w7; acc += load8(r2 + x + 2 * c) * w8;
                        store8_n(out + ((size_t)oy * ow + ox) * c + b * KNN_BLOCK + h, activate8(acc, act, b, h), left);
                    }
                }
            }
            for (int ox = ox_hi; ox < ow; ox++) DEPTHWISE_PIXEL(ox);
            continue;
        }
        for (int b = 0; b < blocks; b++) {
            const float *w = packed + b * KNN_BLOCK;
            v16 w0 = load16(w), w1 = load16(w + cpad), w2 = load16(w + 2 * cpad);
            v16 w3 = load16(w + 3 * cpad), w4 = load16(w + 4 * cpad), w5 = load16(w + 5 * cpad);
            v16 w6 = load16(w + 6 * cpad), w7 = load16(w + 7 * cpad), w8 = load16(w + 8 * cpad);
            v16 bv = load16(bias + b * KNN_BLOCK);
            size_t left = (size_t)(c - b * KNN_BLOCK);
            const float *r0 = in + (size_t)iy0 * iw * c + b * KNN_BLOCK;
            const float *r1 = r0 + (size_t)iw * c, *r2 = r1 + (size_t)iw * c;
            int ox = ox_lo;
            // Stride 1: four pixels share each row's six input vectors (18 loads, not 36).
            for (; sw == 1 && ox + 4 <= ox_hi; ox += 4) {
                size_t x = (size_t)(ox - pad_left) * c;
                v16 a0 = bv, a1 = bv, a2 = bv, a3 = bv;
#define DEPTHWISE_ROW3(r, wa, wb, wc) do {                                                     \
                    v16 i0 = load16(r + x), i1 = load16(r + x + c), i2 = load16(r + x + 2 * c);  \
                    v16 i3 = load16(r + x + 3 * c), i4 = load16(r + x + 4 * c), i5 = load16(r + x + 5 * c); \
                    a0 += i0 * wa; a0 += i1 * wb; a0 += i2 * wc;                                 \
                    a1 += i1 * wa; a1 += i2 * wb; a1 += i3 * wc;                                 \
                    a2 += i2 * wa; a2 += i3 * wb; a2 += i4 * wc;                                 \
                    a3 += i3 * wa; a3 += i4 * wb; a3 += i5 * wc;                                 \
                } while (0)
                DEPTHWISE_ROW3(r0, w0, w1, w2);
                DEPTHWISE_ROW3(r1, w3, w4, w5);
                DEPTHWISE_ROW3(r2, w6, w7, w8);
#undef DEPTHWISE_ROW3
                float *o = out + ((size_t)oy * ow + ox) * c + b * KNN_BLOCK;
                store_n(o, activate(a0, act, b), left);
                store_n(o + c, activate(a1, act, b), left);
                store_n(o + 2 * (size_t)c, activate(a2, act, b), left);
                store_n(o + 3 * (size_t)c, activate(a3, act, b), left);
            }
            for (; ox < ox_hi; ox++) {
                size_t x = (size_t)(ox * sw - pad_left) * c;
                v16 acc = bv;
                acc += load16(r0 + x) * w0; acc += load16(r0 + x + c) * w1; acc += load16(r0 + x + 2 * c) * w2;
                acc += load16(r1 + x) * w3; acc += load16(r1 + x + c) * w4; acc += load16(r1 + x + 2 * c) * w5;
                acc += load16(r2 + x) * w6; acc += load16(r2 + x + c) * w7; acc += load16(r2 + x + 2 * c) * w8;
                store_n(out + ((size_t)oy * ow + ox) * c + b * KNN_BLOCK, activate(acc, act, b), left);
            }
        }
        for (int ox = ox_hi; ox < ow; ox++) DEPTHWISE_PIXEL(ox);
    }
}
