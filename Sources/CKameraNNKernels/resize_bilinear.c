// Bilinear resize with TFLite's coordinate rules.
#include <stdlib.h>
#include "knn_vector.h"

// Source row and weight of output coordinate `i` along an axis of `in_size` → `out_size`.
static inline void source_of(int i, float scale, int in_size, int half_pixel_centers, int *i0, int *i1, float *w) {
    float f = half_pixel_centers ? ((float)i + 0.5f) * scale - 0.5f : (float)i * scale;
    if (f < 0) f = 0;
    int lo = (int)floorf(f);
    *i1 = lo + 1 < in_size ? lo + 1 : in_size - 1;
    if (lo > in_size - 1) lo = in_size - 1;
    *i0 = lo;
    *w = f - (float)lo;
}

// Input row `y` interpolated along x into `row` (ow × c).
static void horizontal(const float *in, int iw, int c, int y, const int *x0, const int *x1, const float *wx, int ow,
                       float *row) {
    const float *line = in + (size_t)y * iw * c;
    for (int x = 0; x < ow; x++) {
        const float *p0 = line + (size_t)x0[x] * c, *p1 = line + (size_t)x1[x] * c;
        float w = wx[x], *o = row + (size_t)x * c;
        for (int k = 0; k < c; k++) o[k] = p0[k] + (p1[k] - p0[k]) * w;
    }
}

// The same arithmetic, tap by tap: when the row buffers cannot be had.
static void resize_per_pixel(const float *in, int ih, int iw, int c, float *out, int oh, int ow, float scale_y,
                             float scale_x, int half_pixel_centers) {
    for (int y = 0; y < oh; y++) {
        int y0, y1;
        float wy;
        source_of(y, scale_y, ih, half_pixel_centers, &y0, &y1, &wy);
        for (int x = 0; x < ow; x++) {
            int x0, x1;
            float wx;
            source_of(x, scale_x, iw, half_pixel_centers, &x0, &x1, &wx);
            const float *p00 = in + ((size_t)y0 * iw + x0) * c, *p01 = in + ((size_t)y0 * iw + x1) * c;
            const float *p10 = in + ((size_t)y1 * iw + x0) * c, *p11 = in + ((size_t)y1 * iw + x1) * c;
            float *o = out + ((size_t)y * ow + x) * c;
            for (int k = 0; k < c; k++) {
                float top = p00[k] + (p01[k] - p00[k]) * wx;
                float bottom = p10[k] + (p11[k] - p10[k]) * wx;
                o[k] = top + (bottom - top) * wy;
            }
        }
    }
}

// Not multiversioned: on AVX2 the compiler would fuse the blends into FMAs, and the results
// would move by an ulp from the ones every model here was checked against.
void knn_resize_bilinear(const float *in, int ih, int iw, int c, float *out, int oh, int ow,
                         int align_corners, int half_pixel_centers) {
    float scale_y = (align_corners && oh > 1) ? (float)(ih - 1) / (oh - 1) : (float)ih / oh;
    float scale_x = (align_corners && ow > 1) ? (float)(iw - 1) / (ow - 1) : (float)iw / ow;
    // Each input row is interpolated along x once and kept while output rows read it (an
    // upsampling by 2 reads each twice), then rows are blended: the same sums as tap by tap,
    // half the arithmetic and a quarter of the reads of the input.
    size_t row_size = (size_t)ow * c;
    float *rows = malloc(sizeof(float) * 2 * row_size);
    int *xs = malloc(sizeof(int) * 2 * (size_t)ow);
    float *wx = malloc(sizeof(float) * (size_t)ow);
    if (!rows || !xs || !wx) {
        free(rows), free(xs), free(wx);
        resize_per_pixel(in, ih, iw, c, out, oh, ow, scale_y, scale_x, half_pixel_centers);
        return;
    }
    int *x0 = xs, *x1 = xs + ow;
    for (int x = 0; x < ow; x++) source_of(x, scale_x, iw, half_pixel_centers, &x0[x], &x1[x], &wx[x]);
    float *slot[2] = {rows, rows + row_size};
    int held[2] = {-1, -1};
    for (int y = 0; y < oh; y++) {
        int y0, y1;
        float wy;
        source_of(y, scale_y, ih, half_pixel_centers, &y0, &y1, &wy);
        const float *top = NULL, *bottom = NULL;
        int want[2] = {y0, y1};
        const float *found[2];
        for (int j = 0; j < 2; j++) {
            int s = held[0] == want[j] ? 0 : held[1] == want[j] ? 1 : -1;
            if (s < 0) {
                // Replace the row the other tap does not need.
                s = (j == 1 && held[0] == y0) ? 1 : (j == 1 && held[1] == y0) ? 0 : (held[0] == y1 ? 1 : 0);
                horizontal(in, iw, c, want[j], x0, x1, wx, ow, slot[s]);
                held[s] = want[j];
            }
            found[j] = slot[s];
        }
        top = found[0], bottom = found[1];
        float *o = out + (size_t)y * row_size;
        for (size_t i = 0; i < row_size; i++) o[i] = top[i] + (bottom[i] - top[i]) * wy;
    }
    free(rows), free(xs), free(wx);
}
