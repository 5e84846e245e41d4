import CFreeType
import Foundation
import KameraCore
import Synchronization

/// A TrueType font loaded with FreeType, rendering anti-aliased text for labels.
/// Thread-safe: FreeType faces are not, so rendering is serialized.
public final class FontFace: Sendable {
    /// Where the default font (Debian's fonts-dejavu-core) lives; `KAMERA_FONT` overrides.
    public static let defaultPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    private struct Handles: @unchecked Sendable {
        var library: FT_Library
        var face: FT_Face
    }
    private let handles: Mutex<Handles>

    /// Loads the font file at `path`.
    public init(path: String) throws {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw KameraError.missingResource(name: "FreeType", hint: "install libfreetype6")
        }
        var face: FT_Face?
        guard FT_New_Face(library, path, 0, &face) == 0, let face else {
            FT_Done_FreeType(library)
            throw KameraError.missingResource(
                name: "font \(path)", hint: "install fonts-dejavu-core (scripts/setup.sh does) or set KAMERA_FONT to a .ttf file")
        }
        handles = Mutex(Handles(library: library, face: face))
    }

    deinit {
        handles.withLock { h in
            FT_Done_Face(h.face)
            FT_Done_FreeType(h.library)
        }
    }

    /// The font named by `KAMERA_FONT`, else DejaVu Sans, loaded once per process.
    public static func standard() throws -> FontFace {
        try standardFont.get()
    }

    private static let standardFont: Result<FontFace, Error> = Result {
        try FontFace(path: ProcessInfo.processInfo.environment["KAMERA_FONT"] ?? defaultPath)
    }

    /// Rendered text: a coverage mask (0…255) `width` × `height`, one line, baseline inside.
    public struct Bitmap: Sendable {
        public var width: Int
        public var height: Int
        public var coverage: [UInt8]
    }

    /// Renders one line of `text` at `pixelSize` (the line height in pixels).
    public func render(_ text: String, pixelSize: Double) -> Bitmap {
        handles.withLock { h -> Bitmap in
            let size = UInt32(max(4, min(400, pixelSize.rounded())))
            FT_Set_Pixel_Sizes(h.face, 0, size)
            let metrics = h.face.pointee.size.pointee.metrics
            let ascender = Int(metrics.ascender >> 6), descender = Int(-metrics.descender >> 6)
            let height = max(1, ascender + descender)
            struct Placed { var x, y, w, h, pitch: Int; var pixels: [UInt8] }
            var placed: [Placed] = []
            var penX = 0
            for scalar in text.unicodeScalars {
                guard FT_Load_Char(h.face, FT_ULong(scalar.value), FT_Int32(FT_LOAD_RENDER)) == 0 else { continue }
                let glyph = h.face.pointee.glyph.pointee
                let bitmap = glyph.bitmap
                let rows = Int(bitmap.rows), cols = Int(bitmap.width), pitch = Int(bitmap.pitch)
                if rows > 0, cols > 0, let buffer = bitmap.buffer, pitch > 0 {
                    let pixels = Array(UnsafeBufferPointer(start: buffer, count: rows * pitch))
                    placed.append(
                        Placed(
                            x: penX + Int(glyph.bitmap_left), y: ascender - Int(glyph.bitmap_top),
                            w: cols, h: rows, pitch: pitch, pixels: pixels))
                }
                penX += Int(glyph.advance.x >> 6)
            }
            let width = max(1, max(penX, placed.map { $0.x + $0.w }.max() ?? 0))
            var coverage = [UInt8](repeating: 0, count: width * height)
            for g in placed {
                for row in 0..<g.h {
                    let y = g.y + row
                    guard y >= 0, y < height else { continue }
                    for col in 0..<g.w {
                        let x = g.x + col
                        guard x >= 0, x < width else { continue }
                        coverage[y * width + x] = max(coverage[y * width + x], g.pixels[row * g.pitch + col])
                    }
                }
            }
            return Bitmap(width: width, height: height, coverage: coverage)
        }
    }
}
