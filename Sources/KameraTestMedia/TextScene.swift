import Foundation
import KameraCore
import KameraRender

/// Rendered text with known content, for text-recognition tests and benchmarks.
public struct TextScene: Sendable {
    /// What the text is drawn on.
    public enum Background: Sendable {
        case plain(Color)
        /// Mid-grey sensor noise around a colour.
        case noisy(Color, sigma: Double)
        /// A photo, lightened and flattened like a poster the text is printed on.
        case photo(PixelBuffer)
    }

    /// Fonts from Debian's font packages (fonts-dejavu-core, fonts-liberation, fonts-freefont-ttf).
    public static let fonts = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/freefont/FreeSerif.ttf",
    ]

    public var image: PixelBuffer
    /// The lines as drawn, top to bottom.
    public var lines: [String]

    /// Draws `lines` in `font` at `pixelSize` and `color` onto `background`, turns the page by
    /// `rotation` degrees clockwise and applies `damage`.
    public static func render(
        _ lines: [String], font: FontFace, pixelSize: Double, color: Color = .black,
        background: Background = .plain(.white), rotation: Double = 0,
        damage: Degradation = .none, seed: UInt64 = 1
    ) -> TextScene {
        let rendered = lines.map { font.render($0, pixelSize: pixelSize) }
        let margin = Int(pixelSize * 1.5)
        let lineHeight = Int(pixelSize * 1.5)
        let width = (rendered.map(\.width).max() ?? 1) + 2 * margin
        let height = lineHeight * lines.count + 2 * margin
        var page: PixelBuffer
        var random = SeededRandom(seed: seed)
        switch background {
        case .plain(let c):
            page = PixelBuffer(width: width, height: height, format: .rgb8, filledWith: [c.red, c.green, c.blue])
        case .noisy(let c, let sigma):
            page = PixelBuffer(width: width, height: height, format: .rgb8, filledWith: [c.red, c.green, c.blue])
            page = Degradation(noiseSigma: sigma).apply(to: page, random: &random)
        case .photo(let photo):
            let poster = SceneComposer(background: photo, width: width, height: height).canvas
            // Lighten and flatten so printed dark text stays legible, as on a real poster.
            page = Degradation(contrast: 0.45).apply(to: poster, random: &random)
            for i in page.bytes.indices { page.bytes[i] = UInt8(min(255, Int(page.bytes[i]) + 70)) }
        }
        var canvas = Canvas(page)
        for (index, line) in lines.enumerated() {
            canvas.draw(
                text: line, at: PixelPoint(x: Double(margin), y: Double(margin + index * lineHeight)),
                size: pixelSize, color: color, font: font)
        }
        var image = canvas.buffer
        if rotation != 0 {
            let background = image.pixel(x: 0, y: 0)
            image = image.rotated(byDegrees: rotation, fill: background.map(Int.init).reduce(0, +) / 3 > 127 ? 255 : 0).buffer
        }
        return TextScene(image: damage.apply(to: image, random: &random), lines: lines)
    }

    /// Sentences for rendered pages: ordinary English with digits and punctuation.
    public static let sampleLines = [
        "The quick brown fox jumps over the lazy dog.",
        "Kamera reads text in photos on Linux, 24 hours a day.",
        "Invoice 2041 due on 15 March: total 318.75 EUR",
        "Pack my box with five dozen liquor jugs!",
        "Camera calibration needs at least 12 views.",
        "Sphinx of black quartz, judge my vow.",
    ]

    /// Lines of a Chinese page (simplified; opening hours, an invoice, a notice).
    public static let chineseSampleLines = [
        "欢迎光临本店，营业时间为早上九点至晚上八点。",
        "发票编号2041，应付金额318元，请于三月十五日前付款。",
        "图书馆三楼阅览室今日关闭，请前往二楼。",
        "地铁站出口在北门，停车场在地下一层。",
        "相机标定至少需要十二张不同角度的照片。",
        "新鲜面包每天早上七点出炉。",
    ]
}
