import KameraCore

/// The thorough effort: after the default pass, an ordered list of named passes, each for
/// what the default pass cannot read, then the agreement rule for linear codes.
extension DetectBarcodesRequest {
    /// The extra passes, in the order they run; each adds what it reads to the collection.
    enum ThoroughPass: CaseIterable {
        /// A global threshold for matrix codes under uneven light.
        case globalThreshold
        /// A mirrored copy for Data Matrix and Aztec printed on film or seen through glass.
        case mirrored
        /// The image doubled, for fine codes in small images.
        case upscaled
        /// Each patch of bars cut out and read turned onto an axis, upside down or inverted.
        case stripePatches
        /// The image with a camera's smear across the bars compensated, for EAN/UPC numbers.
        case smearCompensated
        /// QR codes on curled or folded paper, sampled flat along the fitted sheet.
        case bentPaper
    }

    /// The thorough effort's numbers, named.
    enum ThoroughTuning {
        /// Images with a long side below this get the upscaled pass (zxing-cpp needs about
        /// 2 px per module).
        static let smallImageSide = 900
        /// How much the upscaled pass enlarges.
        static let upscale = 2
        /// Bar regions read again per image at most (the largest first): a photo of a fence or
        /// a page of text is all stripes, and must not cost a read per letter.
        static let maximumRegions = 12
        /// Patches read in all, as a multiple of the image's area.
        static let patchAreaBudget = 1.5
        /// A patch whose border is darker than this (0–255) may hold light bars on dark.
        static let darkBorder = 128.0
        /// Bars within this many degrees of an axis need no turn; PDF417 is read up to it.
        static let onAxis = 8.0
        /// Parts of one stacked symbol run within this many degrees of each other.
        static let sameDirection = 30.0
        /// The smear, in pixels, the smear-compensated pass undoes: a module and a half of
        /// close-up codes' 3.5–6.5 px modules; 5 and 9 px read as many on the tuning set.
        static let smear = 7
    }

