import KameraCore
import Synchronization

/// One image under analysis, with derived buffers (grayscale) computed once and shared by
/// every request run on it.
public final class ImageAnalysisContext: Sendable {
    /// The image being analysed.
    public let image: Image
    private let grayCache = Mutex<PixelBuffer?>(nil)
    private let rgbCache = Mutex<PixelBuffer?>(nil)
    private let samplerCache = Mutex<TensorSampler?>(nil)

    public init(_ image: Image) {
        self.image = image
    }

    /// The image as 8-bit luminance, converted on first use.
    public var grayscale: PixelBuffer {
        grayCache.withLock { cached in
            if let cached { return cached }
            let gray = image.pixelBuffer.converted(to: .gray8)
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
}
