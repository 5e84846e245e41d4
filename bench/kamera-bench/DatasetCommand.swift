import ArgumentParser
import Foundation
import Kamera
import KameraTestMedia

/// Writes the barcode benchmark images and their ground truth (truth.json).
struct DatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "dataset", abstract: "Write the barcode benchmark dataset.")

    @Argument(help: "Output directory.")
    var output: String

    @Option(help: "Number of photo scenes.")
    var scenes = 120

    @Option(help: "Number of retail scenes with EAN-2/EAN-5 add-ons (books, periodicals, UPC-A).")
    var addOnScenes = 32

    @Option(help: "Number of hard retail scenes: one EAN-13, UPC-A or EAN-8 each, blurred, at low contrast (wrong numbers show here).")
    var retailScenes = 600

    @Option(help: "Number of retail scenes cut by the photo's edge at one end of the code (from inside its guard bar to 3 modules out).")
    var edgeCutScenes = 0

    @Option(help: "Number of close-up retail scenes taken in motion: seen from one end, smeared, print where the quiet zone should be.")
    var motionScenes = 0

    @Option(help: "Number of small photos of a QR code on curled or folded paper.")
    var curledScenes = 0

    @Option(help: "Random seed.")
    var seed: UInt64 = 2026

    struct Truth: Codable {
        var file: String
        var set: String
        var codes: [Code]
    }

    struct Code: Codable {
        var symbology: String
        /// The payload as engines report it; for a code with an add-on, the main number
        /// followed by the add-on's digits (zxing-cpp's form).
        var text: String
        /// The add-on's digits, when the code has one.
        var addOn: String?
    }

    func run() throws {
        let directory = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var truths: [Truth] = []
        var random = SeededRandom(seed: seed)
        let backgrounds = SampleMedia.availableBackgrounds()
        guard !backgrounds.isEmpty else { throw ValidationError("no sample photos; run scripts/setup.sh") }
        let photos = try backgrounds.map { try SampleMedia.photo($0).pixelBuffer }

        // Clean: every generatable symbology, pure, twice.
        for symbology in BarcodeSymbology.generatable {
            for index in 0..<2 {
                let sample = SamplePayload.make(symbology, index: 100 + index)
                let image = try BarcodeGenerator(symbology: symbology, moduleSize: 2 + index).generate(sample.input)
                let name = "clean_\(symbology.rawValue)_\(index).png"
                try ImageEncoder.write(image, to: directory.appendingPathComponent(name))
                truths.append(Truth(file: name, set: "clean", codes: [Code(symbology: symbology.rawValue, text: sample.expectedText)]))
            }
        }

        // Scenes: real photos with one to three codes under camera-like conditions.
        let common: [BarcodeSymbology] = [
            .qr, .qr, .dataMatrix, .aztec, .pdf417, .ean13, .ean8, .upca, .upce, .code128,
            .code128, .code39, .code93, .itf14, .codabar, .gs1DataBar, .gs1DataBarExpanded, .microQR,
        ]
        for index in 0..<scenes {
            var composer = SceneComposer(background: photos[index % photos.count], width: 1024, height: 768)
            let count = Int.random(in: 1...3, using: &random)
            var codes: [Code] = []
            for k in 0..<count {
                let symbology = common.randomElement(using: &random)!
                let sample = SamplePayload.make(symbology, index: index * 10 + k)
                // Codes go into separate thirds of the frame so they never overlap.
                let cell = Double(k), cells = Double(count)
                let center = PixelPoint(
                    x: 1024 * (cell + 0.5) / cells + Double.random(in: -30...30, using: &random),
                    y: 384 + Double.random(in: -120...120, using: &random))
                let maxWidth = min(1024 / cells - 40, symbology.isTwoDimensional && symbology != .pdf417 ? 300 : 460)
                let width = Double.random(in: (maxWidth * 0.6)...maxWidth, using: &random)
                let nearAxis = Bool.random(using: &random)
                let rotation =
                    nearAxis
                    ? Double([0, 90, 180, 270].randomElement(using: &random)!) + Double.random(in: -8...8, using: &random)
                    : Double.random(in: 0..<360, using: &random)
                let pose = CodePose(
                    center: center, width: width, rotation: rotation, tilt: Double.random(in: 0...0.2, using: &random),
                    inverted: symbology.isTwoDimensional && Int.random(in: 0..<10, using: &random) == 0)
                try composer.place(symbology, payload: sample.input, pose: pose, moduleSize: 3)
                codes.append(Code(symbology: symbology.rawValue, text: sample.expectedText))
            }
            let damage = Degradation(
                blurSigma: Double.random(in: 0...1.2, using: &random),
                noiseSigma: Double.random(in: 0...10, using: &random),
                contrast: Double.random(in: 0.45...1, using: &random))
            let name = String(format: "scene_%03d.jpg", index)
            try ImageEncoder.write(
                composer.render(damage, seed: UInt64(index)), to: directory.appendingPathComponent(name), as: .jpeg(quality: 88))
            truths.append(Truth(file: name, set: "scenes", codes: codes))
        }

        // Add-ons: books (ISBN + 5-digit price), periodicals (ISSN-based EAN-13 + 2-digit issue)
        // and UPC-A with either, one or two per photo, turned, tilted, blurred and noised.
        for index in 0..<addOnScenes {
            var composer = SceneComposer(background: photos[(index + 3) % photos.count], width: 1024, height: 768)
            let count = index % 3 == 2 ? 2 : 1
            var codes: [Code] = []
            for k in 0..<count {
                let (symbology, main, addOn) = Self.retailCode(kind: (index + k) % 4, using: &random)
                let cells = Double(count)
                let center = PixelPoint(
                    x: 1024 * (Double(k) + 0.5) / cells + Double.random(in: -30...30, using: &random),
                    y: 384 + Double.random(in: -100...100, using: &random))
                let width = Double.random(in: 300...min(1024 / cells - 40, 520), using: &random)
                let rotation =
                    Double([0, 0, 0, 90, 180, 270].randomElement(using: &random)!) + Double.random(in: -12...12, using: &random)
                let pose = CodePose(center: center, width: width, rotation: rotation, tilt: Double.random(in: 0...0.15, using: &random))
                try composer.place(symbology, payload: .text("\(main)+\(addOn)"), pose: pose, moduleSize: 3)
                codes.append(Code(symbology: symbology.rawValue, text: main + addOn, addOn: addOn))
            }
            let damage = Degradation(
                blurSigma: Double.random(in: 0...1.0, using: &random),
                noiseSigma: Double.random(in: 0...8, using: &random),
                contrast: Double.random(in: 0.5...1, using: &random))
            let name = String(format: "addon_%03d.jpg", index)
            try ImageEncoder.write(
                composer.render(damage, seed: UInt64(1000 + index)), to: directory.appendingPathComponent(name), as: .jpeg(quality: 88))
            truths.append(Truth(file: name, set: "addons", codes: codes))
        }

        // Retail: one EAN-13, UPC-A or EAN-8 per photo, blurred, at low contrast
        // (`RetailScene`): where wrong numbers show. Each scene has its own seed.
        for index in 0..<retailScenes {
            let scene = try RetailScene.make(seed: seed &* 100_000 &+ UInt64(index), background: photos[(index + 5) % photos.count])
            let name = String(format: "retail_%04d.jpg", index)
            try ImageEncoder.write(scene.image, to: directory.appendingPathComponent(name), as: .jpeg(quality: scene.jpegQuality))
            truths.append(Truth(file: name, set: "retail", codes: [Code(symbology: scene.symbology.rawValue, text: scene.number)]))
        }

        // Edge cut: one EAN-13, UPC-A or EAN-8 per photo with one end at the photo's edge
        // (`EdgeCutScene`). Each scene has its own seed.
        for index in 0..<edgeCutScenes {
            let scene = try EdgeCutScene.make(
                seed: seed &* 100_000 &+ 50_000 &+ UInt64(index), background: photos[(index + 2) % photos.count])
            let name = String(format: "edgecut_%04d.jpg", index)
            try ImageEncoder.write(scene.image, to: directory.appendingPathComponent(name), as: .jpeg(quality: scene.jpegQuality))
            truths.append(Truth(file: name, set: "edgecut", codes: [Code(symbology: scene.symbology.rawValue, text: scene.number)]))
        }

        // Motion: one EAN-13, UPC-A or EAN-8 per close-up photo, seen from one end, smeared,
        // another photo's print beside it (`MotionBlurScene`). Each scene has its own seed.
        for index in 0..<motionScenes {
            let scene = try MotionBlurScene.make(index: index, of: seed, photos: photos)
            let name = String(format: "motion_%04d.jpg", index)
            try ImageEncoder.write(scene.image, to: directory.appendingPathComponent(name), as: .jpeg(quality: scene.jpegQuality))
            truths.append(Truth(file: name, set: "motion", codes: [Code(symbology: scene.symbology.rawValue, text: scene.number)]))
        }

        // Curled: one QR code per small photo, its paper bent around a cylinder or folded
        // (`CurledPaperScene`). Each scene has its own seed.
        for index in 0..<curledScenes {
            let scene = try CurledPaperScene.make(index: index, of: seed, photos: photos)
            let name = String(format: "curled_%@_%04d.jpg", scene.bend.rawValue, index)
            try ImageEncoder.write(scene.image, to: directory.appendingPathComponent(name), as: .jpeg(quality: scene.jpegQuality))
            truths.append(Truth(file: name, set: "curled", codes: [Code(symbology: BarcodeSymbology.qr.rawValue, text: scene.payload)]))
        }

        // Negatives: the photos themselves hold no codes; anything found is a false positive.
        for name in backgrounds {
            let target = "negative_\(name)"
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(target))
            try FileManager.default.copyItem(at: try SampleMedia.url(name), to: directory.appendingPathComponent(target))
            truths.append(Truth(file: target, set: "negatives", codes: []))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted]
        try encoder.encode(truths).write(to: directory.appendingPathComponent("truth.json"))
        print("wrote \(truths.count) images to \(directory.path)")
    }

    /// A retail number with its add-on: kind 0 a book (978 ISBN, price add-on "5" + 4 digits),
    /// 1 a periodical (977 + ISSN, issue 01…52), 2 UPC-A with a 5-digit add-on, 3 with a 2-digit one.
    static func retailCode(kind: Int, using random: inout SeededRandom) -> (BarcodeSymbology, String, String) {
        func digits(_ count: Int) -> String { (0..<count).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined() }
        let withCheckDigit = RetailScene.withCheckDigit
        switch kind {
        case 0: return (.ean13, withCheckDigit("978" + digits(9)), "5" + digits(4))
        case 1: return (.ean13, withCheckDigit("977" + digits(9)), String(format: "%02d", Int.random(in: 1...52, using: &random)))
        case 2: return (.upca, withCheckDigit(digits(11)), digits(5))
        default: return (.upca, withCheckDigit(digits(11)), digits(2))
        }
    }
}
