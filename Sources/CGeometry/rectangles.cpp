// Rectangle finding: candidate outlines from several edge and threshold maps at a working
// scale, each turned into a quad from its four longest sides (so rounded corners and a corner
// cut by the frame still give the true corners), then every side re-fitted to the strongest
// edge at full resolution and scored by how much of the outline has an edge under it.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>
#include <cstdio>
#include <cstdlib>

#include <opencv2/imgproc.hpp>

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

SideFit refineSide(const cv::Mat &gray, cv::Point2d a, cv::Point2d b, double radius, double threshold) {
    SideFit fit;
    fit.point = a;
    fit.direction = b - a;
    double length = cv::norm(b - a);
    if (length < 4) return fit;
    cv::Point2d u = (b - a) / length, normal(-u.y, u.x);
    int samples = std::clamp(static_cast<int>(length / 3), 8, 240);
    int steps = static_cast<int>(std::ceil(radius));
    std::vector<cv::Point2f> points;
    int valid = 0, hits = 0;
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
        hits++;
        // Sub-pixel: the peak of a parabola through the best response and its neighbours.
        double offset = bestStep;
        int i = bestStep + steps;
        if (i > 0 && i < 2 * steps) {
            double l = response[i - 1], c = response[i], r = response[i + 1], denominator = l - 2 * c + r;
            if (denominator < 0) offset += std::clamp(0.5 * (l - r) / denominator, -0.5, 0.5);
        }
        cv::Point2d q = p + normal * offset;
        // Sobel's response is centred on the pixel; pixel centres sit at +0.5.
        points.emplace_back(static_cast<float>(q.x + 0.5), static_cast<float>(q.y + 0.5));
    }
    fit.support = valid > 0 ? static_cast<double>(hits) / valid : 0;
    if (points.size() >= 6 && fit.support >= 0.3) {
        cv::Vec4f line;
        cv::fitLine(points, line, cv::DIST_HUBER, 0, 0.01, 0.01);
        fit.direction = cv::Point2d(line[0], line[1]);
        fit.point = cv::Point2d(line[2], line[3]);
        fit.fitted = true;
    } else {
        fit.point = a + cv::Point2d(0.5, 0.5);
    }
    return fit;
}

