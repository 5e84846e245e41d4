import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `regionOfInterest` on every request: only the region is analysed, and results are
/// relative to it as in Vision, placed back with `toImageCoordinates(from:imageSize:)`.
@Suite(.tier(.models)) struct RegionOfInterestTests {
    @Test("Codes: only the region is read; its results map back onto the full image's")
    func codes() async throws {
        var composer = SceneComposer(background: try SampleMedia.photo("building.jpg").pixelBuffer, width: 800, height: 600)
        let qr = SamplePayload.make(.qr, index: 3), ean = SamplePayload.make(.ean13, index: 3)
        try composer.place(.qr, payload: qr.input, pose: CodePose(center: PixelPoint(x: 200, y: 200), width: 220, rotation: 15))
        try composer.place(.ean13, payload: ean.input, pose: CodePose(center: PixelPoint(x: 560, y: 420), width: 330))
        let image = composer.render()
        let full = try await DetectBarcodesRequest().perform(on: image)
        #expect(Set(full.compactMap(\.payloadString)) == [qr.expectedText, ean.expectedText])

        var request = DetectBarcodesRequest()
        // The left half, lower-left origin: the QR code only.
        request.regionOfInterest = NormalizedRect(x: 0, y: 0, width: 0.5, height: 1)
        let left = try await request.perform(on: image)
        #expect(left.map(\.payloadString) == [qr.expectedText])
        let code = try #require(left.first), reference = try #require(full.first { $0.payloadString == qr.expectedText })
        #expect(code.imageSize == Size(width: 400, height: 600), "results are in the region's frame")
        let placed = code.boundingBox.toImageCoordinates(from: request.regionOfInterest, imageSize: image.size)
        for (a, b) in [
            (placed.x, reference.pixelBounds.x), (placed.y, reference.pixelBounds.y),
            (placed.width, reference.pixelBounds.width), (placed.height, reference.pixelBounds.height),
        ] {
            #expect(abs(a - b) < 1.5, "placed \(placed) vs full-image \(reference.pixelBounds)")
        }
        // The top-right quarter holds neither code whole.
        request.regionOfInterest = NormalizedRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
        #expect(try await request.perform(on: image).isEmpty)
    }

    @Test("Faces and landmarks: the face in the region, relative to it; the other is not looked at")
    func faces() async throws {
        let head = try FaceScene.astronautHead()
        var scene = try FaceScene(background: "fruits.jpg", width: 1280, height: 720)
        scene.place(head, faceCenter: PixelPoint(x: 320, y: 360), faceSide: 180, degrees: 0)
        scene.place(head, faceCenter: PixelPoint(x: 960, y: 360), faceSide: 180, degrees: 10)
        let full = try await DetectFaceRectanglesRequest().perform(on: scene.image)
        #expect(full.count == 2)
        let right = try #require(full.max { $0.pixelBox.x < $1.pixelBox.x })

        let region = NormalizedRect(x: 0.55, y: 0.1, width: 0.45, height: 0.8)
        var faces = DetectFaceRectanglesRequest()
        faces.regionOfInterest = region
        var landmarks = DetectFaceLandmarksRequest()
        landmarks.regionOfInterest = region
        let (found, marked) = try await ImageRequestHandler(scene.image).perform(faces, landmarks)
        #expect(found.count == 1 && marked.count == 1)
        for face in found + marked {
            let placed = face.boundingBox.toImageCoordinates(from: region, imageSize: scene.image.size)
            #expect(
                abs(placed.center.x - right.pixelBox.center.x) < 4 && abs(placed.center.y - right.pixelBox.center.y) < 4
                    && abs(placed.width - right.pixelBox.width) < 6, "placed \(placed) vs \(right.pixelBox)")
        }
        #expect(marked.first?.landmarks?.leftPupil.pointCount == 1)
    }

    @Test("A region outside the image is a typed error for every request; full-image helpers round-trip")
    func invalidRegionsAndHelpers() async throws {
        let image = PixelBuffer(width: 64, height: 48, format: .gray8, filledWith: [200])
        for region in [
            NormalizedRect(x: 0.8, y: 0, width: 0.5, height: 1), NormalizedRect(x: 0, y: 0, width: 0, height: 1),
            NormalizedRect(x: -0.1, y: 0, width: 0.5, height: 0.5),
        ] {
            var codes = DetectBarcodesRequest()
            codes.regionOfInterest = region
            var text = RecognizeTextRequest()
            text.regionOfInterest = region
            var faces = DetectFaceRectanglesRequest()
            faces.regionOfInterest = region
            let (c, t, f) = (codes, text, faces)
            for perform in [
                { _ = try await c.perform(on: image) }, { _ = try await t.perform(on: image) },
                { _ = try await f.perform(on: image) },
            ] as [@Sendable () async throws -> Void] {
                await #expect { try await perform() } throws: { ($0 as? KameraError)?.code == .invalidArgument }
            }
        }
        let size = Size(width: 640, height: 480), region = NormalizedRect(x: 0.25, y: 0.1, width: 0.5, height: 0.6)
        let pixels = PixelRect(x: 200, y: 150, width: 80, height: 60)
        let relative = NormalizedRect(imageRect: pixels, in: size, normalizedTo: region)
        let back = relative.toImageCoordinates(from: region, imageSize: size)
        #expect(abs(back.x - 200) < 1e-9 && abs(back.y - 150) < 1e-9 && abs(back.width - 80) < 1e-9 && abs(back.height - 60) < 1e-9)
        let corner = NormalizedPoint(x: 0, y: 1).toImageCoordinates(from: region, imageSize: size)
        #expect(abs(corner.x - 160) < 1e-9 && abs(corner.y - 144) < 1e-9, "the region's top-left corner: \(corner)")
    }
}
