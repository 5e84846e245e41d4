import CGeometry
import KameraCore

/// A frame moved by a similarity about its centre, same size, bilinear (the corrections are
/// fractions of a pixel and of a degree; nearest-pixel sampling would shimmer).
enum StabilizationWarp {
    /// - Parameter fill: The previous steadied frame (same size and format): where the moved
    ///   frame leaves the picture uncovered, that frame's pixels show — already on the steady
    ///   path, so the still background lines up. Without one, the frame's edge is repeated.
    static func warp(_ frame: PixelBuffer, by transform: SimilarityTransform, fill: PixelBuffer? = nil) throws -> PixelBuffer {
        guard transform.isFinite else {
            throw KameraError.invalidArgument("a stabilizing transform is not finite")
        }
        if transform == .identity { return frame }
        let source = frame.format == .gray8 || frame.format == .rgb8 ? frame : frame.converted(to: .rgb8)
        let usable = fill.flatMap {
            $0.width == source.width && $0.height == source.height && $0.format == source.format ? $0.packed() : nil
        }
        var output = usable ?? PixelBuffer(width: source.width, height: source.height, format: source.format)
        let matrix = transform.pixelMatrix(width: source.width, height: source.height)
        let stride = output.bytesPerRow
        try GeometryEngine.withImage(source) { image in
            try output.bytes.withUnsafeMutableBufferPointer { destination in
                try GeometryEngine.run("stabilizing warp") { error, size in
                    kgeo_warp_affine(image, matrix, usable == nil ? 0 : 1, destination.baseAddress, Int32(stride), error, size)
                }
            }
        }
        return output
    }
}
