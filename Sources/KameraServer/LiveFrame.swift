import Foundation
import Kamera

/// One frame from a live source, as its analysis receives it: a page's encoded picture, or
/// a server camera's decoded frame and its capture time.
struct LiveFrame: Sendable {
    enum Picture: Sendable {
        /// JPEG, WebP or PNG bytes, captured when they arrived.
        case encoded(Data)
        /// Decoded, captured `time` seconds into the source.
        case decoded(PixelBuffer, time: Double)
    }

    /// The source's frame number (a page's own, or the camera's count).
    var id: UInt32
    var picture: Picture
}
