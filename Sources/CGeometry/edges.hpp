// Edge fitting shared by rectangle detection and rectangle tracking.
#pragma once

#include <array>

#include <opencv2/core.hpp>

namespace kgeo {

/// Moves each side of `corners` (continuous pixel coordinates, clockwise) onto the strongest
/// straight edge within `radius` pixels of it and re-intersects the sides. Returns false (and
/// leaves `corners`) unless every side found its edge along most of its length.
bool snapToEdges(const cv::Mat &gray, std::array<cv::Point2d, 4> &corners, double radius);

}  // namespace kgeo
