import Kamera

/// The server's own failure codes, beside the library's (`KameraError.Code`): every `code` an
/// API client can branch on is one of these or the library's, never a string typed at a call
/// site.
extension KameraError.Code {
    /// Every analysis slot, or the memory budget, is taken: retry after `Retry-After`.
    static let busy = KameraError.Code(rawValue: "busy")
    /// The analysis took longer than the request timeout.
    static let timeout = KameraError.Code(rawValue: "timeout")
    /// The request lacks the server's access token.
    static let unauthorized = KameraError.Code(rawValue: "unauthorized")
    /// The request came from another web origin or host name (cross-site, DNS rebinding).
    static let forbiddenOrigin = KameraError.Code(rawValue: "forbiddenOrigin")
    /// The body is over the server's limit.
    static let bodyTooLarge = KameraError.Code(rawValue: "bodyTooLarge")
    /// The body did not arrive in time.
    static let bodyTimeout = KameraError.Code(rawValue: "bodyTimeout")
    /// The disk is below the server's free-space minimum.
    static let diskSpaceLow = KameraError.Code(rawValue: "diskSpaceLow")
    /// The camera is already recording.
    static let alreadyRecording = KameraError.Code(rawValue: "alreadyRecording")
    /// The camera is not recording.
    static let notRecording = KameraError.Code(rawValue: "notRecording")
    /// The camera delivered no frame in time to end the recording.
    static let cameraNotResponding = KameraError.Code(rawValue: "cameraNotResponding")
    /// The camera stopped delivering frames.
    static let cameraLost = KameraError.Code(rawValue: "cameraLost")
    /// The camera cannot be opened.
    static let cameraUnavailable = KameraError.Code(rawValue: "cameraUnavailable")

    /// Every code the server may send, for the OpenAPI document.
    /// The camera has no controls: a video file standing in for one, or a node whose driver lists none.
    static let noCameraControls = KameraError.Code(rawValue: "noCameraControls")

    static let serverCodes: [KameraError.Code] = [
        .unreadableFile, .emptyInput, .unsupportedFormat, .corruptImage, .imageTooLarge, .encodingFailed, .writeFailed, .diskFull,
        .nothingRecorded, .invalidArgument, .barcodeEngineFailure, .barcodeGenerationFailed, .missingResource, .corruptMedia,
        .invalidModel, .notFound, .geometryEngineFailure, .unexpected, .busy, .timeout, .unauthorized, .forbiddenOrigin,
        .bodyTooLarge, .bodyTimeout, .diskSpaceLow, .alreadyRecording, .notRecording, .cameraNotResponding, .cameraLost,
        .cameraUnavailable, .unsupportedCameraControl, .cameraConfigurationFailed, .noCameraControls,
    ]
}
