import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// EAN/UPC close-ups taken while the camera moved (`MotionBlurScene`: seen from one end, smeared
/// over a module or more, print where the quiet zone should be): the rows that confirm a number
/// are read again with the smear compensated, and the thorough effort reads the photo so too.
@Suite(.tier(.unit)) struct SmearedCodeTests {
    /// Scene `index` of the bench's seed-701 set as the bench stores it (JPEG), in gray as the
    /// request sees it.
    func scene(_ index: Int) throws -> (gray: PixelBuffer, number: String) {
        let photos = try SampleMedia.availableBackgrounds().map { try SampleMedia.photo($0).pixelBuffer }
        let scene = try MotionBlurScene.make(index: index, of: 701, photos: photos)
        let jpeg = try ImageEncoder.encode(scene.image, as: .jpeg(quality: scene.jpegQuality))
        let number = scene.number.count == 12 ? "0" + scene.number : scene.number
        return (try ImageAnalysisContext(ImageDecoder.decode(jpeg)).grayscale, number)
    }

    func read(_ gray: PixelBuffer, _ effort: DetectBarcodesRequest.Effort) throws -> [String] {
        try DetectBarcodesRequest(effort: effort).perform(in: ImageAnalysisContext(Image(pixelBuffer: gray))).compactMap {
            GTINConfirmation.gtin($0.payloadString)
        }
    }

    @Test func aSmearedLineGetsItsNarrowBarBack() {
        // A one-module bar (3 samples) on paper, smeared over five samples: grey, not black.
        let printed: [UInt8] = Array(repeating: 200, count: 20) + Array(repeating: 40, count: 3) + Array(repeating: 200, count: 20)
        let smeared = printed.indices.map { i in
            UInt8((i - 2...i + 2).map { Int(printed[min(max($0, 0), printed.count - 1)]) }.reduce(0, +) / 5)
        }
        let restored = SmearCompensation.sharpened(smeared, smear: 5)
        // Smeared, the bar keeps 96 of its 160 levels of contrast against the paper…
        #expect(smeared.min()! > 100)
        // …compensated, it gets at least 15 more back.
        #expect(Int(restored.min()!) < Int(smeared.min()!) - 15, "\(restored)")
        // Paper away from the bar stays paper.
        #expect(restored[0..<14].allSatisfy { $0 == 200 } && restored[29...].allSatisfy { $0 == 200 })
    }

    @Test func aNumberReadOnALuckyLineIsConfirmedByTheCompensatedRows() throws {
        let (gray, number) = try scene(86)
        let raw = try #require(try BarcodeReaderPass(formats: "EAN-13,UPC-A").read(gray).first)
        #expect(GTINConfirmation.gtin(raw.payloadString) == number)
        let rows = try #require(GTINConfirmation.rows(around: raw, in: gray))
        var pass = BarcodeReaderPass(formats: GTINConfirmation.family(of: raw.symbology))
        (pass.tryRotate, pass.tryInvert, pass.tryDownscale, pass.eanAddOn) = (false, false, false, .ignore)
        // The rows as sampled do not agree (zxing-cpp read a line or two)…
        #expect(try !rows.agree(on: number, pass: pass, inverted: false))
        // …compensated, they do, and the balanced effort reports the number.
        #expect(try GTINConfirmation.confirms(raw, in: gray))
        #expect(try read(gray, .balanced) == [number])
    }

    @Test func theThoroughEffortReadsWhatNoPassReadSmeared() throws {
        let (gray, number) = try scene(30)
        #expect(try read(gray, .balanced).isEmpty)
        #expect(try read(gray, .thorough) == [number])
    }

    @Test func smearedScenesGiveTheRightNumberOrNone() throws {
        for index in 0..<8 {
            let (gray, number) = try scene(index)
            let found = try read(gray, .thorough)
            #expect(found.allSatisfy { $0 == number }, "scene \(index): \(found), printed \(number)")
        }
    }
}
