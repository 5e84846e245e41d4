import Foundation
import HTTPTypes
import Hummingbird
import Kamera
import NIOCore

/// `POST /v1/generate`: `{"symbology":"qr","payload":"…"}` (and `kamera generate`'s options)
/// in, a PNG out.
struct GenerateRoute: Sendable {
    /// The body: `kamera generate`'s arguments and options.
    struct Order: Decodable, Sendable {
        var symbology: String
        /// Text (UTF-8), or hexadecimal bytes when `hex` is true.
        var payload: String
        var hex: Bool?
        var moduleSize: Int?
        var ecc: String?
        var quietZone: Int?
        var barHeight: Int?
    }

    let services: ServerServices

    func respond(to request: Request, context: some RequestContext) async throws -> Response {
        // A payload is at most a few kilobytes; a large body is a mistake.
        var orderLimits = services.limits
        orderLimits.maximumBodyBytes = 64 << 10
        let (data, _) = try await RequestBody.collect(request, limits: orderLimits, budget: services.budget)
        let order: Order
        do {
            order = try JSONDecoder().decode(Order.self, from: data)
        } catch {
            throw APIError.badRequest(
                "the body is not a generate order: \(error.localizedDescription)",
                hint: #"send JSON such as {"symbology":"qr","payload":"hello","moduleSize":4}"#)
        }
        let generator = try Self.generator(for: order)
        let payload: BarcodeGenerator.Payload
        if order.hex == true {
            guard let bytes = Self.bytes(hex: order.payload) else {
                throw APIError.badRequest("payload is not hexadecimal", hint: "write bytes as hex digits, e.g. 00ff10")
            }
            payload = .bytes(bytes)
        } else {
            payload = .text(order.payload)
        }
        let png = try await APIError.mappingKameraErrors {
            try await services.admission.run(timeout: services.limits.requestTimeout) {
                try ImageEncoder.encode(try generator.generate(payload), as: .png)
            }
        }
        return Response(status: .ok, headers: [.contentType: "image/png"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: png)))
    }

    static func generator(for order: Order) throws -> BarcodeGenerator {
        guard let symbology = BarcodeSymbology(rawValue: order.symbology.lowercased()), BarcodeSymbology.generatable.contains(symbology)
        else {
            throw APIError.badRequest(
                "'\(order.symbology)' is not a symbology Kamera generates",
                hint: "use one of \(BarcodeSymbology.generatable.map(\.rawValue).joined(separator: ", "))")
        }
        let moduleSize = order.moduleSize ?? 4
        guard (1...100).contains(moduleSize) else { throw APIError.badRequest("moduleSize must be 1…100", hint: "pixels per module") }
        if let quiet = order.quietZone, !(0...100).contains(quiet) {
            throw APIError.badRequest("quietZone must be 0…100", hint: "modules of margin")
        }
        if let height = order.barHeight, !(1...1000).contains(height) {
            throw APIError.badRequest("barHeight must be 1…1000", hint: "modules")
        }
        var errorCorrection: BarcodeGenerator.ErrorCorrection?
        if let ecc = order.ecc {
            guard let level = BarcodeGenerator.ErrorCorrection(rawValue: ecc.uppercased()) else {
                throw APIError.badRequest("ecc must be L, M, Q or H", hint: "QR error correction level")
            }
            errorCorrection = level
        }
        return BarcodeGenerator(
            symbology: symbology, moduleSize: moduleSize, quietZone: order.quietZone, errorCorrection: errorCorrection,
            barHeight: order.barHeight)
    }

    static func bytes(hex: String) -> Data? {
        let digits = Array(hex.filter { !$0.isWhitespace })
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data()
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(digits[i...i + 1]), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
