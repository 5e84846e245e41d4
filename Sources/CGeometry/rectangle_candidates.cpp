// Candidates: quads at the working scale, from closed outlines (edge maps and regions) and
// from quads of four straight edge lines.
#include "rectangle_edge_lines.hpp"
#include "rectangle_stages.hpp"
#include "rectangle_tuning.hpp"

namespace kgeo::rect {
namespace {

using T = Tuning;
using Outlines = std::vector<std::vector<cv::Point>>;

/// The quad whose sides are the polygon's four longest sides that do not run along the image
/// border, or false when those four are not most of the outline (a circle, a blob).
bool quadFromPolygon(const std::vector<cv::Point> &poly, cv::Size size, Corners &quad) {
    int n = static_cast<int>(poly.size());
    if (n < 4) return false;
    struct Side {
        int index;
        double length;
    };
    std::vector<Side> sides;
    double total = 0;
    for (int i = 0; i < n; i++) {
        cv::Point a = poly[i], b = poly[(i + 1) % n];
        if (alongBorder(a, b, size.width - 1, size.height - 1, T::borderMargin)) continue;
        double length = cv::norm(b - a);
        sides.push_back({i, length});
        total += length;
    }
    if (sides.size() < 4) return false;
    std::partial_sort(sides.begin(), sides.begin() + 4, sides.end(),
                      [](const Side &a, const Side &b) { return a.length > b.length; });
    sides.resize(4);
    double kept = 0;
    for (auto &s : sides) kept += s.length;
    if (kept < T::polygonSideShare * total) return false;
    std::sort(sides.begin(), sides.end(), [](const Side &a, const Side &b) { return a.index < b.index; });
    const double beyond = T::cornerBeyondFrame;
    for (int k = 0; k < 4; k++) {
        const Side &s1 = sides[(k + 3) % 4], &s2 = sides[k];
        cv::Point2d a1 = poly[s1.index], b1 = poly[(s1.index + 1) % n];
        cv::Point2d a2 = poly[s2.index], b2 = poly[(s2.index + 1) % n];
        if (!intersect(a1, b1 - a1, a2, b2 - a2, quad[k])) return false;
        // A corner may sit a little outside the frame (cut by it), not far away.
        if (quad[k].x < -beyond * size.width || quad[k].x > (1 + beyond) * size.width ||
            quad[k].y < -beyond * size.height || quad[k].y > (1 + beyond) * size.height)
            return false;
    }
    return true;
}

void addOutlines(const cv::Mat &map, Outlines &outlines) {
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(map, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
    for (auto &c : contours) outlines.push_back(std::move(c));
}

/// A quad of four edge lines: how well they cover its sides, and which lines they are.
struct LineQuad {
    double score = 0;
    Corners corners;
    std::array<int, 4> sides{};
};

/// Where every two lines meet (and whether near enough the frame to be a corner), and how
/// far along each line that is: a quad's corners and its sides' extents are then lookups.
class Meetings {
  public:
    struct Meeting {
        cv::Point2d point;
        double along = 0;  // position on the row's line
        bool ok = false;
    };

    Meetings(const std::vector<EdgeLine> &lines, cv::Size size) : n(static_cast<int>(lines.size())), all(size_t(n) * n) {
        const double margin = T::lineCornerMargin;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                Meeting &m = all[static_cast<size_t>(i) * n + j], &mirror = all[static_cast<size_t>(j) * n + i];
                m.ok = intersect(lines[i].point, lines[i].direction, lines[j].point, lines[j].direction, m.point) &&
                       m.point.x > -margin * size.width && m.point.x < (1 + margin) * size.width &&
                       m.point.y > -margin * size.height && m.point.y < (1 + margin) * size.height;
                if (m.ok) m.along = lines[i].position(m.point);
                mirror = m;
                if (m.ok) mirror.along = lines[j].position(m.point);
            }
    }

    const Meeting &operator()(int i, int j) const { return all[static_cast<size_t>(i) * n + j]; }

  private:
    int n;
    std::vector<Meeting> all;
};

/// The quad on lines `sides` (in order round it) when each side is at least `weakestCoverage`
/// covered and `meanCoverage` on average (a card's sides against a crowd or foliage break up
/// into short runs), scored by coverage and by how little the lines run on past the corners.
bool lineQuad(const std::vector<EdgeLine> &lines, const Meetings &meeting, const int sides[4], LineQuad &quad) {
    for (int k = 0; k < 4; k++)
        if (!meeting(sides[k], sides[(k + 1) % 4]).ok) return false;
    // Side k runs from its meeting with side k-1 to its meeting with side k+1.
    double total = 0, weakest = 1;
    for (int k = 0; k < 4 && weakest >= T::weakestCoverage; k++) {
        double c = lines[sides[k]].coverage(meeting(sides[k], sides[(k + 3) % 4]).along,
                                            meeting(sides[k], sides[(k + 1) % 4]).along);
        total += c;
        weakest = std::min(weakest, c);
    }
    if (weakest < T::weakestCoverage || total < 4 * T::meanCoverage) return false;
    for (int k = 0; k < 4; k++) quad.corners[k] = meeting(sides[k], sides[(k + 1) % 4]).point;
    // Real corners end their edges; a grid's lines run on past every crossing.
    double runOn = 0;
    for (int k = 0; k < 4; k++) {
        double t0 = meeting(sides[k], sides[(k + 3) % 4]).along, t1 = meeting(sides[k], sides[(k + 1) % 4]).along;
        double reach = std::max(T::runOnReach, T::runOnReachShare * std::abs(t1 - t0)) * (t1 > t0 ? 1 : -1);
        runOn += lines[sides[k]].coverage(t0 - reach, t0) + lines[sides[k]].coverage(t1, t1 + reach);
    }
    quad.score = (total / 4 + T::weakestWeight * weakest) * (1 - T::lineRunOnWeight * runOn / 8);
    quad.sides = {sides[0], sides[1], sides[2], sides[3]};
    return true;
}

/// Quads whose four sides lie on edge lines: two pairs of near-parallel lines far enough
/// apart, the pairs near-perpendicular.
std::vector<LineQuad> lineQuads(const std::vector<EdgeLine> &lines, cv::Size size, double minimumSide, double tolerance) {
    struct Pair {
        int a, b;
        cv::Point2d direction;
    };
    std::vector<Pair> pairs;
    const double parallel = std::cos((tolerance + T::pairingSlack) * CV_PI / 180);
    for (int i = 0; i < static_cast<int>(lines.size()); i++)
        for (int j = i + 1; j < static_cast<int>(lines.size()); j++) {
            double c = lines[i].direction.dot(lines[j].direction);
            if (std::abs(c) < parallel) continue;
            // Far enough apart to be opposite sides of a large enough rectangle.
            if (std::abs(lines[i].point.dot(lines[j].normal) - lines[j].offset) < minimumSide) continue;
            cv::Point2d d = lines[i].direction + lines[j].direction * (c < 0 ? -1.0 : 1.0);
            pairs.push_back({i, j, d / cv::norm(d)});
        }
    const double perpendicular = std::sin((90 - tolerance - T::pairingSlack) * CV_PI / 180);
    Meetings meeting(lines, size);
    std::vector<LineQuad> out;
    for (size_t p = 0; p < pairs.size(); p++)
        for (size_t q = p + 1; q < pairs.size(); q++) {
            const Pair &first = pairs[p], &second = pairs[q];
            if (first.a == second.a || first.a == second.b || first.b == second.a || first.b == second.b) continue;
            double cross = std::abs(first.direction.x * second.direction.y - first.direction.y * second.direction.x);
            if (cross < perpendicular) continue;
            const int sides[4] = {first.a, second.a, first.b, second.b};
            LineQuad quad;
            if (lineQuad(lines, meeting, sides, quad)) out.push_back(quad);
        }
    return out;
}

/// Closed outlines of the edge maps at three contrasts and of Otsu regions of both
/// polarities (a page brighter or darker than what it lies on, whatever its edge looks
/// like); `faintEdges` gets the lowest contrast's edge pixels, one wide.
Outlines edgeAndRegionOutlines(const cv::Mat &smooth, cv::Mat &faintEdges) {
    Outlines outlines;
    cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
    for (auto [low, high] : T::cannyThresholds) {
        cv::Mat edges;
        cv::Canny(smooth, edges, low, high, 3, true);
        if (faintEdges.empty()) faintEdges = edges.clone();
        cv::dilate(edges, edges, kernel);
        addOutlines(edges, outlines);
    }
    cv::Mat binary;
    cv::threshold(smooth, binary, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    addOutlines(binary, outlines);
    cv::bitwise_not(binary, binary);
    addOutlines(binary, outlines);
    return outlines;
}

/// The best-covered line quads, and for documents also the best by coverage and size,
/// passing over a quad when two of its lines already serve `maximumLineUses` chosen quads: a
/// building's or a board's grid of well-edged lines makes thousands of fully covered quads,
/// which crowded out a card lying on it (ranked 900th to 1900th).
void chooseLineQuads(std::vector<LineQuad> fromLines, size_t lineCount, bool prefersLarge, std::vector<Corners> &coarse) {
    std::sort(fromLines.begin(), fromLines.end(), [](auto &a, auto &b) { return a.score > b.score; });
    std::vector<int> uses(lineCount, 0);
    std::vector<bool> taken(fromLines.size(), false);
    auto choose = [&](const std::vector<size_t> &order, size_t count) {
        size_t chosen = 0;
        for (size_t i : order) {
            if (chosen >= count) break;
            if (taken[i]) continue;
            int saturated = 0;
            for (int side : fromLines[i].sides) saturated += uses[side] >= T::maximumLineUses;
            if (saturated >= 2) continue;
            for (int side : fromLines[i].sides) uses[side]++;
            taken[i] = true;
            coarse.push_back(fromLines[i].corners);
            chosen++;
        }
    };
    std::vector<size_t> order(fromLines.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = i;
    choose(order, T::quadsByCoverage);
    if (!prefersLarge) return;
    std::vector<double> bySize(fromLines.size());
    for (size_t i = 0; i < fromLines.size(); i++)
        bySize[i] = fromLines[i].score * std::sqrt(std::abs(cv::contourArea(polygon(fromLines[i].corners))));
    // Ties keep the coverage order (std::stable_sort warns under this libstdc++).
    std::sort(order.begin(), order.end(),
              [&](size_t x, size_t y) { return bySize[x] != bySize[y] ? bySize[x] > bySize[y] : x < y; });
    choose(order, T::quadsBySize);
}

/// Quads of the closed outlines that are large and convex enough.
void outlineQuads(const Outlines &outlines, cv::Size size, double minimumSmallSide, std::vector<Corners> &coarse) {
    for (auto &outline : outlines) {
        cv::Rect box = cv::boundingRect(outline);
        if (std::min(box.width, box.height) < minimumSmallSide) continue;
        std::vector<cv::Point> hull;
        cv::convexHull(outline, hull);
        double hullArea = cv::contourArea(hull);
        if (hullArea < minimumSmallSide * minimumSmallSide) continue;
        if (std::abs(cv::contourArea(outline)) < T::outlineSolidity * hullArea) continue;
        std::vector<cv::Point> approximated;
        cv::approxPolyDP(hull, approximated, T::hullApproximation * cv::arcLength(hull, true), true);
        Corners quad;
        if (quadFromPolygon(approximated, size, quad)) coarse.push_back(quad);
    }
}

}  // namespace

std::vector<Corners> candidateQuads(const cv::Mat &small, double minimumSmallSide, double quadratureTolerance,
                                    bool prefersLarge) {
    cv::Mat smooth;
    cv::GaussianBlur(small, smooth, cv::Size(T::blurSize, T::blurSize), 0);
    cv::Mat faintEdges;
    Outlines outlines = edgeAndRegionOutlines(smooth, faintEdges);

    std::vector<Corners> coarse;
    std::vector<EdgeLine> lines =
        strongestLines(edgeLines(outlines, small.size(), T::lineSupportShare * minimumSmallSide),
                       prefersLarge ? T::documentLines : T::rectangleLines, T::linesPerOrientation);
    cv::Mat gx, gy;
    cv::Sobel(smooth, gx, CV_16S, 1, 0);
    cv::Sobel(smooth, gy, CV_16S, 0, 1);
    addEdgePixelSpans(lines, faintEdges, gx, gy);
    chooseLineQuads(lineQuads(lines, small.size(), minimumSmallSide, quadratureTolerance), lines.size(), prefersLarge,
                    coarse);
    outlineQuads(outlines, small.size(), minimumSmallSide, coarse);
    return coarse;
}

}  // namespace kgeo::rect
