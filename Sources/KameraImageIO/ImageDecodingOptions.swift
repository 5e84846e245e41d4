import KameraCore

/// How images are decoded.
public struct ImageDecodingOptions: Sendable {
    /// Largest width × height accepted. The declared size is checked before any pixel
    /// memory is allocated, so a decompression bomb fails fast instead of exhausting memory.
    public var maximumPixelCount: Int
    /// Whether to turn the pixels upright according to the EXIF orientation.
    public var appliesOrientation: Bool
    /// Whether a JPEG with corrupt or missing data is decoded anyway when at least half of its
    /// rows are present (as browsers and FFmpeg show it); the damage is then described in
    /// `Image.damage`. `false`: any damage is a `corruptImage` error.
    public var acceptsDamagedData: Bool
    /// Whether to decode to 8-bit luminance (`.gray8`): all that barcode and text reading
    /// use. A JPEG then skips its colour planes' inverse DCT, upsampling and conversion.
    public var decodesLuminanceOnly: Bool
    /// Called with the declared size once the header is read and before any pixel memory is
    /// allocated: a server admits the decode against its memory budget here (and throws to
    /// refuse it). nil admits every image within `maximumPixelCount`.
    public var admitsPixels: (@Sendable (_ width: Int, _ height: Int) throws -> Void)?

    public init(
        maximumPixelCount: Int = 120_000_000, appliesOrientation: Bool = true, acceptsDamagedData: Bool = true,
        decodesLuminanceOnly: Bool = false
    ) {
        self.maximumPixelCount = maximumPixelCount
        self.appliesOrientation = appliesOrientation
        self.acceptsDamagedData = acceptsDamagedData
        self.decodesLuminanceOnly = decodesLuminanceOnly
    }

    /// Refuses a declared size over `maximumPixelCount` (a decompression bomb) or one
    /// `admitsPixels` refuses, before the pixels are allocated.
    /// - Throws: `KameraError.imageTooLarge`, or what `admitsPixels` throws.
    func admit(width: Int, height: Int, path: String?) throws {
        // Sides are at most 2^31 each (the formats' own fields), so the product cannot overflow.
        guard width * height <= maximumPixelCount else {
            throw KameraError.imageTooLarge(path: path, width: width, height: height, limit: maximumPixelCount)
        }
        try admitsPixels?(width, height)
    }
}
