import Foundation
import KameraCore

/// Finds and decodes barcodes, like Vision's `DetectBarcodesRequest`: QR, Micro QR, rMQR,
/// Aztec, Data Matrix, PDF417, MaxiCode and the linear families, several per image, at any
/// rotation, mirrored or inverted.
public struct DetectBarcodesRequest: ImageRequest {
    /// How much work to spend per image.
    public enum Effort: String, Sendable, CaseIterable, Codable {
        /// One quick pass: no rotation, inversion or extra scales. For live video.
        case fast
        /// zxing-cpp's full single pass: rotations by 90°, inverted codes, downscaled copies.
        case balanced
        /// `balanced`, then further passes whose results are merged: a global binarizer, small images upscaled, linear and stacked codes turned to each
        /// dominant stripe angle (zxing reads them only near 0° and 90°) and inverted, EAN/UPC smeared by a moving camera with the
        /// smear compensated, and QR codes on curled or folded paper sampled flat along a sheet fitted to their finder and timing patterns.
        case thorough
    }

    /// The symbologies to look for (all by default).
    public var symbologies: [BarcodeSymbology]
    /// How much work to spend.
    public var effort: Effort
    /// Stop after this many codes (0: no limit).
    public var maximumCount: Int
    /// The part of the image to analyse (normalized, lower-left origin); results are relative
    /// to it, as in Vision. Default: the whole image.
    public var regionOfInterest = NormalizedRect.fullImage

    public init(symbologies: [BarcodeSymbology] = BarcodeSymbology.allCases, effort: Effort = .balanced, maximumCount: Int = 0) {
        self.symbologies = symbologies
        self.effort = effort
        self.maximumCount = maximumCount
    }

    public func perform(in context: ImageAnalysisContext) throws -> [BarcodeObservation] {
        let context = try context.region(regionOfInterest)
        return try detect(in: context).map { $0.normalizingGTIN(requested: symbologies) }
    }

    private func detect(in context: ImageAnalysisContext) throws -> [BarcodeObservation] {
        guard !symbologies.isEmpty else { return [] }
        // zxing-cpp reads luminance: RGB frames are converted here (a vectorized loop, and the
        // context keeps the result for other requests) rather than by zxing-cpp's per-pixel
        // setup, which cost as much as its binarizer on live 720p frames.
        let original = context.image.pixelBuffer.format == .rgb8 ? context.grayscale : context.image.pixelBuffer
        let formats = symbologies.flatMap(\.readerNames).joined(separator: ",")
        var base = BarcodeReaderPass(formats: formats)
        base.maxSymbols = Int32(max(0, min(254, maximumCount)))
        switch effort {
        case .fast:
            base.tryHarder = false
            base.tryRotate = false
            base.tryInvert = false
            base.tryDownscale = false
            fallthrough
        case .balanced:
            // Through the collection even for one pass: zxing-cpp reports a code with an
            // add-on twice (scan lines that crossed the add-on and lines that did not).
            var found = BarcodeCollection()
            found.add(try base.read(original))
            let whole = try withConfirmedNumbers(withoutEmbeddedReads(found.observations, in: context), in: context)
            guard effort == .balanced else { return whole }
            return try withAddOns(whole, in: context, base: base)
        case .thorough:
            let found = withoutEmbeddedReads(try thorough(context.grayscale, base: base), in: context)
            return try withAddOns(try withConfirmedNumbers(found, in: context), in: context, base: base)
        }
    }

    /// Drops EAN/UPC numbers that independent scan lines do not confirm (`GTINConfirmation`).
    private func withConfirmedNumbers(_ observations: [BarcodeObservation], in context: ImageAnalysisContext) throws -> [BarcodeObservation]
    {
        guard observations.contains(where: { GTINConfirmation.symbologies.contains($0.symbology) }) else { return observations }
        return try observations.filter {
            try !GTINConfirmation.symbologies.contains($0.symbology) || GTINConfirmation.confirms($0, in: context.grayscale)
        }
    }

    /// Drops UPC-E and EAN-8 reads cut out of a longer symbol's bars (`EmbeddedSymbolCheck`) and
    /// Micro QR reads cut out of a bigger symbol's modules (`MicroQRQuietZoneCheck`).
    private func withoutEmbeddedReads(_ observations: [BarcodeObservation], in context: ImageAnalysisContext) -> [BarcodeObservation] {
        guard observations.contains(where: { EmbeddedSymbolCheck.shortSymbols.contains($0.symbology) || $0.symbology == .microQR })
        else { return observations }
        return observations.filter {
            !EmbeddedSymbolCheck.isEmbedded($0, in: context.grayscale) && !MicroQRQuietZoneCheck.isEmbedded($0, in: context.grayscale)
        }
    }

