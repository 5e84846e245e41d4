// The document's border: a screen's dark bezel round its bright picture, a card's printed
// frame. The strongest outline can lie just inside the object's real one, the band between
// them one even tone. Each side is looked for again just outside (a few pixels to a tenth of
// the shorter side) and just inside (the outline found may mix inner and outer sides);
// outside, a faint edge will do (a black bezel against dark fur or a busy board). A side
// whose outer edge is lost against something as dark as the bezel takes the opposite band's
// width, scaled for perspective: one such side when two others moved out, or two adjacent
// ones when the other two moved out or already lie on the outer edge. A side may also lie on
// a side of another detected outline just outside it: the detector fitted that one along the
// whole bezel's edge, where the search just outside can stop on the blur of the picture's
// own bright edge. Of every reading of the sides whose bands are one even tone, the most
// even wins; readings that leave sides where they are (the outer edge already: a bezel
// thinner at the top than the search's reach, a card dark along two sides only) count only
// when no reading leaves fewer. The last of them moves one side alone, the other three on the
// outer edge already, when the band it crosses has the tone of the thin strip just inside
// those three (the bezel, even all round). Outside, a side's edge is the first strong one
// going out (a busy background's stronger edges lie beyond a bezel). The outline as found is
// a reading too when an even band lies just inside every side: then no band width is borrowed
// beyond it. The caller runs the search a second time for a band round the first (a photo's
// mat inside a screen's bezel).
#include <algorithm>

#include "rectangle_stages.hpp"
#include "rectangle_tuning.hpp"

namespace kgeo::rect {
namespace {

using T = Tuning;

/// Where each side's band edge may be: on the outline itself, found just outside or inside
/// it, lost (its width borrowed from the opposite band), on another detected outline, or
/// staying: the side is the outer edge already, its bezel thinner than the search's inner
/// limit (a screen's 2–5 px top) or absent (a card whose picture is dark along two sides).
enum class Band { outside, inside, lost, detected, stays };

/// Whether a reading leaves some sides where they are (fewer bands to judge it by).
bool leavesSides(const std::array<Band, 4> &reading) {
    return std::any_of(reading.begin(), reading.end(), [](Band b) { return b == Band::stays; });
}

/// What was found round one outline, at the refinement's scale.
struct BorderEvidence {
    Corners c;  // the outline
    std::array<cv::Point2d, 4> normals;  // each side's, pointing out
    std::array<SideFit, 4> sides, outward, inward, onDetected;
    double inner = T::bandInner, outer = 0;

