// Camera motion between consecutive frames, for video stabilization. Corners are picked in a
// grid of cells (a few per cell, so one busy region — a crowd walking by — cannot supply all
// of them), carried to the next frame by pyramidal Lucas–Kanade flow, and fitted with a
// similarity (shift, turn, scale) by RANSAC, so things moving in the scene and points the flow
// lost are outliers and the camera's own motion is what remains (a backward flow check cost as
// much as the forward flow and changed nothing RANSAC did not already reject). Frames are worked on at
// most 640 px wide: the shake is many pixels, and a fit over hundreds of points is sub-pixel.
#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include "guard.hpp"

namespace {

constexpr int kWorkWidth = 640;
constexpr int kGridColumns = 8;
constexpr int kGridRows = 6;
constexpr int kCornersPerCell = 8;
/// Fewer tracked points than this and the frame pair is left unexplained (identity).
constexpr int kLeastPoints = 12;

cv::Mat workingGray(const cv::Mat &image, double scale) {
    cv::Mat gray;
    if (image.channels() == 1)
        gray = image;
    else
        cv::cvtColor(image, gray, cv::COLOR_RGB2GRAY);
    if (scale >= 1) return gray;
    cv::Mat out;
    cv::resize(gray, out, cv::Size(), scale, scale, cv::INTER_AREA);
    return out;
}

/// The best few corners of one grid cell of the corner-strength map `strength` (local
/// maxima above 2 % of the cell's strongest, at least `spacing` apart), in `scale` pixels.
void bestInCell(const cv::Mat &strength, const cv::Mat &peaks, const cv::Rect &cell, float spacing, float scale,
                std::vector<cv::Point2f> &out) {
    double strongest = 0;
    cv::minMaxLoc(strength(cell), nullptr, &strongest);
    const float threshold = static_cast<float>(strongest * 0.02);
    std::vector<std::pair<float, cv::Point>> candidates;
    for (int y = cell.y; y < cell.y + cell.height; ++y) {
        const float *value = strength.ptr<float>(y), *peak = peaks.ptr<float>(y);
        for (int x = cell.x; x < cell.x + cell.width; ++x)
            if (value[x] > threshold && value[x] == peak[x]) candidates.emplace_back(value[x], cv::Point(x, y));
    }
    std::sort(candidates.begin(), candidates.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    std::vector<cv::Point2f> picked;
    for (const auto &candidate : candidates) {
        cv::Point2f point(static_cast<float>(candidate.second.x), static_cast<float>(candidate.second.y));
        bool apart = std::all_of(picked.begin(), picked.end(), [&](const cv::Point2f &other) {
            cv::Point2f d = other - point;
            return d.x * d.x + d.y * d.y >= spacing * spacing;
        });
        if (!apart) continue;
        picked.push_back(point);
        if (static_cast<int>(picked.size()) == kCornersPerCell) break;
    }
    for (const auto &point : picked) out.emplace_back(point.x * scale, point.y * scale);
}

/// Strong corners spread over the frame: the best few of each grid cell. The corner strength
/// (the structure tensor's smaller eigenvalue) is computed once, at half size when the frame
/// is large enough: a corner only has to be trackable, and Lucas–Kanade refines where it goes.
std::vector<cv::Point2f> spreadCorners(const cv::Mat &gray) {
    std::vector<cv::Point2f> all;
    float scale = gray.cols >= 320 ? 2.0f : 1.0f;
    cv::Mat small = gray;
    if (scale > 1) cv::resize(gray, small, cv::Size(), 1 / scale, 1 / scale, cv::INTER_AREA);
    int cellWidth = small.cols / kGridColumns, cellHeight = small.rows / kGridRows;
    if (cellWidth < 8 || cellHeight < 8) {
        cv::goodFeaturesToTrack(gray, all, kGridColumns * kGridRows * kCornersPerCell, 0.01, 4);
        return all;
    }
    cv::Mat strength, peaks;
    cv::cornerMinEigenVal(small, strength, 3, 3);
    cv::dilate(strength, peaks, cv::Mat());
    for (int row = 0; row < kGridRows; ++row)
        for (int column = 0; column < kGridColumns; ++column)
            bestInCell(strength, peaks, cv::Rect(column * cellWidth, row * cellHeight, cellWidth, cellHeight),
                       std::max(2.0f, cellWidth / 6.0f), scale, all);
    return all;
}

/// Points of `previous` followed into `next` (those the flow lost are dropped).
void follow(const cv::Mat &previous, const cv::Mat &next, const std::vector<cv::Point2f> &points,
            std::vector<cv::Point2f> &from, std::vector<cv::Point2f> &to) {
    cv::Size window(15, 15);
    std::vector<cv::Mat> before, after;
    cv::buildOpticalFlowPyramid(previous, before, window, 3, true);
    cv::buildOpticalFlowPyramid(next, after, window, 3, true);
    std::vector<cv::Point2f> forward;
    std::vector<uchar> status;
    std::vector<float> error;
    cv::TermCriteria stop(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 10, 0.03);
    cv::calcOpticalFlowPyrLK(before, after, points, forward, status, error, window, 3, stop);
    for (size_t i = 0; i < points.size(); ++i) {
        if (!status[i]) continue;
        from.push_back(points[i]);
        to.push_back(forward[i]);
    }
}

}  // namespace

int kgeo_camera_motion(const kgeo_image *previous, const kgeo_image *next, double *matrix, double *confidence,
                       char *error, size_t error_size) {
    return kgeo::guarded(error, error_size, [&] {
        cv::Mat a = kgeo::wrap(previous), b = kgeo::wrap(next);
        if (a.size() != b.size()) throw std::invalid_argument("frames differ in size");
        double scale = std::min(1.0, static_cast<double>(kWorkWidth) / a.cols);
        cv::Mat grayA = workingGray(a, scale), grayB = workingGray(b, scale);
        const double identity[6] = {1, 0, 0, 0, 1, 0};
        std::copy(identity, identity + 6, matrix);
        *confidence = 0;
        std::vector<cv::Point2f> points = spreadCorners(grayA), from, to;
        if (static_cast<int>(points.size()) < kLeastPoints) return;
        follow(grayA, grayB, points, from, to);
        if (static_cast<int>(from.size()) < kLeastPoints) return;
        std::vector<uchar> inliers;
        cv::Mat fit = cv::estimateAffinePartial2D(from, to, inliers, cv::RANSAC, 1.0, 2000, 0.995, 10);
        if (fit.empty()) return;
        int kept = cv::countNonZero(inliers);
        if (kept < kLeastPoints) return;
        // Back to full-resolution pixels: the linear part is scale-free, the shift is not.
        for (int row = 0; row < 2; ++row) {
            matrix[row * 3] = fit.at<double>(row, 0);
            matrix[row * 3 + 1] = fit.at<double>(row, 1);
            matrix[row * 3 + 2] = fit.at<double>(row, 2) / scale;
        }
        *confidence = static_cast<double>(kept) / static_cast<double>(points.size());
    });
}

int kgeo_warp_affine(const kgeo_image *source, const double *matrix, int keep_outside, uint8_t *destination,
                     int destination_stride, char *error, size_t error_size) {
    return kgeo::guarded(error, error_size, [&] {
        cv::Mat from = kgeo::wrap(source);
        for (int i = 0; i < 6; ++i)
            if (!std::isfinite(matrix[i])) throw std::invalid_argument("the transform is not finite");
        if (!destination || destination_stride < from.cols * from.channels())
            throw std::invalid_argument("invalid destination");
        cv::Mat to(from.rows, from.cols, from.type(), destination, static_cast<size_t>(destination_stride));
        cv::Mat m(2, 3, CV_64F, const_cast<double *>(matrix));
        // Transparent borders leave the destination's pixels where the source has none.
        cv::warpAffine(from, to, m, from.size(), cv::INTER_LINEAR,
                       keep_outside ? cv::BORDER_TRANSPARENT : cv::BORDER_REPLICATE);
    });
}
