// Object and rectangle tracking. Correlation-filter trackers (KCF, CSRT) follow a box but not
// its scale well nor its turn, and once lost they never come back. This tracker follows the
// target's corners: corner features inside it are carried to the next frame by pyramidal
// Lucas–Kanade flow, checked forward and backward, and fitted with a similarity (objects) or
// a homography (flat rectangles). Its confidence is how well the rectified target still looks
// like itself (normalized correlation against the first and a slowly refreshed appearance),
// so it falls when the target is covered or gone; a lost target is searched for in the whole
// frame by ORB features matched against its first appearance.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include "edges.hpp"
#include "guard.hpp"

namespace {

/// The rectified appearance's size: enough detail to tell the target from a cover, small
/// enough to compare every frame for nothing.
constexpr int kPatchSide = 40;
/// Below this confidence the target counts as lost (and re-detection starts).
constexpr double kLostBelow = 0.45;
/// A re-detection is accepted when the rectified patch correlates at least this well.
constexpr double kFoundAbove = 0.6;
/// The least margin round the target in which flow is followed (pixels).
constexpr int kFlowMargin = 96;

using Corners = std::array<cv::Point2f, 4>;

cv::Mat grayOf(const cv::Mat &image) {
    if (image.channels() == 1) return image.clone();
    cv::Mat gray;
    cv::cvtColor(image, gray, cv::COLOR_RGB2GRAY);
    return gray;
}

std::vector<cv::Point2f> vectorOf(const Corners &c) { return {c.begin(), c.end()}; }

/// The target warped upright to the patch size (float, lightly smoothed).
cv::Mat rectified(const cv::Mat &gray, const Corners &corners, int width, int height) {
    std::vector<cv::Point2f> to = {{0, 0}, {static_cast<float>(width), 0},
                                   {static_cast<float>(width), static_cast<float>(height)}, {0, static_cast<float>(height)}};
    cv::Mat h = cv::getPerspectiveTransform(vectorOf(corners), to);
    cv::Mat patch;
    cv::warpPerspective(gray, patch, h, cv::Size(width, height), cv::INTER_AREA, cv::BORDER_CONSTANT, 0);
    patch.convertTo(patch, CV_32F);
    cv::GaussianBlur(patch, patch, cv::Size(3, 3), 0);
    return patch;
}

/// How much of the target still looks like its appearance `model`: the patch is compared cell
/// by cell (4×4) by normalized correlation, and the cells' scores (negative ones as 0) are
/// averaged over the cells where the model has texture. A whole-patch correlation would stay
/// high with most of the target under a plain cover (the cover has no variance to count
/// against it); per cell, every covered cell scores 0.
double similarity(const cv::Mat &patch, const cv::Mat &model) {
    double sum = 0;
    int counted = 0;
    for (int row = 0; row < 4; row++) {
        for (int column = 0; column < 4; column++) {
            cv::Rect cell(column * patch.cols / 4, row * patch.rows / 4, patch.cols / 4, patch.rows / 4);
            cv::Mat a = patch(cell) - cv::mean(patch(cell))[0], b = model(cell) - cv::mean(model(cell))[0];
            double nb = cv::norm(b);
            if (nb < 2.0 * std::sqrt(static_cast<double>(cell.area()))) continue;  // a plain cell of the model
            double na = cv::norm(a);
            counted++;
            if (na > 1e-6) sum += std::max(0.0, a.dot(b) / (na * nb));
        }
    }
    return counted ? sum / counted : 0;
}

/// The target warped upright at `width`×`height` (gray, 8-bit).
cv::Mat uprightOf(const cv::Mat &gray, const Corners &corners, int width, int height) {
    std::vector<cv::Point2f> to = {{0, 0}, {static_cast<float>(width), 0},
                                   {static_cast<float>(width), static_cast<float>(height)}, {0, static_cast<float>(height)}};
    cv::Mat patch;
    cv::warpPerspective(gray, patch, cv::getPerspectiveTransform(vectorOf(corners), to), cv::Size(width, height),
                        cv::INTER_AREA, cv::BORDER_REPLICATE);
    return patch;
}

bool insideEnough(const Corners &c, cv::Size size) {
    int inside = 0;
    for (auto &p : c) inside += (p.x >= 0 && p.y >= 0 && p.x < size.width && p.y < size.height) ? 1 : 0;
    cv::Rect2f box = cv::boundingRect(vectorOf(c));
    cv::Rect2f frame(0, 0, static_cast<float>(size.width), static_cast<float>(size.height));
    cv::Rect2f overlap = box & frame;
    return overlap.area() >= 0.3f * box.area() || inside >= 2;
}

}  // namespace

