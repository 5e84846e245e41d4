// Refinement: each side of a candidate moved onto the strongest straight edge near it, at
// the refinement's scale, with sub-pixel edge positions and a robust (or consensus) line.
#include <algorithm>
#include <cmath>
#include <vector>

#include "edges.hpp"
#include "rectangle_stages.hpp"
#include "rectangle_tuning.hpp"

namespace kgeo::rect {
namespace {

using T = Tuning;

bool insideBorder(const cv::Mat &gray, int x, int y) { return x >= 1 && y >= 1 && x < gray.cols - 1 && y < gray.rows - 1; }

/// The gradient across the side at each step from -steps to steps along `normal` through `p`
/// (0 where off the image), and the step of the strongest.
int profileAcross(const cv::Mat &gray, cv::Point2d p, cv::Point2d normal, int steps, std::vector<double> &response,
                  double &best) {
    best = 0;
    int bestStep = 0;
    response.assign(2 * steps + 1, 0);
    for (int r = -steps; r <= steps; r++) {
        cv::Point2d q = p + normal * r;
        int x = static_cast<int>(std::lround(q.x)), y = static_cast<int>(std::lround(q.y));
        if (!insideBorder(gray, x, y)) continue;
        double along = gradientAcross(gray, x, y, normal);
        response[r + steps] = along;
        if (along > best) {
            best = along;
            bestStep = r;
        }
    }
    return bestStep;
}

/// The edge at step `peak` of the profile, sub-pixel: the peak of a parabola through the
/// response and its neighbours.
cv::Point2f located(const std::vector<double> &response, int steps, int peak, cv::Point2d p, cv::Point2d normal) {
    double offset = peak;
    int i = peak + steps;
    if (i > 0 && i < 2 * steps) {
        double l = response[i - 1], c = response[i], r = response[i + 1], denominator = l - 2 * c + r;
        if (denominator < 0) offset += std::clamp(0.5 * (l - r) / denominator, -0.5, 0.5);
    }
    cv::Point2d q = p + normal * offset;
    // Sobel's response is centred on the pixel; pixel centres sit at +0.5.
    return cv::Point2f(static_cast<float>(q.x + 0.5), static_cast<float>(q.y + 0.5));
}

/// The step of the first local peak of the profile met walking from one end (`direction` 1:
/// from -steps up; -1: from +steps down) that reaches `nearEdgeShare` of the strongest's
/// response and the threshold (the strongest itself if none comes before it).
int nearestStrongPeak(const std::vector<double> &response, int steps, int bestStep, double best, double threshold,
                      int direction) {
    double floor = std::max(threshold, T::nearEdgeShare * best);
    for (int i = 1; i < 2 * steps; i++) {
        int r = direction > 0 ? -steps + i : steps - i;
        if (r == bestStep) return r;
        double v = response[r + steps];
        if (v >= floor && v >= response[r + steps - 1] && v >= response[r + steps + 1]) return r;
    }
    return bestStep;
}

/// The next strongest local peak of the profile at least `secondPeakDistance` from the
/// strongest (the strongest itself if none).
int secondPeak(const std::vector<double> &response, int steps, int bestStep, double threshold) {
    double second = 0;
    int secondStep = bestStep;
    for (int r = -steps + 1; r < steps; r++) {
        double v = response[r + steps];
        if (std::abs(r - bestStep) >= T::secondPeakDistance && v >= threshold && v > second &&
            v >= response[r + steps - 1] && v >= response[r + steps + 1]) {
            second = v;
            secondStep = r;
        }
    }
    return secondStep;
}

/// The line (point, unit normal) most samples agree on, within `onLine` of either of each
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
            if (std::min(d1, d2) > T::onLine) continue;
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
    for (int trial = 0; trial < T::consensusTrials; trial++) {
        size_t i = next() % (m / 2), j = m / 2 + next() % (m - m / 2);
        cv::Point2d pa = (next() & 1) ? second[i] : strongest[i];
        cv::Point2d pb = (next() & 1) ? second[j] : strongest[j];
        cv::Point2d d = pb - pa;
        double length = cv::norm(d);
        // Within 14° of the side searched.
        if (length < 1 || std::abs(d.dot(along)) < T::consensusAlong * length) continue;
        cv::Point2d n(-d.y / length, d.x / length);
        int count = agreeing(pa, n, nullptr);
        if (count > bestCount) {
            bestCount = count;
            origin = pa;
            normal = n;
        }
    }
    for (int iteration = 0; iteration < T::consensusRefits; iteration++) {
        std::vector<cv::Point2f> on;
        agreeing(origin, normal, &on);
        if (on.size() < T::minimumFitPoints) break;
        cv::Vec4f line;
        cv::fitLine(on, line, cv::DIST_L2, 0, 0.01, 0.01);
        origin = cv::Point2d(line[2], line[3]);
        normal = cv::Point2d(-line[1], line[0]);
    }
}

/// The side's line through its samples' edges, and its support: the share of the `valid`
/// (in-frame) samples whose edge lies on it. On texture the strongest gradient near a sample
/// is anywhere; on a real side it is on the line every time.
void fitSamples(const std::vector<cv::Point2f> &points, const std::vector<cv::Point2f> &seconds, cv::Point2d u,
                int valid, bool consensus, SideFit &fit) {
    if (points.size() < T::minimumFitPoints) return;
    cv::Vec4f line;
    cv::fitLine(points, line, cv::DIST_HUBER, 0, 0.01, 0.01);
    cv::Point2d direction(line[0], line[1]), origin(line[2], line[3]), n(-direction.y, direction.x);
    if (consensus) {
        consensusLine(points, seconds, u, origin, n);
        direction = cv::Point2d(n.y, -n.x);
    }
    int inliers = 0, eitherPeak = 0;
    for (size_t k = 0; k < points.size(); k++) {
        bool strongest = std::abs((cv::Point2d(points[k]) - origin).dot(n)) <= T::onLine;
        bool second = consensus && std::abs((cv::Point2d(seconds[k]) - origin).dot(n)) <= T::onLine;
        inliers += strongest;
        eitherPeak += strongest || second;
    }
    fit.support = valid > 0 ? static_cast<double>(inliers) / valid : 0;
    fit.peakSupport = valid > 0 ? static_cast<double>(eitherPeak) / valid : 0;
    // A document's side under a stronger parallel edge of its picture (a thin bezel under a
    // photo's border) is fitted when it is among the two strongest nearly all along.
    if (fit.support >= T::minimumSupport || (consensus && fit.peakSupport >= T::hiddenSideSupport)) {
        fit.direction = direction;
        fit.point = origin;
        fit.fitted = true;
    }
}

}  // namespace

