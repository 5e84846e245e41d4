import CGeometry
import KameraCore

extension PixelBuffer {
    /// The part of this image inside `quad` warped upright (Core Image's perspective
    /// correction): what a document scanner makes of a page photographed at an angle.
    ///
    /// - Parameters:
    ///   - quad: the corners in this image's pixels, as a ``RectangleObservation``'s
    ///     `pixelCorners`.
    ///   - width: the output's width; by default the longer of the quad's top and bottom sides.
    ///   - height: the output's height; by default the longer of its left and right sides.
    ///   - whitensPaper: divide out uneven lighting so paper comes out white and ink dark.
    ///   - blackOutside: where the quad reaches past the image, black instead of the edge
    ///     pixels repeated (for warping a whole image onto another).
    /// - Returns: gray for a gray image, else RGB.
    public func perspectiveCorrected(
        to quad: Quad, width: Int? = nil, height: Int? = nil, whitensPaper: Bool = false,
        blackOutside: Bool = false
    ) throws -> PixelBuffer {
        let outputWidth =
            width ?? Int(max(quad.topLeft.distance(to: quad.topRight), quad.bottomLeft.distance(to: quad.bottomRight)).rounded())
        let outputHeight =
            height ?? Int(max(quad.topLeft.distance(to: quad.bottomLeft), quad.topRight.distance(to: quad.bottomRight)).rounded())
        // 16 K per side covers any photo; beyond it a quad far outside the image was passed.
        guard (1...16_384).contains(outputWidth), (1...16_384).contains(outputHeight) else {
            throw KameraError.invalidArgument("perspective correction to \(outputWidth)×\(outputHeight) pixels: each side must be 1…16384")
        }
        let format: PixelFormat = self.format == .gray8 ? .gray8 : .rgb8
        var output = PixelBuffer(width: outputWidth, height: outputHeight, format: format)
        let corners = quad.corners.flatMap { [$0.x, $0.y] }
        try GeometryEngine.withImage(self) { image in
            try GeometryEngine.run("perspective correction") { error, size in
                output.bytes.withUnsafeMutableBufferPointer { pixels in
                    kgeo_flatten_quad(
                        image, corners, Int32(outputWidth), Int32(outputHeight), whitensPaper ? 1 : 0, blackOutside ? 1 : 0,
                        pixels.baseAddress,
                        error, size)
                }
            }
        }
        return output
    }
}
