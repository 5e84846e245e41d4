import Foundation
import Kamera
import KameraTestTiers
import Testing

/// Control characters (GS, RS, EOT, SOH…) carry structure in industrial payloads (ISO 15434
/// messages, GS1 separators): they must reach the caller as themselves, never as
/// placeholders or Unicode control pictures.
@Suite(.tier(.unit)) struct ControlCharacterTests {
    @Test(arguments: [BarcodeSymbology.code128, .dataMatrix, .qr, .pdf417, .aztec])
    func controlCharactersStayThemselves(symbology: BarcodeSymbology) async throws {
        // An ISO 15434 message: "[)>" RS "06" GS … RS EOT, plus SOH inside a field.
        let message: [UInt8] =
            Array("[)>".utf8) + [0x1E] + Array("06".utf8) + [0x1D] + Array("1PAB-42".utf8)
            + [0x1D, 0x01] + Array("Q7".utf8) + [0x1E, 0x04]
        let image = try BarcodeGenerator(symbology: symbology, moduleSize: 3).generate(.bytes(Data(message)))
        let code = try #require(try await DetectBarcodesRequest().perform(on: image).first)
        #expect(code.payloadData == Data(message))
        let text = try #require(code.payloadString)
        #expect(Array(text.utf8) == message, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(!text.unicodeScalars.contains { (0x2400...0x2426).contains($0.value) }, "no control pictures")
        #expect(!text.contains("<GS>"))
    }
}
