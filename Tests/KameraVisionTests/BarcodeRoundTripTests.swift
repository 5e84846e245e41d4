import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// Generate every symbology, put it into real photos with camera-like damage, decode it back.
@Suite(.tier(.unit)) struct BarcodeRoundTripTests {
    @Test(arguments: BarcodeSymbology.generatable)
    func pureSymbolDecodes(symbology: BarcodeSymbology) async throws {
        for index in 0..<3 {
            let sample = SamplePayload.make(symbology, index: index)
            let image = try BarcodeGenerator(symbology: symbology, moduleSize: 3).generate(sample.input)
            let found = try await DetectBarcodesRequest().perform(on: image)
            if symbology == .maxiCode {
                // zxing-cpp reads MaxiCode only as a pure, upright symbol; this is that case.
                #expect(found.count == 1)
            }
            let observation = try #require(
                match(found, symbology, sample.expectedText), "\(found.map { "\($0.symbology) \($0.payloadString ?? "")" })")
            #expect(observation.payloadData == Data(observation.payloadString!.utf8) || symbology.isTwoDimensional == false)
            #expect(observation.confidence == 1)
        }
    }

    /// Rotation, perspective, blur, noise and low contrast together, in one scene per symbology.
    @Test(arguments: BarcodeSymbology.generatable.filter { $0 != .maxiCode })
    func survivesCameraDamage(symbology: BarcodeSymbology) async throws {
        let s = try scene(
            symbology, index: 3, rotation: 12, tilt: 0.1,
            damage: Degradation(blurSigma: 0.8, noiseSigma: 6, contrast: 0.6))
        let found = try await DetectBarcodesRequest(effort: .thorough).perform(on: s.image)
        let observation = try #require(
            match(found, symbology, s.expected), "found \(found.map { "\($0.symbology) \($0.payloadString ?? "")" })")
        if symbology.isTwoDimensional {
            #expect(cornerError(observation, s.truth) < 12)
        } else {
            #expect(s.truth.symbolQuad.contains(observation.pixelBounds.center))
        }
    }

    /// Matrix codes at ten angles: the thorough effort finds every one, the default all but
    /// at most one (zxing-cpp's Data Matrix detector misses some angles).
    @Test(arguments: [BarcodeSymbology.qr, .microQR, .aztec, .dataMatrix])
    func matrixCodesAtAnyAngle(symbology: BarcodeSymbology) async throws {
        var balancedHits = 0
        for angle in stride(from: 0.0, to: 360, by: 37) {
            let s = try scene(symbology, index: Int(angle), rotation: angle)
            if match(try await DetectBarcodesRequest().perform(on: s.image), symbology, s.expected) != nil { balancedHits += 1 }
            let found = try await DetectBarcodesRequest(effort: .thorough).perform(on: s.image)
            let observation = try #require(match(found, symbology, s.expected), "angle \(angle)")
            #expect(cornerError(observation, s.truth) < 8, "angle \(angle)")
        }
        #expect(balancedHits >= 9)
    }

    /// zxing-cpp alone reads linear and stacked codes only near 0° and 90°; the thorough
    /// effort turns the image to the stripes' angle.
    @Test(arguments: [BarcodeSymbology.ean13, .code128, .code39, .pdf417, .itf14])
    func linearCodesAtAnyAngleWithThoroughEffort(symbology: BarcodeSymbology) async throws {
        for angle in [0.0, 25, 45, 70, 110, 160, 200, 290] {
            let s = try scene(symbology, index: Int(angle), rotation: angle)
            let found = try await DetectBarcodesRequest(effort: .thorough).perform(on: s.image)
            let observation = try #require(match(found, symbology, s.expected), "angle \(angle): \(found.map { $0.payloadString ?? "" })")
            #expect(s.truth.symbolQuad.contains(observation.pixelBounds.center))
        }
        // The single-pass effort misses the diagonal case, which is why thorough exists.
        let diagonal = try scene(symbology, index: 45, rotation: 45)
        #expect(match(try await DetectBarcodesRequest(effort: .balanced).perform(on: diagonal.image), symbology, diagonal.expected) == nil)
    }

    @Test(arguments: [
        (BarcodeSymbology.qr, Degradation(blurSigma: 1.6)), (.qr, Degradation(noiseSigma: 18)), (.qr, Degradation(contrast: 0.25)),
        (.dataMatrix, Degradation(blurSigma: 1.2)), (.dataMatrix, Degradation(noiseSigma: 14)), (.aztec, Degradation(contrast: 0.3)),
        (.ean13, Degradation(blurSigma: 1.2)), (.code128, Degradation(noiseSigma: 14)), (.pdf417, Degradation(contrast: 0.3)),
        (.upca, Degradation(blurSigma: 1.0, noiseSigma: 8)),
    ])
    func blurNoiseAndLowContrast(symbology: BarcodeSymbology, damage: Degradation) async throws {
        let s = try scene(symbology, index: 5, rotation: 4, damage: damage)
        let found = try await DetectBarcodesRequest().perform(on: s.image)
        #expect(match(found, symbology, s.expected) != nil, "\(damage)")
    }

    @Test(arguments: [BarcodeSymbology.qr, .dataMatrix, .aztec, .code128, .ean13])
    func perspective(symbology: BarcodeSymbology) async throws {
        let s = try scene(symbology, index: 7, rotation: -6, tilt: 0.25)
        let found = try await DetectBarcodesRequest(effort: .thorough).perform(on: s.image)
        #expect(match(found, symbology, s.expected) != nil)
    }

    @Test(arguments: [BarcodeSymbology.qr, .microQR, .aztec, .dataMatrix, .code128, .ean13, .pdf417, .itf])
    func lightOnDark(symbology: BarcodeSymbology) async throws {
        let s = try scene(symbology, index: 8, rotation: 5, inverted: true)
        let effort: DetectBarcodesRequest.Effort = symbology.isTwoDimensional && symbology != .pdf417 ? .balanced : .thorough
        let found = try await DetectBarcodesRequest(effort: effort).perform(on: s.image)
        let observation = try #require(match(found, symbology, s.expected))
        #expect(observation.isInverted)
    }

    @Test(arguments: [BarcodeSymbology.qr, .dataMatrix, .microQR])
    func mirrored(symbology: BarcodeSymbology) async throws {
        let s = try scene(symbology, index: 9, rotation: 20, mirrored: true)
        let found = try await DetectBarcodesRequest(effort: .thorough).perform(on: s.image)
        let observation = try #require(match(found, symbology, s.expected))
        #expect(observation.isMirrored)
    }

    @Test(arguments: [BarcodeSymbology.qr, .aztec, .dataMatrix, .pdf417])
    func binaryPayloadsRoundTrip(symbology: BarcodeSymbology) async throws {
        var random = SeededRandom(seed: 99)
        let bytes = Data((0...255).map { UInt8($0) }.shuffled(using: &random).prefix(120))
        let s = try scene(symbology, index: 10, rotation: 15, width: 300, payload: .bytes(bytes))
        // PDF417 at 15° needs the thorough effort's turned pass.
        let effort: DetectBarcodesRequest.Effort = symbology == .pdf417 ? .thorough : .balanced
        let found = try await DetectBarcodesRequest(symbologies: [symbology], effort: effort).perform(on: s.image)
        #expect(found.count == 1)
        #expect(found.first?.payloadData == bytes)
    }

    @Test(arguments: [BarcodeSymbology.qr, .aztec, .dataMatrix, .pdf417])
    func utf8TextRoundTrips(symbology: BarcodeSymbology) async throws {
        let text = "Grüße, 東京 📷 — Ωμέγα"
        let s = try scene(symbology, index: 11, rotation: -20, width: 300, payload: .text(text))
        let found = try await DetectBarcodesRequest(effort: .thorough).perform(on: s.image)
        #expect(found.first { $0.symbology == symbology }?.payloadString == text)
    }
}
