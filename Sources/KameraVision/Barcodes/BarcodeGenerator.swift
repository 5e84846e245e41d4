import CZXing
import Foundation
import KameraCore

/// Creates barcode images (QR, Aztec, Data Matrix, PDF417, the linear families, …) as
/// black-on-white `gray8` pixel buffers.
public struct BarcodeGenerator: Sendable {
    /// QR error-correction level: the share of the symbol that may be damaged.
    public enum ErrorCorrection: String, Sendable, CaseIterable, Codable {
        /// About 7 %.
        case low = "L"
        /// About 15 %.
        case medium = "M"
        /// About 25 %.
        case quartile = "Q"
        /// About 30 %.
        case high = "H"
    }

    /// What to encode.
    public enum Payload: Sendable, Hashable {
        /// UTF-8 text.
        case text(String)
        /// Raw bytes (byte mode).
        case bytes(Data)
    }

    public var symbology: BarcodeSymbology
    /// Pixels per module (the narrowest bar or smallest square).
    public var moduleSize: Int
    /// Light margin around the symbol, in modules; nil uses the symbology's standard
    /// (4 for QR, 1 for Data Matrix, 2 for PDF417 and Aztec, 10 for linear codes).
    public var quietZone: Int?
    /// Error correction for QR (Aztec and PDF417 use their own defaults).
    public var errorCorrection: ErrorCorrection?
    /// Bar height of linear codes, in modules; nil gives a height proportional to the width.
    public var barHeight: Int?

    public init(
        symbology: BarcodeSymbology, moduleSize: Int = 4, quietZone: Int? = nil,
        errorCorrection: ErrorCorrection? = nil, barHeight: Int? = nil
    ) {
        self.symbology = symbology
        self.moduleSize = moduleSize
        self.quietZone = quietZone
        self.errorCorrection = errorCorrection
        self.barHeight = barHeight
    }

    /// The standard quiet zone of the symbology, in modules.
    public var standardQuietZone: Int {
        switch symbology {
        case .qr, .rmQR: 4
        case .microQR: 2
        case .dataMatrix, .maxiCode: 1
        case .aztec, .pdf417, .microPDF417, .itf14: 2
        default: 10
        }
    }

    /// The symbol's module matrix (0 dark, 255 light) without quiet zone.
    public func modules(for payload: Payload) throws -> PixelBuffer {
        guard moduleSize >= 1, moduleSize <= 100 else {
            throw KameraError.invalidArgument("module size \(moduleSize) must be 1…100 pixels")
        }
        guard let format = symbology.creatorName else {
            throw KameraError.barcodeGenerationFailed(symbology: symbology.rawValue, reason: "Kamera cannot create this symbology")
        }
        var options: [String] = []
        if let errorCorrection {
            guard symbology == .qr || symbology == .microQR else {
                throw KameraError.invalidArgument("error-correction levels L/M/Q/H apply to QR codes only")
            }
            options.append("ecLevel=\(errorCorrection.rawValue)")
        }
        let (bytes, isBinary): ([UInt8], Bool) =
            switch payload {
            case .text(let text): (Array(text.utf8), false)
            case .bytes(let data): ([UInt8](data), true)
            }
        // Without an ECI, readers guess the character set of non-ASCII text (Data Matrix
        // "ÄÖÜ" came back as Shift-JIS); declaring UTF-8 makes the round trip exact.
        if !isBinary, bytes.contains(where: { $0 >= 0x80 }), symbology.isTwoDimensional, symbology != .maxiCode {
            options.append("eci=UTF-8")
        }
        if bytes.isEmpty {
            throw KameraError.barcodeGenerationFailed(symbology: symbology.rawValue, reason: "the payload is empty")
        }
        var symbol = kzx_symbol()
        var errorText = [CChar](repeating: 0, count: 512)
        let status = options.joined(separator: ",").withCString { optionText in
            bytes.withUnsafeBufferPointer { data in
                kzx_create(format, data.baseAddress, Int32(data.count), isBinary ? 1 : 0, optionText, &symbol, &errorText, errorText.count)
            }
        }
        guard status == 0, let modules = symbol.modules else {
            let reason = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw KameraError.barcodeGenerationFailed(symbology: symbology.rawValue, reason: reason)
        }
        defer { kzx_symbol_free(&symbol) }
        let count = Int(symbol.width) * Int(symbol.height)
        let matrix = try PixelBuffer(
            width: Int(symbol.width), height: Int(symbol.height), format: .gray8,
            bytes: Array(UnsafeBufferPointer(start: modules, count: count)))
        return symbology == .itf14 ? Self.itf14WithInnerQuietZones(matrix) : matrix
    }

