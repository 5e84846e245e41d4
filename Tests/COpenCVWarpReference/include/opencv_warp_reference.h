// MediaPipe's CPU image-to-tensor step, run by OpenCV itself: the reference KameraNN's
// fixed-point warp (TensorSampler's MediaPipe grid) is checked against in the tests.
#ifndef OPENCV_WARP_REFERENCE_H
#define OPENCV_WARP_REFERENCE_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Warps the region (centre, size, angle in degrees, as cv::RotatedRect) of a packed RGB8
/// image onto an `ow` × `oh` RGB8 image the way MediaPipe's OpenCV converter does:
/// cv::boxPoints, cv::getPerspectiveTransform onto the output's corners, cv::warpPerspective
/// with INTER_LINEAR and a constant (zero) or replicated border. Returns 0, or -1 when OpenCV
/// threw.
int opencv_warp_reference(const uint8_t *src, int w, int h, float cx, float cy, float rw, float rh, float degrees,
                          uint8_t *out, int ow, int oh, int replicate);

#ifdef __cplusplus
}
#endif
#endif
