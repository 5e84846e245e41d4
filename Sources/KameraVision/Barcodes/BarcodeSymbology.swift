import Foundation
import KameraCore

/// A family of machine-readable codes. Raw values are the names the CLI and JSON use.
public enum BarcodeSymbology: String, Sendable, CaseIterable, Codable {
    case qr, microQR = "microqr", rmQR = "rmqr", aztec, dataMatrix = "datamatrix", pdf417
    case microPDF417 = "micropdf417", maxiCode = "maxicode"
    case ean8, ean13, upca, upce
    case code39, code93, code128, itf, itf14, codabar
    case gs1DataBar = "databar", gs1DataBarLimited = "databarlimited", gs1DataBarExpanded = "databarexpanded"
    case dxFilmEdge = "dxfilmedge", telepen

    /// Two-dimensional (matrix or stacked) rather than linear.
    public var isTwoDimensional: Bool {
        switch self {
        case .qr, .microQR, .rmQR, .aztec, .dataMatrix, .pdf417, .microPDF417, .maxiCode: true
        default: false
        }
    }

    /// Whether the symbol is rows of bars (PDF417, MicroPDF417): read like linear codes,
    /// only near 0° and 90°.
    public var isStacked: Bool { self == .pdf417 || self == .microPDF417 }

    /// Whether ``BarcodeGenerator`` can create this symbology.
    public var isGeneratable: Bool { creatorName != nil }

    /// The symbologies ``BarcodeGenerator`` can create.
    public static var generatable: [BarcodeSymbology] { allCases.filter(\.isGeneratable) }

    /// zxing-cpp format names to ask the reader for.
    var readerNames: [String] {
        switch self {
        case .qr: ["QRCode"]
        case .microQR: ["MicroQRCode"]
        case .rmQR: ["RMQRCode"]
        case .aztec: ["Aztec"]
        case .dataMatrix: ["DataMatrix"]
        case .pdf417: ["PDF417", "CompactPDF417"]
        case .microPDF417: ["MicroPDF417"]
        case .maxiCode: ["MaxiCode"]
        case .ean8: ["EAN8"]
        case .ean13: ["EAN13", "ISBN"]
        case .upca: ["UPCA"]
        case .upce: ["UPCE"]
        case .code39: ["Code39"]
        case .code93: ["Code93"]
        case .code128: ["Code128"]
        case .itf: ["ITF"]
        case .itf14: ["ITF14"]
        case .codabar: ["Codabar"]
        case .gs1DataBar: ["DataBarOmni", "DataBarStk", "DataBarStkOmni"]
        case .gs1DataBarLimited: ["DataBarLtd"]
        case .gs1DataBarExpanded: ["DataBarExp", "DataBarExpStk"]
        case .dxFilmEdge: ["DXFilmEdge"]
        case .telepen: ["Telepen"]
        }
    }

    /// The zxing-cpp format name used to create a symbol, if it can be created.
    var creatorName: String? {
        switch self {
        case .qr: "QRCode"
        case .microQR: "MicroQRCode"
        case .aztec: "Aztec"
        case .dataMatrix: "DataMatrix"
        case .pdf417: "PDF417"
        case .microPDF417: "MicroPDF417"
        case .maxiCode: "MaxiCode"
        case .ean8: "EAN8"
        case .ean13: "EAN13"
        case .upca: "UPCA"
        case .upce: "UPCE"
        case .code39: "Code39"
        case .code93: "Code93"
        case .code128: "Code128"
        case .itf: "ITF"
        case .itf14: "ITF14"
        case .codabar: "Codabar"
        case .gs1DataBar: "DataBarOmni"
        case .gs1DataBarLimited: "DataBarLtd"
        case .gs1DataBarExpanded: "DataBarExp"
        case .telepen: "Telepen"
        case .rmQR: "RMQRCode"
        case .dxFilmEdge: nil
        }
    }

    /// The symbology of a format zxing-cpp reports, from its symbology and variant keys
    /// (the characters of the ISO/IEC 15424 identifier zxing-cpp encodes formats with).
    init?(symbologyKey: Character, variantKey: Character) {
        switch (symbologyKey, variantKey) {
        case ("Q", "m"): self = .microQR
        case ("Q", "r"): self = .rmQR
        case ("Q", _): self = .qr
        case ("z", _): self = .aztec
        case ("d", _): self = .dataMatrix
        case ("L", "m"): self = .microPDF417
        case ("L", _): self = .pdf417
        case ("U", _): self = .maxiCode
        case ("E", "8"): self = .ean8
        case ("E", "a"): self = .upca
        case ("E", "e"): self = .upce
        case ("E", "2"), ("E", "5"): return nil  // add-on symbols, reported with their main code
        case ("E", _): self = .ean13
        case ("A", _): self = .code39
        case ("G", _): self = .code93
        case ("C", _): self = .code128
        case ("I", "4"): self = .itf14
        case ("I", _): self = .itf
        case ("F", _): self = .codabar
        case ("e", "l"): self = .gs1DataBarLimited
        case ("e", "e"), ("e", "E"): self = .gs1DataBarExpanded
        case ("e", _): self = .gs1DataBar
        case ("X", "x"): self = .dxFilmEdge
        case ("B", _): self = .telepen
        default: return nil
        }
    }

    /// Parses a comma-separated list such as "qr,aztec,ean13"; "all" means every symbology.
    public static func parseList(_ text: String) throws -> [BarcodeSymbology] {
        var result: [BarcodeSymbology] = []
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !part.isEmpty {
            if part == "all" { return allCases }
            guard
                let symbology = BarcodeSymbology(rawValue: part)
                    ?? BarcodeSymbology.allCases.first(where: {
                        "\($0)".lowercased() == part || $0.readerNames.contains { $0.lowercased() == part }
                    })
            else {
                throw KameraError.invalidArgument(
                    "unknown symbology '\(part)'; known: \(allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if !result.contains(symbology) { result.append(symbology) }
        }
        return result
    }
}
