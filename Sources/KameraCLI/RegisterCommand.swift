import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// `kamera register`: how to move or warp one image onto another (Vision's image
/// registration requests).
struct RegisterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Align the second image with the first: print the shift (or, with --homography, the 3×3 warp) as JSON.",
        discussion: """
            Prints {"reference":A,"moving":B,"alignmentTransform":{"tx":…,"ty":…},"confidence":…}, or with \
            --homography {"warpTransform":[[…],[…],[…]],…}: the transform maps B's pixels onto A's \
            (pixels, top-left origin: x_A = x_B + tx). --warped writes B warped into A's frame.
            """)

    @Argument(help: "The reference image.")
    var reference: String

    @Argument(help: "The image to align with it.")
    var moving: String

    @Flag(name: .long, help: "Fit a perspective warp (turns, scale, tilt) instead of a shift.")
    var homography = false

    @Option(name: .long, help: "Write the second image warped onto the first's frame (PNG, JPEG or WebP).")
    var warped: String?

    @OptionGroup var overwrite: OverwriteOptions

    func validate() throws {
        if let warped, ImageFileFormat(pathExtension: URL(fileURLWithPath: warped).pathExtension) == nil {
            throw ValidationError("--warped must end in .png, .jpg or .webp")
        }
    }

    func run() throws {
        try CommandFailure.run {
            if let warped { try overwrite.check(warped) }
            let a = try Image(contentsOf: URL(fileURLWithPath: reference))
            let b = try Image(contentsOf: URL(fileURLWithPath: moving))
            let transform: PerspectiveTransform
            var members: [(String, JSONValue)] = [("reference", .string(reference)), ("moving", .string(moving))]
            let confidence: Float
            if homography {
                let found = try HomographicImageRegistrationRequest(targetedImage: b).performSynchronously(on: a)
                transform = found.warpTransform
                confidence = found.confidence
                let rows = (0..<3).map { r in JSONValue.array((0..<3).map { .number(Self.rounded(transform.m[r * 3 + $0])) }) }
                members.append(("warpTransform", .array(rows)))
            } else {
                let found = try TranslationalImageRegistrationRequest(targetedImage: b).performSynchronously(on: a)
                let shift = found.alignmentTransform
                transform = PerspectiveTransform(matrix: [1, 0, shift.x, 0, 1, shift.y, 0, 0, 1])
                confidence = found.confidence
                members.append(
                    (
                        "alignmentTransform",
                        .object([("tx", .number(RecordRounding.pixels(shift.x))), ("ty", .number(RecordRounding.pixels(shift.y)))])
                    ))
            }
            members.append(("confidence", .number(RecordRounding.score(Double(confidence)))))
            if let warped {
                // A's frame: the quad of B that lands on A's corners, pulled upright to A's size.
                guard let inverse = transform.inverse else {
                    throw KameraError.notFound("usable alignment", in: moving, hint: "the images may not show the same scene")
                }
                let (w, h) = (Double(a.width), Double(a.height))
                let corners = [PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)].map(
                    inverse.apply)
                let quad = Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
                let image = try b.pixelBuffer.perspectiveCorrected(to: quad, width: a.width, height: a.height, blackOutside: true)
                try ImageEncoder.write(image, to: URL(fileURLWithPath: warped))
                members.append(("warped", .string(warped)))
            }
            try StandardStreams.outputLine(JSONValue.object(members).rendered())
        }
    }

    /// Matrix entries: the perspective terms are tiny, so significant digits, not decimals.
    private static func rounded(_ value: Double) -> Double { Double(String(format: "%.6g", value)) ?? value }
}
