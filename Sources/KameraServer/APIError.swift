import Foundation
import HTTPTypes
import Hummingbird
import Kamera
import KameraReports

/// An API failure as the client sees it: an HTTP status and the same `code`/`message`/`hint`
/// record `kamera detect` prints for a failed file, as `{"error":{…}}`.
struct APIError: HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var error: DetectionReport.FileError
    /// Seconds after which a retry may succeed (503).
    var retryAfter: Int?

    init(_ status: HTTPResponse.Status, code: String, message: String, hint: String, retryAfter: Int? = nil) {
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
            default: .internalServerError
            }
        self.init(status, code: failure.code.rawValue, message: failure.reason, hint: failure.hint)
    }

    /// Every analysis slot is taken.
    static func busy(retryAfter: Int = 1) -> APIError {
        APIError(
            .serviceUnavailable, code: "busy", message: "the server is analysing as many images as it can",
            hint: "retry after \(retryAfter) s", retryAfter: retryAfter)
    }

    static func timedOut(after seconds: Double) -> APIError {
        APIError(
            .gatewayTimeout, code: "timeout", message: "the analysis took longer than \(seconds.formatted()) s",
            hint: "send a smaller image or ask for fewer detectors")
    }

    /// A recording ended before its first frame: nothing was kept.
    static let nothingRecorded = APIError(
        .badRequest, code: "nothingRecorded", message: "the recording ended before its first frame", hint: "record for longer")

    static func badRequest(_ message: String, hint: String) -> APIError {
        APIError(.badRequest, code: "invalidArgument", message: message, hint: hint)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try JSONValueEncoder.encode(["error": error]).compact() + "\n"
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
