import ArgumentParser
import Kamera
import KameraReports

/// `kamera symbologies`: what can be read and generated.
struct SymbologiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "symbologies", abstract: "List the barcode symbologies.")

    func run() throws {
        var lines = ["NAME               2D   GENERATE"]
        for symbology in BarcodeSymbology.allCases {
            lines.append(
                symbology.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
                    + (symbology.isTwoDimensional ? " yes  " : " no   ") + (symbology.isGeneratable ? "yes" : "no"))
        }
        try CommandFailure.run { try StandardStreams.outputLine(lines.joined(separator: "\n")) }
    }
}
