import Foundation
import KameraCore
import KameraMedia
import KameraRender

/// A textured object moving through a real video — sliding, growing and shrinking, turning in
/// the image plane, passing behind an occluder, leaving the frame and coming back — with its
/// true box and corners in every frame: ground truth for object and rectangle tracking.
public struct TrackingSequence: Sendable {
    /// One frame and where the object is in it.
    public struct Frame: Sendable {
        public var image: PixelBuffer
        public var time: Double
        /// The object's corners (scene pixels, continuous coordinates), wherever they are,
        /// inside the frame or not.
        public var corners: Quad
        /// The share of the object that can be seen: inside the frame and not occluded.
        public var visibleShare: Double

        /// The object's box clipped to the frame; nil when less than 30 % of it can be seen
        /// (a tracker should then say it has lost the target).
        public var box: PixelRect? {
            guard visibleShare >= 0.3 else { return nil }
            let b = corners.boundingRect
            let x0 = max(0, b.minX), y0 = max(0, b.minY)
            let x1 = min(Double(image.width), b.maxX), y1 = min(Double(image.height), b.maxY)
            return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
    }

    /// What the sequence puts the object through (each on top of sliding, scaling and turning).
    public enum Challenge: String, Sendable, CaseIterable, Codable {
        /// Motion only.
        case motion
        /// A plain panel covers most of the object for about a second.
        case occlusion
        /// The object leaves the frame for about a second and comes back.
        case exit
    }

    /// What is tracked.
    public enum Target: String, Sendable, CaseIterable, Codable {
        /// A crop of a real photo (a face, fruit, a building's front): a textured object.
        case photo
        /// A card showing a photo, with a printed band: a rectangle to track by its corners.
        case card
    }

    public var frames: [Frame]
    public var challenge: Challenge
    public var target: Target

    /// Sequence `seed`: `frameCount` frames of `video` (a file in ``SampleMedia``, looped)
    /// resized to `width`×`height`, the object cut from one of `photos` (sample photos; the
    /// background photos when nil) and `targetWidth` of the frame's width wide at its middle size.
    public static func make(
        video: String, target: Target, challenge: Challenge, seed: UInt64, frameCount: Int = 120, width: Int = 640,
        height: Int = 480, photos: [String]? = nil, targetWidth: ClosedRange<Double> = 0.18...0.26
    ) throws -> TrackingSequence {
        var random = SeededRandom(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
        let texture = try objectTexture(target, photos: photos ?? SampleMedia.availableBackgrounds(), random: &random)
        let aspect = Double(texture.height) / Double(texture.width)
        let (w, h) = (Double(width), Double(height))
        let baseWidth = uniform(targetWidth) * w
        let start = PixelPoint(x: uniform(0.3...0.7) * w, y: uniform(0.35...0.65) * h)
        let (ax, ay) = (uniform(0.12...0.22) * w, uniform(0.1...0.18) * h)
        let (fx, fy, phase) = (uniform(0.6...1.0), uniform(0.8...1.3), uniform(0...(2 * Double.pi)))
        let turn = uniform(15...30), exitSide = uniform(0...1) < 0.5 ? -1.0 : 1.0
        let reader = try MovieReader(path: try SampleMedia.url(video).path)
        let rate = reader.frameRate ?? 25
        var frames: [Frame] = []
        var occluderColour = [UInt8(uniform(60...200)), UInt8(uniform(60...200)), UInt8(uniform(60...200))]
        if target == .card { occluderColour = occluderColour.reversed() }
        for index in 0..<frameCount {
            let t = Double(index) / Double(frameCount)
            guard
                let decoded = try reader.nextFrame()
                    ?? {
                        try reader.seek(to: 0); return try reader.nextFrame()
                    }()
            else {
                throw KameraError.corruptMedia(path: video, reason: "no frames")
            }
            var image = SceneComposer(background: decoded.pixelBuffer, width: width, height: height).canvas.converted(to: .rgb8)
            // Smooth motion: a Lissajous path, size ×0.75…1.35, a turn of ±`turn` degrees.
            var centre = PixelPoint(
                x: start.x + ax * sin(2 * Double.pi * fx * t + phase), y: start.y + ay * sin(2 * Double.pi * fy * t))
            if challenge == .exit {
                // Out through the side between 40 % and 60 % of the sequence, then back.
                let out = max(0, 1 - abs(t - 0.5) / 0.15)
                let edge = exitSide > 0 ? w + baseWidth : -baseWidth
                centre.x += min(1, out * 1.6) * (edge - centre.x)
            }
            let scale = 1.05 + 0.3 * sin(2 * Double.pi * 0.7 * t + phase)
            let angle = turn * sin(2 * Double.pi * 0.5 * t) * Double.pi / 180
            let (ow, oh) = (baseWidth * scale, baseWidth * scale * aspect)
            let corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)].map { (u, v) -> PixelPoint in
                let x = u * ow, y = v * oh
                return PixelPoint(x: centre.x + x * cos(angle) - y * sin(angle), y: centre.y + x * sin(angle) + y * cos(angle))
            }
            let quad = Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
            image.composite(texture, onto: quad)
            var visible = insideShare(quad, width: w, height: h)
            if challenge == .occlusion, (0.45...0.6).contains(t) {
                // A panel slides over the object from the left, covering up to 80 % of it.
                let cover = min(1, (t - 0.45) / 0.05) * 0.8
                let b = quad.boundingRect
                let panel = PixelRect(x: b.minX - 10, y: b.minY - 10, width: b.width * cover + 10, height: b.height + 20)
                let panelBuffer = PixelBuffer(
                    width: max(1, Int(panel.width)), height: max(1, Int(panel.height)), format: .rgb8, filledWith: occluderColour)
                image.composite(panelBuffer, onto: Quad(panel))
                visible *= 1 - cover
            }
            frames.append(Frame(image: image, time: Double(index) / rate, corners: quad, visibleShare: visible))
        }
        return TrackingSequence(frames: frames, challenge: challenge, target: target)
    }