struct kgeo_tracker {
    bool accurate = true;
    bool rectangle = false;
    cv::Size frameSize;
    cv::Mat previous;          // last frame, gray
    Corners corners;           // where the target is (or was last seen)
    Corners startCorners;      // in the first frame
    int patchWidth = kPatchSide, patchHeight = kPatchSide;
    cv::Mat firstLook, recentLook;  // rectified appearances
    bool lost = false;
    int lostFrames = 0;
    // The first appearance's features, for re-detection (target coordinates: the patch
    // scaled up to `modelScale` × its size).
    std::vector<cv::KeyPoint> modelKeys;
    cv::Mat modelDescriptors;
    cv::Size modelSize;
    cv::Ptr<cv::ORB> orb;
    cv::Mat upright;  // the first appearance upright at its own size (gray)

    double look(const cv::Mat &gray, const Corners &c) const {
        cv::Mat patch = rectified(gray, c, patchWidth, patchHeight);
        return std::max(similarity(patch, firstLook), similarity(patch, recentLook));
    }

    void start(const cv::Mat &gray, const Corners &c) {
        frameSize = gray.size();
        previous = gray;
        corners = startCorners = c;
        double w = 0.5 * (cv::norm(c[1] - c[0]) + cv::norm(c[2] - c[3]));
        double h = 0.5 * (cv::norm(c[3] - c[0]) + cv::norm(c[2] - c[1]));
        if (w < 4 || h < 4) throw std::invalid_argument("the target is smaller than 4 pixels");
        // The patch keeps the target's proportions, its longer side kPatchSide.
        double aspect = h / w;
        patchWidth = aspect > 1 ? std::max(8, static_cast<int>(kPatchSide / aspect)) : kPatchSide;
        patchHeight = aspect > 1 ? kPatchSide : std::max(8, static_cast<int>(kPatchSide * aspect));
        firstLook = rectified(gray, c, patchWidth, patchHeight);
        upright = uprightOf(gray, c, static_cast<int>(std::lround(w)), static_cast<int>(std::lround(h)));
        recentLook = firstLook.clone();
        // The model for re-detection: the target upright at about 160 px on its longer side
        // (ORB needs room for its 31-pixel patches), with a margin.
        double scale = 160.0 / std::max(w, h);
        modelSize = cv::Size(static_cast<int>(w * scale), static_cast<int>(h * scale));
        // A margin of real surroundings gives ORB room for its 31-pixel patches at the edges;
        // only keypoints on the target itself are kept.
        const int margin = 32;
        const float m = margin;
        std::vector<cv::Point2f> to = {{m, m},
                                       {m + modelSize.width, m},
                                       {m + modelSize.width, m + modelSize.height},
                                       {m, m + modelSize.height}};
        cv::Mat toModel = cv::getPerspectiveTransform(vectorOf(c), to);
        cv::Mat model;
        cv::warpPerspective(gray, model, toModel, cv::Size(modelSize.width + 2 * margin, modelSize.height + 2 * margin),
                            cv::INTER_AREA, cv::BORDER_REPLICATE);
        orb = cv::ORB::create(accurate ? 1500 : 800);
        orb->setFastThreshold(12);
        cv::Ptr<cv::ORB> modelOrb = cv::ORB::create(500);
        modelOrb->setFastThreshold(8);
        std::vector<cv::KeyPoint> keys;
        cv::Mat mask = cv::Mat::zeros(model.size(), CV_8U);
        mask(cv::Rect(margin, margin, modelSize.width, modelSize.height)).setTo(255);
        modelOrb->detectAndCompute(model, mask, keys, modelDescriptors);
        modelKeys.clear();
        for (auto &k : keys) {
            // Back to the target's own frame: (0,0)…(modelSize) over its corners.
            k.pt -= cv::Point2f(m, m);
            modelKeys.push_back(k);
        }
    }

