// The stages of the rectangle search, each in its own file: candidates (outlines and edge
// lines at a working scale), refinement (each side fitted to the strongest edge at full
// resolution), scoring and ranking, and for documents the object's border round a picture.
// rectangles.cpp runs them in order.
#pragma once

#include <vector>

#include "kgeo.h"
#include "rectangle_geometry.hpp"

namespace kgeo::rect {

// --- Candidates (rectangle_candidates.cpp) -------------------------------------------------

/// Candidate quads in the working-scale image: closed outlines of edge maps at three
/// contrasts and of Otsu regions of both polarities, and quads of straight edge lines.
std::vector<Corners> candidateQuads(const cv::Mat &small, double minimumSmallSide, double quadratureTolerance,
                                    bool prefersLarge);

// --- Refinement (rectangle_refinement.cpp) -------------------------------------------------

/// The edge under one side: the strongest gradient across it near each sample, fitted with a
/// robust line. `support` is the share of in-frame samples that found an edge.
struct SideFit {
    cv::Point2d point, direction;
    double support = 0;
    /// With a consensus fit, the share of samples with either of their two strongest edges on
    /// the line: an outline's side hidden under a stronger parallel edge of what it
    /// surrounds (a screen's thin bezel under a window's title bar) still counts.
    double peakSupport = 0;
    bool fitted = false;
};

/// Which of a sample's edges across a side it stands for.
enum class SampleEdge {
    /// The strongest within the search's reach.
    strongest,
    /// The nearest to `nearTo` of those at least `nearEdgeShare` as strong as the strongest: the
    /// end of an even band (a bezel's outer edge) when busier things lie beyond it.
    nearest,
};

/// The side a–b (index coordinates) fitted to the strongest edge within `radius` across it.
/// `consensus`: the side's line is the one most samples agree on, not a robust fit to every
/// sample's strongest edge; the document search, which wants each object side exactly, uses
/// it (the rectangle request does not: there it also makes more texture quads pass).
/// `choice` `.nearest` takes each sample's nearest strong edge to the line through `nearTo`
/// parallel to the side instead (the second edge stays the strongest other one).
SideFit refineSide(const cv::Mat &gray, cv::Point2d a, cv::Point2d b, double radius, double threshold,
                   bool consensus = false, SampleEdge choice = SampleEdge::strongest, cv::Point2d nearTo = {});

/// `refineSide` on each plane: the fit with the most support.
SideFit refineSideOn(const std::vector<cv::Mat> &planes, cv::Point2d a, cv::Point2d b, double radius,
                     double threshold, bool consensus);

// --- Scoring and ranking (rectangle_ranking.cpp) -------------------------------------------

/// How much of the stretch just beyond `corner`, continuing the side from `from`, still has
/// an edge on the side's line: near 0 at a real corner (the edge stops there), high where a
/// quad borrowed a side from a longer edge (a bezel's outline, a table's edge).
double continuation(const cv::Mat &gray, cv::Point2d from, cv::Point2d corner, double threshold);

/// How little of the stretch of a side next to `corner` (walking towards `from`) has an edge
/// on the side's line: 0 where the object's edge reaches its corner (or nearly: a card's
/// rounded corner), 1 where the side was carried on past the object's corner along its edge's
/// line (a building's column closing a screen's bottom side 100 px beyond the screen).
double emptyEnd(const cv::Mat &gray, cv::Point2d from, cv::Point2d corner, double threshold);

/// One search's candidates in the order they are reported: pieces demoted (rectangles) or
/// extensions dropped (documents), best score first, two readings of one object with the
/// better-edged first (documents). `found` is left in that order; the result is it without
/// duplicates (and, for documents, those still below `minimumConfidence`), at most `maximum`
/// (0: all).
std::vector<Candidate> ranked(std::vector<Candidate> &found, bool prefersLarge, int maximum, double minimumConfidence);

/// Several searches' results (each already ranked) merged into one order: extensions dropped
/// (documents), best score for an image of `imageArea` first, duplicates dropped, at most
/// `maximum` (0: all).
std::vector<Candidate> merged(std::vector<Candidate> found, bool prefersLarge, int maximum, double imageArea);

// --- Document border (document_border.cpp) -------------------------------------------------

/// A screen's dark bezel round its bright picture, a card's printed frame: moves `corners`
/// (full resolution, continuous coordinates) out to the object's outer outline when the band
/// between is one even tone. `image` is the refinement image at `scale`; `detected` are the
/// search's other outlines (full resolution).
/// `outsideOnly`: only readings whose every side moves out (found outside or lost).
bool enclosingBorder(const cv::Mat &image, double scale, Corners &corners, double threshold,
                     const std::vector<Corners> &detected, bool outsideOnly = false);

}  // namespace kgeo::rect
