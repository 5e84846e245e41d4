// A quad of a photo warped to an upright page, optionally with the lighting divided out (what
// a document scanner does so paper comes out white and ink stays dark).
#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "guard.hpp"

namespace {

/// Each channel divided by a smooth estimate of the paper under it: the brightest values
/// nearby (ink is thin and dark, so a maximum filter sees past it), blurred.
void whiten(cv::Mat &page) {
    const double shrink = std::min(1.0, 400.0 / std::max(page.cols, page.rows));
    cv::Mat small;
    cv::resize(page, small, cv::Size(), shrink, shrink, cv::INTER_AREA);
    int k = std::max(3, (std::min(small.cols, small.rows) / 30) | 1);
    cv::Mat background;
    cv::dilate(small, background, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(k, k)));
    cv::GaussianBlur(background, background, cv::Size(2 * k + 1, 2 * k + 1), 0);
    cv::resize(background, background, page.size(), 0, 0, cv::INTER_LINEAR);
    cv::Mat pageF, backgroundF;
    page.convertTo(pageF, CV_32F);
    background.convertTo(backgroundF, CV_32F);
    cv::max(backgroundF, 1.0, backgroundF);
    cv::divide(pageF, backgroundF, pageF, 255.0);
    pageF.convertTo(page, CV_8U);
}

}  // namespace

extern "C" int kgeo_flatten_quad(const kgeo_image *source, const double *corners, int width, int height, int whitenPage,
                                 int blackOutside, uint8_t *out, char *error, size_t error_size) {
    return kgeo::guarded(error, error_size, [&] {
        cv::Mat image = kgeo::wrap(source);
        if (!corners || !out || width <= 0 || height <= 0) throw std::invalid_argument("invalid page size");
        // Corners are continuous coordinates (pixel centres at +0.5); warpPerspective samples
        // at pixel centres, hence the half-pixel shifts on both sides.
        cv::Point2f from[4], to[4] = {{0, 0}, {static_cast<float>(width), 0},
                                      {static_cast<float>(width), static_cast<float>(height)},
                                      {0, static_cast<float>(height)}};
        for (int k = 0; k < 4; k++) {
            from[k] = cv::Point2f(static_cast<float>(corners[2 * k] - 0.5), static_cast<float>(corners[2 * k + 1] - 0.5));
            to[k] -= cv::Point2f(0.5f, 0.5f);
        }
        cv::Mat transform = cv::getPerspectiveTransform(from, to);
        cv::Mat page(height, width, image.type(), out);
        cv::warpPerspective(image, page, transform, page.size(), cv::INTER_LINEAR,
                            blackOutside ? cv::BORDER_CONSTANT : cv::BORDER_REPLICATE, cv::Scalar::all(0));
        if (page.data != out) throw std::runtime_error("warp reallocated its output");
        if (whitenPage) {
            whiten(page);
            if (page.data != out) throw std::runtime_error("whitening reallocated its output");
        }
    });
}