    /// Pyramidal Lucas–Kanade flow of `points` (frame pixels) from `previous` to `gray`, and of
    /// where they went back again (for the forward–backward check).
    void flowBothWays(const cv::Mat &gray, const cv::Rect &box, std::vector<cv::Point2f> &points, std::vector<cv::Point2f> &next,
                      std::vector<cv::Point2f> &back, std::vector<uchar> &status, std::vector<uchar> &backStatus) const {
        // Flow is followed in a region round the target, not the whole frame: its margin is over
        // the largest motion a 3-level pyramid follows (about the window × 2³ / 2 ≈ 70 px), and
        // both frames' pyramids are built once for the forward and the backward pass.
        const int margin = std::max(kFlowMargin, std::max(box.width, box.height) / 2);
        const cv::Rect region =
            cv::Rect(box.x - margin, box.y - margin, box.width + 2 * margin, box.height + 2 * margin) & cv::Rect(0, 0, gray.cols, gray.rows);
        const cv::Point2f shift(static_cast<float>(region.x), static_cast<float>(region.y));
        for (auto &p : points) p -= shift;
        std::vector<float> error;
        const cv::Size window = accurate ? cv::Size(17, 17) : cv::Size(15, 15);
        const cv::TermCriteria stop(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, accurate ? 20 : 10, 0.03);
        std::vector<cv::Mat> before, after;
        cv::buildOpticalFlowPyramid(previous(region), before, window, 3, true);
        cv::buildOpticalFlowPyramid(gray(region), after, window, 3, true);
        cv::calcOpticalFlowPyrLK(before, after, points, next, status, error, window, 3, stop);
        cv::calcOpticalFlowPyrLK(after, before, next, back, backStatus, error, window, 3, stop);
        for (auto &p : points) p += shift;
        for (auto &p : next) p += shift;
        for (auto &p : back) p += shift;
    }

