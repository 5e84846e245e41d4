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
            return found.observations
        case .thorough:
            return try thorough(context.grayscale, base: base)
        }
    }

    private func thorough(_ gray: PixelBuffer, base: BarcodeReaderPass) throws -> [BarcodeObservation] {
        var found = BarcodeCollection()
        found.add(try base.read(gray))
        // A global threshold rescues matrix codes under uneven light. Linear codes are
        // binarized per scan line with a histogram in either mode, so they are left out.
        let matrix = symbologies.filter { $0.isTwoDimensional && !$0.isStacked }
        if !matrix.isEmpty {
            var global = base
            global.binarizer = 1
            // Light-on-dark matrix codes are the first pass's (it inverts); inverting again
            // here doubled this pass's cost on every photo without a code for no read.
            global.tryInvert = false
            global.formats = matrix.flatMap(\.readerNames).joined(separator: ",")
            found.add(try global.read(gray), isDefaultPass: false)
        }

        // Mirrored Data Matrix and Aztec symbols (printed on film, seen through glass) are not
        // found by zxing-cpp; read a mirrored copy — when no such symbol was read the right
        // way round (both in one photo are rare; the pass costs half a zxing-cpp read).
        let mirrorable = symbologies.filter { $0 == .dataMatrix || $0 == .aztec }
        if !mirrorable.isEmpty && !found.observations.contains(where: { mirrorable.contains($0.symbology) }) {
            var pass = base
            pass.formats = mirrorable.flatMap(\.readerNames).joined(separator: ",")
            // One look at the mirrored copy: mirrored and also inverted or oversized symbols
            // are rarer still, and zxing-cpp's inverted and downscaled retries tripled the
            // pass on every photo without one.
            pass.tryInvert = false
            pass.tryDownscale = false
            let flip = PerspectiveTransform.flipping(gray.size, horizontally: true, vertically: false)
            found.add(
                try pass.read(gray.mirrored()).map { observation in
                    var mirrored = observation.mapped(by: flip, into: gray.size)
                    mirrored.isMirrored = true
                    return mirrored
                }, isDefaultPass: false)
        }

        // Small images: zxing needs about 2 px per module; upscale so fine codes resolve, when
        // nothing was read at the original scale.
        if max(gray.width, gray.height) < 900 && found.observations.isEmpty {
            let big = gray.resized(width: gray.width * 2, height: gray.height * 2)
            var fine = base
            fine.tryDownscale = false  // scaled down again it is the image already read
            found.add(try fine.read(big).map { $0.mapped(by: .scaling(0.5), into: gray.size) }, isDefaultPass: false)
        }

        // zxing-cpp reads linear codes and PDF417 only near 0° and 90°, PDF417 not upside
        // down, and light-on-dark bars not at all. Rather than the whole photo turned, flipped
        // and inverted, each patch of bars is cut out and read the ways the first pass could
        // not: turned onto an axis if it runs at another angle, upside down (stacked codes),
        // inverted.
        let stripes = symbologies.filter { !$0.isTwoDimensional || $0.isStacked }
        if !stripes.isEmpty {
            var pass = base
            pass.formats = stripes.flatMap(\.readerNames).joined(separator: ",")
            pass.tryInvert = false  // zxing-cpp's own inversion covers matrix codes only
            pass.tryDownscale = false  // a patch is a code's size already
            let stacked = stripes.filter(\.isStacked)
            var upsideDown = pass
            upsideDown.formats = stacked.flatMap(\.readerNames).joined(separator: ",")
            // One look at a patch: turned onto an axis if it runs at another angle, upside down
            // for stacked codes, inverted when its border is dark; results in image pixels.
            func look(at bounds: PixelRect, gradient: Double, turn: Double?) throws -> [BarcodeObservation] {
                // zxing-cpp scans rows, and with tryRotate also columns: once the patch's bars
                // stand upright (its gradient along the rows), the column scan finds nothing.
                var (pass, upsideDown) = (pass, upsideDown)
                let upright = Self.barsUpright(gradient: gradient, turn: turn)
                pass.tryRotate = !upright
                upsideDown.tryRotate = !upright
                let crop = gray.cropped(to: bounds)
                // `cropped` starts at the rect's whole-pixel corner.
                let toImage = PerspectiveTransform(matrix: [
                    1, 0, max(0, bounds.minX.rounded(.down)),
                    0, 1, max(0, bounds.minY.rounded(.down)), 0, 0, 1,
                ])
                var patch = crop, toSource = toImage, seen: [BarcodeObservation] = []
                if let turn {
                    let (turned, toCrop) = crop.rotated(byDegrees: turn, fill: 255)
                    (patch, toSource) = (turned, toImage.composed(after: toCrop))
                    seen += try pass.read(patch).map { $0.mapped(by: toSource, into: gray.size) }
                }
                if !stacked.isEmpty && !seen.contains(where: { $0.symbology.isStacked }) {
                    let flipped = toSource.composed(after: .flipping(patch.size, horizontally: true, vertically: true))
                    seen += try upsideDown.read(patch.applying(.down)).map { $0.mapped(by: flipped, into: gray.size) }
                }
                // Light bars on dark have a dark quiet zone: only then is an inverted read worth it.
                guard seen.isEmpty, crop.borderMean < 128 else { return seen }
                return try pass.read(patch.inverted()).map { observation in
                    var inverted = observation.mapped(by: toSource, into: gray.size)
                    inverted.isInverted = true
                    return inverted
                }
            }
            // Largest first, up to one and a half times the image's area in all: a photo of a
            // fence or a page of text is all stripes and must not cost a look per stripe.
            var budget = 1.5 * Double(gray.width * gray.height)
            let image = gray.bounds
            let regions = StripeOrientationEstimator.regions(in: gray)
            for region in regions.prefix(Self.maximumRegions) {
                guard region.bounds.area <= budget else { continue }
                budget -= region.bounds.area
                // Bars a pass has read already need no second look.
                if found.observations.contains(where: { $0.covers(region.bounds) }) { continue }
                let turn = Self.axisTurn(forGradient: region.gradientAngle)
                var seen = try look(at: region.bounds, gradient: region.gradientAngle, turn: turn)
                // A stacked code decodes from part of its columns (its row indicators are
                // redundant), so a region that caught only part of one (perspective fans its
                // bars out into parts at different angles) yields it with corners short of the
                // symbol: look again at the whole symbol, at the mean angle of its parts.
                if let cut = seen.first(where: { $0.symbology.isStacked && $0.reaches(beyond: region.bounds, within: image) }) {
                    // The symbol goes on beyond the crop by an unknown length: half its read size.
                    let box = cut.pixelBounds
                    let whole = box.union(region.bounds).expanded(dx: box.width / 2, dy: box.height / 2).intersection(image) ?? image
                    let parts = regions.filter { part in
                        var delta = abs(part.gradientAngle - region.gradientAngle)
                        if delta > 90 { delta = 180 - delta }
                        return delta < 30 && (part.bounds.intersection(whole)?.area ?? 0) > 0
                    }
                    let mean = StripeOrientationEstimator.meanAngle(of: parts)
                    let again = try look(at: whole, gradient: mean, turn: Self.axisTurn(forGradient: mean))
                    if again.contains(where: { $0.isSameSymbol(as: cut) }) { seen = again }
                }
                found.add(seen, isDefaultPass: false)
            }
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

private extension BarcodeObservation {
    /// Whether a corner lies at an edge of `crop` (within 3 px) that is not the image's edge:
    /// the symbol may go on beyond the crop.
    func reaches(beyond crop: PixelRect, within image: PixelRect) -> Bool {
        let margin = 3.0
        return pixelCorners.corners.contains { p in
            (p.x < crop.minX + margin && crop.minX > image.minX) || (p.x > crop.maxX - margin && crop.maxX < image.maxX)
                || (p.y < crop.minY + margin && crop.minY > image.minY) || (p.y > crop.maxY - margin && crop.maxY < image.maxY)
        }
    }
}

private extension PixelBuffer {
    /// Mean of the outermost rows and columns of a gray image.
    var borderMean: Double {
        guard width > 1, height > 1 else { return Double(bytes.first ?? 0) }
        var sum = 0
        for x in 0..<width { sum += Int(bytes[x]) + Int(bytes[(height - 1) * bytesPerRow + x]) }
        for y in 1..<(height - 1) { sum += Int(bytes[y * bytesPerRow]) + Int(bytes[y * bytesPerRow + width - 1]) }
        return Double(sum) / Double(2 * width + 2 * (height - 2))
    }
}

extension DetectBarcodesRequest {
    /// Bar regions read again per image at most (the largest first): a photo of a fence or
    /// a page of text is all stripes, and must not cost a read per letter.
    static let maximumRegions = 12

    /// Whether bars whose gradient runs at `gradient` degrees stand upright (gradient within
    /// 8° of the rows) once turned by `turn` (an ``axisTurn(forGradient:)``).
    static func barsUpright(gradient: Double, turn: Double?) -> Bool {
        var angle = (gradient + (turn ?? 0)).truncatingRemainder(dividingBy: 180)
        if angle < 0 { angle += 180 }
        return angle < 8 || angle > 172
    }

    /// The rotation (degrees clockwise) that brings bars whose gradient runs at
    /// `gradient` degrees onto an axis, or nil when they are within 8° of one already (the
    /// unrotated passes read those). The smaller turn of the two: zxing-cpp's PDF417 reader
    /// does not find symbols turned a further 90°.
    static func axisTurn(forGradient gradient: Double) -> Double? {
        let offAxis = gradient.truncatingRemainder(dividingBy: 90)
        guard offAxis > 8, offAxis < 82 else { return nil }
        return offAxis > 45 ? 90 - offAxis : -offAxis
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
