import Foundation

/// Every failure Kamera reports: a `code` to branch on, what failed (`reason`), on which input
/// (`path`), and a `hint` on what to do.
///
/// A struct with codes rather than an enum, as `URLError` and `CocoaError` are: a new kind of
/// failure adds a code without breaking callers' exhaustive `switch`es. Match with
/// `catch let error as KameraError where error.code == .corruptImage`.
public struct KameraError: Error, Sendable, Hashable {
    /// The kind of failure.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The file could not be opened or read.
        public static let unreadableFile = Code(rawValue: "unreadableFile")
        /// The input holds no bytes.
        public static let emptyInput = Code(rawValue: "emptyInput")
        /// The bytes are not in a format Kamera decodes.
        public static let unsupportedFormat = Code(rawValue: "unsupportedFormat")
        /// The data claims a known format but is corrupt or truncated.
        public static let corruptImage = Code(rawValue: "corruptImage")
        /// The image's declared size exceeds the decoder's pixel limit (decompression bomb guard).
        public static let imageTooLarge = Code(rawValue: "imageTooLarge")
        /// Encoding an image failed.
        public static let encodingFailed = Code(rawValue: "encodingFailed")
        /// Writing a file failed (permissions, a vanished directory, an I/O error).
        public static let writeFailed = Code(rawValue: "writeFailed")
        /// The disk (or the user's quota) is full: nothing more can be written there.
        public static let diskFull = Code(rawValue: "diskFull")
        /// A recording ended without a single frame; its empty file was removed.
        public static let nothingRecorded = Code(rawValue: "nothingRecorded")
        /// The output file exists and overwriting it was not allowed.
        public static let outputExists = Code(rawValue: "outputExists")
        /// An argument is out of range or inconsistent.
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// The barcode engine failed on an input.
        public static let barcodeEngineFailure = Code(rawValue: "barcodeEngineFailure")
        /// A symbol could not be generated from the payload.
        public static let barcodeGenerationFailed = Code(rawValue: "barcodeGenerationFailed")
        /// A resource (font, model, media) that Kamera needs is missing.
        public static let missingResource = Code(rawValue: "missingResource")
        /// A video file or stream that cannot be opened, decoded or written.
        public static let corruptMedia = Code(rawValue: "corruptMedia")
        /// A model file is truncated, corrupt, or uses something the runtime does not support.
        public static let invalidModel = Code(rawValue: "invalidModel")
        /// What was asked for (a document, a registration) is not in the input.
        public static let notFound = Code(rawValue: "notFound")
        /// The geometry engine (rectangles, contours, registration, tracking) failed on an input.
        public static let geometryEngineFailure = Code(rawValue: "geometryEngineFailure")
        /// The camera has no such control (autofocus range, torch, ISO, …) or not that setting of it.
        public static let unsupportedCameraControl = Code(rawValue: "unsupportedCameraControl")
        /// The camera refused a configuration: not locked for it, held by another application,
        /// or the driver said no.
        public static let cameraConfigurationFailed = Code(rawValue: "cameraConfigurationFailed")
    }

    /// The kind of failure, to branch on.
    public var code: Code
    /// A short statement of what went wrong, naming the input.
    public var reason: String
    /// What the user can do about it.
    public var hint: String
    /// The file or stream concerned, when there is one.
    public var path: String?

    public init(code: Code, reason: String, hint: String, path: String? = nil) {
        self.code = code
        self.reason = reason
        self.hint = hint
        self.path = path
    }
}

extension KameraError {
    public static func unreadableFile(path: String, reason: String) -> KameraError {
        KameraError(
            code: .unreadableFile, reason: "cannot read \(path): \(reason)",
            hint: "check that the path exists and is readable", path: path)
    }

    public static func emptyInput(path: String?) -> KameraError {
        KameraError(
            code: .emptyInput, reason: "\(path ?? "input") is empty (0 bytes)",
            hint: "the file may still be downloading or was truncated to zero", path: path)
    }

    /// `detected`: what the bytes look like instead ("GIF", "text, starting …").
    public static func unsupportedFormat(path: String?, detected: String) -> KameraError {
        KameraError(
            code: .unsupportedFormat, reason: "\(path ?? "input") is not a supported image (\(detected))",
            hint: "Kamera reads JPEG, PNG and WebP images", path: path)
    }

