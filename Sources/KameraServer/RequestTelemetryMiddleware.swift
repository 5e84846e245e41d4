import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Watches every request: gives it an ID (the caller's `X-Request-ID` when it is a short token,
/// else a new one) echoed in the response's `X-Request-ID`, logs one line when it is answered
/// (route, status, milliseconds, the ID; as JSON with `--log-format json`), and counts it in
/// the server's metrics by route and status, 503s by their error code.
///
/// Errors thrown by a route are turned into their response here, not after, so an error
/// answer carries its request ID too.
struct RequestTelemetryMiddleware<Context: RequestContext>: RouterMiddleware {
    static var requestIDField: HTTPField.Name { HTTPField.Name("X-Request-ID")! }

    let metrics: ServerMetrics
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let id = Self.requestID(from: request)
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        var response: Response
        var code: String?
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
            code = (error as? APIError)?.error.code.rawValue
        } catch {
            // Not an API error: a defect, answered 500 (as Hummingbird would) but counted and logged.
            logger.error("\(request.method.rawValue) \(request.uri.path) failed: \(error)", metadata: ["request_id": .string(id)])
            response = Response(status: .internalServerError)
        }
        response.headers[Self.requestIDField] = id
        let status = response.status.code
        if status == 503 { metrics.unavailable(code: code ?? "unavailable") }
        // The matched route's pattern: a bounded set of series, whatever paths are asked for.
        let route = context.endpointPath ?? "unmatched"
        let (metrics, logger, method) = (metrics, logger, request.method.rawValue)
        // Counted once the body is sent (or failed to be): a movie download's time is its
        // whole transfer.
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            defer {
                let duration = ContinuousClock.now - started
                metrics.requestFinished(route: route, method: method, status: status, duration: duration)
                let milliseconds = (duration / .milliseconds(1) * 10).rounded() / 10
                logger.log(
                    level: status >= 500 ? .warning : .info, "\(method) \(request.uri.path) \(status)",
                    metadata: [
                        "request_id": .string(id), "route": .string(route), "status": .stringConvertible(status),
                        "ms": .stringConvertible(milliseconds),
                    ])
            }
            try await body.write(writer)
        }
        return response
    }

    /// The caller's ID when it is 1–64 letters, digits or `-_.:` (a load balancer's or a
    /// tracing header's), so one ID follows a request through the fleet; otherwise a new one.
    /// Anything else is replaced, not echoed: a header value must not inject into logs.
    static func requestID(from request: Request) -> String {
        if let given = request.headers[requestIDField], (1...64).contains(given.utf8.count),
            given.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || "-_.:".utf8.contains(byte)
            })
        {
            return given
        }
        return String(UInt64.random(in: 0...UInt64.max), radix: 16).leftPadded(to: 16)
    }
}

extension String {
    /// The string with zeros in front up to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
