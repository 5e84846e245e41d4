import Foundation

/// Every failure Kamera reports: what failed, on which input, and a hint on what to do.
public enum KameraError: Error, Sendable, Equatable {
    /// The file could not be opened or read.
    case unreadableFile(path: String, reason: String)
    /// The input holds no bytes.
    case emptyInput(path: String?)
    /// The bytes are not in a format Kamera decodes.
    case unsupportedFormat(path: String?, detected: String)
    /// The data claims a known format but is corrupt or truncated.
    case corruptImage(path: String?, format: String, reason: String)
    /// The image's declared size exceeds the decoder's pixel limit (decompression bomb guard).
    case imageTooLarge(path: String?, width: Int, height: Int, limit: Int)
    /// Encoding an image failed.
    case encodingFailed(format: String, reason: String)
    /// Writing a file failed (for example a full disk).
    case writeFailed(path: String, reason: String)
    /// A recording ended without a single frame; its empty file was removed.
    case nothingRecorded(path: String, reason: String)
    /// The output file exists and overwriting it was not allowed.
    case outputExists(path: String)
    /// An argument is out of range or inconsistent.
    case invalidArgument(String)
    /// The barcode engine failed on an input.
    case barcodeEngineFailure(reason: String)
    /// A symbol could not be generated from the payload.
    case barcodeGenerationFailed(symbology: String, reason: String)
    /// A resource (font, model, media) that Kamera needs is missing.
    case missingResource(name: String, hint: String)
    /// A video file or stream that cannot be opened, decoded or written (FFmpeg's reason).
    case corruptMedia(path: String?, reason: String)
    /// A model file is truncated, corrupt, or uses something the runtime does not support.
    case invalidModel(path: String, reason: String)

    /// A short statement of what went wrong.
    public var reason: String {
        switch self {
        case .unreadableFile(let path, let reason): "cannot read \(path): \(reason)"
        case .emptyInput(let path): "\(path ?? "input") is empty (0 bytes)"
        case .unsupportedFormat(let path, let detected):
            "\(path ?? "input") is not a supported image (\(detected))"
        case .corruptImage(let path, let format, let reason):
            "\(path ?? "input") is a corrupt or truncated \(format) image: \(reason)"
        case .imageTooLarge(let path, let width, let height, let limit):
            "\(path ?? "input") declares \(width)×\(height) pixels, over the limit of \(limit)"
        case .encodingFailed(let format, let reason): "cannot encode \(format): \(reason)"
        case .writeFailed(let path, let reason): "cannot write \(path): \(reason)"
        case .outputExists(let path): "\(path) already exists"
        case .nothingRecorded(let path, let reason): "nothing was recorded to \(path): \(reason)"
        case .invalidArgument(let message): message
        case .barcodeEngineFailure(let reason): "barcode engine failed: \(reason)"
        case .barcodeGenerationFailed(let symbology, let reason): "cannot generate \(symbology): \(reason)"
        case .missingResource(let name, _): "missing \(name)"
        case .invalidModel(let path, let reason): "invalid model \(path): \(reason)"
        case .corruptMedia(let path, let reason): "\(path ?? "the stream") is not a readable video: \(reason)"
        }
    }

    /// What the user can do about it.
    public var hint: String {
        switch self {
        case .unreadableFile: "check that the path exists and is readable"
        case .emptyInput: "the file may still be downloading or was truncated to zero"
        case .unsupportedFormat: "Kamera reads JPEG, PNG and WebP images"
        case .corruptImage: "re-export or re-download the image"
        case .imageTooLarge: "raise the limit with ImageDecodingOptions.maximumPixelCount (CLI: --max-pixels)"
        case .encodingFailed: "check the image size and format"
        case .writeFailed: "check free disk space and permissions"
        case .outputExists: "pass -y to overwrite it, or choose another name"
        case .nothingRecorded: "raise the limit (duration, file size) or check that the source delivers frames"
        case .invalidArgument: "see `kamera help`"
        case .barcodeEngineFailure: "please report this input"
        case .barcodeGenerationFailed: "check that the payload fits the symbology (digits only for EAN/UPC, length limits)"
        case .missingResource(_, let hint): hint
        case .corruptMedia: "check that it is a complete video FFmpeg can read (ffprobe FILE), or the device path"
        case .invalidModel: "reinstall the models with `bash scripts/models.sh` (or point KAMERA_MODELS at a good copy)"
        }
    }
}

extension KameraError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }
    public var description: String { "\(reason) (\(hint))" }
}
