// Shared by KameraNN's kernel files: vector types, the multiversioning attribute and the
// epilogue helpers. Private to this target (not under include/).
#ifndef KNN_VECTOR_H
#define KNN_VECTOR_H
#include "knn_kernels.h"
#include <math.h>
#include <string.h>

// Fuse multiply-adds (one rounding instead of two, and half the instructions): set
// here rather than by a compiler flag, which SwiftPM would refuse in a dependency.
#pragma clang fp contract(fast)

typedef float v16 __attribute__((ext_vector_type(16)));
typedef float v16u __attribute__((ext_vector_type(16), aligned(4)));
typedef float v8 __attribute__((ext_vector_type(8)));
typedef float v8u __attribute__((ext_vector_type(8), aligned(4)));
typedef float v4 __attribute__((ext_vector_type(4)));
typedef float v4u __attribute__((ext_vector_type(4), aligned(4)));

// `-Xcc -DKNN_FORCE_AVX2` builds only the AVX2 kernels (narrow tiles too), so an AVX-512
// machine can measure and test what an AVX2 one runs.
#if defined(KNN_FORCE_AVX2)
#define KNN_MULTIVERSION __attribute__((target("arch=x86-64-v3")))
#elif defined(__x86_64__) && defined(__clang__)
#define KNN_MULTIVERSION __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KNN_MULTIVERSION
#endif

// Whether 16-float vectors are single registers (AVX-512): kernels whose tiles hold many
// accumulators pick narrower tiles otherwise. Asked once per call (a load of a flag libgcc
// set at start-up), because target_clones compiles one source for every architecture.
#if defined(KNN_FORCE_AVX2)
#define knn_has_wide_vectors() 0
#elif defined(__x86_64__) && defined(__clang__)
#define knn_has_wide_vectors() __builtin_cpu_supports("avx512f")
#else
#define knn_has_wide_vectors() 0
#endif

// Output columns [lo, hi) of a window convolution whose whole window lies inside the input's
// width (the rest cross its left or right edge and take per-tap checks).
static inline void knn_inner_columns(int iw, int kw, int sw, int dw, int pad_left, int ow, int *lo, int *hi) {
    *lo = (pad_left + sw - 1) / sw;
    *hi = (iw - (kw - 1) * dw - 1 + pad_left) / sw + 1;
    if (*hi > ow) *hi = ow;
    if (*lo > *hi) *lo = *hi;
}

// For output row oy: the input row of kernel row 0 (iy0) and the kernel rows [ky0, ky1) that
// fall inside the input.
static inline void knn_rows_inside(int oy, int sh, int pad_top, int kh, int dh, int ih, int *iy0, int *ky0, int *ky1) {
    *iy0 = oy * sh - pad_top;
    *ky0 = 0;
    *ky1 = kh;
    while (*ky0 < kh && *iy0 + *ky0 * dh < 0) (*ky0)++;
    while (*ky1 > *ky0 && *iy0 + (*ky1 - 1) * dh >= ih) (*ky1)--;
}

// Helpers are macros, not functions: a 512-bit vector may not cross a call boundary in the
// AVX2 and baseline versions of the kernels (it would change the calling convention).
#define load16(p) (*(const v16u *)(p))
#define store16(p, v) (*(v16u *)(p) = (v))
#define splat(x) ((v16)(float)(x))
#define vmax(a, b) ({ v16 a_ = (a), b_ = (b); a_ > b_ ? a_ : b_; })
#define vmin(a, b) ({ v16 a_ = (a), b_ = (b); a_ < b_ ? a_ : b_; })
// A partial block: 8- and 4-lane vector stores, then scalars, so channel counts that are
// not multiples of 16 do not fall back to lane-by-lane extraction.
#define store_n(p, v, n) do {                                              \
        float *p_ = (p); v16 v_ = (v); size_t n_ = (n);                    \
        if (n_ >= KNN_BLOCK) { store16(p_, v_); break; }                   \
        v8 a_ = v_.lo;                                                     \
        if (n_ >= 8) { *(v8u *)p_ = a_; p_ += 8; n_ -= 8; a_ = v_.hi; }    \
        v4 c_ = a_.lo;                                                     \
        if (n_ >= 4) { *(v4u *)p_ = c_; p_ += 4; n_ -= 4; c_ = a_.hi; }    \
        if (n_ > 0) p_[0] = c_.x;                                          \
        if (n_ > 1) p_[1] = c_.y;                                          \
        if (n_ > 2) p_[2] = c_.z;                                          \
    } while (0)
// A residual's 16 values at `p` with `m` of them real: a skip connection with fewer channels
// than the output (BlazeFace pads them with zeros) adds nothing past them. A partial block
// loads whole 16 lanes (past a row's last value lie the next row's or the slack every arena
// tensor has behind it, MemoryPlan) and zeroes those past m.
#define residual_block(p, m) ({                                                         \
        v16 t_ = load16(p); size_t m_ = (m);                                            \
        const v16 lane_ = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};       \
        m_ >= KNN_BLOCK ? t_ : (lane_ < splat(m_) ? t_ : splat(0));                     \
    })
