import Foundation
import KameraCore
import KameraNN
import Synchronization

/// Fills a model's NHWC float input from an RGB image region, as MediaPipe's ImageToTensor
/// does: the (rotated) region is resampled bilinearly to the tensor size, pixels outside
/// the image are zero, values map linearly from 0…255 to `range`. On the face models' grid,
/// when the region is much larger than the tensor, sampling reads from a 2×2 box-filtered
/// pyramid level instead, so big photos neither alias nor cost a full-size pass; on MediaPipe's
/// grid (the people models) it reads the image as MediaPipe does.
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
        /// MediaPipe's own inputs, sample for sample: tensor pixel i at i/n across the region,
        /// as its OpenCV converter maps the region's corners onto the tensor's, sampled from the
        /// image itself as OpenCV's 8-bit warp samples (positions to 1/32 of a pixel, taps in
        /// fixed point, whole grey levels). Its body, hand and segmentation models were trained
        /// on these inputs; their outputs land where MediaPipe's do (half a tensor pixel away
        /// otherwise: a pixel or two on a body), and the joints they are unsure of, which swing
        /// with any change of input, swing with MediaPipe's.
        case corners
    }

    /// Samples `rect` into `tensor` (width × height × 3). `mirrored` flips it left-right;
    /// `border` says what taps outside the image read.
    func sample(
        _ rect: RotatedRect, into tensor: UnsafeMutableBufferPointer<Float>, width: Int, height: Int,
        range: ClosedRange<Float>, mirrored: Bool = false, grid: Grid = .pixelCentres,
        border: ImageTensorFill.Border = .zero
    ) {
        let scale = (range.upperBound - range.lowerBound) / 255, offset = range.lowerBound
        if grid == .corners {
            // The image itself, however large the region, as MediaPipe reads it: read from a
            // pyramid level past 4 image pixels a tensor pixel, 41 of the 44 joints MediaPipe
            // sees on the held-out upright photos (`bus.jpg`, 810×1080, and `grace_hopper.jpg`)
            // lay within 5 % of the torso of its reading; read from the image, all 44.
            ImageTensorFill.warpAsOpenCV(
                image, along: Self.openCVMap(of: rect, width: width, height: height, mirrored: mirrored), into: tensor,
                width: width, height: height, scale: scale, offset: offset, border: border)
            return
        }
        // Source pixels per tensor pixel; each pyramid level halves it.
        let step = max(rect.width / Double(width), rect.height / Double(height))
        var level = 0
        while step / Double(1 << level) > 2, min(image.width, image.height) >> (level + 1) >= 8 { level += 1 }
        let source = pyramidLevel(level)
        let factor = Double(1 << level)
        // Tensor pixel (tx, ty) at (tx + ½, ty + ½) of the grid → source pixel coordinates
        // (centres at integers).
        let c = cos(rect.angle), s = sin(rect.angle)
        let ux = rect.width / Double(width), vy = rect.height / Double(height)
        let cx = (rect.center.x + 0.5) / factor - 0.5, cy = (rect.center.y + 0.5) / factor - 0.5
        // Affine map from tensor pixel (tx, ty) to source position; see ImageTensorFill.AffineMap.
        let firstX = mirrored ? Double(width) - 0.5 : 0.5
        let u0 = (firstX - Double(width) / 2) * ux, v0 = (0.5 - Double(height) / 2) * vy
        let x0 = cx + (u0 * c - v0 * s) / factor, y0 = cy + (u0 * s + v0 * c) / factor
        let direction = mirrored ? -1.0 : 1.0
        let map = ImageTensorFill.AffineMap(
            x0: x0, y0: y0, dxx: c * ux / factor * direction, dxy: s * ux / factor * direction,
            dyx: -vy * s / factor, dyy: vy * c / factor)
        ImageTensorFill.sample(
            source, along: map, into: tensor, width: width, height: height, scale: scale, offset: offset, border: border)
    }

    /// The map from tensor pixels to image pixels that MediaPipe's converter hands OpenCV: the
    /// region's corners as `cv::boxPoints` computes them in single precision (from its angle in
    /// degrees), the tensor's corners (0, 0), (n, 0), (0, m) onto them.
    static func openCVMap(of rect: RotatedRect, width: Int, height: Int, mirrored: Bool) -> ImageTensorFill.AffineMap {
        let center = (x: Float(rect.center.x), y: Float(rect.center.y)), size = (w: Float(rect.width), h: Float(rect.height))
        let degrees = Float(Double(Float(rect.angle) * 180) / Double.pi)
        let radians = Double(degrees) * Double.pi / 180
        let b = Float(cos(radians)) * 0.5, a = Float(sin(radians)) * 0.5
        // cv::RotatedRect::points: 0 bottom-left, 1 top-left, 2 top-right (for an upright box).
        let bottomLeft = (x: center.x - a * size.h - b * size.w, y: center.y + b * size.h - a * size.w)
        let topLeft = (x: center.x + a * size.h - b * size.w, y: center.y - b * size.h - a * size.w)
        let topRight = (x: 2 * center.x - bottomLeft.x, y: 2 * center.y - bottomLeft.y)
        // Mirrored, the tensor's left edge reads the region's right one.
        let origin = mirrored ? topRight : topLeft, alongX = mirrored ? topLeft : topRight
        let alongY = mirrored ? (x: 2 * center.x - topLeft.x, y: 2 * center.y - topLeft.y) : bottomLeft
        // OpenCV solves for the transform in double precision from the single-precision points.
        let (ox, oy) = (Double(origin.x), Double(origin.y)), n = Double(width), m = Double(height)
        return ImageTensorFill.AffineMap(
            x0: ox, y0: oy, dxx: (Double(alongX.x) - ox) / n, dxy: (Double(alongX.y) - oy) / n,
            dyx: (Double(alongY.x) - ox) / m, dyy: (Double(alongY.y) - oy) / m)
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
