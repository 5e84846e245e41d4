import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// A QR code's finder pattern with the modules beside it can decode as a Micro QR symbol
/// (`MicroQRQuietZoneCheck`): such a read has no quiet zone and is dropped; printed Micro QR
/// symbols, dark on light or light on dark, are still read.
@Suite(.tier(.unit)) struct EmbeddedMicroQRTests {
    func read(_ buffer: PixelBuffer, _ effort: DetectBarcodesRequest.Effort) throws -> [BarcodeObservation] {
        try DetectBarcodesRequest(effort: effort).perform(in: ImageAnalysisContext(Image(pixelBuffer: buffer)))
    }

    @Test func aMicroQRReadInsideACurledQRCodeIsDropped() throws {
        // Scene 155 of the curled set of seed 804, where zxing-cpp reads "2728" in the corner of
        // a QR code on a curled label that it cannot read.
        let photos = try SampleMedia.availableBackgrounds().map { try SampleMedia.photo($0).pixelBuffer }
        let scene = try CurledPaperScene.make(index: 155, of: 804, photos: photos)
        let photo = try ImageDecoder.decode(try ImageEncoder.encode(scene.image, as: .jpeg(quality: scene.jpegQuality))).pixelBuffer
        let gray = ImageAnalysisContext(Image(pixelBuffer: photo)).grayscale
        let raw = try BarcodeReaderPass(formats: "MicroQRCode").read(gray)
        #expect(raw.map(\.payloadString) == ["2728"])
        #expect(MicroQRQuietZoneCheck.isEmbedded(try #require(raw.first), in: gray))
        #expect(try read(photo, .balanced).allSatisfy { $0.symbology != .microQR })
    }

    @Test(arguments: [false, true]) func printedMicroQRSymbolsAreStillRead(inverted: Bool) throws {
        let photo = try SampleMedia.photo(SampleMedia.availableBackgrounds()[1]).pixelBuffer
        var composer = SceneComposer(background: photo, width: 640, height: 480)
        let pose = CodePose(center: PixelPoint(x: 320, y: 240), width: 140, rotation: 24, inverted: inverted)
        try composer.place(.microQR, payload: .text("KAMERA7"), pose: pose, moduleSize: 6)
        let found = try read(composer.render(), .balanced).filter { $0.symbology == .microQR }
        #expect(found.map(\.payloadString) == ["KAMERA7"])
    }
}
