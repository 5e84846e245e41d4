import Foundation
import KameraCore
import KameraRender

/// A document, card, screen or sign pasted into a real photo under a known perspective, with
/// the lighting and damage a phone photo has: ground truth for the rectangle, document and
/// registration tests and benchmarks.
public struct DocumentScene: Sendable {
    /// What was pasted.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// A printed page (A4 proportions) with text.
        case page
        /// A card (ID-1 proportions, rounded corners) showing a photo.
        case card
        /// A screen: a dark bezel round a bright picture (16:9).
        case screen
        /// A sign: a coloured panel with large lettering.
        case sign
        /// A screen with a thin bezel (thinnest at the top) whose picture has strong borders of its
        /// own — a photo on a light mat, or a window on a desktop — so the picture's outline
        /// competes with the screen's.
        case framedScreen

        /// The kinds of the original benchmark sets, in the order their scenes cycle through
        /// (sets made before ``framedScreen`` existed must come out the same).
        public static let original: [Kind] = [.page, .card, .screen, .sign]
    }

    /// The scene (rgb8).
    public var image: PixelBuffer
    /// The pasted object's outer corners in scene pixels (continuous coordinates), as it reads
    /// upright; nil for a scene with nothing pasted.
    public var corners: Quad?
    public var kind: Kind?
    /// The background photo's file name.
    public var background: String

    /// Makes scene `seed` of `kind` over `background` (a file in ``SampleMedia``).
    /// - Parameters:
    ///   - cutByFrame: move the object so one corner lies just outside the image.
    ///   - lowContrast: a light object on a lightened background (faint edges).
    public static func make(
        kind: Kind?, background: String, seed: UInt64, width: Int = 1280, height: Int = 960,
        cutByFrame: Bool = false, lowContrast: Bool = false
    ) throws -> DocumentScene {
        var random = SeededRandom(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
        var photo = try SampleMedia.photo(background).pixelBuffer
        if lowContrast {
            var lifted = photo.converted(to: .rgb8)
            for i in lifted.bytes.indices { lifted.bytes[i] = UInt8(150 + Int(lifted.bytes[i]) * 90 / 255) }
            photo = lifted
        }
        var canvas = SceneComposer(background: photo, width: width, height: height).canvas
        var corners: Quad?
        if let kind {
            let content = try render(kind, random: &random, lowContrast: lowContrast)
            let aspect = Double(content.image.height) / Double(content.image.width)
            // Pose: centre, size, turn and a perspective tilt, kept inside Vision's default
            // 30° corner tolerance.
            let shorter = Double(min(width, height))
            let objectWidth = uniform(0.45...0.75) * shorter / max(1, aspect) * (aspect > 1 ? 1 : 1.2)
            let objectHeight = objectWidth * aspect
            var angle = uniform(-35...35) * Double.pi / 180
            // A corner cut by the frame needs a turned object: an upright one loses a whole
            // side to the frame, and with it any way to see where its corners are.
            if cutByFrame, abs(angle) < 12 * Double.pi / 180 { angle += (angle < 0 ? -12 : 12) * Double.pi / 180 }
            var centre = PixelPoint(x: uniform(0.4...0.6) * Double(width), y: uniform(0.4...0.6) * Double(height))
            let half = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
            var points = half.map { (u, v) -> PixelPoint in
                let x = u * objectWidth, y = v * objectHeight
                let jitter = 0.06 * max(objectWidth, objectHeight)
                return PixelPoint(
                    x: x * cos(angle) - y * sin(angle) + uniform(-jitter...jitter),
                    y: x * sin(angle) + y * cos(angle) + uniform(-jitter...jitter))
            }
            if cutByFrame {
                // Slide so the leftmost corner sits 2–4 % of the width outside the frame, and
                // the next one still inside.
                let xs = points.map(\.x).sorted()
                let outside = min(uniform(0.02...0.04) * Double(width), 0.6 * (xs[1] - xs[0]))
                centre.x = -xs[0] - outside
            }
            points = points.map { $0 + centre }
            let quad = Quad(topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3])
            paste(content.image, onto: &canvas, quad: quad, cornerRadius: content.cornerRadius)
            corners = quad
        }
        // Uneven light: a soft shadow across the scene, as from a hand or a lamp.
        let strength = uniform(0.15...0.4), direction = uniform(0...(2 * Double.pi))
        let (dx, dy) = (cos(direction), sin(direction))
        for y in 0..<height {
            for x in 0..<width {
                let t = (Double(x) / Double(width) - 0.5) * dx + (Double(y) / Double(height) - 0.5) * dy + 0.5
                let gain = 1 - strength * max(0, min(1, t))
                let base = y * canvas.bytesPerRow + x * 3
                for c in 0..<3 { canvas.bytes[base + c] = UInt8(Double(canvas.bytes[base + c]) * gain) }
            }
        }
        let damage = Degradation(blurSigma: uniform(0.4...1.4), noiseSigma: uniform(2...6))
        return DocumentScene(image: damage.apply(to: canvas, random: &random), corners: corners, kind: kind, background: background)
    }

    /// The object to paste and the radius of its corners in its own pixels.
    private static func render(_ kind: Kind, random: inout SeededRandom, lowContrast: Bool) throws -> (
        image: PixelBuffer, cornerRadius: Double
    ) {
        let font = try FontFace(path: TextScene.fonts[Int.random(in: 0..<TextScene.fonts.count, using: &random)])
        switch kind {
        case .page:
            let lines = (0..<14).map { TextScene.sampleLines[($0 + Int.random(in: 0..<50, using: &random)) % TextScene.sampleLines.count] }
            let paper: Color = lowContrast ? Color(red: 246, green: 244, blue: 238) : Color(red: 250, green: 250, blue: 246)
            var canvas = Canvas(PixelBuffer(width: 620, height: 877, format: .rgb8, filledWith: [paper.red, paper.green, paper.blue]))
            for (i, line) in lines.enumerated() {
                canvas.draw(
                    text: String(line.prefix(34)), at: PixelPoint(x: 50, y: 60 + Double(i) * 52), size: 26, color: .black, font: font)
            }
            return (canvas.buffer, 0)
        case .card:
            let photos = SampleMedia.availableBackgrounds()
            let picture = try SampleMedia.photo(photos[Int.random(in: 0..<photos.count, using: &random)]).pixelBuffer
            var card = picture.converted(to: .rgb8).resized(width: 540, height: 340)
            var canvas = Canvas(card)
            canvas.draw(text: "KAMERA 4921", at: PixelPoint(x: 30, y: 260), size: 40, color: .white, font: font)
            card = canvas.buffer
            return (card, 24)
        case .screen:
            let photos = SampleMedia.availableBackgrounds()
            let picture = try SampleMedia.photo(photos[Int.random(in: 0..<photos.count, using: &random)]).pixelBuffer
            var screen = PixelBuffer(width: 640, height: 360, format: .rgb8, filledWith: [18, 18, 20])
            var brightened = picture.converted(to: .rgb8).resized(width: 600, height: 320)
            for i in brightened.bytes.indices { brightened.bytes[i] = UInt8(min(255, Int(brightened.bytes[i]) + 40)) }
            screen.composite(brightened, onto: Quad(PixelRect(x: 20, y: 20, width: 600, height: 320)))
            return (screen, 6)
        case .framedScreen:
            return (try framedScreen(random: &random), 4)
        case .sign:
            let colours: [Color] = [
                Color(red: 20, green: 90, blue: 160), Color(red: 30, green: 120, blue: 60), Color(red: 200, green: 40, blue: 30),
            ]
            let colour = colours[Int.random(in: 0..<colours.count, using: &random)]
            var canvas = Canvas(PixelBuffer(width: 600, height: 400, format: .rgb8, filledWith: [colour.red, colour.green, colour.blue]))
            canvas.draw(text: "EXIT 24", at: PixelPoint(x: 60, y: 130), size: 110, color: .white, font: font)
            return (canvas.buffer, 10)
        }
    }

    /// A 16:10 screen with a 2–14 px bezel (the top 2–5 px), black or silver, showing either a
    /// photo on a light mat with a thin dark rule round it or a desktop photo with a white
    /// window and a dark title bar over most of it.
    private static func framedScreen(random: inout SeededRandom) throws -> PixelBuffer {
        func pick(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        func rect(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> PixelRect {
            PixelRect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
        }
        let (width, height) = (640, 400)
        let silver = pick(0...2) == 0
        let bezelShade = UInt8(silver ? pick(120...170) : pick(10...30))
        var screen = PixelBuffer(width: width, height: height, format: .rgb8, filledWith: [bezelShade, bezelShade, bezelShade + 3])
        let side = pick(4...14), top = pick(2...5), bottom = pick(6...16)
        let (displayX, displayY, displayWidth, displayHeight) = (side, top, width - 2 * side, height - top - bottom)
        let photos = SampleMedia.availableBackgrounds()
        func photo() throws -> PixelBuffer {
            try SampleMedia.photo(photos[Int.random(in: 0..<photos.count, using: &random)]).pixelBuffer.converted(to: .rgb8)
        }
        if pick(0...1) == 0 {
            // A picture viewer: a light mat, a dark rule, the photo.
            var canvas = Canvas(screen)
            let mat = UInt8(pick(215...250))
            canvas.fill(rect: rect(displayX, displayY, displayWidth, displayHeight), color: Color(red: mat, green: mat, blue: mat))
            let inset = pick(18...48), rule = pick(2...5)
            let (ruleX, ruleY) = (displayX + inset, displayY + inset)
            let (ruleWidth, ruleHeight) = (displayWidth - 2 * inset, displayHeight - 2 * inset)
            canvas.fill(rect: rect(ruleX, ruleY, ruleWidth, ruleHeight), color: Color(red: 25, green: 25, blue: 28))
            screen = canvas.buffer
            let (innerWidth, innerHeight) = (ruleWidth - 2 * rule, ruleHeight - 2 * rule)
            screen.composite(
                try photo().resized(width: innerWidth, height: innerHeight),
                onto: Quad(rect(ruleX + rule, ruleY + rule, innerWidth, innerHeight)))
        } else {
            // A desktop: the photo full-bleed, a white window with a dark title bar over most of it.
            screen.composite(
                try photo().resized(width: displayWidth, height: displayHeight),
                onto: Quad(rect(displayX, displayY, displayWidth, displayHeight)))
            var canvas = Canvas(screen)
            let windowWidth = displayWidth * pick(60...85) / 100, windowHeight = displayHeight * pick(55...80) / 100
            let windowX = displayX + pick(8...(displayWidth - windowWidth - 8))
            let windowY = displayY + pick(8...(displayHeight - windowHeight - 8))
            canvas.fill(rect: rect(windowX, windowY, windowWidth, windowHeight), color: Color(red: 248, green: 248, blue: 248))
            canvas.fill(rect: rect(windowX, windowY, windowWidth, 22), color: Color(red: 40, green: 44, blue: 52))
            screen = canvas.buffer
        }
        return screen
    }

    /// Draws `source` onto `canvas` so its corners land on `quad`, its own corners rounded by
    /// `cornerRadius`, with 2×2 supersampling at the edges.
    private static func paste(_ source: PixelBuffer, onto canvas: inout PixelBuffer, quad: Quad, cornerRadius: Double) {
        let (w, h) = (Double(source.width), Double(source.height))
        let sourceCorners = [PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)]
        guard let inverse = PerspectiveTransform(from: sourceCorners, to: quad.corners)?.inverse else { return }
        func inside(_ p: PixelPoint) -> Bool {
            guard p.x >= 0, p.y >= 0, p.x < w, p.y < h else { return false }
            let cx = min(max(p.x, cornerRadius), w - cornerRadius), cy = min(max(p.y, cornerRadius), h - cornerRadius)
            return (p.x - cx) * (p.x - cx) + (p.y - cy) * (p.y - cy) <= cornerRadius * cornerRadius
        }
        let bounds = quad.boundingRect
        let x0 = max(0, Int(bounds.minX) - 1), x1 = min(canvas.width, Int(bounds.maxX) + 2)
        let y0 = max(0, Int(bounds.minY) - 1), y1 = min(canvas.height, Int(bounds.maxY) + 2)
        guard x1 > x0, y1 > y0 else { return }
        let offsets = [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]
        source.bytes.withUnsafeBufferPointer { pixels in
            let sampler = BilinearSampler(pixels, of: source)
            for y in y0..<y1 {
                for x in x0..<x1 {
                    var sum = SIMD3<Double>.zero
                    var covered = 0
                    for (dx, dy) in offsets {
                        let p = inverse.apply(PixelPoint(x: Double(x) + dx, y: Double(y) + dy))
                        guard inside(p) else { continue }
                        covered += 1
                        for c in 0..<3 { sum[c] += sampler.sample(x: p.x - 0.5, y: p.y - 0.5, channel: c) }
                    }
                    guard covered > 0 else { continue }
                    let coverage = Double(covered) / 4
                    let base = y * canvas.bytesPerRow + x * 3
                    for c in 0..<3 {
                        let blended = Double(canvas.bytes[base + c]) * (1 - coverage) + sum[c] / Double(covered) * coverage
                        canvas.bytes[base + c] = UInt8(max(0, min(255, blended.rounded())))
                    }
                }
            }
        }
    }
}
