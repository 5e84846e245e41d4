import CGeometry
import KameraCore

/// The OpenCV shim's calling convention in one place: pixels lent without a copy, and its error
/// text turned into a typed error.
enum GeometryEngine {
    /// Runs one shim call; a non-zero status throws with the shim's message.
    static func run(_ operation: String, _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws {
        var text = [CChar](repeating: 0, count: 512)
        let status = text.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
        guard status == 0 else {
            let reason = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw KameraError.geometryEngineFailure(operation: operation, reason: reason)
        }
    }

    /// Lends `buffer` to the shim; formats other than gray and RGB are converted to RGB first.
    static func withImage<R>(_ buffer: PixelBuffer, _ body: (UnsafePointer<kgeo_image>) throws -> R) rethrows -> R {
        let lent = buffer.format == .gray8 || buffer.format == .rgb8 ? buffer : buffer.converted(to: .rgb8)
        return try lent.bytes.withUnsafeBufferPointer { pixels in
            var image = kgeo_image(
                pixels: pixels.baseAddress, width: Int32(lent.width), height: Int32(lent.height),
                stride: Int32(lent.bytesPerRow), channels: Int32(lent.format.bytesPerPixel))
            return try withUnsafePointer(to: &image) { try body($0) }
        }
    }

    /// `buffers` lent to the shim together (each as `withImage` lends one), in order.
    static func withImages<R>(_ buffers: [PixelBuffer], _ body: (UnsafeBufferPointer<kgeo_image>) throws -> R) rethrows -> R {
        func lend(_ index: Int, _ lent: [kgeo_image]) throws -> R {
            guard index < buffers.count else { return try lent.withUnsafeBufferPointer { try body($0) } }
            return try withImage(buffers[index]) { try lend(index + 1, lent + [$0.pointee]) }
        }
        return try lend(0, [])
    }

    /// A quad for the shim (corners clockwise from the top-left, as `quad(_:)` reads them).
    static func shimQuad(_ quad: Quad, confidence: Double) -> kgeo_quad {
        kgeo_quad(
            points: (
                quad.topLeft.x, quad.topLeft.y, quad.topRight.x, quad.topRight.y, quad.bottomRight.x, quad.bottomRight.y,
                quad.bottomLeft.x, quad.bottomLeft.y
            ), confidence: confidence)
    }

    /// The four corners of a shim quad.
    static func quad(_ points: (Double, Double, Double, Double, Double, Double, Double, Double)) -> Quad {
        Quad(
            topLeft: PixelPoint(x: points.0, y: points.1), topRight: PixelPoint(x: points.2, y: points.3),
            bottomRight: PixelPoint(x: points.4, y: points.5), bottomLeft: PixelPoint(x: points.6, y: points.7))
    }
}