    public static func corruptImage(path: String?, format: String, reason: String) -> KameraError {
        KameraError(
            code: .corruptImage, reason: "\(path ?? "input") is a corrupt or truncated \(format) image: \(reason)",
            hint: "re-export or re-download the image", path: path)
    }

    public static func imageTooLarge(path: String?, width: Int, height: Int, limit: Int) -> KameraError {
        KameraError(
            code: .imageTooLarge, reason: "\(path ?? "input") declares \(width)×\(height) pixels, over the limit of \(limit)",
            hint: "raise the decoder's pixel limit (ImageDecodingOptions.maximumPixelCount) if the image is expected", path: path)
    }

    public static func encodingFailed(format: String, reason: String) -> KameraError {
        KameraError(code: .encodingFailed, reason: "cannot encode \(format): \(reason)", hint: "check the image size and format")
    }

    public static func writeFailed(path: String, reason: String) -> KameraError {
        KameraError(
            code: .writeFailed, reason: "cannot write \(path): \(reason)",
            hint: "check free disk space and permissions", path: path)
    }

    public static func diskFull(path: String) -> KameraError {
        KameraError(code: .diskFull, reason: "cannot write \(path): the disk is full", hint: "free some space, then try again", path: path)
    }

    /// A failed write, as `diskFull` when the system said the disk is full (`ENOSPC`, `EDQUOT`)
    /// and as `writeFailed` otherwise.
    public static func writeFailed(path: String, errno code: Int32, reason: String) -> KameraError {
        code == ENOSPC || code == EDQUOT ? .diskFull(path: path) : .writeFailed(path: path, reason: reason)
    }

    public static func nothingRecorded(path: String, reason: String) -> KameraError {
        KameraError(
            code: .nothingRecorded, reason: "nothing was recorded to \(path): \(reason)",
            hint: "raise the limit (duration, file size) or check that the source delivers frames", path: path)
    }

    public static func outputExists(path: String) -> KameraError {
        KameraError(
            code: .outputExists, reason: "\(path) already exists",
            hint: "pass -y to overwrite it, or choose another name", path: path)
    }

    public static func invalidArgument(_ message: String) -> KameraError {
        KameraError(code: .invalidArgument, reason: message, hint: "check the value against the option's documented range")
    }

    public static func barcodeEngineFailure(reason: String) -> KameraError {
        KameraError(code: .barcodeEngineFailure, reason: "barcode engine failed: \(reason)", hint: "please report this input")
    }

    public static func notFound(_ what: String, in path: String?, hint: String) -> KameraError {
        KameraError(code: .notFound, reason: "no \(what) found in \(path ?? "the image")", hint: hint, path: path)
    }

    public static func geometryEngineFailure(operation: String, reason: String) -> KameraError {
        KameraError(
            code: .geometryEngineFailure, reason: "\(operation) failed: \(reason)", hint: "please report this input")
    }

    public static func barcodeGenerationFailed(symbology: String, reason: String) -> KameraError {
        KameraError(
            code: .barcodeGenerationFailed, reason: "cannot generate \(symbology): \(reason)",
            hint: "check that the payload fits the symbology (digits only for EAN/UPC, length limits)")
    }

    public static func missingResource(name: String, hint: String) -> KameraError {
        KameraError(code: .missingResource, reason: "missing \(name)", hint: hint)
    }

    public static func unsupportedCameraControl(device: String, control: String) -> KameraError {
        KameraError(
            code: .unsupportedCameraControl, reason: "\(device) does not support \(control)",
            hint: "`kamera cameras` lists what each camera's driver offers", path: device)
    }

    public static func cameraConfigurationFailed(device: String, reason: String) -> KameraError {
        KameraError(
            code: .cameraConfigurationFailed, reason: "\(device): \(reason)",
            hint: "lock the device for configuration first, and close other applications using it", path: device)
    }

    public static func corruptMedia(path: String?, reason: String) -> KameraError {
        KameraError(
            code: .corruptMedia, reason: "\(path ?? "the stream") is not a readable video: \(reason)",
            hint: "check that it is a complete video FFmpeg can read (ffprobe FILE), or the device path", path: path)
    }

    public static func invalidModel(path: String, reason: String) -> KameraError {
        KameraError(
            code: .invalidModel, reason: "invalid model \(path): \(reason)",
            hint: "reinstall the models with `bash scripts/models.sh` (or point KAMERA_MODELS at a good copy)", path: path)
    }
}

extension KameraError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }
    public var description: String { "\(reason) (\(hint))" }
}