double cornerAngle(cv::Point2d previous, cv::Point2d corner, cv::Point2d next) {
    cv::Point2d a = previous - corner, b = next - corner;
    double c = (a.x * b.x + a.y * b.y) / (cv::norm(a) * cv::norm(b) + 1e-12);
    return std::acos(std::clamp(c, -1.0, 1.0)) * 180 / CV_PI;
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

std::vector<Candidate> detect(const cv::Mat &gray, const kgeo_rectangle_options &o) {
    const double shorterDimension = std::min(gray.cols, gray.rows);
    const double minimumSide = std::max(8.0, o.minimum_size * shorterDimension);

    // Working scale for the candidate search.
    double scale = std::min(1.0, static_cast<double>(kWorkingSize) / std::max(gray.cols, gray.rows));
    cv::Mat small;
    if (scale < 1)
        cv::resize(gray, small, cv::Size(), scale, scale, cv::INTER_AREA);
    else
        small = gray;
    cv::Mat smooth;
    cv::GaussianBlur(small, smooth, cv::Size(5, 5), 0);

    std::vector<std::vector<cv::Point>> outlines;
    cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
    // Edges at three contrasts: faint page edges on a light desk, and strong ones that would
    // otherwise merge with clutter at the low thresholds.
    for (auto [low, high] : {std::pair{8.0, 24.0}, std::pair{24.0, 72.0}, std::pair{60.0, 180.0}}) {
        cv::Mat edges;
        cv::Canny(smooth, edges, low, high, 3, true);
        cv::dilate(edges, edges, kernel);
        addOutlines(edges, outlines);
    }
    // Regions: a page brighter (or darker) than what it lies on, whatever its edge looks like.
    cv::Mat binary;
    cv::threshold(smooth, binary, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
    addOutlines(binary, outlines);
    cv::bitwise_not(binary, binary);
    addOutlines(binary, outlines);

    const double minimumSmallSide = std::max(6.0, minimumSide * scale * 0.8);
    std::vector<Corners> coarse;
    for (auto &outline : outlines) {
        cv::Rect box = cv::boundingRect(outline);
        if (std::min(box.width, box.height) < minimumSmallSide) continue;
        std::vector<cv::Point> hull;
        cv::convexHull(outline, hull);
        double hullArea = cv::contourArea(hull);
        if (hullArea < minimumSmallSide * minimumSmallSide) continue;
        if (std::abs(cv::contourArea(outline)) < 0.8 * hullArea) continue;
        std::vector<cv::Point> polygon;
        cv::approxPolyDP(hull, polygon, 0.02 * cv::arcLength(hull, true), true);
        Corners quad;
        if (!quadFromPolygon(polygon, small.size(), quad)) continue;
        quad = ordered(quad);
        double tolerance = 0.015 * std::hypot(small.cols, small.rows);
        bool seen = false;
        for (auto &q : coarse)
            if (sameQuad(q, quad, tolerance)) {
                seen = true;
                break;
            }
        if (!seen) coarse.push_back(quad);
    }

    static const bool debug = std::getenv("KGEO_DEBUG") != nullptr;
    if (debug) std::fprintf(stderr, "outlines %zu coarse %zu\n", outlines.size(), coarse.size());
    if (debug) for (auto &q : coarse) std::fprintf(stderr, " coarse %.0f,%.0f %.0f,%.0f %.0f,%.0f %.0f,%.0f\n", q[0].x/scale, q[0].y/scale, q[1].x/scale, q[1].y/scale, q[2].x/scale, q[2].y/scale, q[3].x/scale, q[3].y/scale);
    // Refinement at up to kRefineSize.
    double refineScale = std::min(1.0, static_cast<double>(kRefineSize) / std::max(gray.cols, gray.rows));
    cv::Mat refineImage;
    if (refineScale < 1)
        cv::resize(gray, refineImage, cv::Size(), refineScale, refineScale, cv::INTER_AREA);
    else
        refineImage = gray;
    const double radius = 2.5 * refineScale / scale + 2;
    // Sobel's 3×3 response is 4× the step across an edge: 6 grey levels.
    const double threshold = 24;
    const double imageArea = static_cast<double>(gray.cols) * gray.rows;

    std::vector<Candidate> found;
    for (auto &quad : coarse) {
        Corners start;
        // Corners of the working image in refine-image pixels: pixel centres at +0.5.
        for (int i = 0; i < 4; i++)
            start[i] = (quad[i] + cv::Point2d(0.5, 0.5)) * (refineScale / scale) - cv::Point2d(0.5, 0.5);
        std::array<SideFit, 4> fits;
        double weighted = 0, perimeter = 0, weakest = 1;
        for (int k = 0; k < 4; k++) {
            fits[k] = refineSide(refineImage, start[k], start[(k + 1) % 4], radius, threshold);
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
        double confidence = 0.7 * (weighted / perimeter) + 0.3 * weakest;
        if (debug) std::fprintf(stderr, " refined %.0f,%.0f %.0f,%.0f %.0f,%.0f %.0f,%.0f conf %.2f (%.2f %.2f %.2f %.2f)\n", corners[0].x, corners[0].y, corners[1].x, corners[1].y, corners[2].x, corners[2].y, corners[3].x, corners[3].y, confidence, fits[0].support, fits[1].support, fits[2].support, fits[3].support);
        if (confidence < o.minimum_confidence || confidence <= 0) continue;

        std::vector<cv::Point2f> polygon;
        for (auto &c : corners) polygon.emplace_back(static_cast<float>(c.x), static_cast<float>(c.y));
        if (!cv::isContourConvex(polygon)) continue;
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
        double area = std::abs(cv::contourArea(polygon));
        Candidate candidate;
        candidate.corners = ordered(corners);
        candidate.confidence = confidence;
        // Documents: the page, not a paragraph on it; otherwise size only breaks near-ties.
        candidate.score = o.prefers_large ? confidence * std::sqrt(area / imageArea)
                                          : confidence + 0.1 * std::sqrt(area / imageArea);
        found.push_back(candidate);
    }

    std::sort(found.begin(), found.end(), [](const Candidate &a, const Candidate &b) { return a.score > b.score; });
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
    return kept;
}

}  // namespace

extern "C" int kgeo_detect_rectangles(const kgeo_image *gray, const kgeo_rectangle_options *options, kgeo_quad *out,
                                      int capacity, int *count, char *error, size_t error_size) {
    return kgeo::guarded(error, error_size, [&] {
        cv::Mat image = kgeo::wrap(gray);
        if (image.channels() != 1) throw std::invalid_argument("rectangles need a gray image");
        if (!options || !out || !count) throw std::invalid_argument("missing argument");
        std::vector<Candidate> found = detect(image, *options);
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
