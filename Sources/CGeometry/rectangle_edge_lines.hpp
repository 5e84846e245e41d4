// Edges: straight edge lines at the working scale, from outline segments and edge pixels.
#pragma once

#include <utility>
#include <vector>

#include "rectangle_geometry.hpp"

namespace kgeo::rect {

/// A straight edge at the working scale: the segments found along one line.
struct EdgeLine {
    cv::Point2d point, direction, normal;
    double offset = 0;
    std::vector<std::pair<double, double>> spans;  // intervals along `direction`
    double support = 0;

    double position(cv::Point2d p) const { return (p - point).dot(direction); }

    /// The length of line covered by segments between positions t0 and t1 (spans merged).
    double covered(double t0, double t1) const {
        double total = 0;
        for (auto [s0, s1] : spans) total += std::max(0.0, std::min(s1, t1) - std::max(s0, t0));
        return total;
    }

    /// Sorts the spans and joins overlapping ones, so `covered` can simply add them up.
    void mergeSpans();

    double coverageLength() const { return covered(-1e18, 1e18); }

    /// How much of the stretch between positions `t0` and `t1` has an edge segment on it.
    double coverage(double t0, double t1) const {
        if (t0 > t1) std::swap(t0, t1);
        if (t1 - t0 < 1) return 0;
        return covered(t0, t1) / (t1 - t0);
    }
};

/// Straight runs of the edge outlines merged into lines, best supported first, each covered
/// by segments over at least `minimumSupport`: a side broken by glare, low contrast or
/// something lying across it is still one line, which a closed contour cannot offer.
std::vector<EdgeLine> edgeLines(const std::vector<std::vector<cv::Point>> &outlines, cv::Size size,
                                double minimumSupport);

/// The `count` best-supported of `lines` (sorted best first), and also the best `perOrientation`
/// in each 10° band of orientation. A building's or a board's straight edges run in a few
/// directions and outnumber the sides of a card lying askew on it: a side 200 px long ranked
/// 150th of all lines but first in its own direction.
std::vector<EdgeLine> strongestLines(const std::vector<EdgeLine> &lines, size_t count, int perOrientation);

/// Adds the edge map's own evidence to each line's spans: where along it an edge pixel lies
/// within 1 px across, its gradient across the line, after refitting the line once to those
/// pixels. Outline segments break up wherever noise or texture crossing a side wiggles its
/// edge by more than their tolerance, so a sharp side could show on a quarter of its length;
/// its pixels show most of it.
void addEdgePixelSpans(std::vector<EdgeLine> &lines, const cv::Mat &edges, const cv::Mat &gx, const cv::Mat &gy);

}  // namespace kgeo::rect
