import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// `kamera generate`: draw a barcode into an image file.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a barcode image (PNG, JPEG or WebP by the output's extension).",
        discussion: "Symbologies: \(BarcodeSymbology.generatable.map(\.rawValue).joined(separator: ", ")).")

    @Argument(help: "The symbology, e.g. qr, aztec, datamatrix, pdf417, ean13, code128.")
    var symbology: String

    @Argument(help: "The payload text (UTF-8), or hex bytes with --hex.")
    var text: String

    @Option(name: .shortAndLong, help: "Output image file; - writes PNG to standard output.")
    var output: String

    @Option(name: .long, parsing: .unconditional, help: "Pixels per module, 1…100.")
    var moduleSize = 4

    @Option(name: .long, help: "QR error correction: L, M, Q or H.")
    var ecc: String?

    @Option(name: .long, parsing: .unconditional, help: "Quiet zone in modules, 0…100 (default: the symbology's standard).")
    var quietZone: Int?

    @Option(name: .long, parsing: .unconditional, help: "Bar height of linear codes in modules, 1…1000.")
    var barHeight: Int?

    @OptionGroup var overwrite: OverwriteOptions

    func validate() throws {
        guard (1...100).contains(moduleSize) else { throw ValidationError("--module-size must be 1…100 pixels") }
        if let quietZone, !(0...100).contains(quietZone) { throw ValidationError("--quiet-zone must be 0…100 modules") }
        if let barHeight, !(1...1000).contains(barHeight) { throw ValidationError("--bar-height must be 1…1000 modules") }
        if output != "-", ImageFileFormat(pathExtension: URL(fileURLWithPath: output).pathExtension) == nil {
            throw ValidationError("--output must end in .png, .jpg or .webp (or be - for PNG on standard output)")
        }
    }

    @Flag(name: .long, help: "TEXT is hexadecimal bytes (binary payload).")
    var hex = false

    func run() throws {
        guard let chosen = BarcodeSymbology(rawValue: symbology.lowercased()) ?? (try? BarcodeSymbology.parseList(symbology))?.first else {
            throw ValidationError("unknown symbology '\(symbology)'; run `kamera symbologies`")
        }
        var errorCorrection: BarcodeGenerator.ErrorCorrection?
        if let ecc {
            guard let level = BarcodeGenerator.ErrorCorrection(rawValue: ecc.uppercased()) else {
                throw ValidationError("--ecc must be L, M, Q or H")
            }
            errorCorrection = level
        }
        let payload: BarcodeGenerator.Payload
        if hex {
            guard let data = Data(hexString: text) else { throw ValidationError("TEXT is not valid hexadecimal") }
            payload = .bytes(data)
        } else {
            payload = .text(text)
        }
        let generator = BarcodeGenerator(
            symbology: chosen, moduleSize: moduleSize, quietZone: quietZone,
            errorCorrection: errorCorrection, barHeight: barHeight)
        try CommandFailure.run {
            try overwrite.check(output)
            let image = try generator.generate(payload)
            if output == "-" {
                try StandardStreams.output(bytes: [UInt8](try ImageEncoder.encode(image, as: .png)))
            } else {
                try ImageEncoder.write(image, to: URL(fileURLWithPath: output))
                try StandardStreams.outputLine("wrote \(output) (\(chosen.rawValue), \(image.width)×\(image.height) px)")
            }
        }
    }
}

extension Data {
    /// Bytes from hexadecimal text ("00ff10", spaces allowed).
    init?(hexString: String) {
        let clean = hexString.filter { !$0.isWhitespace }
        guard clean.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = clean.startIndex
        while index < clean.endIndex {
            let next = clean.index(index, offsetBy: 2)
            guard let byte = UInt8(clean[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
