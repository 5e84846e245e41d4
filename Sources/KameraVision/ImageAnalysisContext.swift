import KameraCore
import KameraNN
import Synchronization

/// One image under analysis, with derived buffers (grayscale) computed once and shared by
/// every request run on it.
public final class ImageAnalysisContext: Sendable {
    /// The image being analysed.
    public let image: Image
    private let grayCache = Mutex<PixelBuffer?>(nil)
    private let rgbCache = Mutex<PixelBuffer?>(nil)
    private let samplerCache = Mutex<TensorSampler?>(nil)
    /// Contexts of regions already asked for: requests with the same region on one handler
    /// share its crop and derived buffers as whole-image requests share the image's.
    private let regionCache = Mutex<[NormalizedRect: ImageAnalysisContext]>([:])

    public init(_ image: Image) {
        self.image = image
    }

    /// The image as 8-bit luminance, converted on first use.
    public var grayscale: PixelBuffer {
        grayCache.withLock { cached in
            if let cached { return cached }
            let source = image.pixelBuffer
            let gray = source.format == .rgb8 ? ImageTensorFill.luma(source) : source.converted(to: .gray8)
            cached = gray
            return gray
        }
    }

    /// The image as packed 8-bit RGB (what the face models read), converted on first use.
    public var rgb: PixelBuffer {
        rgbCache.withLock { cached in
            if let cached { return cached }
            let rgb = image.pixelBuffer.format == .rgb8 ? image.pixelBuffer.packed() : image.pixelBuffer.converted(to: .rgb8)
            cached = rgb
            return rgb
        }
    }

    /// The model-input sampler for this image, shared so face detection and landmarks build
    /// the image pyramid once.
    var tensorSampler: TensorSampler {
        let rgb = self.rgb
        return samplerCache.withLock { cached in
            if let cached { return cached }
            let sampler = TensorSampler(rgb: rgb)
            cached = sampler
            return sampler
        }
    }

    /// The context of `region` of this image: itself for the whole image, else a context of
    /// the cropped pixels (whole pixels covering the region). Requests call this first, so
    /// their results are relative to their `regionOfInterest`.
    public func region(_ region: NormalizedRect) throws -> ImageAnalysisContext {
        if region == .fullImage { return self }
        guard region.isValidRegionOfInterest else {
            throw KameraError.invalidArgument(
                "regionOfInterest \(region) must lie inside the image (0…1 on both axes) with a positive width and height")
        }
        let size = image.size
        let exact = region.toImageCoordinates(size)
        let x0 = max(0, Int(exact.x.rounded(.down))), y0 = max(0, Int(exact.y.rounded(.down)))
        let x1 = min(Int(size.width), Int(exact.maxX.rounded(.up))), y1 = min(Int(size.height), Int(exact.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else {
            throw KameraError.invalidArgument(
                "regionOfInterest \(region) covers no whole pixel of a \(Int(size.width))×\(Int(size.height)) image")
        }
        let crop = PixelRect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
        return regionCache.withLock { cache in
            if let cached = cache[region] { return cached }
            let context = ImageAnalysisContext(Image(pixelBuffer: image.pixelBuffer.cropped(to: crop)))
            cache[region] = context
            return context
        }
    }
}
