// Edges: outline segments merged into straight lines, and edge pixels added to them.
#include "rectangle_edge_lines.hpp"

#include <unordered_map>

#include "rectangle_tuning.hpp"

namespace kgeo::rect {
namespace {

using T = Tuning;
using Segment = std::pair<cv::Point2d, cv::Point2d>;

/// The straight runs of every outline, longest first, without those along the image's border
/// (where a region's outline meets the frame).
std::vector<Segment> outlineSegments(const std::vector<std::vector<cv::Point>> &outlines, cv::Size size) {
    std::vector<Segment> segments;
    std::vector<cv::Point> polyline;
    for (auto &outline : outlines) {
        if (outline.size() < 4) continue;
        cv::approxPolyDP(outline, polyline, T::segmentApproximation, true);
        for (size_t k = 0; k < polyline.size(); k++) {
            cv::Point2d a = polyline[k], b = polyline[(k + 1) % polyline.size()];
            if (alongBorder(a, b, size.width - 1, size.height - 1, T::borderMargin)) continue;
            if (cv::norm(b - a) >= T::minimumSegment) segments.emplace_back(a, b);
        }
    }
    std::sort(segments.begin(), segments.end(),
              [](const auto &a, const auto &b) { return cv::norm(a.second - a.first) > cv::norm(b.second - b.first); });
    return segments;
}

/// Lines bucketed by orientation and offset from the image's centre, so each segment checks
/// only its neighbours' lines. A segment's offset is taken across its own direction, which
/// may differ from its line's by the full angle tolerance: at up to half the diagonal from
/// the centre that moves it by up to `offsetReach` bins.
class LineIndex {
  public:
    explicit LineIndex(cv::Size size)
        : centre(0.5 * size.width, 0.5 * size.height),
          offsetReach(static_cast<int>(
              std::ceil((T::lineOffsetTolerance + 0.5 * std::hypot(size.width, size.height) *
                                                      std::sin(T::lineAngleTolerance * CV_PI / 180)) /
                        T::offsetBin))) {}

    /// The line the segment through `middle` along `u` lies on, or null.
    EdgeLine *owner(cv::Point2d u, cv::Point2d middle, std::vector<EdgeLine> &lines) const {
        auto [angleBin, offsetBin] = binsOf(u, middle);
        for (int da = -1; da <= 1; da++) {
            int bin = angleBin + da;
            long long offsetCentre = offsetBin;
            // Across 0°/180° the orientation flips, and so does the offset's sign.
            if (bin < 0 || bin >= T::angleBins) {
                bin = (bin + T::angleBins) % T::angleBins;
                offsetCentre = -offsetBin - 1;
            }
            for (long long dof = -offsetReach; dof <= offsetReach; dof++) {
                auto found = buckets.find(key(bin, offsetCentre + dof));
                if (found == buckets.end()) continue;
                for (int index : found->second) {
                    EdgeLine &line = lines[index];
                    if (std::abs(u.dot(line.direction)) < angleTolerance) continue;
                    if (std::abs(middle.dot(line.normal) - line.offset) > T::lineOffsetTolerance) continue;
                    return &line;
                }
            }
        }
        return nullptr;
    }

    /// Files line `index`, first seen as the segment through `middle` along `u`.
    void add(int index, cv::Point2d u, cv::Point2d middle) {
        auto [angleBin, offsetBin] = binsOf(u, middle);
        buckets[key(angleBin, offsetBin)].push_back(index);
    }

  private:
    const double angleTolerance = std::cos(T::lineAngleTolerance * CV_PI / 180);
    cv::Point2d centre;
    int offsetReach;
    std::unordered_map<long long, std::vector<int>> buckets;

    static long long key(int angleBin, long long offsetBin) { return offsetBin * 1000 + angleBin; }

