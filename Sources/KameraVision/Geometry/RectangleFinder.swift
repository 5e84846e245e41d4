import CGeometry
import KameraCore

/// Rectangle search shared by the rectangle and document requests (the OpenCV shim's
/// `kgeo_detect_rectangles`: candidate outlines at a working scale, sides re-fitted to the
/// strongest edges at full resolution).
struct RectangleFinder {
    var minimumAspectRatio: Double
    var maximumAspectRatio: Double
    var quadratureTolerance: Double
    var minimumSize: Double
    var minimumConfidence: Double
    var maximumObservations: Int
    /// Ranks large rectangles first (the page, not a paragraph on it).
    var prefersLarge: Bool

    /// Most rectangles one call reports, whatever `maximumObservations` says.
    static let capacity = 256

    /// Below this best confidence on the gray image, the colour-opponent images are searched
    /// too: a sign or card can differ from what it lies on in colour and hardly in brightness.
    /// (At 0.5, a half of a blue sign found on the gray levels at 0.52 kept the whole sign,
    /// found at 1.0 on the colour planes, from being looked for.)
    static let colourSearchBelow: Float = 0.6

    /// A document found on the gray levels that covers less than this share of the photo may
    /// be something on or beside the page (a chip on a board beside a card): the colour
    /// planes are searched too.
    static let colourSearchBelowShare = 0.1

    /// Rectangles in the context's image: on its gray levels, and when that finds nothing
    /// convincing in a colour image, also on its two colour-opponent channels (there each side
    /// is fitted on whichever plane shows its edge best).
    func find(in context: ImageAnalysisContext) throws -> [RectangleObservation] {
        let gray = context.grayscale
        let found = try find(in: gray)
        if let best = found.first, best.confidence >= Self.colourSearchBelow,
            !prefersLarge || abs(best.pixelCorners.signedArea) >= Self.colourSearchBelowShare * Double(gray.width * gray.height)
        {
            return found
        }
        let rgb = context.rgb
        guard Self.hasColour(rgb) else { return found }
        var all = found
        let opponents = Self.opponentChannels(rgb)
        let planes = [gray] + opponents
        for channel in opponents { all += try find(in: channel, fittingAlsoOn: planes) }
        return try ranked(all, width: gray.width, height: gray.height)
    }

    /// Rectangles in one gray plane; sides are also fitted on `otherPlanes` (gray, the same
    /// size), on whichever shows each side's edge best.
    func find(in gray: PixelBuffer, fittingAlsoOn otherPlanes: [PixelBuffer] = []) throws -> [RectangleObservation] {
        var options = shimOptions
        var quads = [kgeo_quad](repeating: kgeo_quad(), count: Self.capacity)
        var count: Int32 = 0
        try GeometryEngine.withImage(gray) { image in
            try GeometryEngine.withImages(otherPlanes) { planes in
                try GeometryEngine.run("rectangle detection") { error, size in
                    quads.withUnsafeMutableBufferPointer {
                        kgeo_detect_rectangles(
                            image, planes.baseAddress, Int32(planes.count), &options, $0.baseAddress, Int32($0.count), &count,
                            error, size)
                    }
                }
            }
        }
        return observations(quads.prefix(Int(count)), imageSize: gray.size)
    }

    /// Several searches' results in the detector's order (`kgeo_rank_rectangles`: best first,
    /// for documents large first and without extensions onto the background, the same
    /// rectangle once, at most `maximumObservations`).
    func ranked(_ found: [RectangleObservation], width: Int, height: Int) throws -> [RectangleObservation] {
        var options = shimOptions
        var quads = found.map { GeometryEngine.shimQuad($0.pixelCorners, confidence: Double($0.confidence)) }
        var kept: Int32 = 0
        try GeometryEngine.run("rectangle ranking") { error, size in
            kgeo_rank_rectangles(
                &quads, Int32(clamping: quads.count), &options, Int32(clamping: width), Int32(clamping: height), &kept, error,
                size)
        }
        return observations(quads.prefix(Int(kept)), imageSize: Size(width: Double(width), height: Double(height)))
    }

    private var shimOptions: kgeo_rectangle_options {
        kgeo_rectangle_options(
            minimum_aspect_ratio: minimumAspectRatio, maximum_aspect_ratio: maximumAspectRatio,
            quadrature_tolerance: quadratureTolerance, minimum_size: minimumSize,
            minimum_confidence: minimumConfidence, maximum_observations: Int32(maximumObservations),
            prefers_large: prefersLarge ? 1 : 0)
    }

    private func observations(_ quads: ArraySlice<kgeo_quad>, imageSize: Size) -> [RectangleObservation] {
        quads.map {
            RectangleObservation(
                pixelCorners: GeometryEngine.quad($0.points), imageSize: imageSize, confidence: Float($0.confidence))
        }
    }

    /// Whether the image has colour at all (a sample of pixels whose channels differ).
    static func hasColour(_ rgb: PixelBuffer) -> Bool {
        let count = rgb.width * rgb.height
        let step = max(1, count / 4096)
        var coloured = 0, samples = 0
        for i in stride(from: 0, to: count, by: step) {
            let offset = (i / rgb.width) * rgb.bytesPerRow + 3 * (i % rgb.width)
            let r = Int(rgb.bytes[offset]), g = Int(rgb.bytes[offset + 1]), b = Int(rgb.bytes[offset + 2])
            if max(abs(r - g), abs(g - b), abs(r - b)) > 12 { coloured += 1 }
            samples += 1
        }
        // At least 5 % of it coloured.
        return coloured * 20 > samples
    }

    /// Red against green, and blue against yellow (as gray images, 128 = neutral): an edge
    /// between two colours of one brightness is strong in at least one of them.
    static func opponentChannels(_ rgb: PixelBuffer) -> [PixelBuffer] {
        var redGreen = PixelBuffer(width: rgb.width, height: rgb.height, format: .gray8)
        var blueYellow = PixelBuffer(width: rgb.width, height: rgb.height, format: .gray8)
        rgb.bytes.withUnsafeBufferPointer { source in
            redGreen.bytes.withUnsafeMutableBufferPointer { rg in
                blueYellow.bytes.withUnsafeMutableBufferPointer { by in
                    for y in 0..<rgb.height {
                        let row = y * rgb.bytesPerRow
                        for x in 0..<rgb.width {
                            let r = Int(source[row + 3 * x]), g = Int(source[row + 3 * x + 1]), b = Int(source[row + 3 * x + 2])
                            let i = y * rgb.width + x
                            rg[i] = UInt8(clamping: 128 + (r - g))
                            by[i] = UInt8(clamping: 128 + (2 * b - r - g) / 2)
                        }
                    }
                }
            }
        }
        return [redGreen, blueYellow]
    }
}
