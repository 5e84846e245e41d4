import Foundation
import KameraCore
import KameraRender

/// A photo of people or a room with a sign in it: a coloured panel with two or three short
/// lines of text (34–48 px letters in the scene, a font from Debian's DejaVu or Liberation
/// families, or Chinese in WenQuanYi Micro Hei) pasted in perspective, turned up to 20°, then lightly blurred and noisy — text in
/// the world with known words, for the scene-text benchmark.
public struct SignScene: Sendable {
    /// The scene (rgb8).
    public var image: PixelBuffer
    /// The sign's lines, top to bottom.
    public var lines: [String]
    public var background: String

    /// Photos without text of their own (a label or page in the background would be text
    /// the truth does not list: `messi5.jpg`'s shirt says "unicef").
    public static let backgrounds = ["basketball1.png", "basketball2.png", "building.jpg", "fruits.jpg", "home.jpg", "apple.jpg"]

    static let words = [
        "OPEN", "CLOSED", "EXIT", "Pharmacy", "Bakery", "Platform", "Parking", "Tickets", "Coffee", "Station", "Library", "Museum",
        "Entrance", "Garden", "Hotel", "Market", "Floor", "Gate", "Room", "Office", "North", "South", "Welcome", "Sale", "Today",
        "Daily", "Fresh", "Bread", "Open", "Hours", "Monday", "Friday", "Lift", "Stairs", "Toilets", "Information",
    ]

    /// Chinese sign words (stations, shops, opening hours), for the Chinese set.
    static let chineseWords = [
        "出口", "入口", "药店", "面包店", "站台", "停车场", "售票处", "咖啡", "车站", "图书馆", "博物馆", "花园", "酒店", "市场", "楼层",
        "大门", "房间", "办公室", "北门", "南门", "欢迎光临", "特价", "今日", "新鲜", "营业中", "营业时间", "星期一", "星期五", "电梯",
        "楼梯", "洗手间", "问讯处",
    ]

    /// The signs' language.
    public enum Language: String, Sendable, CaseIterable {
        /// English words in DejaVu, Liberation or FreeFont.
        case english
        /// Simplified Chinese in WenQuanYi Micro Hei (Debian's fonts-wqy-microhei); words run
        /// together without spaces, as Chinese is written.
        case chinese
    }

    /// The font of Chinese signs.
    public static let chineseFont = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"

    /// Scene `seed` over one of `backgrounds` (chosen by the seed), `width` × `height`.
    public static func make(seed: UInt64, width: Int = 960, height: Int = 720, language: Language = .english) throws -> SignScene {
        var random = SeededRandom(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
        func pick<T>(_ list: [T]) -> T { list[Int.random(in: 0..<list.count, using: &random)] }
        let available = backgrounds.filter { (try? SampleMedia.url($0)) != nil }
        guard !available.isEmpty else { throw KameraError.missingResource(name: "sample photos", hint: "run scripts/setup.sh") }
        let background = pick(available)
        let photo = try SampleMedia.photo(background).pixelBuffer
        var canvas = SceneComposer(background: photo, width: width, height: height).canvas
        // The lines: one or two words, or a word and a number.
        let (list, gap) = language == .english ? (words, " ") : (chineseWords, "")
        let lines = (0..<Int.random(in: 2...3, using: &random)).map { _ -> String in
            switch Int.random(in: 0..<3, using: &random) {
            case 0: pick(list)
            case 1: "\(pick(list))\(gap)\(pick(list))"
            default: "\(pick(list))\(gap)\(Int.random(in: 1...250, using: &random))"
            }
        }
        let font: FontFace
        switch language {
        case .english: font = try FontFace(path: pick(TextScene.fonts.filter { FileManager.default.fileExists(atPath: $0) }))
        case .chinese:
            guard FileManager.default.fileExists(atPath: chineseFont) else {
                throw KameraError.missingResource(name: chineseFont, hint: "apt-get install fonts-wqy-microhei (scripts/setup.sh)")
            }
            font = try FontFace(path: chineseFont)
        }
        let size = uniform(34...48)
        let colours: [(Color, Color)] = [
            (Color(red: 20, green: 90, blue: 160), .white), (Color(red: 30, green: 120, blue: 60), .white),
            (Color(red: 200, green: 40, blue: 30), .white), (Color(red: 245, green: 240, blue: 225), Color(red: 20, green: 20, blue: 20)),
            (Color(red: 250, green: 200, blue: 40), Color(red: 10, green: 10, blue: 10)),
        ]
        let (panel, ink) = pick(colours)
        let lineWidth = lines.map { font.render($0, pixelSize: size).width }.max() ?? 100
        let (panelWidth, panelHeight) = (lineWidth + Int(size), Int(size * 1.45) * lines.count + Int(size * 0.8))
        var sign = Canvas(
            PixelBuffer(width: panelWidth, height: panelHeight, format: .rgb8, filledWith: [panel.red, panel.green, panel.blue]))
        for (i, line) in lines.enumerated() {
            sign.draw(text: line, at: PixelPoint(x: size / 2, y: size * 0.4 + Double(i) * size * 1.45), size: size, color: ink, font: font)
        }
        // Pose: anywhere with its whole inside, turned up to 20°, a slight perspective.
        let angle = uniform(-20...20) * Double.pi / 180
        let (w, h) = (Double(panelWidth), Double(panelHeight))
        let reach = (abs(w * cos(angle)) + abs(h * sin(angle))) / 2 + 10, rise = (abs(w * sin(angle)) + abs(h * cos(angle))) / 2 + 10
        let centre = PixelPoint(
            x: uniform(reach...max(reach, Double(width) - reach)), y: uniform(rise...max(rise, Double(height) - rise)))
        let corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)].map { (u, v) -> PixelPoint in
            let (x, y) = (u * w * (1 + uniform(-0.05...0.05)), v * h * (1 + uniform(-0.05...0.05)))
            return PixelPoint(x: centre.x + x * cos(angle) - y * sin(angle), y: centre.y + x * sin(angle) + y * cos(angle))
        }
        canvas.composite(
            sign.buffer, onto: Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3]))
        let damage = Degradation(blurSigma: uniform(0.5...1.2), noiseSigma: uniform(2...5))
        return SignScene(image: damage.apply(to: canvas, random: &random), lines: lines, background: background)
    }
}
