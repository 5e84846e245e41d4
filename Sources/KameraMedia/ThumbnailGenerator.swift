import Foundation
import KameraCore

/// Still images from a video, like AVAssetImageGenerator: at a time (default 0), scaled to a
/// maximum size where 0 means "from the aspect ratio", turned by the track's rotation when
/// asked.
public struct ThumbnailGenerator: Sendable {
    /// Largest width and height; a 0 side follows from the other and the aspect ratio
    /// (width 100, height 0 gives a 100-pixel-wide thumbnail). (0, 0) keeps the full size.
    public var maximumSize: Size
    /// Turn the image upright by the track's rotation (preferredTransform).
    public var appliesPreferredTrackTransform: Bool
    /// Decode up to the exact time (true) or take the key frame before it (false, faster).
    public var exactTime: Bool

    public init(maximumSize: Size = Size(width: 0, height: 0), appliesPreferredTrackTransform: Bool = true, exactTime: Bool = true) {
        self.maximumSize = maximumSize
        self.appliesPreferredTrackTransform = appliesPreferredTrackTransform
        self.exactTime = exactTime
    }

    /// The image at `seconds` of the video at `path`.
    public func image(forVideoAt path: String, at seconds: Double = 0) throws -> PixelBuffer {
        guard seconds >= 0, seconds.isFinite else { throw KameraError.invalidArgument("thumbnail time \(seconds) must be ≥ 0") }
        let reader = try MovieReader(path: path)
        if let duration = reader.duration, seconds > duration {
            throw KameraError.invalidArgument("\(seconds) s is past the end of \(path) (\(String(format: "%.2f", duration)) s)")
        }
        if seconds > 0 { try reader.seek(to: seconds, exact: exactTime) }
        guard var image = try reader.nextFrame()?.pixelBuffer else {
            throw KameraError.media(path, "no frame at \(seconds) s")
        }
        if appliesPreferredTrackTransform && reader.rotation != 0 {
            image = image.rotated(byQuarterTurns: reader.rotation / 90)
        }
        return scaled(image)
    }

    private func scaled(_ image: PixelBuffer) -> PixelBuffer {
        let (mw, mh) = (maximumSize.width, maximumSize.height)
        if mw <= 0 && mh <= 0 { return image }
        // Like AVAssetImageGenerator, the size is a bound: images shrink to fit it and are
        // never enlarged (a huge bound must not allocate a huge image).
        let scales = [mw > 0 ? mw / Double(image.width) : nil, mh > 0 ? mh / Double(image.height) : nil].compactMap { $0 }
        let scale = min(1, scales.min() ?? 1)
        if scale == 1 { return image }
        let width = Double(image.width) * scale, height = Double(image.height) * scale
        return image.resized(width: max(1, Int(width.rounded())), height: max(1, Int(height.rounded())))
    }
}
