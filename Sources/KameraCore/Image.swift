import Foundation

/// An image ready for analysis: upright pixels (EXIF orientation already applied) plus
/// where they came from. Create one from a file with `Image(contentsOf:)` (KameraImageIO).
public struct Image: Sendable {
    /// The upright pixels.
    public var pixelBuffer: PixelBuffer
    /// The EXIF orientation the stored pixels had before being turned upright.
    public var sourceOrientation: ImageOrientation
    /// The file the image was read from, if any.
    public var sourceURL: URL?
    /// What was wrong with the data when a damaged file was decoded anyway (a JPEG cut short
    /// or with corrupt segments); nil for intact images.
    public var damage: String?

    /// Wraps pixels that are already upright.
    public init(pixelBuffer: PixelBuffer, sourceOrientation: ImageOrientation = .up, sourceURL: URL? = nil) {
        self.pixelBuffer = pixelBuffer
        self.sourceOrientation = sourceOrientation
        self.sourceURL = sourceURL
    }

    public var width: Int { pixelBuffer.width }
    public var height: Int { pixelBuffer.height }
    public var size: Size { pixelBuffer.size }
}
