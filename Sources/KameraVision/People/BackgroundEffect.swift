import KameraCore

/// What takes the place of the background behind the people in a frame (a video call's
/// background blur or replacement), composited through a person mask by
/// ``PersonSegmentationObservation/applying(_:to:)``.
public enum BackgroundEffect: Sendable, Equatable {
    /// The frame's own background blurred; `radius` in the frame's pixels (about the
    /// Gaussian's 2σ), 1…200.
    case blur(radius: Double)
    /// One colour, 8-bit RGB (a green screen for a video mixer to key out, or a plain wall).
    case color(red: UInt8, green: UInt8, blue: UInt8)
    /// A picture, filling the frame (scaled to cover it, centred, the overflow cut off).
    case image(PixelBuffer)

    /// Refuses a radius out of range or an empty picture.
    /// - Throws: `KameraError.invalidArgument`.
    public func validate() throws {
        switch self {
        case .blur(let radius):
            guard radius.isFinite, (1...200).contains(radius) else {
                throw KameraError.invalidArgument("the background blur radius must be 1…200 pixels")
            }
        case .color: break
        case .image(let picture):
            guard picture.width > 0, picture.height > 0 else { throw KameraError.invalidArgument("the background picture is empty") }
        }
    }
}
