// Every tuned number of the rectangle and document search in one place, by stage. Each was
// set on the geometry bench's tuning scenes (bench/geometry.sh); the comments say what moves
// when it does. Lengths are pixels at the scale the stage works at unless said otherwise.
#pragma once

#include <array>
#include <utility>

namespace kgeo::rect {

struct Tuning {
    // --- Scales ---------------------------------------------------------------------------
    /// Longest side the candidate search works at; finer detail comes back in the refinement.
    static constexpr int workingSize = 720;
    /// Longest side the refinement samples edges at (larger photos are averaged down to it:
    /// their single-pixel edges are noise, not position).
    static constexpr int refineSize = 1600;

    // --- Candidates: outlines and their quads ----------------------------------------------
    /// Gaussian blur before the edge and region maps.
    static constexpr int blurSize = 5;
    /// Canny's (low, high) at three contrasts: faint page edges on a light desk, and strong
    /// ones that would otherwise merge with clutter at the low thresholds.
    static constexpr std::array<std::pair<double, double>, 3> cannyThresholds{
        std::pair{8.0, 24.0}, std::pair{24.0, 72.0}, std::pair{60.0, 180.0}};
    /// An outline segment this close to the image's border runs along it (the frame, no side).
    static constexpr double borderMargin = 2;
    /// A polygon's four longest sides must make this share of its outline (not a circle).
    static constexpr double polygonSideShare = 0.72;
    /// How far outside the frame (as a share of its size) a cut corner may lie.
    static constexpr double cornerBeyondFrame = 0.25;
    /// A closed outline's area against its hull's: below it, the outline is no convex object.
    static constexpr double outlineSolidity = 0.8;
    /// Polygon approximation of a hull, as a share of its perimeter.
    static constexpr double hullApproximation = 0.02;
    /// Smallest candidate side at the working scale, and its share of the requested minimum.
    static constexpr double minimumWorkingSide = 6;
    static constexpr double workingSideShare = 0.8;
    /// Two candidates this close (share of the working image's diagonal) are one.
    static constexpr double sameCandidate = 0.015;

    // --- Candidates: straight edge lines ---------------------------------------------------
    /// Outline simplification before segments are read off it.
    static constexpr double segmentApproximation = 1.5;
    static constexpr double minimumSegment = 8;
    /// Segments within this angle (degrees) and offset of a line join it.
    static constexpr double lineAngleTolerance = 2.5;
    static constexpr double lineOffsetTolerance = 2.5;
    /// The line index's bins: orientation over 180° and offset from the centre.
    static constexpr int angleBins = 72;
    static constexpr double offsetBin = 8;
    /// A line needs this share of the smallest side covered by segments.
    static constexpr double lineSupportShare = 0.3;
    /// Lines kept: the best overall (documents look further down the list: a card's weak
    /// side against foliage ranks below a building's strong lines) and the best per 10° band.
    static constexpr size_t rectangleLines = 36;
    static constexpr size_t documentLines = 72;
    static constexpr int orientationBands = 18;
    static constexpr int linesPerOrientation = 3;
    /// An edge pixel counts for a line when its gradient is within 25° of across it.
    static constexpr double pixelAcross = 0.9;
    /// Gaps along a line up to this many positions apart join one run; shorter runs are
    /// texture crossing the line.
    static constexpr double runGap = 3;
    static constexpr double minimumRun = 4;
    /// Refitting a line to its pixels: at least this many, within this angle (degrees).
    static constexpr size_t refitPixels = 8;
    static constexpr double refitAngle = 2;
    /// Line quads: pairs within the quadrature tolerance plus this (degrees), corners within
    /// this share outside the frame.
    static constexpr double pairingSlack = 10;
    static constexpr double lineCornerMargin = 0.1;
    /// Each side at least this covered, and on average the other.
    static constexpr double weakestCoverage = 0.3;
    static constexpr double meanCoverage = 0.5;
    /// How far past a corner a line's run-on is measured: at least, and share of the side.
    static constexpr double runOnReach = 4;
    static constexpr double runOnReachShare = 0.15;
    /// Line quad score: mean coverage plus this times the weakest, less this per run-on.
    static constexpr double weakestWeight = 0.5;
    static constexpr double lineRunOnWeight = 0.8;
    /// A grid's lines serve thousands of quads: a line serves at most this many chosen ones.
    static constexpr int maximumLineUses = 3;
    /// Line quads chosen by coverage, and for documents also by coverage and size.
    static constexpr size_t quadsByCoverage = 40;
    static constexpr size_t quadsBySize = 20;

