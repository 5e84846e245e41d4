// Rectangle finding: candidate outlines from several edge and threshold maps at a working
// scale, each turned into a quad from its four longest sides (so rounded corners and a corner
// cut by the frame still give the true corners), then every side re-fitted to the strongest
// edge at full resolution and scored by how much of the outline has an edge under it.
#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "edges.hpp"
#include "guard.hpp"

namespace {

using Corners = std::array<cv::Point2d, 4>;

struct Candidate {
    Corners corners;
    double confidence = 0;
    double score = 0;
};

/// Longest side the candidate search works at; finer detail comes back in the refinement.
constexpr int kWorkingSize = 720;
/// Longest side the refinement samples edges at (larger photos are averaged down to it: their
/// single-pixel edges are noise, not position).
constexpr int kRefineSize = 1600;

/// Clockwise on screen, starting at the corner nearest the image's top-left.
Corners ordered(Corners p) {
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
bool intersect(cv::Point2d p1, cv::Point2d d1, cv::Point2d p2, cv::Point2d d2, cv::Point2d &out) {
    double det = d1.x * d2.y - d1.y * d2.x;
    if (std::abs(det) < 1e-9 * cv::norm(d1) * cv::norm(d2)) return false;
    cv::Point2d w = p2 - p1;
    double t = (w.x * d2.y - w.y * d2.x) / det;
    out = p1 + d1 * t;
    return true;
}

/// The quad whose sides are the polygon's four longest sides that do not run along the image
/// border, or false when those four are not most of the outline (a circle, a blob).
bool quadFromPolygon(const std::vector<cv::Point> &poly, cv::Size size, Corners &quad) {
    int n = static_cast<int>(poly.size());
    if (n < 4) return false;
    auto onBorder = [&](cv::Point a, cv::Point b) {
        const int m = 2;
        return (a.x <= m && b.x <= m) || (a.y <= m && b.y <= m) || (a.x >= size.width - 1 - m && b.x >= size.width - 1 - m) ||
               (a.y >= size.height - 1 - m && b.y >= size.height - 1 - m);
    };
    struct Side {
        int index;
        double length;
    };
    std::vector<Side> sides;
    double total = 0;
    for (int i = 0; i < n; i++) {
        cv::Point a = poly[i], b = poly[(i + 1) % n];
        if (onBorder(a, b)) continue;
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
    if (kept < 0.72 * total) return false;
    std::sort(sides.begin(), sides.end(), [](const Side &a, const Side &b) { return a.index < b.index; });
    for (int k = 0; k < 4; k++) {
        const Side &s1 = sides[(k + 3) % 4], &s2 = sides[k];
        cv::Point2d a1 = poly[s1.index], b1 = poly[(s1.index + 1) % n];
        cv::Point2d a2 = poly[s2.index], b2 = poly[(s2.index + 1) % n];
        if (!intersect(a1, b1 - a1, a2, b2 - a2, quad[k])) return false;
        // A corner may sit a little outside the frame (cut by it), not far away.
        if (quad[k].x < -0.25 * size.width || quad[k].x > 1.25 * size.width || quad[k].y < -0.25 * size.height ||
            quad[k].y > 1.25 * size.height)
            return false;
    }
    return true;
}

/// The edge under one side: the strongest gradient across it near each sample, fitted with a
/// robust line. `support` is the share of in-frame samples that found an edge.
struct SideFit {
    cv::Point2d point, direction;
    double support = 0;
    bool fitted = false;
};

/// The line (point, unit normal) most samples agree on, within 1 px of either of each
/// sample's two strongest edges, tried through pairs of edges far apart along the side and then
/// least-squares fitted to the samples on it. A card's caption printed along a faint side has
/// the stronger edge over part of it, and pulls a robust fit to all strongest edges into a tilt
/// (a corner 8 px off on a 700 px card); the side's own edge runs the whole length.
void consensusLine(const std::vector<cv::Point2f> &strongest, const std::vector<cv::Point2f> &second, cv::Point2d along,
                   cv::Point2d &origin, cv::Point2d &normal) {
    auto agreeing = [&](cv::Point2d o, cv::Point2d n, std::vector<cv::Point2f> *on) {
        int count = 0;
        for (size_t k = 0; k < strongest.size(); k++) {
            double d1 = std::abs((cv::Point2d(strongest[k]) - o).dot(n));
            double d2 = std::abs((cv::Point2d(second[k]) - o).dot(n));
            if (std::min(d1, d2) > 1.0) continue;
            count++;
            if (on) on->push_back(d1 <= d2 ? strongest[k] : second[k]);
        }
        return count;
    };
    int bestCount = agreeing(origin, normal, nullptr);
    const size_t m = strongest.size();
    // A fixed sequence: the same photo gives the same corners every time.
    uint32_t state = 12345;
    auto next = [&] {
        state = state * 1664525u + 1013904223u;
        return state >> 8;
    };
    for (int trial = 0; trial < 120; trial++) {
        size_t i = next() % (m / 2), j = m / 2 + next() % (m - m / 2);
        cv::Point2d pa = (next() & 1) ? second[i] : strongest[i];
        cv::Point2d pb = (next() & 1) ? second[j] : strongest[j];
        cv::Point2d d = pb - pa;
        double length = cv::norm(d);
        // Within 14° of the side searched.
        if (length < 1 || std::abs(d.dot(along)) < 0.97 * length) continue;
        cv::Point2d n(-d.y / length, d.x / length);
        int count = agreeing(pa, n, nullptr);
        if (count > bestCount) {
            bestCount = count;
            origin = pa;
            normal = n;
        }
    }
    for (int iteration = 0; iteration < 2; iteration++) {
        std::vector<cv::Point2f> on;
        agreeing(origin, normal, &on);
        if (on.size() < 6) break;
        cv::Vec4f line;
        cv::fitLine(on, line, cv::DIST_L2, 0, 0.01, 0.01);
        origin = cv::Point2d(line[2], line[3]);
        normal = cv::Point2d(-line[1], line[0]);
    }
}

/// `consensus`: the side's line is the one most samples agree on (`consensusLine`), not a
/// robust fit to every sample's strongest edge; the document search, which wants each object
/// side exactly, uses it (the rectangle request does not: there it also makes more texture
/// quads pass).
SideFit refineSide(const cv::Mat &gray, cv::Point2d a, cv::Point2d b, double radius, double threshold,
                   bool consensus = false) {
    SideFit fit;
    fit.point = a;
    fit.direction = b - a;
    double length = cv::norm(b - a);
    if (length < 4) return fit;
    cv::Point2d u = (b - a) / length, normal(-u.y, u.x);
    int samples = std::clamp(static_cast<int>(length / 3), 8, 240);
    int steps = static_cast<int>(std::ceil(radius));
    std::vector<cv::Point2f> points, seconds;
    int valid = 0;
    auto inside = [&](int x, int y) { return x >= 1 && y >= 1 && x < gray.cols - 1 && y < gray.rows - 1; };
    for (int s = 0; s < samples; s++) {
        // Skip the ends: rounded or worn corners bend away from the side's line.
        double t = 0.08 + 0.84 * (s + 0.5) / samples;
        cv::Point2d p = a + (b - a) * t;
        if (!inside(static_cast<int>(p.x), static_cast<int>(p.y))) continue;
        valid++;
        double best = 0;
        int bestStep = 0;
        std::vector<double> response(2 * steps + 1, 0);
        for (int r = -steps; r <= steps; r++) {
            cv::Point2d q = p + normal * r;
            int x = static_cast<int>(std::lround(q.x)), y = static_cast<int>(std::lround(q.y));
            if (!inside(x, y)) continue;
            const uint8_t *up = gray.ptr<uint8_t>(y - 1), *mid = gray.ptr<uint8_t>(y), *down = gray.ptr<uint8_t>(y + 1);
            double gx = (up[x + 1] + 2.0 * mid[x + 1] + down[x + 1]) - (up[x - 1] + 2.0 * mid[x - 1] + down[x - 1]);
            double gy = (down[x - 1] + 2.0 * down[x] + down[x + 1]) - (up[x - 1] + 2.0 * up[x] + up[x + 1]);
            double along = std::abs(gx * normal.x + gy * normal.y);
            response[r + steps] = along;
            if (along > best) {
                best = along;
                bestStep = r;
            }
        }
        if (best < threshold) continue;
        // Sub-pixel: the peak of a parabola through the response and its neighbours.
        auto located = [&](int peak) {
            double offset = peak;
            int i = peak + steps;
            if (i > 0 && i < 2 * steps) {
                double l = response[i - 1], c = response[i], r = response[i + 1], denominator = l - 2 * c + r;
                if (denominator < 0) offset += std::clamp(0.5 * (l - r) / denominator, -0.5, 0.5);
            }
            cv::Point2d q = p + normal * offset;
            // Sobel's response is centred on the pixel; pixel centres sit at +0.5.
            return cv::Point2f(static_cast<float>(q.x + 0.5), static_cast<float>(q.y + 0.5));
        };
        points.push_back(located(bestStep));
        if (consensus) {
            // The next strongest local peak at least 2 px away (the strongest itself if none).
            double second = 0;
            int secondStep = bestStep;
            for (int r = -steps + 1; r < steps; r++) {
                double v = response[r + steps];
                if (std::abs(r - bestStep) >= 2 && v >= threshold && v > second && v >= response[r + steps - 1] &&
                    v >= response[r + steps + 1]) {
                    second = v;
                    secondStep = r;
                }
            }
            seconds.push_back(located(secondStep));
        }
    }
    if (points.size() >= 6) {
        cv::Vec4f line;
        cv::fitLine(points, line, cv::DIST_HUBER, 0, 0.01, 0.01);
        cv::Point2d direction(line[0], line[1]), origin(line[2], line[3]), n(-direction.y, direction.x);
        if (consensus) {
            consensusLine(points, seconds, u, origin, n);
            direction = cv::Point2d(n.y, -n.x);
        }
        // Support: samples whose edge lies on the fitted line. On texture the strongest
        // gradient near a sample is anywhere; on a real side it is on the line every time.
        int inliers = 0;
        for (auto &q : points)
            if (std::abs((cv::Point2d(q.x, q.y) - origin).dot(n)) <= 1.0) inliers++;
        fit.support = valid > 0 ? static_cast<double>(inliers) / valid : 0;
        if (fit.support >= 0.3) {
            fit.direction = direction;
            fit.point = origin;
            fit.fitted = true;
        }
    }
    if (!fit.fitted) fit.point = a + cv::Point2d(0.5, 0.5);
    return fit;
}

}  // namespace

bool kgeo::snapToEdges(const cv::Mat &gray, std::array<cv::Point2d, 4> &corners, double radius) {
    std::array<SideFit, 4> fits;
    for (int k = 0; k < 4; k++) {
        // Index coordinates in, continuous coordinates out (as in the detector).
        fits[k] = refineSide(gray, corners[k] - cv::Point2d(0.5, 0.5), corners[(k + 1) % 4] - cv::Point2d(0.5, 0.5), radius, 24);
        if (!fits[k].fitted || fits[k].support < 0.5) return false;
    }
    std::array<cv::Point2d, 4> snapped;
    for (int k = 0; k < 4; k++) {
        const SideFit &before = fits[(k + 3) % 4], &after = fits[k];
        if (!intersect(before.point, before.direction, after.point, after.direction, snapped[k])) return false;
        if (cv::norm(snapped[k] - corners[k]) > 2 * radius) return false;
    }
    corners = snapped;
    return true;
}

namespace {

/// How much of the stretch just beyond `corner`, continuing the side from `from`, still has
/// an edge on the side's line: near 0 at a real corner (the edge stops there), high where a
/// quad borrowed a side from a longer edge (a bezel's outline, a table's edge).
double continuation(const cv::Mat &gray, cv::Point2d from, cv::Point2d corner, double threshold) {
    double length = cv::norm(corner - from);
    if (length < 8) return 0;
    cv::Point2d u = (corner - from) / length, normal(-u.y, u.x);
    double reach = std::max(6.0, 0.08 * length);
    const int radius = 4;
    int valid = 0, onLine = 0;
    for (double t = 3; t <= 3 + reach; t += 1.5) {
        cv::Point2d p = corner + u * t - cv::Point2d(0.5, 0.5);
        double best = 0;
        int bestStep = 99;
        bool inside = true;
        for (int r = -radius; r <= radius && inside; r++) {
            cv::Point2d q = p + normal * r;
            int x = static_cast<int>(std::lround(q.x)), y = static_cast<int>(std::lround(q.y));
            if (x < 1 || y < 1 || x >= gray.cols - 1 || y >= gray.rows - 1) {
                inside = false;
                break;
            }
            const uint8_t *up = gray.ptr<uint8_t>(y - 1), *mid = gray.ptr<uint8_t>(y), *down = gray.ptr<uint8_t>(y + 1);
            double gx = (up[x + 1] + 2.0 * mid[x + 1] + down[x + 1]) - (up[x - 1] + 2.0 * mid[x - 1] + down[x - 1]);
            double gy = (down[x - 1] + 2.0 * down[x] + down[x + 1]) - (up[x - 1] + 2.0 * up[x] + up[x + 1]);
            double along = std::abs(gx * normal.x + gy * normal.y);
            if (along > best) {
                best = along;
                bestStep = r;
            }
        }
        if (!inside) continue;
        valid++;
        // On the line, as a side's edge is; texture puts its strongest gradient anywhere.
        if (best >= threshold && std::abs(bestStep) <= 1) onLine++;
    }
    if (valid == 0) return 0;
    // Texture lands on the line by chance 3 times in 9.
    return std::max(0.0, (static_cast<double>(onLine) / valid - 0.34) / 0.66);
}

double cornerAngle(cv::Point2d previous, cv::Point2d corner, cv::Point2d next) {
    cv::Point2d a = previous - corner, b = next - corner;
    double c = (a.x * b.x + a.y * b.y) / (cv::norm(a) * cv::norm(b) + 1e-12);
    return std::acos(std::clamp(c, -1.0, 1.0)) * 180 / CV_PI;
}

/// The quad as OpenCV's polygon type.
std::vector<cv::Point2f> polygon(const Corners &quad) {
    std::vector<cv::Point2f> points;
    for (auto &c : quad) points.emplace_back(static_cast<float>(c.x), static_cast<float>(c.y));
    return points;
}

/// `gray` scaled down (area averaging) so its longer side is at most `longest`, and the scale.
cv::Mat atMost(const cv::Mat &gray, int longest, double &scale) {
    scale = std::min(1.0, static_cast<double>(longest) / std::max(gray.cols, gray.rows));
    if (scale >= 1) return gray;
    cv::Mat small;
    cv::resize(gray, small, cv::Size(), scale, scale, cv::INTER_AREA);
    return small;
}

/// Intersection over union of two convex quads.
double overlap(const Corners &a, const Corners &b) {
    std::vector<cv::Point2f> pa = polygon(a), pb = polygon(b), common;
    double areaA = std::abs(cv::contourArea(pa)), areaB = std::abs(cv::contourArea(pb));
    double shared = cv::intersectConvexConvex(pa, pb, common, true);
    double united = areaA + areaB - shared;
    return united > 0 ? shared / united : 0;
}

/// Same rectangle: every corner within `tolerance` of the other's.
bool sameQuad(const Corners &a, const Corners &b, double tolerance) {
    for (int i = 0; i < 4; i++)
        if (cv::norm(a[i] - b[i]) > tolerance) return false;
    return true;
}

void addOutlines(const cv::Mat &map, std::vector<std::vector<cv::Point>> &outlines) {
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(map, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
    for (auto &c : contours) outlines.push_back(std::move(c));
}

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
    void mergeSpans() {
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

    double coverageLength() const { return covered(-1e18, 1e18); }

    /// How much of the stretch between positions `t0` and `t1` has an edge segment on it.
    double coverage(double t0, double t1) const {
        if (t0 > t1) std::swap(t0, t1);
        if (t1 - t0 < 1) return 0;
        return covered(t0, t1) / (t1 - t0);
    }
};

/// Straight runs of the edge outlines merged into lines: a side broken by glare, low contrast
/// or something lying across it is still one line, which a closed contour cannot offer.
std::vector<EdgeLine> edgeLines(const std::vector<std::vector<cv::Point>> &outlines, cv::Size size,
                                double minimumSupport) {
    std::vector<std::pair<cv::Point2d, cv::Point2d>> segments;
    std::vector<cv::Point> polyline;
    for (auto &outline : outlines) {
        if (outline.size() < 4) continue;
        cv::approxPolyDP(outline, polyline, 1.5, true);
        for (size_t k = 0; k < polyline.size(); k++) {
            cv::Point2d a = polyline[k], b = polyline[(k + 1) % polyline.size()];
            // The image's own border (where a region's outline meets the frame) is no side.
            const double m = 2, right = size.width - 1 - m, bottom = size.height - 1 - m;
            if ((a.x <= m && b.x <= m) || (a.y <= m && b.y <= m) || (a.x >= right && b.x >= right) ||
                (a.y >= bottom && b.y >= bottom))
                continue;
            if (cv::norm(b - a) >= 8) segments.emplace_back(a, b);
        }
    }
    std::sort(segments.begin(), segments.end(),
              [](const auto &a, const auto &b) { return cv::norm(a.second - a.first) > cv::norm(b.second - b.first); });
    std::vector<EdgeLine> lines;
    const double angleTolerance = std::cos(2.5 * CV_PI / 180), offsetTolerance = 2.5;
    // Lines bucketed by orientation (2.5° bins over 180°) and offset from the image's centre
    // (8 px bins), so each segment checks only its neighbours' lines. A segment's offset is
    // taken across its own direction, which may differ from its line's by the full 2.5°: at
    // up to half the diagonal from the centre that moves it by up to `offsetReach` bins.
    constexpr int angleBins = 72;
    constexpr double offsetBin = 8;
    const double halfDiagonal = 0.5 * std::hypot(size.width, size.height);
    const int offsetReach =
        static_cast<int>(std::ceil((offsetTolerance + halfDiagonal * std::sin(2.5 * CV_PI / 180)) / offsetBin));
    const cv::Point2d centre(0.5 * size.width, 0.5 * size.height);
    std::unordered_map<long long, std::vector<int>> buckets;
    auto key = [](int angleBin, long long offsetBin) { return offsetBin * 1000 + angleBin; };
    auto binsOf = [&](cv::Point2d u, cv::Point2d p) {
        if (u.y < 0 || (u.y == 0 && u.x < 0)) u = -u;  // orientation in [0°, 180°)
        double angle = std::atan2(u.y, u.x);
        int angleBin = std::min(angleBins - 1, static_cast<int>(angle / CV_PI * angleBins));
        double offset = (p - centre).dot(cv::Point2d(-u.y, u.x));
        return std::pair{angleBin, static_cast<long long>(std::floor(offset / offsetBin))};
    };
    for (auto &[a, b] : segments) {
        double length = cv::norm(b - a);
        cv::Point2d u = (b - a) / length;
        cv::Point2d middle = (a + b) * 0.5;
        EdgeLine *owner = nullptr;
        auto [angleBin, offsetBin] = binsOf(u, middle);
        for (int da = -1; da <= 1 && !owner; da++) {
            int bin = angleBin + da;
            long long offsetCentre = offsetBin;
            // Across 0°/180° the orientation flips, and so does the offset's sign.
            if (bin < 0 || bin >= angleBins) {
                bin = (bin + angleBins) % angleBins;
                offsetCentre = -offsetBin - 1;
            }
            for (long long dof = -offsetReach; dof <= offsetReach && !owner; dof++) {
                auto found = buckets.find(key(bin, offsetCentre + dof));
                if (found == buckets.end()) continue;
                for (int index : found->second) {
                    EdgeLine &line = lines[index];
                    if (std::abs(u.dot(line.direction)) < angleTolerance) continue;
                    if (std::abs(middle.dot(line.normal) - line.offset) > offsetTolerance) continue;
                    owner = &line;
                    break;
                }
            }
        }
        if (!owner) {
            EdgeLine line;
            line.point = middle;
            line.direction = u;
            line.normal = cv::Point2d(-u.y, u.x);
            line.offset = middle.dot(line.normal);
            buckets[key(angleBin, offsetBin)].push_back(static_cast<int>(lines.size()));
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

/// The `count` best-supported of `lines` (sorted best first), and also the best `perOrientation`
/// in each 10° band of orientation. A building's or a board's straight edges run in a few
/// directions and outnumber the sides of a card lying askew on it: a side 200 px long ranked
/// 150th of all lines but first in its own direction.
std::vector<EdgeLine> strongestLines(const std::vector<EdgeLine> &lines, size_t count, int perOrientation) {
    constexpr int bands = 18;
    std::array<int, bands> seen{};
    std::vector<EdgeLine> chosen;
    for (size_t i = 0; i < lines.size(); i++) {
        cv::Point2d u = lines[i].direction;
        if (u.y < 0 || (u.y == 0 && u.x < 0)) u = -u;  // orientation in [0°, 180°)
        int band = std::min(bands - 1, static_cast<int>(std::atan2(u.y, u.x) / CV_PI * bands));
        if (i < count || seen[band] < perOrientation) chosen.push_back(lines[i]);
        seen[band]++;
    }
    return chosen;
}

/// Adds the edge map's own evidence to each line's spans: where along it an edge pixel lies
/// within 1 px across, its gradient across the line, after refitting the line once to those
/// pixels. Outline segments break up wherever noise or texture crossing a side wiggles its
/// edge by more than their 1.5 px tolerance, so a sharp side could show on a quarter of its
/// length; its pixels show most of it.
void addEdgePixelSpans(std::vector<EdgeLine> &lines, const cv::Mat &edges, const cv::Mat &gx, const cv::Mat &gy) {
    const int width = edges.cols, height = edges.rows;
    auto onEdge = [&](cv::Point2d q, cv::Point2d n) {
        int x = static_cast<int>(std::lround(q.x)), y = static_cast<int>(std::lround(q.y));
        if (x < 0 || y < 0 || x >= width || y >= height || !edges.at<uint8_t>(y, x)) return false;
        double a = gx.at<int16_t>(y, x), b = gy.at<int16_t>(y, x);
        return std::abs(a * n.x + b * n.y) >= 0.9 * std::hypot(a, b);  // within 25° of across
    };
    for (auto &line : lines) {
        for (int pass = 0; pass < 2; pass++) {
            // The stretch of the line inside the image.
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
                // Gaps of up to 2 px are the same run.
                if (!inRun || t - last > 3) {
                    if (inRun) spans.emplace_back(runStart, last + 1);
                    runStart = t;
                    inRun = true;
                }
                last = t;
            }
            if (inRun) spans.emplace_back(runStart, last + 1);
            if (pass == 0 && pixels.size() >= 8) {
                // A line from short segments may be tilted by a degree: refit to its pixels.
                cv::Vec4f fit;
                cv::fitLine(pixels, fit, cv::DIST_HUBER, 0, 0.01, 0.01);
                cv::Point2d u(fit[0], fit[1]), origin(fit[2], fit[3]);
                if (u.dot(line.direction) < 0) u = -u;
                if (u.dot(line.direction) > std::cos(2 * CV_PI / 180)) {
                    // The old point projected, so positions along the line (its spans) still hold.
                    line.point = origin + u * (line.point - origin).dot(u);
                    line.direction = u;
                    line.normal = cv::Point2d(-u.y, u.x);
                    line.offset = line.point.dot(line.normal);
                    continue;
                }
            }
            // Runs shorter than 4 px are texture crossing the line, not an edge along it.
            for (auto &span : spans)
                if (span.second - span.first >= 4) line.spans.push_back(span);
            line.mergeSpans();
            line.support = line.coverageLength();
            break;
        }
    }
}

/// A quad of four edge lines: how well they cover its sides, and which lines they are.
struct LineQuad {
    double score = 0;
    Corners corners;
    std::array<int, 4> sides{};
};

/// Quads whose four sides lie on edge lines, each side at least 30 % covered and 50 % on
/// average (a card's sides against a crowd or foliage break up into short runs), scored by
/// coverage and by how little the lines run on past the corners.
void lineQuads(const std::vector<EdgeLine> &lines, cv::Size size, double minimumSide, double tolerance,
               std::vector<LineQuad> &out) {
    struct Pair {
        int a, b;
        cv::Point2d direction;
    };
    std::vector<Pair> pairs;
    const double parallel = std::cos((tolerance + 10) * CV_PI / 180);
    for (int i = 0; i < static_cast<int>(lines.size()); i++)
        for (int j = i + 1; j < static_cast<int>(lines.size()); j++) {
            double c = lines[i].direction.dot(lines[j].direction);
            if (std::abs(c) < parallel) continue;
            // Far enough apart to be opposite sides of a large enough rectangle.
            if (std::abs(lines[i].point.dot(lines[j].normal) - lines[j].offset) < minimumSide) continue;
            cv::Point2d d = lines[i].direction + lines[j].direction * (c < 0 ? -1.0 : 1.0);
            pairs.push_back({i, j, d / cv::norm(d)});
        }
    const double perpendicular = std::sin((90 - tolerance - 10) * CV_PI / 180);
    const double margin = 0.1;
    // Where every two lines meet (and whether near enough the frame to be a corner), and how
    // far along each line that is: a quad's corners and its sides' extents are then lookups.
    const int n = static_cast<int>(lines.size());
    struct Meeting {
        cv::Point2d point;
        double along = 0;  // position on the row's line
        bool ok = false;
    };
    std::vector<Meeting> meetings(static_cast<size_t>(n) * n);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            Meeting &m = meetings[static_cast<size_t>(i) * n + j], &mirror = meetings[static_cast<size_t>(j) * n + i];
            m.ok = intersect(lines[i].point, lines[i].direction, lines[j].point, lines[j].direction, m.point) &&
                   m.point.x > -margin * size.width && m.point.x < (1 + margin) * size.width &&
                   m.point.y > -margin * size.height && m.point.y < (1 + margin) * size.height;
            if (m.ok) m.along = lines[i].position(m.point);
            mirror = m;
            if (m.ok) mirror.along = lines[j].position(m.point);
        }
    auto meeting = [&](int i, int j) -> const Meeting & { return meetings[static_cast<size_t>(i) * n + j]; };
    for (size_t p = 0; p < pairs.size(); p++)
        for (size_t q = p + 1; q < pairs.size(); q++) {
            const Pair &first = pairs[p], &second = pairs[q];
            if (first.a == second.a || first.a == second.b || first.b == second.a || first.b == second.b) continue;
            double cross = std::abs(first.direction.x * second.direction.y - first.direction.y * second.direction.x);
            if (cross < perpendicular) continue;
            const int sides[4] = {first.a, second.a, first.b, second.b};
            bool ok = true;
            for (int k = 0; k < 4 && ok; k++) ok = meeting(sides[k], sides[(k + 1) % 4]).ok;
            if (!ok) continue;
            // Side k runs from its meeting with side k-1 to its meeting with side k+1.
            double total = 0, weakest = 1;
            for (int k = 0; k < 4 && weakest >= 0.3; k++) {
                double c = lines[sides[k]].coverage(meeting(sides[k], sides[(k + 3) % 4]).along,
                                                    meeting(sides[k], sides[(k + 1) % 4]).along);
                total += c;
                weakest = std::min(weakest, c);
            }
            if (weakest < 0.3 || total < 4 * 0.5) continue;
            Corners corners;
            for (int k = 0; k < 4; k++) corners[k] = meeting(sides[k], sides[(k + 1) % 4]).point;
            // Real corners end their edges; a grid's lines run on past every crossing.
            double runOn = 0;
            for (int k = 0; k < 4; k++) {
                double t0 = meeting(sides[k], sides[(k + 3) % 4]).along, t1 = meeting(sides[k], sides[(k + 1) % 4]).along;
                double reach = std::max(4.0, 0.15 * std::abs(t1 - t0)) * (t1 > t0 ? 1 : -1);
                runOn += lines[sides[k]].coverage(t0 - reach, t0) + lines[sides[k]].coverage(t1, t1 + reach);
            }
            double score = (total / 4 + 0.5 * weakest) * (1 - 0.8 * runOn / 8);
            out.push_back({score, corners, {sides[0], sides[1], sides[2], sides[3]}});
        }
}

/// A screen's dark bezel round its bright picture, a card's printed frame: the strongest
/// outline can lie just inside the object's real one, the band between them one even tone.
/// Each side is looked for again just outside (3 px to a tenth of the shorter side) and just
/// inside (the outline found may mix inner and outer sides); outside, an edge along 45 % of
/// the side will do (a black bezel against dark fur or a busy board). A side whose outer edge
/// is lost against something as dark as the bezel takes the opposite band's width, scaled for
/// perspective: one such side when two others moved out, or two adjacent ones when the other
/// two moved out or already lie on the outer edge.
/// A side may also lie on a side of another detected outline (`detected`, full resolution) just
/// outside it: the detector fitted that one along the whole bezel's edge, where the search
/// just outside can stop on the blur of the picture's own bright edge.
/// Of every reading of the sides (outside, inside, lost or detected) whose bands are one even
/// tone, the most even wins, and `corners` (full resolution, continuous coordinates) become
/// its outer quad.
bool enclosingBorder(const cv::Mat &image, double scale, Corners &corners, double threshold,
                     const std::vector<Corners> &detected) {
    Corners c;
    for (int k = 0; k < 4; k++) c[k] = corners[k] * scale;
    cv::Point2d centre = (c[0] + c[1] + c[2] + c[3]) / 4;
    double shorter = 1e9;
    for (int k = 0; k < 4; k++) shorter = std::min(shorter, cv::norm(c[(k + 1) % 4] - c[k]));
    const double inner = 3, outer = std::max(8.0, 0.1 * shorter);

    enum class Band { outside, inside, lost, detected };
    std::array<SideFit, 4> sides, outward, inward, onDetected;
    std::array<cv::Point2d, 4> normals;
    for (int k = 0; k < 4; k++) {
        cv::Point2d a = c[k], b = c[(k + 1) % 4], u = (b - a) / cv::norm(b - a), n(-u.y, u.x);
        if (n.dot((a + b) / 2 - centre) < 0) n = -n;
        normals[k] = n;
        auto parallelEdge = [&](double sign) {
            double offset = sign * (inner + outer) / 2;
            SideFit fit = refineSide(image, a + n * offset - cv::Point2d(0.5, 0.5), b + n * offset - cv::Point2d(0.5, 0.5),
                                     (outer - inner) / 2, threshold, true);
            cv::Point2d d = fit.direction / cv::norm(fit.direction);
            bool parallel = std::abs(d.x * u.y - d.y * u.x) <= std::sin(3 * CV_PI / 180);
            fit.fitted = fit.fitted && parallel;
            return fit;
        };
        sides[k].point = a;
        sides[k].direction = b - a;
        sides[k].fitted = true;
        outward[k] = parallelEdge(1);
        inward[k] = parallelEdge(-1);
        inward[k].fitted = inward[k].fitted && inward[k].support >= 0.6;
        // Outside, a faint edge counts too (a black bezel on dark fur shows on half its side).
        outward[k].fitted = outward[k].fitted && outward[k].support >= 0.45;
        // The nearest detected side parallel to this one (within 3°) and just outside it.
        for (const Corners &other : detected)
            for (int j = 0; j < 4; j++) {
                cv::Point2d p = other[j] * scale, q = other[(j + 1) % 4] * scale, d = q - p;
                double length = cv::norm(d);
                if (length < 1 || std::abs(d.x * u.y - d.y * u.x) > std::sin(3 * CV_PI / 180) * length) continue;
                // Alongside this side (its middle within the side's extent), not a parallel edge
                // elsewhere in the photo.
                double along = ((p + q) / 2 - a).dot(u);
                if (along < 0 || along > cv::norm(b - a)) continue;
                double offset = ((p + q) / 2 - (a + b) / 2).dot(n);
                // A detected edge is evidence enough a little further out than the search reaches.
                if (offset < inner || offset > 1.5 * outer) continue;
                if (onDetected[k].fitted && offset >= (onDetected[k].point - a).dot(n)) continue;
                onDetected[k].point = p;
                onDetected[k].direction = d;
                onDetected[k].fitted = true;
            }
    }

    // The outer quad for one reading of the sides, when its bands are one even tone.
    auto outline = [&](const std::array<Band, 4> &reading, Corners &found, double &deviationOut) {
        std::array<SideFit, 4> outerLines, otherEdges;
        int moved = 0, inside = 0;
        std::vector<int> lost;
        for (int k = 0; k < 4; k++) {
            switch (reading[k]) {
            case Band::outside:
                outerLines[k] = outward[k], otherEdges[k] = sides[k], moved++;
                break;
            case Band::detected:
                outerLines[k] = onDetected[k], otherEdges[k] = sides[k], moved++;
                break;
            case Band::inside:
                outerLines[k] = sides[k], otherEdges[k] = inward[k], inside++;
                break;
            case Band::lost:
                lost.push_back(k);
                break;
            }
        }
        // A lost side takes the width of the opposite band. One lost side needs two that moved
        // out; two (adjacent) lost sides, the other two moved out or lying on the outer edge
        // already with the inner one found inside them (a screen's picture edge).
        bool enough = lost.empty() ? moved > 0 : lost.size() == 1 ? moved >= 2 : lost.size() == 2 && (inside == 2 || moved == 2);
        if (!enough) return false;
        for (int k : lost) {
            if (reading[(k + 2) % 4] == Band::lost) return false;
            const SideFit &o = outerLines[(k + 2) % 4], &e = otherEdges[(k + 2) % 4];
            cv::Point2d d = o.direction / cv::norm(o.direction);
            double width = std::abs((o.point - e.point).dot(cv::Point2d(-d.y, d.x)));
            if (width < inner) return false;
            // Perspective: a band is as much wider than the opposite one as its side is longer.
            width *= cv::norm(c[(k + 1) % 4] - c[k]) / cv::norm(c[(k + 3) % 4] - c[(k + 2) % 4]);
            otherEdges[k] = sides[k];
            outerLines[k] = sides[k];
            outerLines[k].point += normals[k] * width;
            // A faint edge just outside (black bezel on dark fur) places it better than a
            // width borrowed from a band that may be wider.
            if (outward[k].fitted) outerLines[k] = outward[k];
        }
        for (int k = 0; k < 4; k++) {
            const SideFit &before = outerLines[(k + 3) % 4], &after = outerLines[k];
            if (!intersect(before.point, before.direction, after.point, after.direction, found[k])) return false;
            if (cv::norm(found[k] - c[k]) > 2 * outer) return false;
        }
        // The band's middle, 24 points a side: one even tone, or it is not a border. A band
        // under a shadow's gradient drifts along its length but stays smooth from point to
        // point, which texture never does.
        double sum = 0, squares = 0, steps = 0;
        int count = 0, stepCount = 0;
        std::array<double, 4> sideSum{};
        std::array<int, 4> sideCount{};
        for (int k = 0; k < 4; k++) {
            double previous = -1;
            for (int step = 1; step <= 24; step++) {
                cv::Point2d s = c[k] + (c[(k + 1) % 4] - c[k]) * (step / 25.0), n = normals[k];
                // Where the normal through s meets each edge; the band's middle is halfway.
                auto along = [&](const SideFit &line) {
                    double cross = n.x * line.direction.y - n.y * line.direction.x;
                    cv::Point2d w = line.point - s;
                    return std::abs(cross) < 1e-9 ? 0.0 : (w.x * line.direction.y - w.y * line.direction.x) / cross;
                };
                cv::Point2d p = s + n * (0.5 * (along(outerLines[k]) + along(otherEdges[k])));
                int x = static_cast<int>(p.x), y = static_cast<int>(p.y);
                if (x < 0 || y < 0 || x >= image.cols || y >= image.rows) continue;
                double v = image.at<uint8_t>(y, x);
                if (previous >= 0) {
                    steps += std::abs(v - previous);
                    stepCount++;
                }
                previous = v;
                sum += v;
                squares += v * v;
                count++;
                sideSum[k] += v;
                sideCount[k]++;
            }
        }
        if (count < 48) return false;
        // A lost side's band must look like the band whose width it took (the same bezel), not
        // like whatever lies beyond an outline that was already the outer one.
        for (int k : lost) {
            int opposite = (k + 2) % 4;
            if (sideCount[k] == 0 || sideCount[opposite] == 0) return false;
            if (std::abs(sideSum[k] / sideCount[k] - sideSum[opposite] / sideCount[opposite]) > 20) return false;
        }
        double mean = sum / count, deviation = std::sqrt(std::max(0.0, squares / count - mean * mean));
        double roughness = steps / std::max(1, stepCount);
        deviationOut = deviation;
        return deviation <= 16 || (deviation <= 40 && roughness <= 6);
    };

    // Every reading of the sides (an edge found outside may be clutter, one inside the
    // picture's own): the one whose bands are the most even tone wins.
    Corners found;
    bool ok = false;
    double best = 1e9;
    for (int code = 0; code < 256; code++) {
        std::array<Band, 4> reading;
        bool possible = true;
        for (int k = 0, rest = code; k < 4; k++, rest /= 4) {
            reading[k] = static_cast<Band>(rest % 4);
            if ((reading[k] == Band::outside && !outward[k].fitted) || (reading[k] == Band::inside && !inward[k].fitted) ||
                (reading[k] == Band::detected && !onDetected[k].fitted))
                possible = false;
        }
        Corners quad;
        double deviation = 0;
        if (!possible || !outline(reading, quad, deviation)) continue;
        if (deviation < best) best = deviation, found = quad, ok = true;
    }
    if (!ok) return false;
    for (int k = 0; k < 4; k++) corners[k] = found[k] / scale;
    return true;
}

/// Candidate quads in the working-scale image: closed outlines of
/// edge maps at three contrasts and of Otsu regions of both polarities, and quads of straight
/// edge lines.
std::vector<Corners> outlineQuads(const cv::Mat &small, double minimumSmallSide, double quadratureTolerance,
                                  bool prefersLarge) {
    cv::Mat smooth;
    cv::GaussianBlur(small, smooth, cv::Size(5, 5), 0);

    std::vector<std::vector<cv::Point>> outlines;
    cv::Mat faintEdges;  // the lowest contrast's edge pixels, one wide
    cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
    // Edges at three contrasts: faint page edges on a light desk, and strong ones that would
    // otherwise merge with clutter at the low thresholds.
    for (auto [low, high] : {std::pair{8.0, 24.0}, std::pair{24.0, 72.0}, std::pair{60.0, 180.0}}) {
        cv::Mat edges;
        cv::Canny(smooth, edges, low, high, 3, true);
        if (faintEdges.empty()) faintEdges = edges.clone();
        cv::dilate(edges, edges, kernel);
        addOutlines(edges, outlines);
    }
    // Regions: a page brighter (or darker) than what it lies on, whatever its edge looks like.
    cv::Mat binary;
    cv::threshold(smooth, binary, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    addOutlines(binary, outlines);
    cv::bitwise_not(binary, binary);
    addOutlines(binary, outlines);

    std::vector<Corners> coarse;
    {
        std::vector<LineQuad> fromLines;
        // Documents look further down the list: a weak side (a card's edge against foliage) ranks
        // below a building's or a board's many strong straight edges.
        const size_t maximumLines = prefersLarge ? 72 : 36;
        std::vector<EdgeLine> lines =
            strongestLines(edgeLines(outlines, small.size(), 0.3 * minimumSmallSide), maximumLines, 3);
        cv::Mat gx, gy;
        cv::Sobel(smooth, gx, CV_16S, 1, 0);
        cv::Sobel(smooth, gy, CV_16S, 0, 1);
        addEdgePixelSpans(lines, faintEdges, gx, gy);
        lineQuads(lines, small.size(), minimumSmallSide, quadratureTolerance, fromLines);
        std::sort(fromLines.begin(), fromLines.end(), [](auto &a, auto &b) { return a.score > b.score; });
        // The best-covered 40, and for documents also the 20 best by coverage and size, passing
        // over a quad when two of its lines already serve `maximumUses` chosen quads: a
        // building's or a board's grid of well-edged lines makes thousands of fully covered
        // quads, which crowded out a card lying on it (ranked 900th to 1900th).
        constexpr int maximumUses = 3;
        std::vector<int> uses(lines.size(), 0);
        std::vector<bool> taken(fromLines.size(), false);
        auto choose = [&](const std::vector<size_t> &order, size_t count) {
            size_t chosen = 0;
            for (size_t i : order) {
                if (chosen >= count) break;
                if (taken[i]) continue;
                int saturated = 0;
                for (int side : fromLines[i].sides) saturated += uses[side] >= maximumUses;
                if (saturated >= 2) continue;
                for (int side : fromLines[i].sides) uses[side]++;
                taken[i] = true;
                coarse.push_back(fromLines[i].corners);
                chosen++;
            }
        };
        std::vector<size_t> order(fromLines.size());
        for (size_t i = 0; i < order.size(); i++) order[i] = i;
        choose(order, 40);
        if (prefersLarge) {
            std::vector<double> bySize(fromLines.size());
            for (size_t i = 0; i < fromLines.size(); i++)
                bySize[i] = fromLines[i].score * std::sqrt(std::abs(cv::contourArea(polygon(fromLines[i].corners))));
            // Ties keep the coverage order (std::stable_sort warns under this libstdc++).
            std::sort(order.begin(), order.end(),
                      [&](size_t x, size_t y) { return bySize[x] != bySize[y] ? bySize[x] > bySize[y] : x < y; });
            choose(order, 20);
        }
    }
    for (auto &outline : outlines) {
        cv::Rect box = cv::boundingRect(outline);
        if (std::min(box.width, box.height) < minimumSmallSide) continue;
        std::vector<cv::Point> hull;
        cv::convexHull(outline, hull);
        double hullArea = cv::contourArea(hull);
        if (hullArea < minimumSmallSide * minimumSmallSide) continue;
        if (std::abs(cv::contourArea(outline)) < 0.8 * hullArea) continue;
        std::vector<cv::Point> approximated;
        cv::approxPolyDP(hull, approximated, 0.02 * cv::arcLength(hull, true), true);
        Corners quad;
        if (quadFromPolygon(approximated, small.size(), quad)) coarse.push_back(quad);
    }
    return coarse;
}

/// `refineSide` on each plane: the fit with the most support.
SideFit refineSideOn(const std::vector<cv::Mat> &planes, cv::Point2d a, cv::Point2d b, double radius,
                     double threshold, bool consensus) {
    SideFit best = refineSide(planes[0], a, b, radius, threshold, consensus);
    for (size_t i = 1; i < planes.size(); i++) {
        SideFit fit = refineSide(planes[i], a, b, radius, threshold, consensus);
        if (fit.fitted && (!best.fitted || fit.support > best.support)) best = fit;
    }
    return best;
}

/// Whether side `k` of `inner` lies on a side of `outer`: both its ends within `tolerance` of
/// that side's line (which also keeps the two parallel within the tolerance over its length).
bool sharesSide(const Corners &inner, int k, const Corners &outer, double tolerance) {
    cv::Point2d a = inner[k], b = inner[(k + 1) % 4];
    for (int j = 0; j < 4; j++) {
        cv::Point2d p = outer[j], d = outer[(j + 1) % 4] - outer[j];
        double length = cv::norm(d);
        if (length < 1) continue;
        cv::Point2d n(-d.y / length, d.x / length);
        if (std::abs((a - p).dot(n)) <= tolerance && std::abs((b - p).dot(n)) <= tolerance) return true;
    }
    return false;
}

/// A quad inside a larger candidate and lying along one of its sides is a piece of it (a
/// card's picture sharing the card's top and right edges, whose printed lines close it off):
/// its confidence is kept below the larger one's when that one is nearly as well edged, so
/// the object outranks its pieces in every ranking after this one (the Swift side's too).
void demotePieces(std::vector<Candidate> &found) {
    std::vector<double> areas;
    for (auto &c : found) areas.push_back(std::abs(cv::contourArea(polygon(c.corners))));
    std::vector<double> original;
    for (auto &c : found) original.push_back(c.confidence);
    for (size_t i = 0; i < found.size(); i++)
        for (size_t j = 0; j < found.size(); j++) {
            if (i == j || areas[j] < 1.2 * areas[i] || original[j] < 0.85 * original[i]) continue;
            std::vector<cv::Point2f> common;
            double shared = cv::intersectConvexConvex(polygon(found[i].corners), polygon(found[j].corners), common, true);
            if (shared < 0.95 * areas[i]) continue;
            double tolerance = std::max(2.0, 0.01 * cv::norm(found[j].corners[2] - found[j].corners[0]));
            bool alongSide = false;
            for (int k = 0; k < 4 && !alongSide; k++) alongSide = sharesSide(found[i].corners, k, found[j].corners, tolerance);
            if (!alongSide) continue;
            double capped = std::min(found[i].confidence, 0.95 * original[j]);
            found[i].score -= found[i].confidence - capped;
            found[i].confidence = capped;
        }
}

/// Document outlines that are another one extended onto the background: a card's side carried
/// on along a building's floor lines to a larger quad that contains the card. Such a quad is
/// hardly better edged than the card (the building's lines are sharp too) and wins on size; the
/// card's outline is the only one that ends where the object does. A quad is dropped when it
/// contains another one, at least 1.2 times that one's area, runs along one of its sides and
/// is less than 1/0.9 times as well edged. (The rectangle request keeps the larger one,
/// `demotePieces`: there a quad inside another and along its side is a piece of it, a picture
/// printed on a card.)
void dropExtensions(std::vector<Candidate> &found) {
    std::vector<double> areas;
    for (auto &c : found) areas.push_back(std::abs(cv::contourArea(polygon(c.corners))));
    std::vector<bool> extension(found.size(), false);
    for (size_t large = 0; large < found.size(); large++)
        for (size_t small = 0; small < found.size() && !extension[large]; small++) {
            if (small == large || areas[large] < 1.2 * areas[small]) continue;
            if (found[small].confidence < 0.9 * found[large].confidence) continue;
            std::vector<cv::Point2f> common;
            double shared =
                cv::intersectConvexConvex(polygon(found[small].corners), polygon(found[large].corners), common, true);
            if (shared < 0.95 * areas[small]) continue;
            double tolerance = std::max(2.0, 0.01 * cv::norm(found[large].corners[2] - found[large].corners[0]));
            for (int k = 0; k < 4 && !extension[large]; k++)
                extension[large] = sharesSide(found[small].corners, k, found[large].corners, tolerance);
        }
    std::vector<Candidate> kept;
    for (size_t i = 0; i < found.size(); i++)
        if (!extension[i]) kept.push_back(found[i]);
    found = std::move(kept);
}

/// `otherPlanes`: images of `gray`'s size a side may also be fitted on.
std::vector<Candidate> detect(const cv::Mat &gray, const std::vector<cv::Mat> &otherPlanes,
                              const kgeo_rectangle_options &o) {
    const double shorterDimension = std::min(gray.cols, gray.rows);
    const double minimumSide = std::max(8.0, o.minimum_size * shorterDimension);

    // Working scale for the candidate search.
    double scale;
    cv::Mat small = atMost(gray, kWorkingSize, scale);
    std::vector<Corners> coarse;
    const double sameTolerance = 0.015 * std::hypot(small.cols, small.rows);
    auto addCoarse = [&](Corners quad) {
        quad = ordered(quad);
        for (auto &q : coarse)
            if (sameQuad(q, quad, sameTolerance)) return;
        coarse.push_back(quad);
    };
    const double minimumSmallSide = std::max(6.0, minimumSide * scale * 0.8);
    for (auto &quad : outlineQuads(small, minimumSmallSide, o.quadrature_tolerance, o.prefers_large)) addCoarse(quad);

    // Refinement at up to kRefineSize.
    double refineScale;
    cv::Mat refineImage = atMost(gray, kRefineSize, refineScale);
    std::vector<cv::Mat> planes{refineImage};
    for (auto &plane : otherPlanes) {
        double planeScale;
        planes.push_back(atMost(plane, kRefineSize, planeScale));
    }
    const double radius = 2.5 * refineScale / scale + 2;
    // Sobel's 3×3 response is 4× the step across an edge: 6 grey levels.
    const double threshold = 24;
    const double imageArea = static_cast<double>(gray.cols) * gray.rows;

    std::vector<Candidate> found;
    for (auto &quad : coarse) {
        // Cheap geometry first, with slack for the refinement to move corners: most
        // candidates end here.
        {
            bool plausible = true;
            for (int k = 0; k < 4; k++)
                if (std::abs(cornerAngle(quad[(k + 3) % 4], quad[k], quad[(k + 1) % 4]) - 90) > o.quadrature_tolerance + 12)
                    plausible = false;
            double w = 0.5 * (cv::norm(quad[1] - quad[0]) + cv::norm(quad[2] - quad[3]));
            double h = 0.5 * (cv::norm(quad[3] - quad[0]) + cv::norm(quad[2] - quad[1]));
            double ratio = std::min(w, h) / std::max(w, h);
            if (ratio < o.minimum_aspect_ratio - 0.15 || ratio > o.maximum_aspect_ratio + 0.15) plausible = false;
            if (std::min(w, h) < 0.7 * minimumSide * scale) plausible = false;
            if (!plausible) continue;
        }
        Corners start;
        // Corners of the working image in refine-image pixels: pixel centres at +0.5.
        for (int i = 0; i < 4; i++)
            start[i] = (quad[i] + cv::Point2d(0.5, 0.5)) * (refineScale / scale) - cv::Point2d(0.5, 0.5);
        std::array<SideFit, 4> fits;
        double weighted = 0, perimeter = 0, weakest = 1;
        for (int k = 0; k < 4; k++) {
            fits[k] = refineSideOn(planes, start[k], start[(k + 1) % 4], radius, threshold, o.prefers_large);
            double length = cv::norm(start[(k + 1) % 4] - start[k]);
            weighted += fits[k].support * length;
            perimeter += length;
            weakest = std::min(weakest, fits[k].support);
        }
        Corners corners;
        bool ok = true;
        for (int k = 0; k < 4 && ok; k++) {
            const SideFit &before = fits[(k + 3) % 4], &after = fits[k];
            cv::Point2d corner;
            ok = intersect(before.point, before.direction, after.point, after.direction, corner);
            corners[k] = corner / refineScale;  // continuous coordinates: scale directly
        }
        if (!ok) continue;
        // Every side on an edge for at least part of its length (a side the refinement could
        // not fit is where the outline guessed, not where an edge is).
        if (std::any_of(fits.begin(), fits.end(), [](const SideFit &f) { return !f.fitted; })) continue;
        double confidence = 0.7 * (weighted / perimeter) + 0.3 * weakest;
        // Real corners end their edges; borrowed sides run on past them.
        double runOn = 0;
        for (int k = 0; k < 4; k++) {
            cv::Point2d c = corners[k] * refineScale;
            runOn += continuation(refineImage, corners[(k + 3) % 4] * refineScale, c, threshold);
            runOn += continuation(refineImage, corners[(k + 1) % 4] * refineScale, c, threshold);
        }
        // A document lies on something: its outline ends at its corners, and one whose sides run
        // on is made of a building's or a board's longer lines (a quarter off for each side end
        // that runs on fully). Rectangles in general may be cells of a grid and keep the lighter
        // weight.
        const double runOnWeight = o.prefers_large ? 2.0 : 0.6;
        confidence *= std::max(0.0, 1 - runOnWeight * (runOn / 8));
        if (confidence < o.minimum_confidence || confidence <= 0) continue;

        std::vector<cv::Point2f> outline = polygon(corners);
        if (!cv::isContourConvex(outline)) continue;
        // A side along the image's own border (within 1 % of it) is the frame or the photo's
        // edge, not an object's: the outline of a region cut by the frame runs along it, and
        // a scanned or cropped photo often has a dark line there.
        bool framed = false;
        const double margin = std::max(3.0, 0.01 * shorterDimension);
        for (int k = 0; k < 4; k++) {
            const cv::Point2d &a = corners[k], &b = corners[(k + 1) % 4];
            const double m = margin, right = gray.cols - m, bottom = gray.rows - m;
            if ((a.x <= m && b.x <= m) || (a.y <= m && b.y <= m) || (a.x >= right && b.x >= right) ||
                (a.y >= bottom && b.y >= bottom))
                framed = true;
        }
        if (framed) continue;
        bool square = true;
        for (int k = 0; k < 4; k++)
            if (std::abs(cornerAngle(corners[(k + 3) % 4], corners[k], corners[(k + 1) % 4]) - 90) > o.quadrature_tolerance)
                square = false;
        if (!square) continue;
        double width = 0.5 * (cv::norm(corners[1] - corners[0]) + cv::norm(corners[2] - corners[3]));
        double height = 0.5 * (cv::norm(corners[3] - corners[0]) + cv::norm(corners[2] - corners[1]));
        double shorter = std::min(width, height), longer = std::max(width, height);
        double aspect = shorter / longer;
        if (aspect < o.minimum_aspect_ratio - 1e-9 || aspect > o.maximum_aspect_ratio + 1e-9) continue;
        if (shorter < minimumSide) continue;
        double area = std::abs(cv::contourArea(outline));
        Candidate candidate;
        candidate.corners = ordered(corners);
        candidate.confidence = confidence;
        // Documents: the page, not a paragraph on it; otherwise size only breaks near-ties.
        candidate.score = o.prefers_large ? confidence * std::sqrt(area / imageArea)
                                          : confidence + 0.1 * std::sqrt(area / imageArea);
        found.push_back(candidate);
    }

    if (o.prefers_large)
        dropExtensions(found);
    else
        demotePieces(found);
    std::sort(found.begin(), found.end(), [](const Candidate &a, const Candidate &b) { return a.score > b.score; });
    // Size ranks the page above a paragraph on it. Two readings of one object that differ in
    // one side (a side on the object's edge, or on a building's edge just beside it) are
    // alike in size (within a fifth: a sign with a strip of facade beside it), and there the
    // better-edged one is the object.
    if (o.prefers_large)
        for (size_t i = 0; i < found.size(); i++)
            for (size_t j = i + 1; j < found.size(); j++)
                if (found[j].confidence > found[i].confidence && overlap(found[i].corners, found[j].corners) >= 0.8) {
                    std::rotate(found.begin() + i, found.begin() + j, found.begin() + j + 1);
                    j = i;  // look again from the new one
                }
    std::vector<Candidate> kept;
    for (auto &c : found) {
        double diagonal = cv::norm(c.corners[2] - c.corners[0]);
        bool duplicate = false;
        for (auto &k : kept)
            if (sameQuad(k.corners, c.corners, std::max(3.0, 0.02 * diagonal))) {
                duplicate = true;
                break;
            }
        if (!duplicate) kept.push_back(c);
        if (o.maximum_observations > 0 && static_cast<int>(kept.size()) >= o.maximum_observations) break;
    }
    // Documents: the object's outline, not the picture on it.
    if (o.prefers_large) {
        std::vector<Corners> detected;
        for (auto &c : found) detected.push_back(c.corners);
        for (auto &k : kept) {
            Corners outer = k.corners;
            if (enclosingBorder(refineImage, refineScale, outer, threshold, detected)) k.corners = ordered(outer);
        }
    }
    return kept;
}

}  // namespace

extern "C" int kgeo_detect_rectangles(const kgeo_image *gray, const kgeo_image *fit_also, int fit_also_count,
                                      const kgeo_rectangle_options *options, kgeo_quad *out, int capacity, int *count,
                                      char *error, size_t error_size) {
    return kgeo::guarded(error, error_size, [&] {
        cv::Mat image = kgeo::wrap(gray);
        if (image.channels() != 1) throw std::invalid_argument("rectangles need a gray image");
        if (!options || !out || !count || (fit_also_count > 0 && !fit_also))
            throw std::invalid_argument("missing argument");
        std::vector<cv::Mat> otherPlanes;
        for (int i = 0; i < fit_also_count; i++) {
            otherPlanes.push_back(kgeo::wrap(&fit_also[i]));
            if (otherPlanes.back().channels() != 1 || otherPlanes.back().size() != image.size())
                throw std::invalid_argument("planes to fit on must be gray and the image's size");
        }
        std::vector<Candidate> found = detect(image, otherPlanes, *options);
        int n = std::min(capacity, static_cast<int>(found.size()));
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 4; k++) {
                out[i].points[2 * k] = found[i].corners[k].x;
                out[i].points[2 * k + 1] = found[i].corners[k].y;
            }
            out[i].confidence = std::min(1.0, found[i].confidence);
        }
        *count = n;
    });
}

extern "C" int kgeo_drop_extended_documents(kgeo_quad *quads, int count) {
    std::vector<Candidate> found;
    try {
        for (int i = 0; i < count; i++) {
            Candidate c;
            for (int k = 0; k < 4; k++) c.corners[k] = cv::Point2d(quads[i].points[2 * k], quads[i].points[2 * k + 1]);
            c.confidence = quads[i].confidence;
            found.push_back(c);
        }
        dropExtensions(found);
    } catch (...) {
        return count;  // nothing dropped: the merge then just ranks them all
    }
    for (size_t i = 0; i < found.size(); i++) {
        for (int k = 0; k < 4; k++) {
            quads[i].points[2 * k] = found[i].corners[k].x;
            quads[i].points[2 * k + 1] = found[i].corners[k].y;
        }
        quads[i].confidence = found[i].confidence;
    }
    return static_cast<int>(found.size());
}
