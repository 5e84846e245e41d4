import Foundation
import KameraCore

/// What a captured photo's EXIF says, as AVCapturePhoto's metadata does: which way is up and
/// when it was taken (local time with its offset, to the millisecond).
public struct PhotoMetadata: Sendable, Hashable {
    /// How the stored pixels must be turned to stand upright (EXIF Orientation).
    public var orientation: ImageOrientation
    public var dateTaken: Date
    public var timeZone: TimeZone
    /// EXIF Software.
    public var software: String

    public init(orientation: ImageOrientation = .up, dateTaken: Date = Date(), timeZone: TimeZone = .current, software: String = "Kamera") {
        self.orientation = orientation
        self.dateTaken = dateTaken
        self.timeZone = timeZone
        self.software = software
    }

    /// The orientation for a camera mounted `clockwiseDegrees` (0, 90, 180, 270) from upright,
    /// as a video track's rotation says it; nil for other angles.
    public static func orientation(forClockwiseRotation clockwiseDegrees: Int) -> ImageOrientation? {
        switch ((clockwiseDegrees % 360) + 360) % 360 {
        case 0: .up
        case 90: .right
        case 180: .down
        case 270: .left
        default: nil
        }
    }
}
