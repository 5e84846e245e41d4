import Foundation
import KameraCore
import KameraNN
import Synchronization

/// Fills a model's NHWC float input from an RGB image region, as MediaPipe's ImageToTensor
/// does: the (rotated) region is resampled bilinearly to the tensor size, pixels outside
/// the image are zero, values map linearly from 0…255 to `range`. When the region is much
/// larger than the tensor, sampling reads from a 2×2 box-filtered pyramid level instead, so
/// big photos neither alias (MediaPipe samples them directly) nor cost a full-size pass.
/// One sampler serves one image; scan blocks and face crops may sample from several threads at once.
final class TensorSampler: Sendable {
    let image: PixelBuffer  // rgb8, packed
    /// Pyramid levels 1, 2, … by level (level 0 is `image`), made on first use.
    private let levels = Mutex<[Int: PixelBuffer]>([:])

    init(rgb image: PixelBuffer) {
        precondition(image.format == .rgb8)
        self.image = image.bytesPerRow == image.width * 3 ? image : image.packed()
    }

    /// Where a tensor's pixels sit in the region sampled.
    enum Grid: Sendable {
        /// Tensor pixel i's centre at (i + ½)/n across the region: an exact resampling.
        case pixelCentres
        /// Tensor pixel i at i/n across the region, as MediaPipe's OpenCV converter maps the
        /// region's corners onto the tensor's: the inputs its body, hand and segmentation
        /// models were trained on, so their outputs land where MediaPipe's do (half a tensor
        /// pixel away otherwise: a pixel or two on a body).
        case corners
    }

    /// Samples `rect` into `tensor` (width × height × 3). `mirrored` flips it left-right;
    /// `border` says what taps outside the image read.
    func sample(
        _ rect: RotatedRect, into tensor: UnsafeMutableBufferPointer<Float>, width: Int, height: Int,
        range: ClosedRange<Float>, mirrored: Bool = false, grid: Grid = .pixelCentres,
        border: ImageTensorFill.Border = .zero
    ) {
        // Source pixels per tensor pixel; each pyramid level halves it. MediaPipe's grid reads
        // the image itself up to twice as far (its models' inputs alias as MediaPipe's do:
        // from a pyramid level, BlazePose's detector put a body's region a few pixels off
        // MediaPipe's on photos 500–600 px wide, and 6 % fewer of its joints agreed).
        let farthest: Double = grid == .pixelCentres ? 2 : 4
        let step = max(rect.width / Double(width), rect.height / Double(height))
        var level = 0
        while step / Double(1 << level) > farthest, min(image.width, image.height) >> (level + 1) >= 8 { level += 1 }
        let source = pyramidLevel(level)
        let factor = Double(1 << level)
        // Tensor pixel (tx, ty) at (tx + first, ty + first) of the grid → source pixel coordinates
        // (centres at integers).
        let c = cos(rect.angle), s = sin(rect.angle)
        let ux = rect.width / Double(width), vy = rect.height / Double(height)
        let cx = (rect.center.x + 0.5) / factor - 0.5, cy = (rect.center.y + 0.5) / factor - 0.5
        let scale = (range.upperBound - range.lowerBound) / 255, offset = range.lowerBound
        // Affine map from tensor pixel (tx, ty) to source position; see ImageTensorFill.AffineMap.
        let first = grid == .pixelCentres ? 0.5 : 0
        let firstX = mirrored ? Double(width) - first : first
        let u0 = (firstX - Double(width) / 2) * ux, v0 = (first - Double(height) / 2) * vy
        let x0 = cx + (u0 * c - v0 * s) / factor, y0 = cy + (u0 * s + v0 * c) / factor
        let direction = mirrored ? -1.0 : 1.0
        let map = ImageTensorFill.AffineMap(
            x0: x0, y0: y0, dxx: c * ux / factor * direction, dxy: s * ux / factor * direction,
            dyx: -vy * s / factor, dyy: vy * c / factor)
        ImageTensorFill.sample(
            source, along: map, into: tensor, width: width, height: height, scale: scale, offset: offset, border: border)
    }

    /// Level `level` (source pixels shrunk by 2^level), made straight from the image rather than
    /// from the level before: the box kernel's cost is
    /// in writing its output, so a whole-image look at level 3 takes a fifth of the time of
    /// building levels 1, 2 and 3 in turn (0.13 against 0.64 ms for 1280×960, AVX-512), and a
    /// level is the same whichever look asked for which level first.
    private func pyramidLevel(_ level: Int) -> PixelBuffer {
        guard level > 0 else { return image }
        return levels.withLock { levels in
            // Levels up to the kernel's largest factor come from the image; further ones from
            // the nearest multiple of it below (a fixed chain, whatever was made before).
            let largest = ImageTensorFill.largestReduction.trailingZeroBitCount
            func make(_ level: Int) -> PixelBuffer {
                if let made = levels[level] { return made }
                let base = (level - 1) / largest * largest
                let made = ImageTensorFill.reduced(base == 0 ? image : make(base), by: 1 << (level - base))
                levels[level] = made
                return made
            }
            return make(level)
        }
    }
}