SideFit refineSide(const cv::Mat &gray, cv::Point2d a, cv::Point2d b, double radius, double threshold, bool consensus,
                   SampleEdge choice, cv::Point2d nearTo) {
    SideFit fit;
    fit.point = a;
    fit.direction = b - a;
    double length = cv::norm(b - a);
    if (length < 4) return fit;
    cv::Point2d u = (b - a) / length, normal(-u.y, u.x);
    int samples = std::clamp(static_cast<int>(length / T::sampleSpacing), T::minimumSamples, T::maximumSamples);
    int steps = static_cast<int>(std::ceil(radius));
    std::vector<cv::Point2f> points, seconds;
    std::vector<double> response;
    int valid = 0;
    for (int s = 0; s < samples; s++) {
        double t = T::sampleStart + T::sampleSpan * (s + 0.5) / samples;
        cv::Point2d p = a + (b - a) * t;
        if (!insideBorder(gray, static_cast<int>(p.x), static_cast<int>(p.y))) continue;
        valid++;
        double best;
        int bestStep = profileAcross(gray, p, normal, steps, response, best);
        if (best < threshold) continue;
        if (choice == SampleEdge::nearest)
            bestStep = nearestStrongPeak(response, steps, bestStep, best, threshold, (nearTo - p).dot(normal) < 0 ? 1 : -1);
        points.push_back(located(response, steps, bestStep, p, normal));
        if (consensus) seconds.push_back(located(response, steps, secondPeak(response, steps, bestStep, threshold), p, normal));
    }
    fitSamples(points, seconds, u, valid, consensus, fit);
    if (!fit.fitted) fit.point = a + cv::Point2d(0.5, 0.5);
    return fit;
}

SideFit refineSideOn(const std::vector<cv::Mat> &planes, cv::Point2d a, cv::Point2d b, double radius, double threshold,
                     bool consensus) {
    SideFit best = refineSide(planes[0], a, b, radius, threshold, consensus);
    for (size_t i = 1; i < planes.size(); i++) {
        SideFit fit = refineSide(planes[i], a, b, radius, threshold, consensus);
        if (fit.fitted && (!best.fitted || fit.support > best.support)) best = fit;
    }
    return best;
}

}  // namespace kgeo::rect

bool kgeo::snapToEdges(const cv::Mat &gray, std::array<cv::Point2d, 4> &corners, double radius) {
    using namespace kgeo::rect;
    std::array<SideFit, 4> fits;
    for (int k = 0; k < 4; k++) {
        // Index coordinates in, continuous coordinates out (as in the detector).
        fits[k] = refineSide(gray, corners[k] - cv::Point2d(0.5, 0.5), corners[(k + 1) % 4] - cv::Point2d(0.5, 0.5), radius,
                             Tuning::snapThreshold);
        if (!fits[k].fitted || fits[k].support < Tuning::snapSupport) return false;
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
