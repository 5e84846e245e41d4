import Foundation
import KameraCore

extension PersonSegmentationObservation {
    /// `frame` with its background replaced by `effect`, the people kept: each pixel mixes the
    /// frame and the background by the mask (stretched bilinearly over the frame, its soft
    /// edge narrowed so the background does not show through the person's outline).
    ///
    /// A blur is computed on the frame shrunk by about a quarter of the radius and blurred
    /// there, then stretched back while mixing: the same look as a full-size Gaussian for a
    /// fraction of the work (a 640×480 frame in a few milliseconds).
    /// - Throws: `KameraError.invalidArgument` for an effect out of range.
    public func applying(_ effect: BackgroundEffect, to frame: PixelBuffer) throws -> PixelBuffer {
        try effect.validate()
        let rgb = frame.format == .rgb8 ? frame.packed() : frame.converted(to: .rgb8)
        let background: PixelBuffer
        switch effect {
        case .blur(let radius):
            let factor = max(1, min(Int(radius / 4), min(rgb.width, rgb.height) / 4))
            background = Self.boxBlurred(Self.shrunk(rgb, by: factor), radius: max(1, Int((radius / Double(factor) / 2).rounded())))
        case .color(let red, let green, let blue):
            background = PixelBuffer(width: 1, height: 1, format: .rgb8, filledWith: [red, green, blue])
        case .image(let picture):
            background = Self.covering(
                picture.format == .rgb8 ? picture.packed() : picture.converted(to: .rgb8), width: rgb.width, height: rgb.height)
        }
        return Self.mixed(rgb, background, mask: values, maskWidth: width, maskHeight: height)
    }

    /// Each output pixel: the background (stretched bilinearly over the frame) + (frame −
    /// background) × the person mask (stretched bilinearly, edge narrowed).
    private static func mixed(_ frame: PixelBuffer, _ background: PixelBuffer, mask: [Float], maskWidth: Int, maskHeight: Int)
        -> PixelBuffer
    {
        let (width, height) = (frame.width, frame.height)
        let maskColumns = FloatMask.taps(width, maskWidth), maskRows = FloatMask.taps(height, maskHeight)
        let backColumns = FloatMask.taps(width, background.width), backRows = FloatMask.taps(height, background.height)
        var out = PixelBuffer(width: width, height: height, format: .rgb8)
        let backRow = background.bytesPerRow
        frame.bytes.withUnsafeBufferPointer { source in
            background.bytes.withUnsafeBufferPointer { back in
                mask.withUnsafeBufferPointer { mask in
                    out.bytes.withUnsafeMutableBufferPointer { target in
                        for y in 0..<height {
                            let (m0, m1, my) = maskRows[y], (b0, b1, by) = backRows[y]
                            for x in 0..<width {
                                let (c0, c1, mx) = maskColumns[x]
                                let top = mask[m0 * maskWidth + c0] + (mask[m0 * maskWidth + c1] - mask[m0 * maskWidth + c0]) * mx
                                let bottom = mask[m1 * maskWidth + c0] + (mask[m1 * maskWidth + c1] - mask[m1 * maskWidth + c0]) * mx
                                var alpha = top + (bottom - top) * my
                                // Narrow the soft edge: ¼…¾ becomes 0…1 (smoothstep), NaN background.
                                alpha = alpha.isNaN ? 0 : min(max((alpha - 0.25) * 2, 0), 1)
                                alpha = alpha * alpha * (3 - 2 * alpha)
                                let (d0, d1, bx) = backColumns[x]
                                let p = (y * width + x) * 3
                                for channel in 0..<3 {
                                    let upper =
                                        Float(back[b0 * backRow + d0 * 3 + channel])
                                        + (Float(back[b0 * backRow + d1 * 3 + channel]) - Float(back[b0 * backRow + d0 * 3 + channel])) * bx
                                    let lower =
                                        Float(back[b1 * backRow + d0 * 3 + channel])
                                        + (Float(back[b1 * backRow + d1 * 3 + channel]) - Float(back[b1 * backRow + d0 * 3 + channel])) * bx
                                    let behind = upper + (lower - upper) * by
                                    let value = behind + (Float(source[p + channel]) - behind) * alpha
                                    target[p + channel] = UInt8(min(max(value + 0.5, 0), 255))
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// `image` shrunk by `factor` on each side, each output pixel the mean of its block.
    private static func shrunk(_ image: PixelBuffer, by factor: Int) -> PixelBuffer {
        guard factor > 1 else { return image }
        let (width, height) = (max(1, image.width / factor), max(1, image.height / factor))
        var out = PixelBuffer(width: width, height: height, format: .rgb8)
        var sums = [Int](repeating: 0, count: width * 3)
        let count = factor * factor
        image.bytes.withUnsafeBufferPointer { source in
            for y in 0..<height {
                for i in sums.indices { sums[i] = 0 }
                for row in (y * factor)..<(y * factor + factor) {
                    let base = row * image.bytesPerRow
                    for x in 0..<width {
                        for dx in 0..<factor {
                            let p = base + (x * factor + dx) * 3
                            sums[x * 3] += Int(source[p])
                            sums[x * 3 + 1] += Int(source[p + 1])
                            sums[x * 3 + 2] += Int(source[p + 2])
                        }
                    }
                }
                for i in sums.indices { out.bytes[y * out.bytesPerRow + i] = UInt8(sums[i] / count) }
            }
        }
        return out
    }

    /// `image` (packed RGB) through three box blurs of `radius` each way (close to a
    /// Gaussian), edges clamped.
    private static func boxBlurred(_ image: PixelBuffer, radius: Int) -> PixelBuffer {
        let (width, height) = (image.width, image.height)
        var plane = image.bytes.map(Float.init)
        var scratch = plane
        func pass(_ length: Int, _ lines: Int, _ step: Int, _ lineStep: Int) {
            let window = Float(2 * radius + 1)
            plane.withUnsafeBufferPointer { input in
                scratch.withUnsafeMutableBufferPointer { output in
                    for line in 0..<lines {
                        for channel in 0..<3 {
                            let base = line * lineStep + channel
                            func at(_ i: Int) -> Float { input[base + min(max(i, 0), length - 1) * step] }
                            var sum: Float = 0
                            for i in -radius...radius { sum += at(i) }
                            for i in 0..<length {
                                output[base + i * step] = sum / window
                                sum += at(i + radius + 1) - at(i - radius)
                            }
                        }
                    }
                }
            }
            swap(&plane, &scratch)
        }
        for _ in 0..<3 {
            pass(width, height, 3, width * 3)
            pass(height, width, width * 3, 3)
        }
        var out = PixelBuffer(width: width, height: height, format: .rgb8)
        for i in plane.indices { out.bytes[i] = UInt8(min(max(plane[i] + 0.5, 0), 255)) }
        return out
    }

    /// `picture` scaled to cover `width` × `height`, centred, the overflow cut off.
    private static func covering(_ picture: PixelBuffer, width: Int, height: Int) -> PixelBuffer {
        if picture.width == width, picture.height == height { return picture }
        let scale = max(Double(width) / Double(picture.width), Double(height) / Double(picture.height))
        let (scaledWidth, scaledHeight) = (
            max(width, Int((Double(picture.width) * scale).rounded())), max(height, Int((Double(picture.height) * scale).rounded()))
        )
        let scaled = picture.resized(width: scaledWidth, height: scaledHeight)
        return scaled.cropped(
            to: PixelRect(
                x: Double((scaledWidth - width) / 2), y: Double((scaledHeight - height) / 2), width: Double(width), height: Double(height)))
    }
}