    bool possible(int k, Band band) const {
        switch (band) {
        case Band::outside: return outward[k].fitted;
        case Band::inside: return inward[k].fitted;
        case Band::detected: return onDetected[k].fitted;
        case Band::lost:
        case Band::stays: return true;
        }
        return false;
    }
};

/// The nearest side of `detected` (scaled) parallel to a–b (within `bandParallel`), alongside
/// it and just outside it along `n`: a detected edge is evidence enough a little further out
/// than the search reaches.
SideFit nearestDetectedSide(const std::vector<Corners> &detected, double scale, cv::Point2d a, cv::Point2d b,
                            cv::Point2d n, double inner, double outer) {
    SideFit nearest;
    cv::Point2d u = (b - a) / cv::norm(b - a);
    for (const Corners &other : detected)
        for (int j = 0; j < 4; j++) {
            cv::Point2d p = other[j] * scale, q = other[(j + 1) % 4] * scale, d = q - p;
            double length = cv::norm(d);
            if (length < 1 || std::abs(d.x * u.y - d.y * u.x) > std::sin(T::bandParallel * CV_PI / 180) * length) continue;
            // Alongside this side (its middle within the side's extent), not a parallel edge
            // elsewhere in the photo.
            double along = ((p + q) / 2 - a).dot(u);
            if (along < 0 || along > cv::norm(b - a)) continue;
            double offset = ((p + q) / 2 - (a + b) / 2).dot(n);
            if (offset < inner || offset > T::detectedReach * outer) continue;
            if (nearest.fitted && offset >= (nearest.point - a).dot(n)) continue;
            nearest.point = p;
            nearest.direction = d;
            nearest.fitted = true;
        }
    return nearest;
}

BorderEvidence gatherEvidence(const cv::Mat &image, double scale, const Corners &corners, double threshold,
                              const std::vector<Corners> &detected) {
    BorderEvidence e;
    for (int k = 0; k < 4; k++) e.c[k] = corners[k] * scale;
    cv::Point2d centre = (e.c[0] + e.c[1] + e.c[2] + e.c[3]) / 4;
    double shorter = 1e9;
    for (int k = 0; k < 4; k++) shorter = std::min(shorter, cv::norm(e.c[(k + 1) % 4] - e.c[k]));
    e.outer = std::max(T::bandOuterMinimum, T::bandOuterShare * shorter);
    for (int k = 0; k < 4; k++) {
        cv::Point2d a = e.c[k], b = e.c[(k + 1) % 4], u = (b - a) / cv::norm(b - a), n(-u.y, u.x);
        if (n.dot((a + b) / 2 - centre) < 0) n = -n;
        e.normals[k] = n;
        auto parallelEdge = [&](double sign) {
            double offset = sign * (e.inner + e.outer) / 2;
            // Outside, the band's end is the first strong edge met going out: a busy
            // background's stronger ones lie beyond it.
            SampleEdge choice = sign > 0 ? SampleEdge::nearest : SampleEdge::strongest;
            SideFit fit = refineSide(image, a + n * offset - cv::Point2d(0.5, 0.5), b + n * offset - cv::Point2d(0.5, 0.5),
                                     (e.outer - e.inner) / 2, threshold, true, choice, a - cv::Point2d(0.5, 0.5));
            cv::Point2d d = fit.direction / cv::norm(fit.direction);
            bool parallel = std::abs(d.x * u.y - d.y * u.x) <= std::sin(T::bandParallel * CV_PI / 180);
            fit.fitted = fit.fitted && parallel;
            return fit;
        };
        e.sides[k].point = a;
        e.sides[k].direction = b - a;
        e.sides[k].fitted = true;
        e.outward[k] = parallelEdge(1);
        e.inward[k] = parallelEdge(-1);
        e.inward[k].fitted = e.inward[k].fitted && e.inward[k].support >= T::insideSupport;
        e.outward[k].fitted = e.outward[k].fitted && e.outward[k].support >= T::outsideSupport;
        e.onDetected[k] = nearestDetectedSide(detected, scale, a, b, n, e.inner, e.outer);
    }
    return e;
}

/// Each side's outer line and the other edge of its band for one reading; false when the
/// reading lacks the evidence (a lost side takes the width of the opposite band: one lost
/// side needs two that moved out; two adjacent lost sides, the other two moved out or lying
/// on the outer edge already with the inner one found inside them, a screen's picture edge).
/// Sides that stay need two adjacent sides that moved out and none inside: where a bezel is
/// thin (a screen's top) the refinement has fitted its outer edge already, where it is wider
/// (the bottom and a side) it fitted the picture's. Or three stay and the fourth moved out
/// alone: the outline is on the bezel's outer edge but for one side, on the picture's edge
/// where the bezel is widest (its band is judged with the strips inside the three, `bandTone`).
bool bandLines(const BorderEvidence &e, const std::array<Band, 4> &reading, std::array<SideFit, 4> &outerLines,
               std::array<SideFit, 4> &otherEdges, std::vector<int> &lost) {
    int moved = 0, inside = 0, stays = 0;
    bool adjacentMoved = false;
    for (int k = 0; k < 4; k++) {
        auto out = [&](int j) { return reading[j] == Band::outside || reading[j] == Band::detected; };
        adjacentMoved = adjacentMoved || (out(k) && out((k + 1) % 4));
        switch (reading[k]) {
        case Band::stays: outerLines[k] = e.sides[k], otherEdges[k] = e.sides[k], stays++; break;
        case Band::outside: outerLines[k] = e.outward[k], otherEdges[k] = e.sides[k], moved++; break;
        case Band::detected: outerLines[k] = e.onDetected[k], otherEdges[k] = e.sides[k], moved++; break;
        case Band::inside: outerLines[k] = e.sides[k], otherEdges[k] = e.inward[k], inside++; break;
        case Band::lost: lost.push_back(k); break;
        }
    }
    // Every side inside moves nothing: the reading that the outline is already the outer one.
    bool enough = stays > 0          ? (inside == 0 && adjacentMoved) || (stays == 3 && moved == 1)
                  : lost.empty()     ? moved > 0 || inside == 4
                  : lost.size() == 1 ? moved >= 2
                                     : lost.size() == 2 && (inside == 2 || moved == 2);
    if (!enough) return false;
    for (int k : lost) {
        if (reading[(k + 2) % 4] == Band::lost) return false;
        const SideFit &o = outerLines[(k + 2) % 4], &edge = otherEdges[(k + 2) % 4];
        cv::Point2d d = o.direction / cv::norm(o.direction);
        double width = std::abs((o.point - edge.point).dot(cv::Point2d(-d.y, d.x)));
        if (width < e.inner) return false;
        // Perspective: a band is as much wider than the opposite one as its side is longer.
        width *= cv::norm(e.c[(k + 1) % 4] - e.c[k]) / cv::norm(e.c[(k + 3) % 4] - e.c[(k + 2) % 4]);
        otherEdges[k] = e.sides[k];
        outerLines[k] = e.sides[k];
        outerLines[k].point += e.normals[k] * width;
        // A faint edge just outside (black bezel on dark fur) places it better than a width
        // borrowed from a band that may be wider.
        if (e.outward[k].fitted) outerLines[k] = e.outward[k];
    }
    return true;
}

/// The tone of the bands' middles, `bandSamples` points a side.
struct BandTone {
    double sum = 0, squares = 0, steps = 0;
    int count = 0, stepCount = 0;
    std::array<double, 4> sideSum{}, sideRamp{};
    std::array<int, 4> sideCount{}, sideRampCount{};
    std::array<double, 4> sideContrast{};
    std::array<int, 4> sideContrastCount{};

