#include "opencv_warp_reference.h"
#include <opencv2/imgproc.hpp>

int opencv_warp_reference(const uint8_t *src, int w, int h, float cx, float cy, float rw, float rh, float degrees,
                          uint8_t *out, int ow, int oh, int replicate) {
    try {
        const cv::Mat image(h, w, CV_8UC3, const_cast<uint8_t *>(src));
        cv::Mat corners;
        cv::boxPoints(cv::RotatedRect(cv::Point2f(cx, cy), cv::Size2f(rw, rh), degrees), corners);
        const float width = static_cast<float>(ow), height = static_cast<float>(oh);
        float target[8] = {0.0f, height, 0.0f, 0.0f, width, 0.0f, width, height};
        const cv::Mat projection = cv::getPerspectiveTransform(corners, cv::Mat(4, 2, CV_32F, target));
        cv::Mat warped(oh, ow, CV_8UC3, out);
        cv::warpPerspective(image, warped, projection, cv::Size(ow, oh), cv::INTER_LINEAR,
                            replicate ? cv::BORDER_REPLICATE : cv::BORDER_CONSTANT);
        return warped.data == out ? 0 : -1;
    } catch (...) {
        return -1;
    }
}
