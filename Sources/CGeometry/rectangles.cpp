// Rectangle finding: candidate outlines from several edge and threshold maps at a working
// scale, each turned into a quad from its four longest sides (so rounded corners and a corner
// cut by the frame still give the true corners), then every side re-fitted to the strongest
// edge at full resolution and scored by how much of the outline has an edge under it. The
// stages live in their own files (rectangle_stages.hpp); this one runs them.
#include <algorithm>
#include <vector>

#include "guard.hpp"
#include "rectangle_stages.hpp"
#include "rectangle_tuning.hpp"

namespace kgeo::rect {
namespace {

using T = Tuning;

/// What the search asked for, in the image's own pixels.
struct Search {
    const kgeo_rectangle_options &o;
    double shorterDimension, minimumSide, imageArea;
    cv::Size size;

    Search(const cv::Mat &gray, const kgeo_rectangle_options &options)
        : o(options), shorterDimension(std::min(gray.cols, gray.rows)),
          minimumSide(std::max(8.0, options.minimum_size * shorterDimension)),
          imageArea(static_cast<double>(gray.cols) * gray.rows), size(gray.size()) {}

    /// Width and height of a quad (means of opposite sides).
    static std::pair<double, double> sides(const Corners &q) {
        return {0.5 * (cv::norm(q[1] - q[0]) + cv::norm(q[2] - q[3])), 0.5 * (cv::norm(q[3] - q[0]) + cv::norm(q[2] - q[1]))};
    }

    bool square(const Corners &q, double tolerance) const {
        for (int k = 0; k < 4; k++)
            if (std::abs(cornerAngle(q[(k + 3) % 4], q[k], q[(k + 1) % 4]) - 90) > tolerance) return false;
        return true;
    }

    /// Cheap geometry first, with slack for the refinement to move corners: most candidates
    /// end here. `quad` is at the working `scale`.
    bool plausible(const Corners &quad, double scale) const {
        if (!square(quad, o.quadrature_tolerance + T::plausibleAngleSlack)) return false;
        auto [w, h] = sides(quad);
        double ratio = std::min(w, h) / std::max(w, h);
        if (ratio < o.minimum_aspect_ratio - T::plausibleAspectSlack ||
            ratio > o.maximum_aspect_ratio + T::plausibleAspectSlack)
            return false;
        return std::min(w, h) >= T::plausibleSideShare * minimumSide * scale;
    }

    /// Whether refined `corners` make a rectangle as asked: convex, off the image's border
    /// (a side along it is the frame or the photo's edge, not an object's: the outline of a
    /// region cut by the frame runs along it, and a scanned or cropped photo often has a dark
    /// line there), square within the tolerance, of the aspect ratio and size asked for.
    bool acceptable(const Corners &corners) const {
        if (!cv::isContourConvex(polygon(corners))) return false;
        const double margin = std::max(T::framedMinimum, T::framedShare * shorterDimension);
        for (int k = 0; k < 4; k++)
            if (alongBorder(corners[k], corners[(k + 1) % 4], size.width, size.height, margin)) return false;
        if (!square(corners, o.quadrature_tolerance)) return false;
        auto [width, height] = sides(corners);
        double shorter = std::min(width, height), longer = std::max(width, height);
        double aspect = shorter / longer;
        if (aspect < o.minimum_aspect_ratio - 1e-9 || aspect > o.maximum_aspect_ratio + 1e-9) return false;
        return shorter >= minimumSide;
    }
};

/// The refinement's images: `gray` and the other planes at up to `refineSize`.
struct Refinement {
    double scale = 1;
    cv::Mat image;
    std::vector<cv::Mat> planes;
    double radius = 0;

