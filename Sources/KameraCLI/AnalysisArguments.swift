import ArgumentParser
import Kamera
import KameraReports

extension FaceMode: ExpressibleByArgument {}
extension DetectBarcodesRequest.Effort: ExpressibleByArgument {}
extension GeneratePersonSegmentationRequest.QualityLevel: ExpressibleByArgument {}
extension BackgroundStyle: ExpressibleByArgument {}
extension RecognizeTextRequest.Engine: ExpressibleByArgument {}

/// `AnalysisOptions` as flags, shared by `kamera detect` and `kamera scan`: each flag is an
/// option's name in kebab case, with the option's own help; the checks are the options'.
struct AnalysisArguments: ParsableArguments {
    typealias Key = AnalysisOptions.CodingKeys

    @Flag(help: ArgumentHelp(Key.barcodes.help)) var barcodes = false
    @Option(help: ArgumentHelp(Key.symbologies.help)) var symbologies: String?
    @Option(help: ArgumentHelp(Key.effort.help)) var effort: DetectBarcodesRequest.Effort?
    @Flag(help: "Spend more effort on codes: the same as --effort thorough.") var tryHarder = false
    @Option(parsing: .unconditional, help: ArgumentHelp(Key.maxCodes.help)) var maxCodes: Int?
    @Flag(help: ArgumentHelp(Key.faces.help)) var faces = false
    @Flag(help: ArgumentHelp(Key.landmarks.help)) var landmarks = false
    @Option(help: ArgumentHelp(Key.faceMode.help)) var faceMode: FaceMode?
    @Option(parsing: .unconditional, help: ArgumentHelp(Key.minFaceSize.help)) var minFaceSize: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp(Key.minConfidence.help)) var minConfidence: Float?
    @Option(parsing: .unconditional, help: ArgumentHelp(Key.maxFaces.help)) var maxFaces: Int?
    @Flag(help: ArgumentHelp(Key.text.help)) var text = false
    @Flag(help: ArgumentHelp(Key.recognize.help)) var recognize = false
    @Option(help: ArgumentHelp(Key.languages.help)) var languages: String?
    @Option(help: ArgumentHelp(Key.textEngine.help, valueName: "automatic|tesseract|scene")) var textEngine: RecognizeTextRequest.Engine?
    @Flag(help: ArgumentHelp(Key.rectangles.help)) var rectangles = false
    @Option(name: [.customLong("max-rectangles"), .customLong("max")], parsing: .unconditional, help: ArgumentHelp(Key.maxRectangles.help))
    var maxRectangles: Int?
    @Option(help: ArgumentHelp(Key.regionOfInterest.help, valueName: "x,y,width,height")) var regionOfInterest: String?
    @Option(help: ArgumentHelp(Key.personMask.help, valueName: "quality")) var personMask: GeneratePersonSegmentationRequest.QualityLevel?
    @Flag(help: ArgumentHelp(Key.bodies.help)) var bodies = false
    @Flag(name: .customLong("bodies-3d"), help: ArgumentHelp(Key.bodies3D.help)) var bodies3D = false
    @Flag(help: ArgumentHelp(Key.hands.help)) var hands = false
    @Option(help: ArgumentHelp(Key.background.help, valueName: "blur|color")) var background: BackgroundStyle?
    @Option(parsing: .unconditional, help: ArgumentHelp(Key.blurRadius.help)) var blurRadius: Double?
    @Option(help: ArgumentHelp(Key.backgroundColor.help, valueName: "#rrggbb")) var backgroundColor: String?

    /// The options these flags give.
    /// - Throws: `KameraError.invalidArgument` for a list or region that does not parse.
    func options() throws -> AnalysisOptions {
        var options = AnalysisOptions()
        options.barcodes = barcodes ? true : nil
        options.symbologies = try symbologies.map(BarcodeSymbology.parseList)
        options.effort = tryHarder ? .thorough : effort
        options.maxCodes = maxCodes
        options.faces = faces ? true : nil
        options.landmarks = landmarks ? true : nil
        options.faceMode = faceMode
        options.minFaceSize = minFaceSize
        options.minConfidence = minConfidence
        options.maxFaces = maxFaces
        options.text = text ? true : nil
        options.recognize = recognize ? true : nil
        if let languages { options.languages = languages.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        options.textEngine = textEngine
        options.rectangles = rectangles ? true : nil
        options.maxRectangles = maxRectangles
        options.personMask = personMask
        options.bodies = bodies ? true : nil
        options.bodies3D = bodies3D ? true : nil
        options.hands = hands ? true : nil
        (options.background, options.blurRadius, options.backgroundColor) = (background, blurRadius, backgroundColor)
        if let regionOfInterest {
            let numbers = regionOfInterest.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 4 else { throw KameraError.invalidArgument("regionOfInterest must be four numbers: x,y,width,height") }
            options.regionOfInterest = NormalizedRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        return options
    }

    /// The options' own checks, as usage errors naming the flags.
    func validate() throws {
        // On a command line a limit without its detector is a slip (`--max 2` alone once
        // silently read codes).
        if maxRectangles != nil, !rectangles { throw ValidationError("--max-rectangles (--max) needs --rectangles") }
        if maxFaces != nil, !(faces || landmarks) { throw ValidationError("--max-faces needs --faces or --landmarks") }
        if blurRadius != nil, background != .blur { throw ValidationError("--blur-radius needs --background blur") }
        if textEngine != nil, !(text || recognize) { throw ValidationError("--text-engine needs --text or --recognize") }
        if backgroundColor != nil, background != .color { throw ValidationError("--background-color needs --background color") }
        do {
            try options().validate()
        } catch let error as KameraError where error.code == .invalidArgument {
            throw ValidationError(Self.namingFlags(error.reason))
        }
    }

    /// `reason` with the option it starts with written as its flag ("minConfidence must…" →
    /// "--min-confidence must…"); the options' messages start with the option's name.
    static func namingFlags(_ reason: String, keys: [String] = Key.allCases.map(\.rawValue)) -> String {
        guard let key = keys.first(where: { reason.hasPrefix($0 + " ") }) else { return reason }
        let flag = key.reduce(into: "--") { name, character in
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
        return flag + reason.dropFirst(key.count)
    }
}