    /// Carries the corners from `previous` to `gray` by flow; false when too few points agree.
    bool follow(const cv::Mat &gray) {
        std::vector<cv::Point> polygon;
        cv::Point2f centre(0, 0);
        for (auto &p : corners) centre += p * 0.25f;
        for (auto &p : corners) {
            cv::Point2f q = centre + (p - centre) * 0.92f;  // keep off the outline: background moves otherwise
            polygon.emplace_back(cvRound(q.x), cvRound(q.y));
        }
        cv::Rect box = cv::boundingRect(polygon) & cv::Rect(0, 0, gray.cols, gray.rows);
        if (box.width < 4 || box.height < 4) return false;
        cv::Mat mask = cv::Mat::zeros(box.size(), CV_8U);
        std::vector<cv::Point> local;
        for (auto &p : polygon) local.push_back(p - box.tl());
        cv::fillConvexPoly(mask, local, 255);
        std::vector<cv::Point2f> points;
        // 120 points fit a similarity or a homography as well as 200 did on the tuning set, for
        // 0.6× the flow's cost.
        cv::goodFeaturesToTrack(previous(box), points, accurate ? 120 : 100, 0.005, accurate ? 3 : 5, mask, 5);
        if (points.size() < 8) return false;
        for (auto &p : points) p += cv::Point2f(static_cast<float>(box.x), static_cast<float>(box.y));
        std::vector<cv::Point2f> next, back;
        std::vector<uchar> status, backStatus;
        flowBothWays(gray, box, points, next, back, status, backStatus);
        std::vector<cv::Point2f> from, to;
        std::vector<float> forwardBackward;
        for (size_t i = 0; i < points.size(); i++) {
            if (!status[i] || !backStatus[i]) continue;
            forwardBackward.push_back(static_cast<float>(cv::norm(back[i] - points[i])));
        }
        if (forwardBackward.size() < 8) return false;
        std::vector<float> sorted = forwardBackward;
        std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
        float limit = std::max(0.5f, std::min(2.0f, sorted[sorted.size() / 2] * 2));
        for (size_t i = 0; i < points.size(); i++) {
            if (!status[i] || !backStatus[i] || cv::norm(back[i] - points[i]) > limit) continue;
            from.push_back(points[i]);
            to.push_back(next[i]);
        }
        if (from.size() < 6) return false;
        std::vector<uchar> inliers;
        Corners moved;
        if (rectangle && from.size() >= 12) {
            cv::Mat h = cv::findHomography(from, to, cv::RANSAC, 1.5, inliers, 500, 0.995);
            if (h.empty()) return false;
            std::vector<cv::Point2f> out;
            cv::perspectiveTransform(vectorOf(corners), out, h);
            std::copy(out.begin(), out.end(), moved.begin());
        } else {
            cv::Mat s = cv::estimateAffinePartial2D(from, to, inliers, cv::RANSAC, 1.5, 500, 0.995, 10);
            if (s.empty()) return false;
            std::vector<cv::Point2f> out;
            cv::transform(vectorOf(corners), out, s);
            std::copy(out.begin(), out.end(), moved.begin());
        }
        int count = 0;
        for (auto v : inliers) count += v ? 1 : 0;
        if (count < 6) return false;
        if (rectangle) {
            // Flow carries the corners to within a pixel or two; the rectangle's own edges
            // put them back exactly, so the error does not add up over frames.
            std::array<cv::Point2d, 4> snapped;
            for (int k = 0; k < 4; k++) snapped[k] = cv::Point2d(moved[k].x, moved[k].y);
            if (kgeo::snapToEdges(gray, snapped, 3))
                for (int k = 0; k < 4; k++) moved[k] = cv::Point2f(static_cast<float>(snapped[k].x), static_cast<float>(snapped[k].y));
        }
        corners = moved;
        return true;
    }

    /// Looks for the target's features in the whole frame (any scale and turn); true (and the
    /// corners) when it is there.
    bool redetectFeatures(const cv::Mat &gray, double &confidence) {
        if (modelDescriptors.rows < 8) return false;
        std::vector<cv::KeyPoint> keys;
        cv::Mat descriptors;
        orb->detectAndCompute(gray, cv::noArray(), keys, descriptors);
        if (descriptors.rows < 8) return false;
        cv::BFMatcher matcher(cv::NORM_HAMMING);
        std::vector<std::vector<cv::DMatch>> knn;
        matcher.knnMatch(modelDescriptors, descriptors, knn, 2);
        std::vector<cv::Point2f> from, to;
        for (auto &m : knn) {
            if (m.size() < 2 || m[0].distance > 0.8f * m[1].distance) continue;
            from.push_back(modelKeys[m[0].queryIdx].pt);
            to.push_back(keys[m[0].trainIdx].pt);
        }
        if (from.size() < 8) return false;
        std::vector<uchar> inliers;
        cv::Mat s = rectangle ? cv::findHomography(from, to, cv::RANSAC, 3.0, inliers, 2000, 0.995)
                              : cv::estimateAffinePartial2D(from, to, inliers, cv::RANSAC, 3.0, 2000, 0.995, 10);
        if (s.empty()) return false;
        int count = 0;
        for (auto v : inliers) count += v ? 1 : 0;
        if (count < 8) return false;
        std::vector<cv::Point2f> frameCorners;
        std::vector<cv::Point2f> model = {{0, 0},
                                          {static_cast<float>(modelSize.width), 0},
                                          {static_cast<float>(modelSize.width), static_cast<float>(modelSize.height)},
                                          {0, static_cast<float>(modelSize.height)}};
        if (rectangle)
            cv::perspectiveTransform(model, frameCorners, s);
        else
            cv::transform(model, frameCorners, s);
        Corners found;
        std::copy(frameCorners.begin(), frameCorners.end(), found.begin());
        if (!cv::isContourConvex(frameCorners) || !insideEnough(found, gray.size())) return false;
        double area = std::abs(cv::contourArea(frameCorners)), startArea = std::abs(cv::contourArea(vectorOf(startCorners)));
        if (area < 0.1 * startArea || area > 10 * startArea) return false;
        double similarity = look(gray, found);
        if (similarity < kFoundAbove) return false;
        corners = found;
        confidence = similarity;
        return true;
    }


