import Kamera

/// What a stream's background becomes behind its people (`background` in the options): the
/// live view and its recordings, `kamera scan --annotate`'s movie.
package enum BackgroundStyle: String, CaseIterable, Codable, Sendable {
    /// Blurred, `blurRadius` pixels (default: 4 % of the frame's shorter side).
    case blur
    /// One colour, `backgroundColor` (default green-screen green, #00b140).
    case color

    /// The default colour: chroma-key green, which video mixers key out.
    package static let defaultColor = "#00b140"

    /// The effect for a frame `width` × `height`.
    /// - Parameters:
    ///   - blurRadius: pixels, nil for the default.
    ///   - color: `#rrggbb`, nil for the default.
    /// - Throws: `KameraError.invalidArgument` for a colour that is not `#rrggbb`.
    package func effect(blurRadius: Double?, color: String?, width: Int, height: Int) throws -> BackgroundEffect {
        switch self {
        case .blur:
            return .blur(radius: blurRadius ?? min(200, max(1, 0.04 * Double(min(width, height)))))
        case .color:
            let (red, green, blue) = try Self.rgb(color ?? Self.defaultColor)
            return .color(red: red, green: green, blue: blue)
        }
    }

    /// The three bytes of `#rrggbb`.
    /// - Throws: `KameraError.invalidArgument` for anything else.
    package static func rgb(_ hex: String) throws -> (UInt8, UInt8, UInt8) {
        let digits = Array(hex.utf8)
        // Every digit checked: UInt32(_:radix:) alone would take "+12345".
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"),
            digits.dropFirst().allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
            let value = UInt32(String(hex.dropFirst()), radix: 16)
        else {
            throw KameraError.invalidArgument("backgroundColor must be #rrggbb, such as #00b140")
        }
        return (UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff))
    }
}