    func thorough(_ gray: PixelBuffer, base: BarcodeReaderPass) throws -> [BarcodeObservation] {
        var found = BarcodeCollection()
        found.add(try base.read(gray))
        // The patches of bars, found once for the passes that look at them.
        let regions = symbologies.contains { !$0.isTwoDimensional || $0.isStacked } ? StripeOrientationEstimator.regions(in: gray) : []
        for pass in ThoroughPass.allCases {
            switch pass {
            case .globalThreshold: try readWithGlobalThreshold(gray, base: base, into: &found)
            case .mirrored: try readMirrored(gray, base: base, into: &found)
            case .upscaled: try readUpscaled(gray, base: base, into: &found)
            case .stripePatches: try readStripePatches(gray, regions: regions, base: base, into: &found)
            case .smearCompensated: try readSmearCompensated(gray, regions: regions, base: base, into: &found)
            case .bentPaper: try readBentPaper(gray, base: base, into: &found)
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

    /// A global threshold rescues matrix codes under uneven light. Linear codes are binarized
    /// per scan line with a histogram in either mode, so they are left out.
    private func readWithGlobalThreshold(_ gray: PixelBuffer, base: BarcodeReaderPass, into found: inout BarcodeCollection) throws {
        let matrix = symbologies.filter { $0.isTwoDimensional && !$0.isStacked }
        guard !matrix.isEmpty else { return }
        var global = base
        global.binarizer = .globalHistogram
        // Light-on-dark matrix codes are the first pass's (it inverts); inverting again here
        // doubled this pass's cost on every photo without a code for no read.
        global.tryInvert = false
        global.formats = matrix.flatMap(\.readerNames).joined(separator: ",")
        found.add(try global.read(gray), isDefaultPass: false)
    }

    /// Mirrored Data Matrix and Aztec symbols are not found by zxing-cpp: a mirrored copy is
    /// read when no such symbol was read the right way round (both in one photo are rare; the
    /// pass costs half a zxing-cpp read).
    private func readMirrored(_ gray: PixelBuffer, base: BarcodeReaderPass, into found: inout BarcodeCollection) throws {
        let mirrorable = symbologies.filter { $0 == .dataMatrix || $0 == .aztec }
        guard !mirrorable.isEmpty, !found.observations.contains(where: { mirrorable.contains($0.symbology) }) else { return }
        var pass = base
        pass.formats = mirrorable.flatMap(\.readerNames).joined(separator: ",")
        // One look at the mirrored copy: mirrored and also inverted or oversized symbols are
        // rarer still, and zxing-cpp's inverted and downscaled retries tripled the pass on
        // every photo without one.
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

    /// Small images, when nothing was read at the original scale: upscaled so fine codes resolve.
    private func readUpscaled(_ gray: PixelBuffer, base: BarcodeReaderPass, into found: inout BarcodeCollection) throws {
        guard max(gray.width, gray.height) < ThoroughTuning.smallImageSide, found.observations.isEmpty else { return }
        let factor = ThoroughTuning.upscale
        let big = gray.resized(width: gray.width * factor, height: gray.height * factor)
        var fine = base
        fine.tryDownscale = false  // scaled down again it is the image already read
        found.add(
            try fine.read(big).map { $0.mapped(by: .scaling(1 / Double(factor)), into: gray.size) }, isDefaultPass: false)
    }

    /// A camera that moved while it took the photo averages narrow bars into grey, and zxing-cpp
    /// reads such a code on a lucky line or two, if at all. When no EAN/UPC number was read, the
    /// photo with the smear compensated along its rows and columns (`SmearCompensation`) is read
    /// for EAN/UPC numbers only; each is kept only when `GTINConfirmation`'s independent lines
    /// agree with it (the rule every number passes; it reads the smeared rows compensated too),
    /// which stands for the agreement rule here.
    private func readSmearCompensated(
        _ gray: PixelBuffer, regions: [StripeOrientationEstimator.Region], base: BarcodeReaderPass, into found: inout BarcodeCollection
    ) throws {
        let numbers = symbologies.filter { GTINConfirmation.symbologies.contains($0) }
        guard !numbers.isEmpty, !found.observations.contains(where: { numbers.contains($0.symbology) }) else { return }
        // Only where some patch of bars is still unread (a smear along the bars keeps them bars).
        let unread = regions.prefix(ThoroughTuning.maximumRegions).contains { region in
            !found.observations.contains { $0.covers(region.bounds) }
        }
        guard unread else { return }
        var pass = base
        pass.formats = numbers.flatMap(\.readerNames).joined(separator: ",")
        pass.tryInvert = false
        pass.tryDownscale = false  // scaled down, the smear is under a pixel and the compensation too
        let compensated = SmearCompensation.sharpened(gray, smear: ThoroughTuning.smear)
        found.add(try pass.read(compensated).filter { try GTINConfirmation.confirms($0, in: gray) })
    }

    /// A QR code on curled or folded paper drifts off any one plane-to-plane sampling grid.
    /// When no QR code was read, each finder-pattern triple's code is sampled flat along a
    /// sheet fitted to its finder and timing patterns (`BentPaperQRViews`) and the view read;
    /// what it reads is placed back through the code's corners. Reed–Solomon decoding stands
    /// for the agreement rule (a view of something else does not decode).
    private func readBentPaper(_ gray: PixelBuffer, base: BarcodeReaderPass, into found: inout BarcodeCollection) throws {
        guard symbologies.contains(.qr), !found.observations.contains(where: { $0.symbology == .qr }) else { return }
        var pass = base
        pass.formats = BarcodeSymbology.qr.readerNames.joined(separator: ",")
        pass.tryInvert = false
        pass.tryDownscale = false
        pass.tryRotate = false
        for view in try BentPaperQRViews.views(of: gray) {
            // Another view of a code already read (each triple yields up to two sizes).
            if found.observations.contains(where: { $0.symbology == .qr && $0.covers(view.outline.boundingRect) }) { continue }
            let read = try pass.read(view.image).filter { $0.symbology == .qr }
            found.add(read.map { $0.mapped(by: view.toPhoto, into: gray.size) }, isDefaultPass: false)
        }
    }

    /// zxing-cpp reads linear codes and PDF417 only near 0° and 90°, PDF417 not upside down,
    /// and light-on-dark bars not at all. Rather than the whole photo turned, flipped and
    /// inverted, each patch of bars is cut out and read the ways the first pass could not.
    private func readStripePatches(
        _ gray: PixelBuffer, regions: [StripeOrientationEstimator.Region], base: BarcodeReaderPass, into found: inout BarcodeCollection
    ) throws {
        let stripes = symbologies.filter { !$0.isTwoDimensional || $0.isStacked }
        guard !stripes.isEmpty else { return }
        var pass = base
        pass.formats = stripes.flatMap(\.readerNames).joined(separator: ",")
        pass.tryInvert = false  // zxing-cpp's own inversion covers matrix codes only
        pass.tryDownscale = false  // a patch is a code's size already
        let reader = PatchReader(gray: gray, pass: pass, stacked: stripes.filter(\.isStacked))
        // Largest first, up to a budget of the image's area in all: a photo of a fence or a
        // page of text is all stripes and must not cost a look per stripe.
        var budget = ThoroughTuning.patchAreaBudget * Double(gray.width * gray.height)
        let image = gray.bounds
        for region in regions.prefix(ThoroughTuning.maximumRegions) {
            guard region.bounds.area <= budget else { continue }
            budget -= region.bounds.area
            // Bars a pass has read already need no second look.
            if found.observations.contains(where: { $0.covers(region.bounds) }) { continue }
            var seen = try reader.look(at: region.bounds, gradient: region.gradientAngle)
            // A stacked code decodes from part of its columns (its row indicators are
            // redundant), so a region that caught only part of one (perspective fans its bars
            // out into parts at different angles) yields it with corners short of the symbol:
            // look again at the whole symbol, at the mean angle of its parts.
            if let cut = seen.first(where: { $0.symbology.isStacked && $0.reaches(beyond: region.bounds, within: image) }) {
                // The symbol goes on beyond the crop by an unknown length: half its read size.
                let box = cut.pixelBounds
                let whole = box.union(region.bounds).expanded(dx: box.width / 2, dy: box.height / 2).intersection(image) ?? image
                let parts = regions.filter { part in
                    var delta = abs(part.gradientAngle - region.gradientAngle)
                    if delta > 90 { delta = 180 - delta }
                    return delta < ThoroughTuning.sameDirection && (part.bounds.intersection(whole)?.area ?? 0) > 0
                }
                let again = try reader.look(at: whole, gradient: StripeOrientationEstimator.meanAngle(of: parts))
                if again.contains(where: { $0.isSameSymbol(as: cut) }) { seen = again }
            }
            found.add(seen, isDefaultPass: false)
        }
    }

    /// Whether bars whose gradient runs at `gradient` degrees stand upright (gradient within
    /// 8° of the rows) once turned by `turn` (an ``axisTurn(forGradient:)``).
    static func barsUpright(gradient: Double, turn: Double?) -> Bool {
        var angle = (gradient + (turn ?? 0)).truncatingRemainder(dividingBy: 180)
        if angle < 0 { angle += 180 }
        return angle < ThoroughTuning.onAxis || angle > 180 - ThoroughTuning.onAxis
    }

    /// The rotation (degrees clockwise) that brings bars whose gradient runs at `gradient`
    /// degrees onto an axis, or nil when they are within 8° of one already (the unrotated
    /// passes read those). The smaller turn of the two: zxing-cpp's PDF417 reader does not
    /// find symbols turned a further 90°.
    static func axisTurn(forGradient gradient: Double) -> Double? {
        let offAxis = gradient.truncatingRemainder(dividingBy: 90)
        guard offAxis > ThoroughTuning.onAxis, offAxis < 90 - ThoroughTuning.onAxis else { return nil }
        return offAxis > 45 ? 90 - offAxis : -offAxis
    }
}

/// One look at a patch of bars: turned onto an axis if it runs at another angle, upside down
/// for stacked codes, inverted when its border is dark; results in image pixels.
private struct PatchReader {
    let gray: PixelBuffer
    let pass: BarcodeReaderPass
    let stacked: [BarcodeSymbology]

    func look(at bounds: PixelRect, gradient: Double) throws -> [BarcodeObservation] {
        let turn = DetectBarcodesRequest.axisTurn(forGradient: gradient)
        // zxing-cpp scans rows, and with tryRotate also columns: once the patch's bars stand
        // upright (its gradient along the rows), the column scan finds nothing.
        var pass = pass
        pass.tryRotate = !DetectBarcodesRequest.barsUpright(gradient: gradient, turn: turn)
        var upsideDown = pass
        upsideDown.formats = stacked.flatMap(\.readerNames).joined(separator: ",")
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
        guard seen.isEmpty, crop.borderMean < DetectBarcodesRequest.ThoroughTuning.darkBorder else { return seen }
        return try pass.read(patch.inverted()).map { observation in
            var inverted = observation.mapped(by: toSource, into: gray.size)
            inverted.isInverted = true
            return inverted
        }
    }
}

extension BarcodeObservation {
    /// Whether a corner lies at an edge of `crop` (within 3 px) that is not the image's edge:
    /// the symbol may go on beyond the crop.
    fileprivate func reaches(beyond crop: PixelRect, within image: PixelRect) -> Bool {
        let margin = 3.0
        return pixelCorners.corners.contains { p in
            (p.x < crop.minX + margin && crop.minX > image.minX) || (p.x > crop.maxX - margin && crop.maxX < image.maxX)
                || (p.y < crop.minY + margin && crop.minY > image.minY) || (p.y > crop.maxY - margin && crop.maxY < image.maxY)
        }
    }
}

extension PixelBuffer {
    /// Mean of the outermost rows and columns of a gray image.
    fileprivate var borderMean: Double {
        guard width > 1, height > 1 else { return Double(bytes.first ?? 0) }
        var sum = 0
        for x in 0..<width { sum += Int(bytes[x]) + Int(bytes[(height - 1) * bytesPerRow + x]) }
        for y in 1..<(height - 1) { sum += Int(bytes[y * bytesPerRow]) + Int(bytes[y * bytesPerRow + width - 1]) }
        return Double(sum) / Double(2 * width + 2 * (height - 2))
    }
}