    /// EAN/UPC numbers read without an add-on get a second look for one (`AddOnSearch`), when
    /// add-ons are asked for.
    private func withAddOns(
        _ observations: [BarcodeObservation], in context: ImageAnalysisContext, base: BarcodeReaderPass
    ) throws -> [BarcodeObservation] {
        guard base.eanAddOn != .ignore else { return observations }
        var completed = observations
        for index in completed.indices where AddOnSearch.carriers.contains(completed[index].symbology) {
            guard completed[index].supplementalPayloadString == nil else { continue }
            completed[index].supplementalPayloadString = try AddOnSearch.addOn(for: completed[index], in: context.grayscale, pass: base)
        }
        return completed
    }
}

/// Observations merged across passes: one per symbol. Two different payloads at one place
/// cannot both be right (physical codes do not overlap): the smaller one is a misread of the
/// larger one's bars (UPC-E inside an EAN-13, a short ITF inside a Code 128), or both are
/// reads of one symbol and the earlier pass's, made upright, is kept. Each symbol remembers
/// whether the default pass or two passes saw it (see `LinearCodeConfirmation`).
struct BarcodeCollection {
    private(set) var observations: [BarcodeObservation] = []
    /// Per observation: read by the default pass, or by at least two passes.
    private(set) var agreed: [Bool] = []

    /// Adds one pass's reads; `isDefaultPass` for zxing-cpp's own pass over the image as given.
    mutating func add(_ new: [BarcodeObservation], isDefaultPass: Bool = true) {
        for candidate in new {
            if let index = observations.firstIndex(where: { $0.isSameSymbol(as: candidate) }) {
                agreed[index] = true
                // A read that also crossed the add-on replaces one that missed it: same number,
                // plus the add-on, and its corners span the whole printed symbol.
                if observations[index].supplementalPayloadString == nil, candidate.supplementalPayloadString != nil {
                    observations[index] = candidate
                }
                continue
            }
            if let index = observations.firstIndex(where: { $0.overlaps(candidate) }) {
                if candidate.extent > observations[index].extent * 1.3 {
                    observations[index] = candidate
                    agreed[index] = isDefaultPass
                }
                continue
            }
            observations.append(candidate)
            agreed.append(isDefaultPass)
        }
    }

    /// Keeps the observations `keep` accepts.
    mutating func filter(_ keep: (BarcodeObservation, _ agreed: Bool) throws -> Bool) rethrows {
        var kept: [BarcodeObservation] = [], keptAgreed: [Bool] = []
        for (observation, agreed) in zip(observations, agreed) where try keep(observation, agreed) {
            kept.append(observation)
            keptAgreed.append(agreed)
        }
        (observations, self.agreed) = (kept, keptAgreed)
    }
}

extension BarcodeObservation {
    /// The length of the bounds' diagonal: how big the symbol is, also for flat scan-line quads.
    var extent: Double {
        let b = pixelBounds
        return (b.width * b.width + b.height * b.height).squareRoot()
    }

    /// Whether most of `region` (70 %) lies within this symbol's bounds, padded by a fifth
    /// of its size: bars that this read explains.
    func covers(_ region: PixelRect) -> Bool {
        let padded = pixelBounds.expanded(dx: extent / 5, dy: extent / 5)
        return (padded.intersection(region)?.area ?? 0) >= 0.7 * region.area
    }

    /// True if either symbol's centre lies inside the other's bounds (flat scan-line bounds
    /// of linear codes are given a fifth of their length as height).
    func overlaps(_ other: BarcodeObservation) -> Bool {
        func area(_ o: BarcodeObservation) -> PixelRect {
            let b = o.pixelBounds, pad = max(0, o.extent / 10 - min(b.width, b.height) / 2)
            return PixelRect(
                x: b.x - (b.width < b.height ? pad : 0), y: b.y - (b.height <= b.width ? pad : 0),
                width: b.width + (b.width < b.height ? 2 * pad : 0), height: b.height + (b.height <= b.width ? 2 * pad : 0))
        }
        func inside(_ p: PixelPoint, _ r: PixelRect) -> Bool { p.x >= r.minX && p.x <= r.maxX && p.y >= r.minY && p.y <= r.maxY }
        return inside(pixelBounds.center, area(other)) || inside(other.pixelBounds.center, area(self))
    }

    /// True for two sightings of one physical symbol.
    func isSameSymbol(as other: BarcodeObservation) -> Bool {
        guard symbology == other.symbology, payloadData == other.payloadData else { return false }
        let a = pixelBounds, b = other.pixelBounds
        // Linear codes scanned on one line have zero-height quads; compare centres instead.
        let reach = max(a.width, a.height, b.width, b.height, 8)
        return a.center.distance(to: b.center) < reach * 0.75
    }

    /// The observation with its corners moved through `transform`, in an image of `size`.
    func mapped(by transform: PerspectiveTransform, into size: Size) -> BarcodeObservation {
        var copy = self
        copy.pixelCorners = Quad(
            topLeft: transform.apply(pixelCorners.topLeft), topRight: transform.apply(pixelCorners.topRight),
            bottomRight: transform.apply(pixelCorners.bottomRight), bottomLeft: transform.apply(pixelCorners.bottomLeft))
        copy.imageSize = size
        return copy
    }
}
