import Foundation
import KameraCore
import Synchronization

/// Fills a model's NHWC float input from an RGB image region, as MediaPipe's ImageToTensor
/// does: the (rotated) region is resampled bilinearly to the tensor size, pixels outside
/// the image are zero, values map linearly from 0…255 to `range`. When the region is much
/// larger than the tensor, sampling reads from a 2×2 box-filtered pyramid level instead, so
/// big photos neither alias (MediaPipe samples them directly) nor cost a full-size pass.
/// One sampler serves one image; tiles may sample from several threads at once.
final class TensorSampler: Sendable {
    let image: PixelBuffer  // rgb8, packed
    /// Pyramid levels 1, 2, … (level 0 is `image`), made on first use.
    private let levels = Mutex<[PixelBuffer]>([])

    init(rgb image: PixelBuffer) {
        precondition(image.format == .rgb8)
        self.image = image.bytesPerRow == image.width * 3 ? image : image.packed()
    }

    /// Samples `rect` into `tensor` (width × height × 3). `mirrored` flips it left-right.
    func sample(_ rect: RotatedRect, into tensor: UnsafeMutableBufferPointer<Float>, width: Int, height: Int,
                range: ClosedRange<Float>, mirrored: Bool = false) {
        // Source pixels per tensor pixel; each pyramid level halves it.
        let step = max(rect.width / Double(width), rect.height / Double(height))
        var level = 0
        while step / Double(1 << level) > 2, min(image.width, image.height) >> (level + 1) >= 8 { level += 1 }
        let source = pyramidLevel(level)
        let factor = Double(1 << level)
        // Tensor pixel centre (tx + 0.5, ty + 0.5) → source pixel coordinates (centres at integers).
        let c = cos(rect.angle), s = sin(rect.angle)
        let ux = rect.width / Double(width), vy = rect.height / Double(height)
        let cx = (rect.center.x + 0.5) / factor - 0.5, cy = (rect.center.y + 0.5) / factor - 0.5
        let stepX = Float(c * ux / factor) * (mirrored ? -1 : 1), stepY = Float(s * ux / factor) * (mirrored ? -1 : 1)
        let scale = (range.upperBound - range.lowerBound) / 255, offset = range.lowerBound
        let sw = source.width, sh = source.height, stride = source.bytesPerRow
        source.bytes.withUnsafeBufferPointer { buffer in
            let pixels = buffer.baseAddress!
            var out = tensor.baseAddress!
            for ty in 0..<height {
                let dy = ((Double(ty) + 0.5) - Double(height) / 2) * vy
                let firstX = mirrored ? Double(width) - 0.5 : 0.5
                let dx = (firstX - Double(width) / 2) * ux
                var x = Float(cx + (dx * c - dy * s) / factor)
                var y = Float(cy + (dx * s + dy * c) / factor)
                for _ in 0..<width {
                    let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
                    let fx = x - Float(x0), fy = y - Float(y0)
                    var r: Float = 0, g: Float = 0, b: Float = 0
                    if x0 >= 0, y0 >= 0, x0 + 1 < sw, y0 + 1 < sh {
                        let p = pixels + y0 * stride + x0 * 3, q = p + stride
                        let w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy
                        r = Float(p[0]) * w00 + Float(p[3]) * w01 + Float(q[0]) * w10 + Float(q[3]) * w11
                        g = Float(p[1]) * w00 + Float(p[4]) * w01 + Float(q[1]) * w10 + Float(q[4]) * w11
                        b = Float(p[2]) * w00 + Float(p[5]) * w01 + Float(q[2]) * w10 + Float(q[5]) * w11
                    } else if x0 >= -1, y0 >= -1, x0 < sw, y0 < sh {
                        // At the border: taps outside the image contribute nothing (BORDER_ZERO).
                        for (yy, wy) in [(y0, 1 - fy), (y0 + 1, fy)] where yy >= 0 && yy < sh {
                            for (xx, wx) in [(x0, 1 - fx), (x0 + 1, fx)] where xx >= 0 && xx < sw {
                                let p = pixels + yy * stride + xx * 3, w = wx * wy
                                r += Float(p[0]) * w; g += Float(p[1]) * w; b += Float(p[2]) * w
                            }
                        }
                    }
                    out[0] = r * scale + offset
                    out[1] = g * scale + offset
                    out[2] = b * scale + offset
                    out += 3
                    x += stepX
                    y += stepY
                }
            }
        }
    }

    private func pyramidLevel(_ level: Int) -> PixelBuffer {
        guard level > 0 else { return image }
        return levels.withLock { levels in
            while levels.count < level { levels.append(Self.halved(levels.last ?? image)) }
            return levels[level - 1]
        }
    }

    /// Each output pixel is the mean of a 2×2 block.
    private static func halved(_ source: PixelBuffer) -> PixelBuffer {
        let w = max(1, source.width / 2), h = max(1, source.height / 2)
        var out = PixelBuffer(width: w, height: h, format: .rgb8)
        let stride = source.bytesPerRow, outStride = out.bytesPerRow
        source.bytes.withUnsafeBufferPointer { src in
            out.bytes.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!, d = dst.baseAddress!
                for y in 0..<h {
                    let row0 = s + 2 * y * stride, row1 = row0 + (2 * y + 1 < source.height ? stride : 0)
                    let o = d + y * outStride
                    for x in 0..<w {
                        let i = 6 * x
                        for k in 0..<3 {
                            let sum = UInt16(row0[i + k]) + UInt16(row0[i + 3 + k]) + UInt16(row1[i + k]) + UInt16(row1[i + 3 + k])
                            o[3 * x + k] = UInt8((sum + 2) >> 2)
                        }
                    }
                }
            }
        }
        return out
    }
}
