import CKameraNNKernels
import KameraCore

/// Input preparation for image models on KameraNN's vector kernels: RGB8 pixels resampled
/// into an NHWC float tensor, and the box reduction that builds sampling pyramids.
public enum ImageTensorFill {
    /// An affine map from tensor pixel (tx, ty) to source position
    /// (x0 + tx·dxx + ty·dyx, y0 + tx·dxy + ty·dyy), pixel centres at integers.
    public struct AffineMap: Sendable {
        public var x0: Double, y0: Double
        public var dxx: Double, dxy: Double, dyx: Double, dyy: Double

        public init(x0: Double, y0: Double, dxx: Double, dxy: Double, dyx: Double, dyy: Double) {
            (self.x0, self.y0, self.dxx, self.dxy, self.dyx, self.dyy) = (x0, y0, dxx, dxy, dyx, dyy)
        }
    }

    /// What taps outside the image read (OpenCV's and MediaPipe's border modes).
    public enum Border: Sendable {
        /// Zero (black before the value map): MediaPipe's letterboxed detector inputs.
        case zero
        /// The nearest edge pixel: MediaPipe's landmark crops, the default of its
        /// `ImageToTensorCalculator`.
        case replicate
    }

    /// Fills `tensor` (`width` × `height` × 3) by bilinear sampling of a packed RGB8 `image`
    /// along `map`; taps outside the image read as `border` says; values become v·scale + offset.
    public static func sample(
        _ image: PixelBuffer, along map: AffineMap, into tensor: UnsafeMutableBufferPointer<Float>,
        width: Int, height: Int, scale: Float, offset: Float, border: Border = .zero
    ) {
        precondition(image.format == .rgb8 && tensor.count >= width * height * 3)
        image.bytes.withUnsafeBufferPointer { pixels in
            knn_sample_rgb8(
                pixels.baseAddress!, Int32(image.width), Int32(image.height), Int32(image.bytesPerRow),
                tensor.baseAddress!, Int32(width), Int32(height), Float(map.x0), Float(map.y0),
                Float(map.dxx), Float(map.dxy), Float(map.dyx), Float(map.dyy), scale, offset, border == .replicate ? 1 : 0)
        }
    }

    /// Fills `tensor` as OpenCV's 8-bit bilinear warp followed by a float conversion does
    /// (MediaPipe's CPU path into its models): each source position along `map` rounded to 1/32
    /// of a pixel, the taps weighed in 15-bit fixed point, the result rounded to a whole 8-bit
    /// value, then v·scale + offset. Taps outside the image read as `border` says.
    public static func warpAsOpenCV(
        _ image: PixelBuffer, along map: AffineMap, into tensor: UnsafeMutableBufferPointer<Float>,
        width: Int, height: Int, scale: Float, offset: Float, border: Border = .zero
    ) {
        precondition(image.format == .rgb8 && tensor.count >= width * height * 3)
        image.bytes.withUnsafeBufferPointer { pixels in
            knn_warp_rgb8_fixed(
                pixels.baseAddress!, Int32(image.width), Int32(image.height), Int32(image.bytesPerRow),
                tensor.baseAddress!, Int32(width), Int32(height), map.x0, map.y0, map.dxx, map.dxy, map.dyx, map.dyy,
                scale, offset, border == .replicate ? 1 : 0)
        }
    }

    /// The luma (BT.601, as `PixelBuffer.converted(to: .gray8)`) of an RGB8 image, in a
    /// vectorized C loop: code readers take every live frame this way.
    public static func luma(_ source: PixelBuffer) -> PixelBuffer {
        applying(knn_luma_rgb8, to: source, into: PixelBuffer(width: source.width, height: source.height, format: .gray8))
    }

    /// The largest factor `reduced(_:by:)` takes.
    public static let largestReduction = Int(KNN_REDUCE_MAX_FACTOR)

    /// An RGB8 image `factor` times smaller (a power of two up to `largestReduction`): each pixel the rounded
    /// mean of a factor × factor block (leftover rows and columns are dropped).
    public static func reduced(_ source: PixelBuffer, by factor: Int) -> PixelBuffer {
        precondition(
            source.format == .rgb8 && (1...Int(KNN_REDUCE_MAX_FACTOR)).contains(factor) && factor & (factor - 1) == 0)
        let width = source.width / factor, height = source.height / factor
        // Smaller than one block: nothing to average (as before, one black pixel).
        guard width > 0, height > 0 else { return PixelBuffer(width: 1, height: 1, format: .rgb8) }
        // The kernel writes every byte, so the level is not zero-filled first (as much memory
        // traffic again as the level itself).
        var status: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, initialized in
            status = source.bytes.withUnsafeBufferPointer { src in
                knn_reduce_rgb8(
                    src.baseAddress!, Int32(source.width), Int32(source.height), Int32(source.bytesPerRow), Int32(factor),
                    out.baseAddress!, Int32(width * 3))
            }
            initialized = status == 0 ? out.count : 0
        }
        // The only failure left after the checks above is a row of sums the allocator refused.
        precondition(status == 0, "out of memory reducing a \(source.width)×\(source.height) image")
        guard let out = try? PixelBuffer(width: width, height: height, format: .rgb8, bytes: bytes) else {
            preconditionFailure("a packed \(width)×\(height) RGB buffer")
        }
        return out
    }

    /// Runs a C kernel that reads an RGB8 image (pixels, width, height, row bytes) and writes
    /// `out` (pixels, row bytes).
    private static func applying(
        _ kernel: (UnsafePointer<UInt8>, Int32, Int32, Int32, UnsafeMutablePointer<UInt8>, Int32) -> Void,
        to source: PixelBuffer, into out: PixelBuffer
    ) -> PixelBuffer {
        precondition(source.format == .rgb8)
        var out = out
        let stride = out.bytesPerRow
        source.bytes.withUnsafeBufferPointer { src in
            out.bytes.withUnsafeMutableBufferPointer { dst in
                kernel(
                    src.baseAddress!, Int32(source.width), Int32(source.height), Int32(source.bytesPerRow),
                    dst.baseAddress!, Int32(stride))
            }
        }
        return out
    }
}