    Refinement(const cv::Mat &gray, const std::vector<cv::Mat> &otherPlanes, double workingScale) {
        image = atMost(gray, T::refineSize, scale);
        planes.push_back(image);
        for (auto &plane : otherPlanes) {
            double planeScale;
            planes.push_back(atMost(plane, T::refineSize, planeScale));
        }
        radius = T::refineRadius * scale / workingScale + T::refineRadiusSlack;
    }
};

/// The candidate's quads at the working scale, each once.
std::vector<Corners> coarseQuads(const cv::Mat &small, const Search &search, double scale) {
    std::vector<Corners> coarse;
    const double sameTolerance = T::sameCandidate * std::hypot(small.cols, small.rows);
    const double minimumSmallSide = std::max(T::minimumWorkingSide, search.minimumSide * scale * T::workingSideShare);
    for (auto quad : candidateQuads(small, minimumSmallSide, search.o.quadrature_tolerance, search.o.prefers_large)) {
        quad = ordered(quad);
        if (std::none_of(coarse.begin(), coarse.end(), [&](auto &q) { return sameQuad(q, quad, sameTolerance); }))
            coarse.push_back(quad);
    }
    return coarse;
}

/// What a candidate's corners leave of its confidence. Real corners end their edges; borrowed
/// sides run on past them. A document lies on something: its outline ends at its corners, and
/// one whose sides run on is made of a building's or a board's longer lines (a quarter off for
/// each side end that runs on fully); rectangles in general may be cells of a grid. And a
/// document's edges reach its corners: a side with no edge next to a corner may have been
/// carried on past the object's corner to where a background line closes it (a screen's bottom
/// side 100 px along a building) — or be faint there (a white page against a white facade), so
/// bare ends only tip the balance between readings, never take more than `emptyEndFloor`.
double cornerFactor(const Corners &corners, const Refinement &refine, bool document) {
    double runOn = 0, empty = 0;
    for (int k = 0; k < 4; k++) {
        cv::Point2d c = corners[k] * refine.scale;
        for (const cv::Point2d &from : {corners[(k + 3) % 4] * refine.scale, corners[(k + 1) % 4] * refine.scale}) {
            runOn += continuation(refine.image, from, c, T::edgeThreshold);
            if (document) empty += emptyEnd(refine.image, from, c, T::edgeThreshold);
        }
    }
    const double runOnWeight = document ? T::documentRunOnWeight : T::rectangleRunOnWeight;
    double factor = std::max(0.0, 1 - runOnWeight * (runOn / 8));
    if (document) factor *= std::max(T::emptyEndFloor, 1 - T::emptyEndWeight * (empty / 8));
    return factor;
}

/// One candidate refined: its sides fitted at the refinement's scale, re-intersected and
/// scored. False when a side found no edge, the confidence is too low or the rectangle is not
/// as asked.
bool refined(const Corners &quad, double scale, const Refinement &refine, const Search &search, Candidate &out) {
    const auto &o = search.o;
    Corners start;
    // Corners of the working image in refine-image pixels: pixel centres at +0.5.
    for (int i = 0; i < 4; i++) start[i] = (quad[i] + cv::Point2d(0.5, 0.5)) * (refine.scale / scale) - cv::Point2d(0.5, 0.5);
    std::array<SideFit, 4> fits;
    double weighted = 0, perimeter = 0, weakest = 1, weightedAmongPeaks = 0, weakestAmongPeaks = 1;
    for (int k = 0; k < 4; k++) {
        fits[k] = refineSideOn(refine.planes, start[k], start[(k + 1) % 4], refine.radius, T::edgeThreshold, o.prefers_large);
        double length = cv::norm(start[(k + 1) % 4] - start[k]);
        weighted += fits[k].support * length;
        weightedAmongPeaks += fits[k].peakSupport * length;
        perimeter += length;
        weakest = std::min(weakest, fits[k].support);
        weakestAmongPeaks = std::min(weakestAmongPeaks, fits[k].peakSupport);
    }
    Corners corners;
    for (int k = 0; k < 4; k++) {
        const SideFit &before = fits[(k + 3) % 4], &after = fits[k];
        cv::Point2d corner;
        if (!intersect(before.point, before.direction, after.point, after.direction, corner)) return false;
        corners[k] = corner / refine.scale;  // continuous coordinates: scale directly
    }
    // Every side on an edge for at least part of its length (a side the refinement could
    // not fit is where the outline guessed, not where an edge is).
    if (std::any_of(fits.begin(), fits.end(), [](const SideFit &f) { return !f.fitted; })) return false;
    double confidence = T::supportWeight * (weighted / perimeter) + T::weakestSideWeight * weakest;
    const double atCorners = cornerFactor(corners, refine, o.prefers_large);
    confidence *= atCorners;
    if (o.prefers_large)
        out.outlineConfidence =
            atCorners * (T::supportWeight * (weightedAmongPeaks / perimeter) + T::weakestSideWeight * weakestAmongPeaks);
    // A document's outline round a better-edged picture may take its confidence from its
    // sides' two strongest edges (the ranking decides, and drops it if it does not).
    const double enough = o.prefers_large ? std::max(confidence, out.outlineConfidence) : confidence;
    if (enough < o.minimum_confidence || confidence <= 0) return false;
    if (!search.acceptable(corners)) return false;
    double area = std::abs(cv::contourArea(polygon(corners)));
    out.corners = ordered(corners);
    out.confidence = confidence;
    // Documents: the page, not a paragraph on it; otherwise size only breaks near-ties.
    double share = std::sqrt(area / search.imageArea);
    out.score = o.prefers_large ? confidence * share : confidence + T::sizeTieBreak * share;
    return true;
}

/// `otherPlanes`: images of `gray`'s size a side may also be fitted on.
std::vector<Candidate> detect(const cv::Mat &gray, const std::vector<cv::Mat> &otherPlanes,
                              const kgeo_rectangle_options &o) {
    Search search(gray, o);
    double scale;
    cv::Mat small = atMost(gray, T::workingSize, scale);
    std::vector<Corners> coarse = coarseQuads(small, search, scale);
    Refinement refine(gray, otherPlanes, scale);
    std::vector<Candidate> found;
    for (auto &quad : coarse) {
        Candidate candidate;
        if (search.plausible(quad, scale) && refined(quad, scale, refine, search, candidate)) found.push_back(candidate);
    }
    std::vector<Candidate> kept = ranked(found, o.prefers_large, o.maximum_observations, o.minimum_confidence);
    // Documents: the object's outline, not the picture on it.
    if (o.prefers_large) {
        std::vector<Corners> detected;
        // `ranked` has dropped the outlines kept below the minimum for it to weigh.
        for (auto &c : found) detected.push_back(c.corners);
        for (auto &k : kept) {
            Corners outer = k.corners;
            if (!enclosingBorder(refine.image, refine.scale, outer, T::edgeThreshold, detected)) continue;
            k.corners = ordered(outer);
            // A picture on a mat inside a bezel: two even bands, one round the other. The
            // second is taken only where every side moves out again.
            if (enclosingBorder(refine.image, refine.scale, outer, T::edgeThreshold, detected, true))
                k.corners = ordered(outer);
        }
    }
    return kept;
}

Candidate candidate(const kgeo_quad &quad) {
    Candidate c;
    for (int k = 0; k < 4; k++) c.corners[k] = cv::Point2d(quad.points[2 * k], quad.points[2 * k + 1]);
    c.confidence = quad.confidence;
    return c;
}

int write(const std::vector<Candidate> &found, kgeo_quad *out, int capacity) {
    int n = std::min(capacity, static_cast<int>(found.size()));
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 4; k++) {
            out[i].points[2 * k] = found[i].corners[k].x;
            out[i].points[2 * k + 1] = found[i].corners[k].y;
        }
        out[i].confidence = std::min(1.0, found[i].confidence);
    }
    return n;
}

}  // namespace
}  // namespace kgeo::rect

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
        *count = kgeo::rect::write(kgeo::rect::detect(image, otherPlanes, *options), out, capacity);
    });
}

extern "C" int kgeo_rank_rectangles(kgeo_quad *quads, int count, const kgeo_rectangle_options *options, int width,
                                    int height, int *kept, char *error, size_t error_size) {
    return kgeo::guarded(error, error_size, [&] {
        if (!options || !kept || count < 0 || (count > 0 && !quads) || width <= 0 || height <= 0)
            throw std::invalid_argument("invalid argument");
        std::vector<kgeo::rect::Candidate> found;
        for (int i = 0; i < count; i++) found.push_back(kgeo::rect::candidate(quads[i]));
        found = kgeo::rect::merged(std::move(found), options->prefers_large != 0, options->maximum_observations,
                                   static_cast<double>(width) * height);
        *kept = kgeo::rect::write(found, quads, count);
    });
}
