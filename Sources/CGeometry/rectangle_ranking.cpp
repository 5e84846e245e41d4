// Scoring and ranking: how far a side runs on past its corner, pieces and extensions of
// another candidate, and the order results are reported in (one search's, and several
// searches' merged). The Swift side ranks nothing: it asks for `kgeo_rank_rectangles`.
#include "rectangle_stages.hpp"
#include "rectangle_tuning.hpp"

namespace kgeo::rect {
namespace {

using T = Tuning;

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

/// Whether `small` lies inside `large` (`containedShare` of its area) along one of its sides.
bool insideAlongSide(const Corners &small, double smallArea, const Corners &large) {
    std::vector<cv::Point2f> common;
    double shared = cv::intersectConvexConvex(polygon(small), polygon(large), common, true);
    if (shared < T::containedShare * smallArea) return false;
    double tolerance = std::max(T::sharedSideMinimum, T::sharedSideShare * cv::norm(large[2] - large[0]));
    for (int k = 0; k < 4; k++)
        if (sharesSide(small, k, large, tolerance)) return true;
    return false;
}

std::vector<double> areas(const std::vector<Candidate> &found) {
    std::vector<double> result;
    for (auto &c : found) result.push_back(std::abs(cv::contourArea(polygon(c.corners))));
    return result;
}

/// A quad inside a larger candidate and lying along one of its sides is a piece of it (a
/// card's picture sharing the card's top and right edges, whose printed lines close it off):
/// its confidence is kept below the larger one's when that one is nearly as well edged, so
/// the object outranks its pieces in every ranking after this one.
void demotePieces(std::vector<Candidate> &found) {
    std::vector<double> area = areas(found);
    std::vector<double> original;
    for (auto &c : found) original.push_back(c.confidence);
    for (size_t i = 0; i < found.size(); i++)
        for (size_t j = 0; j < found.size(); j++) {
            if (i == j || area[j] < T::containingArea * area[i] || original[j] < T::pieceDemotionBelow * original[i])
                continue;
            if (!insideAlongSide(found[i].corners, area[i], found[j].corners)) continue;
            double capped = std::min(found[i].confidence, T::pieceCap * original[j]);
            found[i].score -= found[i].confidence - capped;
            found[i].confidence = capped;
        }
}

/// Document outlines that are another one extended onto the background: a card's side carried
/// on along a building's floor lines to a larger quad that contains the card. Such a quad is
/// hardly better edged than the card (the building's lines are sharp too) and wins on size; the
/// card's outline is the only one that ends where the object does. A quad is dropped when it
/// contains another one, at least `containingArea` times that one's area, runs along one of its
/// sides and is less than 1/`extensionEdgeRatio` times as well edged. (The rectangle request
/// keeps the larger one, `demotePieces`: there a quad inside another and along its side is a
/// piece of it, a picture printed on a card.)
void dropExtensions(std::vector<Candidate> &found) {
    std::vector<double> area = areas(found);
    std::vector<bool> extension(found.size(), false);
    for (size_t large = 0; large < found.size(); large++)
        for (size_t small = 0; small < found.size() && !extension[large]; small++) {
            if (small == large || area[large] < T::containingArea * area[small]) continue;
            if (found[small].confidence < T::extensionEdgeRatio * found[large].confidence) continue;
            // Not of a quad far less edged all round than the large one (with each side among
            // its samples' two strongest edges): that one is a hybrid, a picture's sides closed
            // by one of the screen's, and the large one is the screen.
            if (found[large].outlineConfidence >= found[small].outlineConfidence + T::extensionOutlineMargin) continue;
            extension[large] = insideAlongSide(found[small].corners, area[small], found[large].corners);
        }
    std::vector<Candidate> kept;
    for (size_t i = 0; i < found.size(); i++)
        if (!extension[i]) kept.push_back(found[i]);
    found = std::move(kept);
}

/// Whether `large` holds `small` wholly inside it, away from its sides: at least
/// `containingArea` times its area, `containedShare` of it shared, no side in common.
bool enclosing(const Corners &large, double largeArea, const Corners &small, double smallArea) {
    if (largeArea < T::containingArea * smallArea) return false;
    std::vector<cv::Point2f> common;
    if (cv::intersectConvexConvex(polygon(small), polygon(large), common, true) < T::containedShare * smallArea) return false;
    return !insideAlongSide(small, smallArea, large);
}

/// Documents: the object's outline, not the picture on it. A screen's window or a photo's mat
/// inside it has the strongest edges, and along most of each of the screen's sides the
/// stronger of a sample's edges is the picture's, not the thin bezel's; its sides' edges are
/// then among each sample's strongest two all along (`outlineConfidence`). An outline that
/// holds a better-edged candidate wholly inside it and is edged all round in that sense
/// (`enclosingConfidence` of the inner one's confidence) is the object: it goes before the
/// inner one, with that confidence (the ranking across planes sees it too).
void enclosingFirst(std::vector<Candidate> &found) {
    std::vector<double> area = areas(found);
    for (size_t i = 0; i < found.size(); i++)
        for (size_t j = i + 1; j < found.size(); j++) {
            if (found[j].outlineConfidence < T::enclosingConfidence * found[i].confidence) continue;
            if (!enclosing(found[j].corners, area[j], found[i].corners, area[i])) continue;
            found[j].confidence = std::max(found[j].confidence, found[j].outlineConfidence);
            std::rotate(found.begin() + i, found.begin() + j, found.begin() + j + 1);
            std::rotate(area.begin() + i, area.begin() + j, area.begin() + j + 1);
            j = i;  // look again from the new one
        }
}

/// `found` (in order) without a candidate whose corners all lie within `tolerance(candidate)`
/// of one kept before it, at most `maximum` (0: all).
template <class Tolerance>
std::vector<Candidate> withoutDuplicates(const std::vector<Candidate> &found, int maximum, Tolerance tolerance) {
    std::vector<Candidate> kept;
    for (auto &c : found) {
        double within = tolerance(c.corners);
        bool duplicate = false;
        for (auto &k : kept)
            if (sameQuad(k.corners, c.corners, within)) {
                duplicate = true;
                break;
            }
        if (!duplicate) kept.push_back(c);
        if (maximum > 0 && static_cast<int>(kept.size()) >= maximum) break;
    }
    return kept;
}

void byScore(std::vector<Candidate> &found) {
    std::sort(found.begin(), found.end(), [](const Candidate &a, const Candidate &b) { return a.score > b.score; });
}

/// What a walk along a side finds at `point` (continuous coordinates): off the image (a pixel
/// from its border anywhere within `radius` across), or whether the strongest gradient across
/// within `radius` reaches `threshold` within a pixel of the line.
enum class EdgeAt { outside, offLine, onLine };

EdgeAt edgeOnLine(const cv::Mat &gray, cv::Point2d point, cv::Point2d normal, int radius, double threshold) {
    cv::Point2d p = point - cv::Point2d(0.5, 0.5);
    double best = 0;
    int bestStep = 99;
    for (int r = -radius; r <= radius; r++) {
        cv::Point2d q = p + normal * r;
        // Compared as doubles first: a point far off the image is no integer pixel.
        if (!(q.x >= 0.5 && q.y >= 0.5 && q.x < gray.cols - 1.5 && q.y < gray.rows - 1.5)) return EdgeAt::outside;
        int x = static_cast<int>(std::lround(q.x)), y = static_cast<int>(std::lround(q.y));
        double along = gradientAcross(gray, x, y, normal);
        if (along > best) {
            best = along;
            bestStep = r;
        }
    }
    return best >= threshold && std::abs(bestStep) <= 1 ? EdgeAt::onLine : EdgeAt::offLine;
}

}  // namespace

double continuation(const cv::Mat &gray, cv::Point2d from, cv::Point2d corner, double threshold) {
    double length = cv::norm(corner - from);
    if (length < T::continuationMinimumSide) return 0;
    cv::Point2d u = (corner - from) / length, normal(-u.y, u.x);
    // Never further than across the image: a corner far outside it is walked to no end.
    double reach = std::min(std::max(T::continuationReach, T::continuationReachShare * length),
                            static_cast<double>(gray.cols + gray.rows));
    int valid = 0, onLine = 0;
    for (double t = T::continuationStart; t <= T::continuationStart + reach; t += T::continuationStep) {
        // On the line, as a side's edge is; texture puts its strongest gradient anywhere.
        EdgeAt at = edgeOnLine(gray, corner + u * t, normal, T::continuationRadius, threshold);
        if (at == EdgeAt::outside) continue;
        valid++;
        onLine += at == EdgeAt::onLine;
    }
    if (valid == 0) return 0;
    return std::max(0.0, (static_cast<double>(onLine) / valid - T::chanceOnLine) / T::offLineShare);
}

double emptyEnd(const cv::Mat &gray, cv::Point2d from, cv::Point2d corner, double threshold) {
    double length = cv::norm(from - corner);
    if (length < T::continuationMinimumSide) return 0;
    cv::Point2d u = (from - corner) / length, normal(-u.y, u.x);
    int valid = 0, onLine = 0;
    const double stretch = std::min(T::emptyEndShare * length, static_cast<double>(gray.cols + gray.rows));
    for (double t = T::continuationStart; t <= stretch; t += T::continuationStep) {
        // Any edge on the line counts (a pixel either side), not only the strongest further
        // off: a screen's thin bezel beside its picture's stronger border still reaches the
        // corner.
        EdgeAt at = edgeOnLine(gray, corner + u * t, normal, 1, threshold);
        if (at == EdgeAt::outside) continue;
        valid++;
        onLine += at == EdgeAt::onLine;
    }
    if (valid == 0) return 0;
    double bare = std::max(0.0, 1 - (static_cast<double>(onLine) / valid) / T::fullEnd);
    return std::max(0.0, bare - T::emptyEndAllowance) / (1 - T::emptyEndAllowance);
}

std::vector<Candidate> ranked(std::vector<Candidate> &found, bool prefersLarge, int maximum, double minimumConfidence) {
    if (prefersLarge)
        dropExtensions(found);
    else
        demotePieces(found);
    byScore(found);
    // Size ranks the page above a paragraph on it. Two readings of one object that differ in
    // one side (a side on the object's edge, or on a building's edge just beside it) are
    // alike in size (within a fifth: a sign with a strip of facade beside it), and there the
    // better-edged one is the object.
    if (prefersLarge)
        for (size_t i = 0; i < found.size(); i++)
            for (size_t j = i + 1; j < found.size(); j++)
                if (found[j].confidence > found[i].confidence &&
                    overlap(found[i].corners, found[j].corners) >= T::sameObjectOverlap) {
                    std::rotate(found.begin() + i, found.begin() + j, found.begin() + j + 1);
                    j = i;  // look again from the new one
                }
    if (prefersLarge) {
        enclosingFirst(found);
        // Outlines kept only for enclosingFirst to weigh, and not raised by it.
        std::erase_if(found, [&](const Candidate &c) { return c.confidence < minimumConfidence; });
    }
    return withoutDuplicates(found, maximum, [](const Corners &c) {
        return std::max(T::duplicateMinimum, T::duplicateShare * cv::norm(c[2] - c[0]));
    });
}

std::vector<Candidate> merged(std::vector<Candidate> found, bool prefersLarge, int maximum, double imageArea) {
    if (prefersLarge) dropExtensions(found);
    for (auto &c : found) {
        // Twice the area (the shoelace sum), as the ranking across planes has always used it.
        double twiceArea = 0;
        for (int i = 0; i < 4; i++) {
            const cv::Point2d &a = c.corners[i], &b = c.corners[(i + 1) % 4];
            twiceArea += a.x * b.y - b.x * a.y;
        }
        double share = std::sqrt(std::abs(twiceArea) / imageArea);
        c.score = prefersLarge ? c.confidence * share : c.confidence + T::sizeTieBreak * share;
    }
    byScore(found);
    return withoutDuplicates(found, maximum, [](const Corners &c) {
        double minX = c[0].x, maxX = c[0].x, minY = c[0].y, maxY = c[0].y;
        for (auto &p : c) minX = std::min(minX, p.x), maxX = std::max(maxX, p.x), minY = std::min(minY, p.y), maxY = std::max(maxY, p.y);
        double w = maxX - minX, h = maxY - minY;
        return std::max(T::duplicateMinimum, T::duplicateShare * std::sqrt(w * w + h * h));
    });
}

}  // namespace kgeo::rect