    // --- Refinement: sides fitted to edges at full resolution ------------------------------
    /// Search radius across a side: this many working pixels at the refinement's scale, plus.
    static constexpr double refineRadius = 2.5;
    static constexpr double refineRadiusSlack = 2;
    /// Sobel's 3×3 response is 4× the step across an edge: 6 grey levels.
    static constexpr double edgeThreshold = 24;
    /// Samples along a side: one per this many pixels, within the bounds; the ends skipped
    /// (rounded or worn corners bend away from the side's line).
    static constexpr double sampleSpacing = 3;
    static constexpr int minimumSamples = 8;
    static constexpr int maximumSamples = 240;
    static constexpr double sampleStart = 0.08;
    static constexpr double sampleSpan = 0.84;
    /// Fewest samples a line is fitted to, and the distance that puts a sample on it.
    static constexpr size_t minimumFitPoints = 6;
    static constexpr double onLine = 1.0;
    /// A side is fitted when this share of its in-frame samples lies on its line.
    static constexpr double minimumSupport = 0.3;
    /// Or, for documents, this share of the samples with the side among their two strongest.
    static constexpr double hiddenSideSupport = 0.8;
    /// The second edge of a sample lies at least this far from the first.
    static constexpr int secondPeakDistance = 2;
    /// Consensus line: random pairs tried, and how near the side's direction they must run.
    static constexpr int consensusTrials = 120;
    static constexpr double consensusAlong = 0.97;
    static constexpr int consensusRefits = 2;
    /// Snapping a tracked quad: the edge threshold and the support each side needs.
    static constexpr double snapThreshold = 24;
    static constexpr double snapSupport = 0.5;
    /// Plausibility before refinement, with slack for it to move corners: degrees off square,
    /// aspect ratio, share of the minimum side.
    static constexpr double plausibleAngleSlack = 12;
    static constexpr double plausibleAspectSlack = 0.15;
    static constexpr double plausibleSideShare = 0.7;

    // --- Scoring ---------------------------------------------------------------------------
    /// Confidence: the perimeter's supported share, and the weakest side's.
    static constexpr double supportWeight = 0.7;
    static constexpr double weakestSideWeight = 0.3;
    /// Continuation past a corner: shortest side measured, reach (at least, share), search
    /// radius, first and step positions; texture lands on the line by chance 3 times in 9.
    static constexpr double continuationMinimumSide = 8;
    static constexpr double continuationReach = 6;
    static constexpr double continuationReachShare = 0.08;
    static constexpr int continuationRadius = 4;
    static constexpr double continuationStart = 3;
    static constexpr double continuationStep = 1.5;
    static constexpr double chanceOnLine = 0.34;
    static constexpr double offLineShare = 0.66;  // 1 - chanceOnLine
    /// Confidence lost per fully run-on side end (documents lie on something; rectangles in
    /// general may be cells of a grid).
    static constexpr double documentRunOnWeight = 2.0;
    static constexpr double rectangleRunOnWeight = 0.6;
    /// A document side's end next to a corner: the share of the side looked at; the share of
    /// it on an edge that counts as fully edged; how bare it may be for nothing (a card's
    /// rounded corner, a worn one; measured 0.16–0.22 on cards and screens, 0.65–0.87 on a
    /// side carried 100 px past a screen's corner); the confidence lost per bare end, eight
    /// making `emptyEndWeight`; and the least share of its confidence a candidate keeps (a
    /// page's ends against a white facade are as bare: 0.53–1.0).
    static constexpr double emptyEndShare = 0.15;
    static constexpr double fullEnd = 0.8;
    static constexpr double emptyEndAllowance = 0.3;
    static constexpr double emptyEndWeight = 2.0;
    static constexpr double emptyEndFloor = 0.85;
    /// A side within this share of the shorter dimension (at least the pixels) of the border.
    static constexpr double framedShare = 0.01;
    static constexpr double framedMinimum = 3;
    /// Rectangles: size breaks near-ties by this weight on the square root of the area share.
    static constexpr double sizeTieBreak = 0.1;

