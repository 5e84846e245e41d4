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
        /// dominant stripe angle (zxing reads them only near 0° and 90°) and inverted.
        case thorough
    }

    /// The symbologies to look for (all by default).
    public var symbologies: [BarcodeSymbology]
    /// How much work to spend.
    public var effort: Effort
    /// Stop after this many codes (0: no limit).
    public var maximumCount: Int

    public init(symbologies: [BarcodeSymbology] = BarcodeSymbology.allCases, effort: Effort = .balanced, maximumCount: Int = 0) {
        self.symbologies = symbologies
        self.effort = effort
        self.maximumCount = maximumCount
    }

    public func perform(in context: ImageAnalysisContext) throws -> [BarcodeObservation] {
        try detect(in: context).map { $0.normalizingGTIN(requested: symbologies) }
    }

    private func detect(in context: ImageAnalysisContext) throws -> [BarcodeObservation] {
        guard !symbologies.isEmpty else { return [] }
        // The single-pass efforts hand zxing-cpp the pixels as they are; only the thorough
        // effort's rotated and inverted copies need a grayscale buffer.
        let original = context.image.pixelBuffer
        let formats = symbologies.flatMap(\.readerNames).joined(separator: ",")
        var base = BarcodeReaderPass(formats: formats)
        base.maxSymbols = Int32(max(0, min(254, maximumCount)))
        switch effort {
        case .fast:
            base.tryHarder = false
            base.tryRotate = false
            base.tryInvert = false
            fallthrough
        case .balanced:
            // Through the collection even for one pass: zxing-cpp reports a code with an
            // add-on twice (scan lines that crossed the add-on and lines that did not).
            var found = BarcodeCollection()
            found.add(try base.read(original))
            return found.observations
        case .thorough:
            return try thorough(context.grayscale, base: base)
        }
    }

    private func thorough(_ gray: PixelBuffer, base: BarcodeReaderPass) throws -> [BarcodeObservation] {
        var found = BarcodeCollection()
        found.add(try base.read(gray))
        var global = base
        global.binarizer = 1
        found.add(try global.read(gray), isDefaultPass: false)

        // Mirrored Data Matrix and Aztec symbols (printed on film, seen through glass) are not
        // found by zxing-cpp; read a mirrored copy.
        let mirrorable = symbologies.filter { $0 == .dataMatrix || $0 == .aztec }
        if !mirrorable.isEmpty {
            var pass = base
            pass.formats = mirrorable.flatMap(\.readerNames).joined(separator: ",")
            let flip = PerspectiveTransform.flipping(gray.size, horizontally: true, vertically: false)
            found.add(try pass.read(gray.mirrored()).map { observation in
                var mirrored = observation.mapped(by: flip, into: gray.size)
                mirrored.isMirrored = true
                return mirrored
            }, isDefaultPass: false)
        }

        // Small images: zxing needs about 2 px per module; upscale so fine codes resolve.
        if max(gray.width, gray.height) < 900 {
            let big = gray.resized(width: gray.width * 2, height: gray.height * 2)
            found.add(try base.read(big).map { $0.mapped(by: .scaling(0.5), into: gray.size) }, isDefaultPass: false)
        }

        // zxing-cpp reads linear codes and PDF417 only near 0° and 90°: turn the image so
        // that each dominant stripe direction, and the diagonals, become axis-aligned.
        let stripes = symbologies.filter { !$0.isTwoDimensional || $0.isStacked }
        if !stripes.isEmpty {
            var pass = base
            pass.formats = stripes.flatMap(\.readerNames).joined(separator: ",")
            // zxing-cpp's tryInvert covers matrix codes only; the inverted pass below does these.
            pass.tryInvert = false
            // zxing-cpp's PDF417 reader also misses symbols standing on their head.
            let stacked = stripes.filter(\.isStacked)
            var upsideDown = base
            upsideDown.formats = stacked.flatMap(\.readerNames).joined(separator: ",")
            func read(_ image: PixelBuffer, toSource: PerspectiveTransform, upright: Bool = true) throws {
                if upright { found.add(try pass.read(image).map { $0.mapped(by: toSource, into: gray.size) }, isDefaultPass: false) }
                guard !stacked.isEmpty else { return }
                let back = toSource.composed(after: .flipping(image.size, horizontally: true, vertically: true))
                found.add(try upsideDown.read(image.applying(.down)).map { $0.mapped(by: back, into: gray.size) }, isDefaultPass: false)
            }
            // The base pass already read the image upright.
            try read(gray, toSource: .identity, upright: false)
            for angle in Self.rotationAngles(for: gray) {
                let (turned, toSource) = gray.rotated(byDegrees: angle, fill: 255)
                try read(turned, toSource: toSource)
            }
            // Light-on-dark linear and stacked codes need an inverted copy.
            found.add(try pass.read(gray.inverted()).map { observation in
                var flipped = observation
                flipped.isInverted = true
                return flipped
            }, isDefaultPass: false)
        }
        // The agreement rule: a linear code that one extra pass alone read must be read again.
        try found.filter { observation, agreed in
            if agreed || (observation.symbology.isTwoDimensional && !observation.symbology.isStacked) { return true }
            return try LinearCodeConfirmation.confirms(observation, in: gray, pass: base)
        }
        let all = found.observations
        return maximumCount > 0 ? Array(all.prefix(maximumCount)) : all
    }
}

extension DetectBarcodesRequest {
    /// Rotations (degrees) that bring the image's dominant stripe directions to the axes,
    /// plus 45° for codes too small to dominate the histogram; angles within 8° of an axis
    /// are left to the unrotated passes.
    static func rotationAngles(for gray: PixelBuffer) -> [Double] {
        var angles: [Double] = []
        for gradient in StripeOrientationEstimator.dominantAngles(in: gray) + [45] {
            let offAxis = gradient.truncatingRemainder(dividingBy: 90)
            guard offAxis > 8, offAxis < 82 else { continue }
            // The smallest clockwise or counter-clockwise turn that puts it on an axis; zxing's
            // PDF417 reader does not find symbols turned a further 90°.
            let turn = offAxis > 45 ? 90 - offAxis : -offAxis
            if !angles.contains(where: { abs($0 - turn) < 6 }) { angles.append(turn) }
        }
        return angles
    }
}

/// Observations merged across passes: one per symbol. Two different payloads at one place
/// cannot both be right (physical codes do not overlap): the smaller one is a misread of the
/// larger one's bars (UPC-E inside an EAN-13, a short ITF inside a Code 128), or both are
/// reads of one symbol and the earlier pass's, made upright, is kept. Each symbol remembers
/// whether the default pass or two passes saw it (see ``LinearCodeConfirmation``).
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

    /// True if either symbol's centre lies inside the other's bounds (flat scan-line bounds
    /// of linear codes are given a fifth of their length as height).
    func overlaps(_ other: BarcodeObservation) -> Bool {
        func area(_ o: BarcodeObservation) -> PixelRect {
            let b = o.pixelBounds, pad = max(0, o.extent / 10 - min(b.width, b.height) / 2)
            return PixelRect(x: b.x - (b.width < b.height ? pad : 0), y: b.y - (b.height <= b.width ? pad : 0),
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
        copy.pixelCorners = Quad(topLeft: transform.apply(pixelCorners.topLeft), topRight: transform.apply(pixelCorners.topRight),
                                 bottomRight: transform.apply(pixelCorners.bottomRight), bottomLeft: transform.apply(pixelCorners.bottomLeft))
        copy.imageSize = size
        return copy
    }
}
