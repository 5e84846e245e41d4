import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// The agreement rule: a linear code that only one extra pass of the thorough effort read is
/// reported only when a second read agrees.
@Suite(.tier(.unit)) struct BarcodeAgreementTests {
    /// A real EAN-13 at 25° in a photo, and what an extra pass reported there.
    func turnedEAN() throws -> (gray: PixelBuffer, truth: BarcodeObservation) {
        let s = try scene(.ean13, index: 4, rotation: 25, background: "building.jpg", damage: Degradation(noiseSigma: 3))
        let gray = s.image.converted(to: .gray8)
        let found = try DetectBarcodesRequest(effort: .thorough).perform(in: ImageAnalysisContext(Image(pixelBuffer: s.image)))
        let truth = try #require(match(found, .ean13, s.expected))
        return (gray, truth)
    }

    @Test func aReadThatNoSecondReadRepeatsIsDropped() throws {
        let (gray, truth) = try turnedEAN()
        let pass = BarcodeReaderPass(formats: "")
        #expect(try LinearCodeConfirmation.confirms(truth, in: gray, pass: pass))
        // The same bars reported as another valid EAN-13 (one digit and the check digit
        // changed, as a misread pass does): no re-read says that number.
        var misread = truth
        let digits = Array(truth.payloadString!)
        var changed = digits
        changed[5] = digits[5] == "7" ? "2" : "7"
        let body = String(changed.dropLast())
        let sum = body.compactMap(\.wholeNumberValue).enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        let wrong = body + String((10 - sum % 10) % 10)
        #expect(BarcodeObservation.hasValidGS1CheckDigit(wrong) && wrong != truth.payloadString)
        misread.payloadString = wrong
        misread.payloadData = Data(wrong.utf8)
        #expect(try !LinearCodeConfirmation.confirms(misread, in: gray, pass: pass))
        // Elsewhere in the photo (no code there) nothing confirms either.
        var displaced = truth
        displaced.pixelCorners = Quad(
            topLeft: PixelPoint(x: 20, y: 20), topRight: PixelPoint(x: 120, y: 20),
            bottomRight: PixelPoint(x: 120, y: 22), bottomLeft: PixelPoint(x: 20, y: 22))
        #expect(try !LinearCodeConfirmation.confirms(displaced, in: gray, pass: pass))
    }

    /// Far enough away not to overlap the original.
    func shifted(_ observation: BarcodeObservation, dx: Double, dy: Double) -> BarcodeObservation {
        observation.mapped(by: PerspectiveTransform(matrix: [1, 0, dx, 0, 1, dy, 0, 0, 1]), into: observation.imageSize)
    }

    @Test func theCollectionKnowsWhichReadsAgree() throws {
        let (_, truth) = try turnedEAN()
        var other = truth
        other = shifted(truth, dx: 2000, dy: 0)
        other.payloadString = "4006381333931"
        other.payloadData = Data("4006381333931".utf8)
        var third = truth
        third = shifted(truth, dx: 0, dy: 2000)
        third.payloadString = "9780201379624"
        third.payloadData = Data("9780201379624".utf8)
        var collection = BarcodeCollection()
        collection.add([truth])  // the default pass
        collection.add([other], isDefaultPass: false)  // one extra pass only
        collection.add([third], isDefaultPass: false)
        collection.add([third], isDefaultPass: false)  // a second extra pass agrees
        #expect(collection.observations.map(\.payloadString) == [truth.payloadString, "4006381333931", "9780201379624"])
        #expect(collection.agreed == [true, false, true])
        collection.filter { $1 }
        #expect(collection.observations.map(\.payloadString) == [truth.payloadString, "9780201379624"])
    }
}