    double sideMean(int k) const { return sideSum[k] / sideCount[k]; }
    double sideRampMean(int k) const { return sideRamp[k] / std::max(1, sideRampCount[k]); }
    double sideContrastMean(int k) const { return sideContrast[k] / std::max(1, sideContrastCount[k]); }
};

BandTone bandTone(const cv::Mat &image, const BorderEvidence &e, const std::array<Band, 4> &reading,
                  const std::array<SideFit, 4> &outerLines, const std::array<SideFit, 4> &otherEdges) {
    BandTone tone;
    bool acrossToo = leavesSides(reading);  // only such readings are judged across their bands
    int staying = static_cast<int>(std::count(reading.begin(), reading.end(), Band::stays));
    for (int k = 0; k < 4; k++) {
        if (reading[k] == Band::stays && staying == 3) {
            // One side moved alone: the bezel it crossed must have the tone of the thin strip
            // just inside the sides that stay (a screen's bezel, even all round).
            for (int step = 1; step <= T::bandSamples; step++) {
                cv::Point2d p = e.c[k] + (e.c[(k + 1) % 4] - e.c[k]) * (step / (T::bandSamples + 1.0)) -
                                e.normals[k] * T::insideToneDepth;
                if (!(p.x >= 0 && p.y >= 0 && p.x < image.cols && p.y < image.rows)) continue;
                double v = image.at<uint8_t>(static_cast<int>(p.y), static_cast<int>(p.x));
                tone.sum += v;
                tone.squares += v * v;
                tone.count++;
                tone.sideSum[k] += v;
                tone.sideCount[k]++;
            }
            continue;
        }
        if (reading[k] == Band::stays) continue;  // no band to sample
        double previous = -1;
        for (int step = 1; step <= T::bandSamples; step++) {
            cv::Point2d s = e.c[k] + (e.c[(k + 1) % 4] - e.c[k]) * (step / (T::bandSamples + 1.0)), n = e.normals[k];
            // Where the normal through s meets each edge; the band's middle is halfway.
            auto along = [&](const SideFit &line) {
                double cross = n.x * line.direction.y - n.y * line.direction.x;
                cv::Point2d w = line.point - s;
                return std::abs(cross) < 1e-9 ? 0.0 : (w.x * line.direction.y - w.y * line.direction.x) / cross;
            };
            double outer = along(outerLines[k]), other = along(otherEdges[k]);
            // Bounds compared as doubles before any pixel index is made of them (a line nearly
            // parallel to the sample's normal puts the point anywhere).
            auto inImage = [&](cv::Point2d q) { return q.x >= 0 && q.y >= 0 && q.x < image.cols && q.y < image.rows; };
            auto at = [&](cv::Point2d q) {
                return static_cast<double>(image.at<uint8_t>(static_cast<int>(q.y), static_cast<int>(q.x)));
            };
            cv::Point2d p = s + n * (0.5 * (outer + other));
            // (The band's middle truncates towards zero, so up to a pixel before the first
            // column or row reads it.)
            if (!(p.x > -1 && p.y > -1 && p.x < image.cols && p.y < image.rows)) continue;
            double v = at(p);
            // Across the band, a quarter of its width from each edge: a bezel is flat there,
            // the blurred tail of the side's own edge is a ramp.
            cv::Point2d q1 = s + n * (0.75 * other + 0.25 * outer), q3 = s + n * (0.25 * other + 0.75 * outer);
            if (acrossToo && inImage(q1) && inImage(q3)) {
                tone.sideRamp[k] += std::abs(at(q1) - at(q3));
                tone.sideRampCount[k]++;
                // And how far the band's tone lies from what is just inside the side: the
                // change across the band may scale with it (`flatBandShare`).
                cv::Point2d within = s - n * T::insideToneDepth;
                if (inImage(within)) {
                    tone.sideContrast[k] += std::abs(at(within) - v);
                    tone.sideContrastCount[k]++;
                }
            }
            if (previous >= 0) {
                tone.steps += std::abs(v - previous);
                tone.stepCount++;
            }
            previous = v;
            tone.sum += v;
            tone.squares += v * v;
            tone.count++;
            tone.sideSum[k] += v;
            tone.sideCount[k]++;
        }
    }
    return tone;
}

/// The outer quad for one reading of the sides and its bands' deviation, when the bands are
/// one even tone. A band under a shadow's gradient drifts along its length but stays smooth
/// from point to point, which texture never does.
bool outerQuad(const cv::Mat &image, const BorderEvidence &e, const std::array<Band, 4> &reading, Corners &found,
               double &deviationOut) {
    std::array<SideFit, 4> outerLines, otherEdges;
    std::vector<int> lost;
    if (!bandLines(e, reading, outerLines, otherEdges, lost)) return false;
    for (int k = 0; k < 4; k++) {
        const SideFit &before = outerLines[(k + 3) % 4], &after = outerLines[k];
        if (!intersect(before.point, before.direction, after.point, after.direction, found[k])) return false;
        if (cv::norm(found[k] - e.c[k]) > 2 * e.outer) return false;
    }
    BandTone tone = bandTone(image, e, reading, outerLines, otherEdges);
    if (tone.count < T::minimumBandSamples) return false;
    // Sides that stay leave fewer bands to judge by: those that moved must be flat across
    // too (the blurred tail of a page's own edge passes for an even band along it) — within a
    // share of their contrast with what lies inside the side, as a dark bezel's quarter next
    // to a white mat carries the mat's blur.
    for (int k = 0; k < 4 && leavesSides(reading); k++)
        if (tone.sideRampCount[k] > 0 &&
            tone.sideRampMean(k) > std::max(T::flatBand, T::flatBandShare * tone.sideContrastMean(k)))
            return false;
    // A lost side's band must look like the band whose width it took (the same bezel), not
    // like whatever lies beyond an outline that was already the outer one.
    for (int k : lost) {
        int opposite = (k + 2) % 4;
        if (tone.sideCount[k] == 0 || tone.sideCount[opposite] == 0) return false;
        if (std::abs(tone.sideMean(k) - tone.sideMean(opposite)) > T::lostBandTone) return false;
    }
    double mean = tone.sum / tone.count, deviation = std::sqrt(std::max(0.0, tone.squares / tone.count - mean * mean));
    double roughness = tone.steps / std::max(1, tone.stepCount);
    deviationOut = deviation;
    return deviation <= T::evenDeviation || (deviation <= T::shadedDeviation && roughness <= T::shadedRoughness);
}

}  // namespace

bool enclosingBorder(const cv::Mat &image, double scale, Corners &corners, double threshold,
                     const std::vector<Corners> &detected, bool outsideOnly) {
    BorderEvidence e = gatherEvidence(image, scale, corners, threshold, detected);
    // An even band just inside every side: the outline may be a frame's outer edge already.
    // Then no side's band is borrowed beyond it (that would be the background's, however
    // even), and readings whose every edge was found must be more even to move it.
    Corners found;
    double unmovedDeviation = 0;
    bool insideAll = e.inward[0].fitted && e.inward[1].fitted && e.inward[2].fitted && e.inward[3].fitted;
    bool unmoved = !outsideOnly && insideAll &&
                   outerQuad(image, e, {Band::inside, Band::inside, Band::inside, Band::inside}, found, unmovedDeviation);
    // Every reading of the sides (an edge found outside may be clutter, one inside the
    // picture's own): the one whose bands are the most even tone wins. Readings where some
    // sides stay sample fewer bands (fewer bands are more easily even), so they come only
    // when no reading with fewer such sides exists. One side moved alone is tried last, in
    // the second search too (a mat's band found round every side but the widest bezel's).
    bool ok = false;
    double best = unmoved ? unmovedDeviation : 1e9;
    constexpr int kinds = 5;
    for (int staying = 0; staying <= 3; staying++) {
        // The second search (a band round the first) moves every side, or one alone; an
        // outline with an even band inside every side may be the outer edge already, or
        // outer but for one side.
        if (ok) break;
        if (staying > 0 && staying < 3 && (outsideOnly || unmoved)) continue;
        for (int code = 0; code < kinds * kinds * kinds * kinds; code++) {
            std::array<Band, 4> reading;
            bool possible = true;
            int stays = 0;
            for (int k = 0, rest = code; k < 4; k++, rest /= kinds) {
                reading[k] = static_cast<Band>(rest % kinds);
                stays += reading[k] == Band::stays;
                possible = possible && e.possible(k, reading[k]) && (!outsideOnly || reading[k] != Band::inside);
            }
            bool allInside = std::all_of(reading.begin(), reading.end(), [](Band b) { return b == Band::inside; });
            bool borrows = std::any_of(reading.begin(), reading.end(), [](Band b) { return b == Band::lost; });
            Corners quad;
            double deviation = 0;
            if (stays != staying || !possible || allInside || (unmoved && borrows) ||
                !outerQuad(image, e, reading, quad, deviation))
                continue;
            if (deviation < best) best = deviation, found = quad, ok = true;
        }
    }
    if (unmoved && !ok) return true;
    if (!ok) return false;
    for (int k = 0; k < 4; k++) corners[k] = found[k] / scale;
    return true;
}

}  // namespace kgeo::rect