    /// The object's picture: a crop of a real photo, or a card (photo with a printed band).
    private static func objectTexture(_ target: Target, photos: [String], random: inout SeededRandom) throws -> PixelBuffer {
        guard !photos.isEmpty else { throw KameraError.invalidArgument("no photos to cut the tracked object from") }
        let photo = try SampleMedia.photo(photos[Int.random(in: 0..<photos.count, using: &random)]).pixelBuffer.converted(to: .rgb8)
        switch target {
        case .photo:
            let side = min(photo.width, photo.height) / 2
            let x = Int.random(in: 0...(photo.width - side), using: &random)
            let y = Int.random(in: 0...(photo.height - side), using: &random)
            return photo.cropped(to: PixelRect(x: Double(x), y: Double(y), width: Double(side), height: Double(side)))
                .resized(width: 200, height: 160)
        case .card:
            var card = Canvas(photo.resized(width: 270, height: 170))
            card.fill(rect: PixelRect(x: 0, y: 130, width: 270, height: 40), color: Color(red: 240, green: 240, blue: 235))
            if let font = try? FontFace.standard() {
                card.draw(text: "KAMERA 4921", at: PixelPoint(x: 14, y: 160), size: 26, color: .black, font: font)
            }
            return card.buffer
        }
    }

    /// The share of `quad`'s area inside the frame (sampled on a 24×24 grid over the quad).
    private static func insideShare(_ quad: Quad, width: Double, height: Double) -> Double {
        var inside = 0
        for i in 0..<24 {
            for j in 0..<24 {
                let (u, v) = ((Double(i) + 0.5) / 24, (Double(j) + 0.5) / 24)
                let top = quad.topLeft + (quad.topRight - quad.topLeft) * u
                let bottom = quad.bottomLeft + (quad.bottomRight - quad.bottomLeft) * u
                let p = top + (bottom - top) * v
                if p.x >= 0, p.y >= 0, p.x < width, p.y < height { inside += 1 }
            }
        }
        return Double(inside) / 576
    }
}