    std::pair<int, long long> binsOf(cv::Point2d u, cv::Point2d p) const {
        u = orientation(u);
        double angle = std::atan2(u.y, u.x);
        int angleBin = std::min(T::angleBins - 1, static_cast<int>(angle / CV_PI * T::angleBins));
        double offset = (p - centre).dot(cv::Point2d(-u.y, u.x));
        return {angleBin, static_cast<long long>(std::floor(offset / T::offsetBin))};
    }
};

/// The stretch of `line` inside an image `width` × `height`, as positions along it
/// (t0 > t1 when it misses the image).
std::pair<double, double> insideStretch(const EdgeLine &line, int width, int height) {
    double t0 = -1e18, t1 = 1e18;
    auto clip = [&](double p, double d, double high) {
        if (std::abs(d) < 1e-12) {
            if (p < 0 || p > high) t0 = 1, t1 = 0;
            return;
        }
        double a = -p / d, b = (high - p) / d;
        t0 = std::max(t0, std::min(a, b));
        t1 = std::min(t1, std::max(a, b));
    };
    clip(line.point.x, line.direction.x, width - 1);
    clip(line.point.y, line.direction.y, height - 1);
    return {t0, t1};
}

/// Refits `line` to the edge `pixels` found along it when they run within `refitAngle` of it;
/// the old point is projected, so positions along the line (its spans) still hold.
bool refit(EdgeLine &line, const std::vector<cv::Point2f> &pixels) {
    cv::Vec4f fit;
    cv::fitLine(pixels, fit, cv::DIST_HUBER, 0, 0.01, 0.01);
    cv::Point2d u(fit[0], fit[1]), origin(fit[2], fit[3]);
    if (u.dot(line.direction) < 0) u = -u;
    if (u.dot(line.direction) <= std::cos(T::refitAngle * CV_PI / 180)) return false;
    line.point = origin + u * (line.point - origin).dot(u);
    line.direction = u;
    line.normal = cv::Point2d(-u.y, u.x);
    line.offset = line.point.dot(line.normal);
    return true;
}

}  // namespace

void EdgeLine::mergeSpans() {
    std::sort(spans.begin(), spans.end());
    std::vector<std::pair<double, double>> merged;
    for (auto span : spans) {
        if (!merged.empty() && span.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, span.second);
        else
            merged.push_back(span);
    }
    spans = std::move(merged);
}

std::vector<EdgeLine> edgeLines(const std::vector<std::vector<cv::Point>> &outlines, cv::Size size,
                                double minimumSupport) {
    std::vector<EdgeLine> lines;
    LineIndex index(size);
    for (auto &[a, b] : outlineSegments(outlines, size)) {
        double length = cv::norm(b - a);
        cv::Point2d u = (b - a) / length;
        cv::Point2d middle = (a + b) * 0.5;
        EdgeLine *owner = index.owner(u, middle, lines);
        if (!owner) {
            EdgeLine line;
            line.point = middle;
            line.direction = u;
            line.normal = cv::Point2d(-u.y, u.x);
            line.offset = middle.dot(line.normal);
            index.add(static_cast<int>(lines.size()), u, middle);
            lines.push_back(line);
            owner = &lines.back();
        }
        double t0 = owner->position(a), t1 = owner->position(b);
        owner->spans.emplace_back(std::min(t0, t1), std::max(t0, t1));
        owner->support += length;
    }
    // Support counts each stretch once (both sides of an edge band trace it).
    for (auto &line : lines) {
        line.mergeSpans();
        line.support = line.coverageLength();
    }
    lines.erase(std::remove_if(lines.begin(), lines.end(), [&](const EdgeLine &l) { return l.support < minimumSupport; }),
                lines.end());
    std::sort(lines.begin(), lines.end(), [](const EdgeLine &a, const EdgeLine &b) { return a.support > b.support; });
    return lines;
}

std::vector<EdgeLine> strongestLines(const std::vector<EdgeLine> &lines, size_t count, int perOrientation) {
    std::array<int, T::orientationBands> seen{};
    std::vector<EdgeLine> chosen;
    for (size_t i = 0; i < lines.size(); i++) {
        cv::Point2d u = orientation(lines[i].direction);
        int band = std::min(T::orientationBands - 1, static_cast<int>(std::atan2(u.y, u.x) / CV_PI * T::orientationBands));
        if (i < count || seen[band] < perOrientation) chosen.push_back(lines[i]);
        seen[band]++;
    }
    return chosen;
}

void addEdgePixelSpans(std::vector<EdgeLine> &lines, const cv::Mat &edges, const cv::Mat &gx, const cv::Mat &gy) {
    const int width = edges.cols, height = edges.rows;
    auto onEdge = [&](cv::Point2d q, cv::Point2d n) {
        int x = static_cast<int>(std::lround(q.x)), y = static_cast<int>(std::lround(q.y));
        if (x < 0 || y < 0 || x >= width || y >= height || !edges.at<uint8_t>(y, x)) return false;
        double a = gx.at<int16_t>(y, x), b = gy.at<int16_t>(y, x);
        return std::abs(a * n.x + b * n.y) >= T::pixelAcross * std::hypot(a, b);
    };
    for (auto &line : lines) {
        for (int pass = 0; pass < 2; pass++) {
            auto [t0, t1] = insideStretch(line, width, height);
            std::vector<std::pair<double, double>> spans;
            std::vector<cv::Point2f> pixels;
            double runStart = 0, last = 0;
            bool inRun = false;
            for (double t = std::ceil(t0); t <= t1; t += 1) {
                cv::Point2d q = line.point + line.direction * t;
                bool hit = false;
                for (double d : {0.0, -1.0, 1.0})
                    if (onEdge(q + line.normal * d, line.normal)) {
                        pixels.push_back(q + line.normal * d);
                        hit = true;
                        break;
                    }
                if (!hit) continue;
                if (!inRun || t - last > T::runGap) {
                    if (inRun) spans.emplace_back(runStart, last + 1);
                    runStart = t;
                    inRun = true;
                }
                last = t;
            }
            if (inRun) spans.emplace_back(runStart, last + 1);
            // A line from short segments may be tilted by a degree: refit to its pixels once.
            if (pass == 0 && pixels.size() >= T::refitPixels && refit(line, pixels)) continue;
            for (auto &span : spans)
                if (span.second - span.first >= T::minimumRun) line.spans.push_back(span);
            line.mergeSpans();
            line.support = line.coverageLength();
            break;
        }
    }
}

}  // namespace kgeo::rect
