import Foundation
import KameraCore

/// A decoded barcode: what it says and where it is. Positions come both normalized like
/// Vision (0…1, lower-left origin) and in pixels (top-left origin).
public struct BarcodeObservation: Sendable, Hashable {
    /// The code's family.
    public var symbology: BarcodeSymbology
    /// The payload as text (UTF-8, decoded by the symbology's character set), if it is text.
    public var payloadString: String?
    /// The raw payload bytes.
    public var payloadData: Data
    /// The four corners in pixels, in the symbol's own reading orientation.
    public var pixelCorners: Quad
    /// Size of the image the code was found in.
    public var imageSize: Size
    /// 1 for a decoded symbol (error correction and checksums passed).
    public var confidence: Float
    /// How the symbol is rotated in the image, degrees clockwise.
    public var orientation: Int
    /// Whether the symbol was mirrored.
    public var isMirrored: Bool
    /// Whether the symbol was light on dark.
    public var isInverted: Bool
    /// Vision's name for `isInverted`.
    public var isColorInverted: Bool { isInverted }
    /// The symbology identifier ("]Q1", ISO/IEC 15424).
    public var symbologyIdentifier: String
    /// The error-correction level, where the symbology has one ("M", "30%").
    public var errorCorrectionLevel: String?
    /// The exact format variant zxing-cpp reported ("QRCodeModel2", "DataBarExpStk").
    public var formatVariant: String
    /// The EAN-2 or EAN-5 add-on printed to the right of an EAN-13, UPC-A or UPC-E (a
    /// magazine's issue number, a book's price), as Vision's `supplementalPayloadString`;
    /// nil when the code has none. Never part of ``payloadString``.
    public var supplementalPayloadString: String?
    /// The add-on's bytes (its digits), as Vision's `supplementalPayloadData`.
    public var supplementalPayloadData: Data? { supplementalPayloadString.map { Data($0.utf8) } }

    public init(
        symbology: BarcodeSymbology, payloadString: String?, payloadData: Data, pixelCorners: Quad,
        imageSize: Size, confidence: Float = 1, orientation: Int = 0, isMirrored: Bool = false,
        isInverted: Bool = false, symbologyIdentifier: String = "", errorCorrectionLevel: String? = nil,
        formatVariant: String = "", supplementalPayloadString: String? = nil
    ) {
        self.symbology = symbology
        self.payloadString = payloadString
        self.payloadData = payloadData
        self.pixelCorners = pixelCorners
        self.imageSize = imageSize
        self.confidence = confidence
        self.orientation = orientation
        self.isMirrored = isMirrored
        self.isInverted = isInverted
        self.symbologyIdentifier = symbologyIdentifier
        self.errorCorrectionLevel = errorCorrectionLevel
        self.formatVariant = formatVariant
        self.supplementalPayloadString = supplementalPayloadString
    }

    /// Axis-aligned bounds in pixels (top-left origin).
    public var pixelBounds: PixelRect { pixelCorners.boundingRect }
    /// Axis-aligned bounds normalized like Vision (lower-left origin).
    public var boundingBox: NormalizedRect { pixelBounds.normalized(in: imageSize) }
    public var topLeft: NormalizedPoint { pixelCorners.topLeft.normalized(in: imageSize) }
    public var topRight: NormalizedPoint { pixelCorners.topRight.normalized(in: imageSize) }
    public var bottomRight: NormalizedPoint { pixelCorners.bottomRight.normalized(in: imageSize) }
    public var bottomLeft: NormalizedPoint { pixelCorners.bottomLeft.normalized(in: imageSize) }
}
