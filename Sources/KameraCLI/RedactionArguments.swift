import ArgumentParser
import Kamera
import KameraReports

extension RedactionStyle: ExpressibleByArgument {}

/// `RedactionOptions` as flags: each flag is an option's name in kebab case, with its help.
struct RedactionArguments: ParsableArguments {
    typealias Key = RedactionOptions.CodingKeys

    @Flag(help: ArgumentHelp(Key.faces.help)) var faces = false
    @Flag(help: ArgumentHelp(Key.codes.help)) var codes = false
    @Flag(help: ArgumentHelp(Key.text.help)) var text = false
    @Flag(help: ArgumentHelp(Key.people.help)) var people = false
    @Option(help: ArgumentHelp(Key.style.help, valueName: "blur|pixelate|fill")) var style: RedactionStyle?
    @Option(parsing: .unconditional, help: ArgumentHelp(Key.padding.help)) var padding: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp(Key.minConfidence.help)) var minConfidence: Float?
    @Option(parsing: .unconditional, help: ArgumentHelp(Key.minFaceSize.help)) var minFaceSize: Double?
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(Key.tiles.help)) var tiles = true
    @Option(parsing: .unconditional, help: ArgumentHelp(Key.follow.help, valueName: "seconds")) var follow: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp(Key.hold.help, valueName: "seconds")) var hold: Double?
    @Option(parsing: .unconditional, help: ArgumentHelp(Key.lead.help, valueName: "seconds")) var lead: Double?

    /// The options these flags give.
    func options() -> RedactionOptions {
        var options = RedactionOptions()
        (options.faces, options.codes, options.text, options.people) =
            (faces ? true : nil, codes ? true : nil, text ? true : nil, people ? true : nil)
        (options.style, options.padding, options.minConfidence, options.minFaceSize) = (style, padding, minConfidence, minFaceSize)
        (options.tiles, options.follow, options.hold, options.lead) = (tiles, follow, hold, lead)
        return options
    }

    func validate() throws {
        do {
            _ = try options().configuration()
        } catch let error as KameraError where error.code == .invalidArgument {
            throw ValidationError(AnalysisArguments.namingFlags(error.reason, keys: Key.allCases.map(\.rawValue)))
        }
    }
}
