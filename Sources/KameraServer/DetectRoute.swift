import Foundation
import HTTPTypes
import Hummingbird
import Kamera
import KameraReports
import NIOCore

/// `POST /v1/detect`: an image in the body, `kamera detect`'s JSON out.
struct DetectRoute: Sendable {
    let admission: AnalysisAdmission
    let limits: RequestLimits
    let library: ResultsLibrary

    func respond(to request: Request, context: some RequestContext) async throws -> Response {
        // `name` is the input the result reports; every other parameter is an analysis option.
        var parameters = request.uri.queryParameters.map { (key: String($0.key), value: String($0.value)) }
        let name = parameters.last { $0.key == "name" }?.value ?? "body"
        parameters.removeAll { $0.key == "name" }
        let analysis = try APIError.mappingKameraErrors { try AnalysisOptions.decoding(query: parameters).imageAnalysis() }
        let data = try await RequestBody.collect(request, limit: limits.maximumBodyBytes)
        let decoding = ImageDecodingOptions(
            maximumPixelCount: limits.maximumPixelCount, acceptsDamagedData: true, decodesLuminanceOnly: analysis.faces == nil)
        let result = try await APIError.mappingKameraErrors {
            try await admission.run(timeout: limits.requestTimeout) {
                var result = DetectionReport.FileResult(input: name)
                let image = try ImageDecoder.decode(data, path: name, options: decoding)
                _ = try analysis.analyse(image, into: &result)
                return result
            }
        }
        try await library.notePhoto(
            PhotoEntry(
                name: name, analysedAt: Date(), width: result.width ?? 0, height: result.height ?? 0, barcodes: result.barcodes?.count ?? 0,
                faces: result.faces?.count ?? 0, textLines: result.text?.count ?? 0))
        return JSONResponse.make(try DetectionReport(results: [result]).json() + "\n")
    }
}

/// Reading a request's whole body with a size limit and clear errors.
enum RequestBody {
    static func collect(_ request: Request, limit: Int) async throws -> Data {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError(
                .contentTooLarge, code: .bodyTooLarge, message: "the body is larger than \(limit) bytes",
                hint: "send a smaller file or start the server with a larger --max-body")
        }
        guard buffer.readableBytes > 0 else {
            throw APIError(.badRequest, code: .emptyInput, message: "the request body is empty", hint: "send the image file as the body")
        }
        return Data(buffer: buffer)
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