    /// Looks for the target as it was last seen (its last shape, 0.8–1.25× its last size) in
    /// the whole frame by normalized cross-correlation at a coarse scale; true (and the
    /// corners) when the best place looks like the target at full resolution.
    bool redetectTemplate(const cv::Mat &gray, double &confidence) {
        cv::Point2f centre(0, 0);
        for (auto &p : corners) centre += p * 0.25f;
        cv::Rect2f last = cv::boundingRect(vectorOf(corners));
        // Work where the target's longer side is about 32 px.
        double f = std::min(1.0, 32.0 / std::max(last.width, last.height));
        cv::Mat small;
        cv::resize(gray, small, cv::Size(), f, f, cv::INTER_AREA);
        double best = -1;
        Corners bestCorners = corners;
        for (double k : {0.8, 1.0, 1.25}) {
            // The first appearance drawn into the last seen shape, scaled by k, at small scale.
            Corners shape;
            for (int i = 0; i < 4; i++) shape[i] = (centre + (corners[i] - centre) * static_cast<float>(k)) * static_cast<float>(f);
            cv::Rect2f box = cv::boundingRect(vectorOf(shape));
            if (box.width < 6 || box.height < 6 || box.width >= small.cols || box.height >= small.rows) continue;
            std::vector<cv::Point2f> local, from = {{0, 0},
                                                    {static_cast<float>(upright.cols), 0},
                                                    {static_cast<float>(upright.cols), static_cast<float>(upright.rows)},
                                                    {0, static_cast<float>(upright.rows)}};
            for (auto &p : shape) local.push_back(p - box.tl());
            cv::Size size(static_cast<int>(std::ceil(box.width)), static_cast<int>(std::ceil(box.height)));
            cv::Mat h = cv::getPerspectiveTransform(from, local);
            cv::Mat templ, mask;
            cv::warpPerspective(upright, templ, h, size, cv::INTER_AREA, cv::BORDER_CONSTANT, 0);
            cv::warpPerspective(cv::Mat(upright.size(), CV_8U, cv::Scalar(255)), mask, h, size, cv::INTER_NEAREST,
                                cv::BORDER_CONSTANT, 0);
            if (templ.cols >= small.cols || templ.rows >= small.rows) continue;
            // A turned target's corners are background, not part of its look: fill them with
            // its mean so they weigh (almost) nothing in the zero-mean correlation.
            templ.setTo(cv::mean(templ, mask), mask == 0);
            cv::Mat centred;
            cv::matchTemplate(small, templ, centred, cv::TM_CCOEFF_NORMED);
            double value;
            cv::Point at;
            cv::minMaxLoc(centred, nullptr, &value, nullptr, &at);
            if (value > best) {
                best = value;
                for (int i = 0; i < 4; i++)
                    bestCorners[i] = (local[i] + cv::Point2f(static_cast<float>(at.x), static_cast<float>(at.y))) / static_cast<float>(f);
            }
        }
        if (best < 0.3 || !insideEnough(bestCorners, gray.size())) return false;
        double similarity = look(gray, bestCorners);
        if (similarity < kFoundAbove) return false;
        corners = bestCorners;
        confidence = similarity;
        return true;
    }