    // --- Ranking ---------------------------------------------------------------------------
    /// A quad inside another one and along its side: at least this area ratio, this share of
    /// it shared, side tolerance (share of the diagonal, at least the pixels).
    static constexpr double containingArea = 1.2;
    static constexpr double containedShare = 0.95;
    static constexpr double sharedSideShare = 0.01;
    static constexpr double sharedSideMinimum = 2;
    /// A piece is demoted when the larger one has this share of its confidence, to this share
    /// of the larger one's.
    static constexpr double pieceDemotionBelow = 0.85;
    static constexpr double pieceCap = 0.95;
    /// A document extension is dropped unless it is better edged by 1 / this.
    static constexpr double extensionEdgeRatio = 0.9;
    /// …unless the large one's outline confidence is this much above the small one's.
    static constexpr double extensionOutlineMargin = 0.2;
    /// A document outline round another candidate goes first when edged all round (its sides
    /// among the samples' two strongest edges) at this share of the inner one's confidence.
    static constexpr double enclosingConfidence = 0.6;
    /// Two readings of one object: this overlap, and the better-edged one first.
    static constexpr double sameObjectOverlap = 0.8;
    /// Duplicates: corners within this share of the diagonal (at least the pixels).
    static constexpr double duplicateShare = 0.02;
    static constexpr double duplicateMinimum = 3;

    // --- Document border: the object's outline round a picture -----------------------------
    /// Bands searched: from this many pixels out, to a share of the shorter side (at least).
    static constexpr double bandInner = 3;
    static constexpr double bandOuterMinimum = 8;
    static constexpr double bandOuterShare = 0.1;
    /// Band edges run within this angle (degrees) of the side.
    static constexpr double bandParallel = 3;
    /// Support an edge needs inside, and outside (a black bezel on dark fur shows on half).
    static constexpr double insideSupport = 0.6;
    static constexpr double outsideSupport = 0.45;
    /// Outside, a sample's edge is the nearest at least this share as strong as its strongest.
    static constexpr double nearEdgeShare = 0.5;
    /// A detected side counts this much further out than the search reaches.
    static constexpr double detectedReach = 1.5;
    /// Points sampled along each band, fewest in all, and how far a lost side's band may
    /// differ in tone from the one whose width it took.
    static constexpr int bandSamples = 24;
    static constexpr int minimumBandSamples = 48;
    static constexpr double lostBandTone = 20;
    /// One even tone: a deviation this low, or this one when smooth point to point.
    static constexpr double evenDeviation = 16;
    static constexpr double shadedDeviation = 40;
    static constexpr double shadedRoughness = 6;
    /// Where some sides stay, the others' bands may change across their width by this much
    /// on average between a quarter in from each edge (measured: a bezel or a printed strip 2–7,
    /// the blurred tail of a page's own edge 13–37 on its worst side).
    static constexpr double flatBand = 10;
    /// Or by this share of the band's contrast with the tone `insideToneDepth` pixels inside its
    /// side, where larger (measured: a black bezel beside a white mat 13.5 at a contrast of 169,
    /// a band of background wrongly taken beside it 31.9 at 170).
    static constexpr double flatBandShare = 0.1;
    /// The tone just inside a side is read this far in: a moved band's contrast with it, and,
    /// where one side moves out alone, the thin bezel inside the three that stay.
    static constexpr double insideToneDepth = 2;
};

}  // namespace kgeo::rect