// 8-lane forms, for AVX2 paths that would run out of registers with 16 lanes.
#define load8(p) (*(const v8u *)(p))
#define splat8(x) ((v8)(float)(x))
#define store8_n(p, v, n) do {                                             \
        float *p_ = (p); v8 v_ = (v); size_t n_ = (n);                     \
        if (n_ >= 8) { *(v8u *)p_ = v_; break; }                           \
        v4 c_ = v_.lo;                                                     \
        if (n_ >= 4) { *(v4u *)p_ = c_; p_ += 4; n_ -= 4; c_ = v_.hi; }    \
        if (n_ > 0) p_[0] = c_.x;                                          \
        if (n_ > 1) p_[1] = c_.y;                                          \
        if (n_ > 2) p_[2] = c_.z;                                          \
    } while (0)
#define activate8(x, act, block, half) ({                                   \
        v8 x_ = (x);                                                        \
        switch ((act).kind) {                                               \
        case KNN_ACT_RELU: x_ = x_ > 0 ? x_ : splat8(0); break;            \
        case KNN_ACT_RELU6: x_ = x_ > 0 ? x_ : splat8(0); x_ = x_ < 6 ? x_ : splat8(6); break; \
        case KNN_ACT_RELU_N1_TO_1: x_ = x_ > -1 ? x_ : splat8(-1); x_ = x_ < 1 ? x_ : splat8(1); break; \
        case KNN_ACT_PRELU: {                                               \
            v8 alpha_ = load8((act).alpha + (block) * KNN_BLOCK + (half));  \
            x_ = x_ < 0 ? x_ * alpha_ : x_; break;                          \
        }                                                                   \
        case KNN_ACT_HARD_SWISH: {                                          \
            v8 g_ = x_ + splat8(3); g_ = g_ > 0 ? g_ : splat8(0); g_ = g_ < 6 ? g_ : splat8(6); \
            x_ = x_ * g_ * splat8(1.0f / 6.0f); break;                      \
        }                                                                   \
        default: break;                                                     \
        }                                                                   \
        x_ * splat8((act).scale) + splat8((act).shift);                     \
    })
#define activate(x, act, block) ({                                          \
        v16 x_ = (x);                                                       \
        switch ((act).kind) {                                               \
        case KNN_ACT_RELU: x_ = vmax(x_, splat(0)); break;                  \
        case KNN_ACT_RELU6: x_ = vmin(vmax(x_, splat(0)), splat(6)); break; \
        case KNN_ACT_RELU_N1_TO_1: x_ = vmin(vmax(x_, splat(-1)), splat(1)); break; \
        case KNN_ACT_PRELU: {                                               \
            v16 alpha_ = load16((act).alpha + (block) * KNN_BLOCK);         \
            x_ = x_ < 0 ? x_ * alpha_ : x_; break;                          \
        }                                                                   \
        case KNN_ACT_HARD_SWISH:                                            \
            x_ = x_ * vmin(vmax(x_ + splat(3), splat(0)), splat(6)) * splat(1.0f / 6.0f); break; \
        default: break;                                                     \
        }                                                                   \
        x_ * splat((act).scale) + splat((act).shift);                       \
    })

// e^x for x ≤ 0 (softmax subtracts the row's peak first), 16 lanes: 2^(x·log2 e) split into
// an integer power (built in the exponent bits) and a degree-5 polynomial for 2^f on
// [-0.5, 0.5] (relative error under 2e-7); below −87 the result flushes to zero.
#define EXP_NONPOSITIVE(x) ({                                                          \
        v16 x_ = (x);                                                                   \
        v16 t_ = x_ * splat(1.44269504088896341f);                                      \
        t_ = t_ > splat(-126.0f) ? t_ : splat(-126.0f);                                 \
        v16 r_ = __builtin_elementwise_round(t_);                                       \
        v16 f_ = t_ - r_;                                                               \
        v16 p_ = splat(1.3333558146428443e-3f);                                         \
        p_ = p_ * f_ + splat(9.6181291076284772e-3f);                                   \
        p_ = p_ * f_ + splat(5.5504108664821580e-2f);                                   \
        p_ = p_ * f_ + splat(2.4022650695910071e-1f);                                   \
        p_ = p_ * f_ + splat(6.9314718055994531e-1f);                                   \
        p_ = p_ * f_ + splat(1.0f);                                                     \
        typedef int v16i_ __attribute__((ext_vector_type(16)));                         \
        v16i_ bits_ = (__builtin_convertvector(r_, v16i_) + 127) << 23;                 \
        v16 scale_ = (v16)bits_;                                                        \
        v16 e_ = p_ * scale_;                                                           \
        x_ < splat(-87.0f) ? splat(0) : e_;                                             \
    })

#endif
