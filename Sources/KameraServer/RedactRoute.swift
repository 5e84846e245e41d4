import Foundation
import HTTPTypes
import Hummingbird
import Kamera
import KameraReports
import NIOCore

/// `POST /v1/redact`: a photo in the body, the same photo out with its faces (and, if asked,
/// codes, text, people) covered — `kamera redact` for one image. The reply has the body's
/// format (JPEG, PNG or WebP; no metadata, so no location), and says what was covered in
/// `Kamera-Redacted` (e.g. `face=2, barcode=1`).
struct RedactRoute: Sendable {
    let services: ServerServices

    func respond(to request: Request, context: some RequestContext) async throws -> Response {
        let parameters = request.uri.queryParameters.map { (key: String($0.key), value: String($0.value)) }
        let configuration = try APIError.mappingKameraErrors { try RedactionOptions.decoding(query: parameters).configuration() }
        let (data, reservation) = try await RequestBody.collect(request, limits: services.limits, budget: services.budget)
        var decoding = ImageDecodingOptions(maximumPixelCount: services.limits.maximumPixelCount, acceptsDamagedData: false)
        // The decoded picture, its covered copy and the detectors' planes.
        decoding.admitsPixels = { width, height in try reservation.grow(by: width * height * 12) }
        let options = decoding
        let format = ImageFileFormat.detect(data)
        let (encoded, counts) = try await APIError.mappingKameraErrors {
            try await services.admission.run(timeout: services.limits.requestTimeout) {
                let image = try ImageDecoder.decode(data, path: "body", options: options)
                let redacted = try Redactor(configuration: configuration).redact(image)
                let encoding: ImageEncoding =
                    switch format {
                    case .png: .png
                    case .webp: .webp(quality: 90)
                    default: .jpeg(quality: 92)
                    }
                var counts: [RedactionKind: Int] = [:]
                for region in redacted.regions { counts[region.kind, default: 0] += 1 }
                return (try ImageEncoder.encode(redacted.pixelBuffer, as: encoding), counts)
            }
        }
        _ = reservation
        let contentType =
            switch format {
            case .png: "image/png"
            case .webp: "image/webp"
            default: "image/jpeg"
            }
        let summary = counts.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: ", ")
        var headers: HTTPFields = [.contentType: contentType]
        if let name = HTTPField.Name("Kamera-Redacted") { headers[name] = summary.isEmpty ? "none" : summary }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: encoded)))
    }
}