    bool redetect(const cv::Mat &gray, double &confidence, bool features) {
        if (redetectTemplate(gray, confidence)) return true;
        return features && redetectFeatures(gray, confidence);
    }

    double update(const cv::Mat &gray) {
        if (gray.size() != frameSize) throw std::invalid_argument("the frame's size changed while tracking");
        double confidence = 0;
        if (!lost) {
            Corners before = corners;
            if (follow(gray) && insideEnough(corners, gray.size())) {
                confidence = look(gray, corners);
            } else {
                corners = before;
                confidence = 0;
            }
            if (confidence < kLostBelow) {
                lost = true;
                lostFrames = 0;
            }
        }
        if (lost) {
            lostFrames++;
            // The correlation search is cheap and runs on every lost frame; the feature search
            // (any scale or turn) costs several frames' worth of flow: every other frame at the
            // accurate level (a find one frame later, for half the cost), every fourth at the
            // fast one.
            double found = 0;
            if (redetect(gray, found, lostFrames % (accurate ? 2 : 4) == 1)) {
                lost = false;
                confidence = found;
            } else {
                // Still lost: how much the last place looks like the target, below the bar.
                confidence = std::min(kLostBelow - 0.05, std::max(0.0, look(gray, corners)));
            }
        }
        if (!lost && confidence > 0.75) {
            // A slowly refreshed appearance follows gradual light and pose change without
            // learning an occluder (only confident frames update it).
            cv::Mat patch = rectified(gray, corners, patchWidth, patchHeight);
            recentLook = 0.9 * recentLook + 0.1 * patch;
        }
        previous = gray;
        return std::clamp(confidence, 0.0, 1.0);
    }
};

namespace {

Corners cornersOf(const double *c) {
    Corners out;
    for (int k = 0; k < 4; k++) {
        if (!std::isfinite(c[2 * k]) || !std::isfinite(c[2 * k + 1])) throw std::invalid_argument("corners are not finite");
        out[k] = cv::Point2f(static_cast<float>(c[2 * k]), static_cast<float>(c[2 * k + 1]));
    }
    return out;
}

}  // namespace

extern "C" int kgeo_tracker_create(const kgeo_image *frame, const double *corners, int accurate, int rectangle,
                                   kgeo_tracker **out, char *error, size_t error_size) {
    return kgeo::guarded(error, error_size, [&] {
        if (!corners || !out) throw std::invalid_argument("missing argument");
        cv::Mat gray = grayOf(kgeo::wrap(frame));
        if (std::min(gray.cols, gray.rows) < 16) throw std::invalid_argument("frames smaller than 16 pixels");
        Corners c = cornersOf(corners);
        std::vector<cv::Point2f> polygon = vectorOf(c);
        if (!cv::isContourConvex(polygon)) throw std::invalid_argument("the target's corners do not form a convex quad");
        if (!insideEnough(c, gray.size())) throw std::invalid_argument("the target lies outside the frame");
        auto tracker = std::make_unique<kgeo_tracker>();
        tracker->accurate = accurate != 0;
        tracker->rectangle = rectangle != 0;
        tracker->start(gray, c);
        *out = tracker.release();
    });
}

extern "C" int kgeo_tracker_update(kgeo_tracker *tracker, const kgeo_image *frame, double *corners, double *confidence,
                                   char *error, size_t error_size) {
    return kgeo::guarded(error, error_size, [&] {
        if (!tracker || !corners || !confidence) throw std::invalid_argument("missing argument");
        cv::Mat gray = grayOf(kgeo::wrap(frame));
        *confidence = tracker->update(gray);
        for (int k = 0; k < 4; k++) {
            corners[2 * k] = tracker->corners[k].x;
            corners[2 * k + 1] = tracker->corners[k].y;
        }
    });
}

extern "C" void kgeo_tracker_free(kgeo_tracker *tracker) { delete tracker; }
