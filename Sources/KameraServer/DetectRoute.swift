import Foundation
import HTTPTypes
import Hummingbird
import Kamera
import KameraReports
import Logging
import NIOCore

/// `POST /v1/detect`: an image in the body, `kamera detect`'s JSON out.
struct DetectRoute: Sendable {
    let services: ServerServices

    func respond(to request: Request, context: some RequestContext) async throws -> Response {
        // `name` is the input the result reports; every other parameter is an analysis option.
        var parameters = request.uri.queryParameters.map { (key: String($0.key), value: String($0.value)) }
        let name = parameters.last { $0.key == "name" }?.value ?? "body"
        parameters.removeAll { $0.key == "name" }
        let analysis = try APIError.mappingKameraErrors { try AnalysisOptions.decoding(query: parameters).imageAnalysis() }
        let (data, reservation) = try await RequestBody.collect(request, limits: services.limits, budget: services.budget)
        var decoding = ImageDecodingOptions(
            maximumPixelCount: services.limits.maximumPixelCount, acceptsDamagedData: true, decodesLuminanceOnly: !analysis.needsColour)
        // Decoded RGB plus the analysis' own planes (and a full-size person mask's).
        let bytesPerPixel = analysis.workingBytesPerPixel
        decoding.admitsPixels = { width, height in try reservation.grow(by: width * height * bytesPerPixel) }
        let options = decoding
        let result = try await APIError.mappingKameraErrors {
            try await services.admission.run(timeout: services.limits.requestTimeout) {
                var result = DetectionReport.FileResult(input: name)
                let image = try ImageDecoder.decode(data, path: name, options: options)
                _ = try analysis.analyse(image, into: &result)
                return result
            }
        }
        _ = reservation
        do {
            try await services.library.notePhoto(
                PhotoEntry(
                    name: name, analysedAt: Date(), width: result.width ?? 0, height: result.height ?? 0,
                    barcodes: result.barcodes?.count ?? 0, faces: result.faces?.count ?? 0, textLines: result.text?.count ?? 0))
        } catch {
            // The result was computed: the client gets it even when the library cannot note
            // it (a full disk), and the operator finds the failure in the log.
            _ = services.library.apiError(error, logger: services.logger)
        }
        return JSONResponse.make(try DetectionReport(results: [result]).json() + "\n")
    }
}

/// Reading a request's whole body within the server's services.limits, with clear errors: too large
/// (413, refused from its Content-Length before reading), too slow (408), or more than the
/// memory budget holds now (503).
enum RequestBody {
    static func collect(_ request: Request, limits: RequestLimits, budget: MemoryBudget) async throws -> (Data, MemoryBudget.Reservation) {
        let limit = limits.maximumBodyBytes
        // A negative length never reaches here (the HTTP parser refuses it); read as unknown if it did.
        let declared = request.headers[.contentLength].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        if let declared, declared > limit { throw tooLarge(limit) }
        let reservation = try APIError.mappingKameraErrors { try budget.reserve(declared ?? limit) }
        let buffer: ByteBuffer
        do {
            buffer = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await request.body.collect(upTo: limit) }
                group.addTask {
                    try await Task.sleep(for: .seconds(limits.bodyTimeout))
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                guard let first else {
                    throw APIError(
                        .requestTimeout, code: .bodyTimeout, message: "the body did not arrive within \(limits.bodyTimeout.formatted()) s",
                        hint: "send the body at once")
                }
                return first
            }
        } catch is NIOTooManyBytesError {
            throw tooLarge(limit)
        }
        guard buffer.readableBytes > 0 else {
            throw APIError(.badRequest, code: .emptyInput, message: "the request body is empty", hint: "send the image file as the body")
        }
        return (Data(buffer: buffer), reservation)
    }

    private static func tooLarge(_ limit: Int) -> APIError {
        APIError(
            .contentTooLarge, code: .bodyTooLarge, message: "the body is larger than \(limit) bytes",
            hint: "send a smaller file or start the server with a larger --max-body")
    }
}

/// A JSON response with the right content type.
enum JSONResponse {
    static func make(_ json: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
    }
}

extension APIError {
    /// Runs `body`, turning Kamera's errors about the input into API errors.
    static func mappingKameraErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as KameraError {
            throw APIError(error)
        }
    }

    /// Runs `body`, turning Kamera's errors about the input into API errors.
    static func mappingKameraErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as KameraError {
            throw APIError(error)
        }
    }

    /// A request's query parameters as `T`, a malformed or unknown one as 400.
    static func decodingQuery<T: Decodable>(_ type: T.Type, of request: Request, hint: String) throws -> T {
        do {
            return try QueryDecoder().decode(T.self, from: request.uri.queryParameters.map { (String($0.key), String($0.value)) })
        } catch let error as DecodingError {
            throw APIError.badRequest(error.readableDescription, hint: hint)
        } catch let error as KameraError {
            throw APIError(error)
        }
    }
}
