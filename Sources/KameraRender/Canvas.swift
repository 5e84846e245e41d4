import Foundation
import KameraCore

/// Anti-aliased drawing onto a pixel buffer: filled and stroked polygons, polylines,
/// rectangles, ellipses and text. Shapes partly outside the buffer are clipped.
public struct Canvas: Sendable {
    /// The pixels drawn so far.
    public internal(set) var buffer: PixelBuffer

    /// A canvas over `buffer`; gray images are converted to RGB so colours show.
    public init(_ buffer: PixelBuffer) {
        self.buffer = buffer.format == .gray8 ? buffer.converted(to: .rgb8) : buffer
    }

    /// Fills the union of `paths` with `color`.
    public mutating func fill(_ paths: [[PixelPoint]], color: Color) {
        let format = buffer.format
        let offsets = format.rgbOffsets
        let alphaOffset = format.alphaOffset
        let opacity = Double(color.alpha) / 255
        let bpp = format.bytesPerPixel
        let stride = buffer.bytesPerRow
        let src = (Double(color.red), Double(color.green), Double(color.blue))
        let (w, h) = (buffer.width, buffer.height)
        buffer.bytes.withUnsafeMutableBufferPointer { p in
            CoverageRasterizer.rasterize(paths, width: w, height: h) { x, y, coverage in
                let a = coverage * opacity
                let base = y * stride + x * bpp
                p[base + offsets.r] = UInt8((Double(p[base + offsets.r]) * (1 - a) + src.0 * a).rounded())
                p[base + offsets.g] = UInt8((Double(p[base + offsets.g]) * (1 - a) + src.1 * a).rounded())
                p[base + offsets.b] = UInt8((Double(p[base + offsets.b]) * (1 - a) + src.2 * a).rounded())
                if let alphaOffset {
                    p[base + alphaOffset] = UInt8(min(255, Double(p[base + alphaOffset]) + (255 - Double(p[base + alphaOffset])) * a))
                }
            }
        }
    }

    /// Fills one polygon.
    public mutating func fill(polygon: [PixelPoint], color: Color) {
        fill([polygon], color: color)
    }

    /// Strokes a polyline `lineWidth` pixels wide with round joins and caps.
    public mutating func stroke(_ points: [PixelPoint], closed: Bool, lineWidth: Double, color: Color) {
        fill(StrokeOutline.paths(for: points, closed: closed, width: lineWidth), color: color)
    }

    /// Strokes an axis-aligned rectangle.
    public mutating func stroke(rect: PixelRect, lineWidth: Double, color: Color) {
        stroke(Quad(rect).corners, closed: true, lineWidth: lineWidth, color: color)
    }

    /// Fills an axis-aligned rectangle.
    public mutating func fill(rect: PixelRect, color: Color) {
        fill(polygon: Quad(rect).corners, color: color)
    }

    /// Strokes the ellipse inscribed in `rect`.
    public mutating func stroke(ellipseIn rect: PixelRect, lineWidth: Double, color: Color) {
        stroke(Self.ellipse(in: rect), closed: true, lineWidth: lineWidth, color: color)
    }

    /// Fills the ellipse inscribed in `rect`.
    public mutating func fill(ellipseIn rect: PixelRect, color: Color) {
        fill(polygon: Self.ellipse(in: rect), color: color)
    }

    /// Draws `text` with its top-left corner at `origin`, `size` pixels high.
    public mutating func draw(text: String, at origin: PixelPoint, size: Double, color: Color, font: FontFace) {
        let glyphs = font.render(text, pixelSize: size)
        let format = buffer.format
        let offsets = format.rgbOffsets
        let bpp = format.bytesPerPixel
        let opacity = Double(color.alpha) / 255
        let x0 = Int(origin.x.rounded()), y0 = Int(origin.y.rounded())
        let channels = [(offsets.r, color.red), (offsets.g, color.green), (offsets.b, color.blue)]
        for y in 0..<glyphs.height {
            let by = y0 + y
            guard by >= 0, by < buffer.height else { continue }
            for x in 0..<glyphs.width {
                let bx = x0 + x
                guard bx >= 0, bx < buffer.width else { continue }
                let a = Double(glyphs.coverage[y * glyphs.width + x]) / 255 * opacity
                guard a > 0 else { continue }
                let base = by * buffer.bytesPerRow + bx * bpp
                for (offset, value) in channels {
                    buffer.bytes[base + offset] = UInt8((Double(buffer.bytes[base + offset]) * (1 - a) + Double(value) * a).rounded())
                }
            }
        }
    }

    static func ellipse(in rect: PixelRect, segments: Int = 72) -> [PixelPoint] {
        let c = rect.center
        return (0..<segments).map { i in
            let t = Double(i) / Double(segments) * 2 * .pi
            return PixelPoint(x: c.x + cos(t) * rect.width / 2, y: c.y + sin(t) * rect.height / 2)
        }
    }
}
