import Foundation
import KameraCore
import Synchronization

/// Fills a model's NHWC float input from an RGB image region, as MediaPipe's ImageToTensor
/// does: the (rotated) region is resampled bilinearly to the tensor size, pixels outside
/// the image are zero, values map linearly from 0…255 to `range`. When the region is much
/// larger than the tensor the image is first reduced by area averaging, so big photos do not
/// alias (MediaPipe samples them directly).
/// One sampler serves one request on one image (it caches the reduced copies it makes);
/// tiles may sample from several threads at once.
final class TensorSampler: Sendable {
    let image: PixelBuffer  // rgb8
    private let reductions = Mutex<[Int: PixelBuffer]>([:])

    init(rgb image: PixelBuffer) {
        precondition(image.format == .rgb8)
        self.image = image
    }

    /// Samples `rect` into `tensor` (width × height × 3). `mirrored` flips it left-right.
    func sample(_ rect: RotatedRect, into tensor: UnsafeMutableBufferPointer<Float>, width: Int, height: Int,
                range: ClosedRange<Float>, mirrored: Bool = false) {
        // Pixels of source per tensor pixel; above 2 the region is pre-reduced.
        let step = max(rect.width / Double(width), rect.height / Double(height))
        var source = image
        var rect = rect
        if step > 2 {
            let factor = Int(step / 1.5)
            source = reductions.withLock { cache in
                if let cached = cache[factor] { return cached }
                let made = reduced(by: factor)
                cache[factor] = made
                return made
            }
            rect.center = PixelPoint(x: (rect.center.x + 0.5) / Double(factor) - 0.5, y: (rect.center.y + 0.5) / Double(factor) - 0.5)
            rect.width /= Double(factor)
            rect.height /= Double(factor)
        }
        let scale = (range.upperBound - range.lowerBound) / 255
        let offset = range.lowerBound
        let c = cos(rect.angle), s = sin(rect.angle)
        let sw = source.width, sh = source.height, stride = source.bytesPerRow
        source.bytes.withUnsafeBufferPointer { pixels in
            for ty in 0..<height {
                let dy = ((Double(ty) + 0.5) / Double(height) - 0.5) * rect.height
                for tx in 0..<width {
                    let u = mirrored ? Double(width - 1 - tx) : Double(tx)
                    let dx = ((u + 0.5) / Double(width) - 0.5) * rect.width
                    // Pixel centres sit at integer coordinates.
                    let x = rect.center.x + dx * c - dy * s
                    let y = rect.center.y + dx * s + dy * c
                    let out = (ty * width + tx) * 3
                    let x0 = Int(floor(x)), y0 = Int(floor(y))
                    let fx = Float(x - Double(x0)), fy = Float(y - Double(y0))
                    var rgb: (Float, Float, Float) = (0, 0, 0)
                    if x0 >= 0, y0 >= 0, x0 + 1 < sw, y0 + 1 < sh {
                        let p = y0 * stride + x0 * 3, q = p + stride
                        let w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy
                        rgb.0 = Float(pixels[p]) * w00 + Float(pixels[p + 3]) * w01 + Float(pixels[q]) * w10 + Float(pixels[q + 3]) * w11
                        rgb.1 = Float(pixels[p + 1]) * w00 + Float(pixels[p + 4]) * w01 + Float(pixels[q + 1]) * w10 + Float(pixels[q + 4]) * w11
                        rgb.2 = Float(pixels[p + 2]) * w00 + Float(pixels[p + 5]) * w01 + Float(pixels[q + 2]) * w10 + Float(pixels[q + 5]) * w11
                    } else {
                        // At the border: taps outside the image contribute nothing.
                        for dy in 0...1 {
                            let yy = y0 + dy, wy = dy == 0 ? 1 - fy : fy
                            guard yy >= 0, yy < sh else { continue }
                            for dx in 0...1 {
                                let xx = x0 + dx, w = (dx == 0 ? 1 - fx : fx) * wy
                                guard xx >= 0, xx < sw else { continue }
                                let p = yy * stride + xx * 3
                                rgb.0 += Float(pixels[p]) * w
                                rgb.1 += Float(pixels[p + 1]) * w
                                rgb.2 += Float(pixels[p + 2]) * w
                            }
                        }
                    }
                    // Outside the image the weights are missing: zero input, like BORDER_ZERO.
                    tensor[out] = rgb.0 * scale + offset
                    tensor[out + 1] = rgb.1 * scale + offset
                    tensor[out + 2] = rgb.2 * scale + offset
                }
            }
        }
    }

    /// The image shrunk by an integer factor, each pixel the mean of its factor² block.
    private func reduced(by factor: Int) -> PixelBuffer {
        let w = max(1, image.width / factor), h = max(1, image.height / factor)
        var out = PixelBuffer(width: w, height: h, format: .rgb8)
        let area = UInt32(factor * factor)
        image.bytes.withUnsafeBufferPointer { src in
            out.bytes.withUnsafeMutableBufferPointer { dst in
                var sums = [UInt32](repeating: 0, count: w * 3)
                for y in 0..<h {
                    for i in sums.indices { sums[i] = 0 }
                    for yy in (y * factor)..<(y * factor + factor) {
                        let row = yy * image.bytesPerRow
                        for x in 0..<w {
                            var p = row + x * factor * 3
                            for _ in 0..<factor {
                                sums[x * 3] += UInt32(src[p]); sums[x * 3 + 1] += UInt32(src[p + 1]); sums[x * 3 + 2] += UInt32(src[p + 2])
                                p += 3
                            }
                        }
                    }
                    for i in 0..<(w * 3) { dst[y * out.bytesPerRow + i] = UInt8((sums[i] + area / 2) / area) }
                }
            }
        }
        return out
    }
}