    /// The symbol zint returns for ITF-14 has its bearer box touching the bars; GS1 puts the
    /// 10-module quiet zones inside the box, and zxing-cpp cannot read the symbol without them.
    private static func itf14WithInnerQuietZones(_ matrix: PixelBuffer, box: Int = 5, quiet: Int = 10) -> PixelBuffer {
        guard matrix.width > 2 * box else { return matrix }
        let barsWidth = matrix.width - 2 * box
        var out = PixelBuffer(width: matrix.width + 2 * quiet, height: matrix.height, format: .gray8, filledWith: [255])
        for y in 0..<matrix.height {
            let row = y * matrix.bytesPerRow
            let isBearerRow = (0..<matrix.width).allSatisfy { matrix.bytes[row + $0] < 128 }
            for x in 0..<out.width {
                let value: UInt8
                if isBearerRow || x < box || x >= out.width - box {
                    value = 0
                } else if x < box + quiet || x >= box + quiet + barsWidth {
                    value = 255
                } else {
                    value = matrix.bytes[row + x - quiet]
                }
                out.bytes[y * out.bytesPerRow + x] = value
            }
        }
        return out
    }

    /// A generated symbol image and where the symbol lies inside its quiet zone.
    public struct Rendering: Sendable {
        /// Black on white, gray8.
        public var image: PixelBuffer
        /// The symbol's extent inside `image`, quiet zone excluded.
        public var symbolRect: PixelRect
    }

    /// The symbol drawn at `moduleSize` pixels per module inside its quiet zone.
    public func generate(_ payload: Payload) throws -> PixelBuffer {
        try render(payload).image
    }

    /// The symbol drawn at `moduleSize` pixels per module, with its placement.
    public func render(_ payload: Payload) throws -> Rendering {
        let matrix = try modules(for: payload)
        let quiet = quietZone ?? standardQuietZone
        guard quiet >= 0 else { throw KameraError.invalidArgument("quiet zone must not be negative") }
        // Linear symbols come back as a single row of modules; give them height.
        let rows =
            !symbology.isTwoDimensional && matrix.height == 1
            ? (barHeight ?? max(24, matrix.width * 2 / 5)) : matrix.height
        let width = (matrix.width + 2 * quiet) * moduleSize
        let height = (rows + 2 * (symbology.isTwoDimensional ? quiet : max(1, quiet / 2))) * moduleSize
        guard width * height <= 100_000_000 else {
            throw KameraError.invalidArgument("a \(width)×\(height) symbol is too large; lower the module size")
        }
        var out = PixelBuffer(width: width, height: height, format: .gray8, filledWith: [255])
        let top = (height - rows * moduleSize) / 2
        let left = quiet * moduleSize
        for row in 0..<rows {
            let sourceRow = matrix.height == 1 ? 0 : row
            for column in 0..<matrix.width where matrix.bytes[sourceRow * matrix.bytesPerRow + column] < 128 {
                for dy in 0..<moduleSize {
                    let y = top + row * moduleSize + dy
                    let start = y * out.bytesPerRow + left + column * moduleSize
                    for dx in 0..<moduleSize { out.bytes[start + dx] = 0 }
                }
            }
        }
        let symbolRect = PixelRect(
            x: Double(left), y: Double(top),
            width: Double(matrix.width * moduleSize), height: Double(rows * moduleSize))
        return Rendering(image: out, symbolRect: symbolRect)
    }

    /// Convenience: the symbol for a text payload.
    public func generate(text: String) throws -> PixelBuffer { try generate(.text(text)) }
}
