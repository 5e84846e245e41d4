import KameraCore

/// Whether a Micro QR read is really a corner of a bigger symbol's modules.
///
/// A Micro QR symbol is one finder pattern and 11–17 modules a side; a QR code's finder
/// pattern with the modules beside it can decode as one (zxing-cpp read "2728" in the corner of
/// a curled QR code it could not read). A printed Micro QR has a quiet zone of two modules all
/// round; a ring just outside the read that is partly ink means modules go on past it, and the
/// read is dropped.
enum MicroQRQuietZoneCheck {
    /// Where the ring is looked at, as shares of the symbol's side outside each edge: inside the
    /// two modules of quiet zone of every version (two modules are 12–18 % of the side).
    static let ringDepths = [0.04, 0.075]
    /// The share of the ring's samples on the ink's side of the symbol's mid-grey above which
    /// modules go on past the read.
    static let inkShare = 0.2

    /// True when `observation` is a Micro QR whose quiet zone in `gray` is partly ink.
    static func isEmbedded(_ observation: BarcodeObservation, in gray: PixelBuffer) -> Bool {
        guard observation.symbology == .microQR, gray.format == .gray8 else { return false }
        let unit = [PixelPoint(x: 0, y: 0), PixelPoint(x: 1, y: 0), PixelPoint(x: 1, y: 1), PixelPoint(x: 0, y: 1)]
        guard let toImage = PerspectiveTransform(from: unit, to: observation.pixelCorners.corners) else { return false }
        let steps = 24
        // The symbol's own mid-grey: halfway between its darkest and lightest tenth.
        var inside: [Double] = []
        for j in 0..<steps {
            for i in 0..<steps {
                let point = PixelPoint(x: (Double(i) + 0.5) / Double(steps), y: (Double(j) + 0.5) / Double(steps))
                if let g = sample(gray, toImage.apply(point)) { inside.append(g) }
            }
        }
        guard inside.count > steps * steps / 2 else { return false }
        inside.sort()
        let (dark, light) = (inside[inside.count / 10], inside[inside.count * 9 / 10])
        guard light - dark > 20 else { return false }
        let middle = (dark + light) / 2
        var (ringSamples, inkSamples) = (0, 0)
        for k in 0..<(4 * steps) {
            let t = (Double(k % steps) + 0.5) / Double(steps)
            for depth in ringDepths {
                let edge = k / steps
                let point =
                    switch edge {
                    case 0: PixelPoint(x: t, y: -depth)
                    case 1: PixelPoint(x: 1 + depth, y: t)
                    case 2: PixelPoint(x: t, y: 1 + depth)
                    default: PixelPoint(x: -depth, y: t)
                    }
                guard let g = sample(gray, toImage.apply(point)) else { continue }
                ringSamples += 1
                // Ink is light on a light-on-dark symbol, and its quiet zone dark.
                if (g < middle) != observation.isInverted { inkSamples += 1 }
            }
        }
        // Against the photo's edge there is no ring to judge.
        guard ringSamples > 6 * steps else { return false }
        return Double(inkSamples) > inkShare * Double(ringSamples)
    }

    /// The grey level at `point` (nearest pixel), or nil outside the image.
    private static func sample(_ gray: PixelBuffer, _ point: PixelPoint) -> Double? {
        guard point.x.isFinite, point.y.isFinite, point.x >= 0, point.y >= 0, point.x < Double(gray.width),
            point.y < Double(gray.height)
        else { return nil }
        return Double(gray.bytes[Int(point.y) * gray.bytesPerRow + Int(point.x)])
    }
}
