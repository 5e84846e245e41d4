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

    public init(
        maximumPixelCount: Int = 120_000_000, appliesOrientation: Bool = true, acceptsDamagedData: Bool = true,
        decodesLuminanceOnly: Bool = false
    ) {
        self.maximumPixelCount = maximumPixelCount
        self.appliesOrientation = appliesOrientation
        self.acceptsDamagedData = acceptsDamagedData
        self.decodesLuminanceOnly = decodesLuminanceOnly
    }
}
