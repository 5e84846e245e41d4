// Bilinear resize with TFLite's coordinate rules.
#include "knn_vector.h"

void knn_resize_bilinear(const float *in, int ih, int iw, int c, float *out, int oh, int ow,
                         int align_corners, int half_pixel_centers) {
    float scale_y = (align_corners && oh > 1) ? (float)(ih - 1) / (oh - 1) : (float)ih / oh;
    float scale_x = (align_corners && ow > 1) ? (float)(iw - 1) / (ow - 1) : (float)iw / ow;
    for (int y = 0; y < oh; y++) {
        float fy = half_pixel_centers ? ((float)y + 0.5f) * scale_y - 0.5f : (float)y * scale_y;
        if (fy < 0) fy = 0;
        int y0 = (int)floorf(fy);
        int y1 = y0 + 1 < ih ? y0 + 1 : ih - 1;
        if (y0 > ih - 1) y0 = ih - 1;
        float wy = fy - (float)y0;
        for (int x = 0; x < ow; x++) {
            float fx = half_pixel_centers ? ((float)x + 0.5f) * scale_x - 0.5f : (float)x * scale_x;
            if (fx < 0) fx = 0;
            int x0 = (int)floorf(fx);
            int x1 = x0 + 1 < iw ? x0 + 1 : iw - 1;
            if (x0 > iw - 1) x0 = iw - 1;
            float wx = fx - (float)x0;
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
