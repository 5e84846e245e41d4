import Foundation
import HTTPTypes
import Hummingbird
import Kamera
import KameraReports

/// An API failure as the client sees it: an HTTP status and the same `code`/`message`/`hint`
/// record `kamera detect` prints for a failed file, as `{"error":{…}}`. Codes are
/// `KameraError.Code`s: the library's, and the server's own below.
struct APIError: HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var error: DetectionReport.FileError
    /// Seconds after which a retry may succeed (503).
    var retryAfter: Int?

    init(_ status: HTTPResponse.Status, code: KameraError.Code, message: String, hint: String, retryAfter: Int? = nil) {
        self.status = status
        self.error = DetectionReport.FileError(code: code, message: message, hint: hint)
        self.retryAfter = retryAfter
    }

    /// A Kamera failure on the client's input: which status says what went wrong.
    init(_ failure: KameraError) {
        let status: HTTPResponse.Status =
            switch failure.code {
            case .unsupportedFormat: .unsupportedMediaType
            case .imageTooLarge: .contentTooLarge
            case .emptyInput, .corruptImage, .invalidArgument, .barcodeGenerationFailed: .badRequest
            case .missingResource, .invalidModel: .serviceUnavailable
            case .diskFull: .insufficientStorage507
            case .busy: .serviceUnavailable
            case .unsupportedCameraControl: .unprocessableContent
            case .cameraConfigurationFailed: .conflict
            default: .internalServerError
            }
        // The library's hints are neutral; here they name what an API client can do.
        let hint =
            switch failure.code {
            case .imageTooLarge: "send a smaller image, or start the server with a larger --max-megapixels"
            case .invalidArgument: "see /openapi.json"
            default: failure.hint
            }
        self.init(status, code: failure.code, message: failure.reason, hint: hint, retryAfter: failure.code == .busy ? 1 : nil)
    }

    /// Every analysis slot, or the memory for one more request, is taken.
    static func busy(retryAfter: Int = 1, reason: String = "the server is analysing as many images as it can") -> APIError {
        APIError(.serviceUnavailable, code: .busy, message: reason, hint: "retry after \(retryAfter) s", retryAfter: retryAfter)
    }

    static func timedOut(after seconds: Double) -> APIError {
        APIError(
            .gatewayTimeout, code: .timeout, message: "the analysis took longer than \(seconds.formatted()) s",
            hint: "send a smaller image or ask for fewer detectors")
    }

    /// A recording ended before its first frame: nothing was kept. A full or nearly full disk
    /// says so (507), not "record for longer".
    static func nothingRecorded(_ reason: RecordingEndReason = .finished) -> APIError {
        switch reason {
        case .diskFull, .diskSpaceLow:
            APIError(
                .insufficientStorage507, code: reason == .diskFull ? .diskFull : .diskSpaceLow,
                message: "nothing was recorded: the server's disk is \(reason == .diskFull ? "full" : "below its free-space minimum")",
                hint: "free space in the server's data directory")
        case .writeFailed:
            APIError(
                .internalServerError, code: .writeFailed, message: "nothing was recorded: the movie could not be written",
                hint: "see the server's log")
        default:
            APIError(.badRequest, code: .nothingRecorded, message: "the recording ended before its first frame", hint: "record for longer")
        }
    }

    static func badRequest(_ message: String, hint: String) -> APIError {
        APIError(.badRequest, code: .invalidArgument, message: message, hint: hint)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try JSONValueEncoder.encode(["error": error]).compact() + "\n"
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}

extension HTTPResponse.Status {
    /// 507 (RFC 4918): the server cannot store what the request needs — a full disk.
    static let insufficientStorage507 = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
}
