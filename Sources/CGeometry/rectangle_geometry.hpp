// Quads and the small geometry every stage of the rectangle search shares.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include <opencv2/imgproc.hpp>

namespace kgeo::rect {

using Corners = std::array<cv::Point2d, 4>;

/// A rectangle found: its corners, how well edged it is, and the score it is ranked by.
struct Candidate {
    Corners corners;
    double confidence = 0;
    /// The confidence with every side's `SideFit::peakSupport` (documents only; else 0).
    double outlineConfidence = 0;
    double score = 0;
};

/// Clockwise on screen, starting at the corner nearest the image's top-left.
inline Corners ordered(Corners p) {
    cv::Point2d c(0, 0);
    for (auto &q : p) c += q * 0.25;
    std::sort(p.begin(), p.end(), [&](const cv::Point2d &a, const cv::Point2d &b) {
        return std::atan2(a.y - c.y, a.x - c.x) < std::atan2(b.y - c.y, b.x - c.x);
    });
    int first = 0;
    for (int i = 1; i < 4; i++)
        if (p[i].x + p[i].y < p[first].x + p[first].y) first = i;
    std::rotate(p.begin(), p.begin() + first, p.end());
    return p;
}

/// Where two lines (point, direction) meet; false when (nearly) parallel.
inline bool intersect(cv::Point2d p1, cv::Point2d d1, cv::Point2d p2, cv::Point2d d2, cv::Point2d &out) {
    double det = d1.x * d2.y - d1.y * d2.x;
    if (std::abs(det) < 1e-9 * cv::norm(d1) * cv::norm(d2)) return false;
    cv::Point2d w = p2 - p1;
    double t = (w.x * d2.y - w.y * d2.x) / det;
    out = p1 + d1 * t;
    return true;
}

/// The angle at `corner` between the sides to its neighbours, in degrees.
inline double cornerAngle(cv::Point2d previous, cv::Point2d corner, cv::Point2d next) {
    cv::Point2d a = previous - corner, b = next - corner;
    double c = (a.x * b.x + a.y * b.y) / (cv::norm(a) * cv::norm(b) + 1e-12);
    return std::acos(std::clamp(c, -1.0, 1.0)) * 180 / CV_PI;
}

/// The quad as OpenCV's polygon type.
inline std::vector<cv::Point2f> polygon(const Corners &quad) {
    std::vector<cv::Point2f> points;
    for (auto &c : quad) points.emplace_back(static_cast<float>(c.x), static_cast<float>(c.y));
    return points;
}

/// Intersection over union of two convex quads.
inline double overlap(const Corners &a, const Corners &b) {
    std::vector<cv::Point2f> pa = polygon(a), pb = polygon(b), common;
    double areaA = std::abs(cv::contourArea(pa)), areaB = std::abs(cv::contourArea(pb));
    double shared = cv::intersectConvexConvex(pa, pb, common, true);
    double united = areaA + areaB - shared;
    return united > 0 ? shared / united : 0;
}

/// Same rectangle: every corner within `tolerance` of the other's.
inline bool sameQuad(const Corners &a, const Corners &b, double tolerance) {
    for (int i = 0; i < 4; i++)
        if (cv::norm(a[i] - b[i]) > tolerance) return false;
    return true;
}

/// Whether the segment a–b runs along the image's border: both ends within `margin` of one
/// edge of an image `width` × `height`.
inline bool alongBorder(cv::Point2d a, cv::Point2d b, double width, double height, double margin) {
    const double right = width - margin, bottom = height - margin;
    return (a.x <= margin && b.x <= margin) || (a.y <= margin && b.y <= margin) || (a.x >= right && b.x >= right) ||
           (a.y >= bottom && b.y >= bottom);
}

/// A direction folded into [0°, 180°) (a line's orientation, whichever way it was traced).
inline cv::Point2d orientation(cv::Point2d u) {
    if (u.y < 0 || (u.y == 0 && u.x < 0)) u = -u;
    return u;
}

/// Sobel's gradient at (x, y) (at least one pixel inside the border) across `normal`.
inline double gradientAcross(const cv::Mat &gray, int x, int y, cv::Point2d normal) {
    const uint8_t *up = gray.ptr<uint8_t>(y - 1), *mid = gray.ptr<uint8_t>(y), *down = gray.ptr<uint8_t>(y + 1);
    double gx = (up[x + 1] + 2.0 * mid[x + 1] + down[x + 1]) - (up[x - 1] + 2.0 * mid[x - 1] + down[x - 1]);
    double gy = (down[x - 1] + 2.0 * down[x] + down[x + 1]) - (up[x - 1] + 2.0 * up[x] + up[x + 1]);
    return std::abs(gx * normal.x + gy * normal.y);
}

/// `gray` scaled down (area averaging) so its longer side is at most `longest`, and the scale.
inline cv::Mat atMost(const cv::Mat &gray, int longest, double &scale) {
    scale = std::min(1.0, static_cast<double>(longest) / std::max(gray.cols, gray.rows));
    if (scale >= 1) return gray;
    cv::Mat small;
    cv::resize(gray, small, cv::Size(), scale, scale, cv::INTER_AREA);
    return small;
}

}  // namespace kgeo::rect
