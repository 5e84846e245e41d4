import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `DetectHumanBodyPoseRequest` and `DetectHumanRectanglesRequest` on real photos, checked
/// against an independent detector: each pose's nose lies in a face the face detector found,
/// and the body's joints stand in the order a body has them.
@Suite("Body pose and people on real photos", .tier(.models))
struct BodyPoseTests {
    func faces(_ image: Image) async throws -> [PixelRect] {
        try await DetectFaceRectanglesRequest().perform(on: image).map { $0.boundingBox.toImageCoordinates($0.imageSize) }
    }

    @Test(
        "A footballer mid-kick and a player catching a ball: every joint, the nose in the face, the body in order",
        arguments: ["messi5.jpg", "basketball1.png"])
    func onePerson(photo name: String) async throws {
        let photo = try SampleMedia.photo(name)
        let pose = try #require(try await DetectHumanBodyPoseRequest().perform(on: photo).first)
        #expect(pose.confidence > 0.8)
        let joints = pose.recognizedPoints()
        #expect(joints.count == 19 && pose.landmarks.count == 33)
        func at(_ joint: HumanBodyPoseObservation.JointName) -> PixelPoint { joints[joint]!.pixelLocation }
        // The nose inside a face found by BlazeFace.
        let faceBoxes = try await faces(photo)
        #expect(faceBoxes.contains { $0.insetBy(-4).contains(at(.nose)) }, "\(name): nose \(at(.nose)), faces \(faceBoxes)")
        // Head above neck above root (both people are upright from the hips up), the neck between
        // the shoulders and the root between the hips.
        #expect(at(.nose).y < at(.neck).y && at(.neck).y < at(.root).y)
        #expect(abs(at(.neck).x - (at(.leftShoulder).x + at(.rightShoulder).x) / 2) < 1)
        #expect(abs(at(.root).y - (at(.leftHip).y + at(.rightHip).y) / 2) < 1)
        // Normalized points are the pixel ones with Vision's lower-left origin.
        let nose = try #require(joints[.nose])
        #expect(abs(nose.location.y - (1 - nose.pixelLocation.y / pose.imageSize.height)) < 1e-9)
        #expect(pose.recognizedPoints(.leftArm).keys.sorted { $0.rawValue < $1.rawValue } == [.leftElbow, .leftShoulder, .leftWrist])
        // The person's box, from the people request: the upper body inside the whole body.
        let upper = try #require(try await DetectHumanRectanglesRequest().perform(on: photo).first)
        let whole = try #require(try await DetectHumanRectanglesRequest(upperBodyOnly: false).perform(on: photo).first)
        #expect(upper.pixelBox.contains(at(.nose)) && whole.pixelBox.contains(at(.root)))
        #expect(whole.pixelBox.height > upper.pixelBox.height && upper.upperBodyOnly && !whole.upperBodyOnly)
    }

    @Test(
        "In metres: the root at the origin, the head above it, a human height, the joints where the 2-D pose has them",
        arguments: ["messi5.jpg", "basketball1.png"])
    func inMetres(photo name: String) async throws {
        let photo = try SampleMedia.photo(name)
        let body = try #require(try await DetectHumanBodyPose3DRequest().perform(on: photo).first)
        let flat = try #require(try await DetectHumanBodyPoseRequest(maximumPeople: 1).perform(on: photo).first)
        #expect(body.recognizedPoints().count == 17 && body.recognizedPoints(.leftArm).count == 3)
        func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        #expect(length(body.recognizedPoint(.root).position) < 1e-9)
        // Upright from the hips up: the head well above the root, the top of the head above its centre.
        let head = body.recognizedPoint(.centerHead).position, top = body.recognizedPoint(.topHead).position
        #expect(head.y > 0.4 && top.y > head.y, "\(name): head \(head), top \(top)")
        let shoulders = length(body.recognizedPoint(.leftShoulder).position - body.recognizedPoint(.rightShoulder).position)
        #expect((0.2...0.6).contains(shoulders), "\(name): shoulders \(shoulders) m apart")
        #expect((1.3...2.2).contains(body.bodyHeight), "\(name): height \(body.bodyHeight) m")
        #expect(body.heightEstimation == .reference)
        // The image positions are the 2-D request's.
        let wrist = body.pointInImage(.leftWrist), wrist2D = flat.recognizedPoint(.leftWrist).location
        #expect(abs(wrist.x - wrist2D.x) < 1e-9 && abs(wrist.y - wrist2D.y) < 1e-9)
        await #expect(throws: KameraError.self) { try await DetectHumanBodyPose3DRequest(maximumPeople: 0).perform(on: photo) }
        #expect(try await DetectHumanBodyPose3DRequest().perform(on: try SampleMedia.photo("building.jpg")).isEmpty)
    }

    @Test("Turned a quarter: the pose follows (the landmark model looks at the body upright)")
    func quarterTurn() async throws {
        let photo = try SampleMedia.photo("messi5.jpg")
        let turned = Image(pixelBuffer: photo.pixelBuffer.rotated(byQuarterTurns: 1))
        let pose = try #require(try await DetectHumanBodyPoseRequest().perform(on: turned).first)
        let nose = try #require(pose.recognizedPoints(.face)[.nose])
        #expect(nose.confidence > 0.5)
        let faceBoxes = try await faces(turned)
        #expect(faceBoxes.contains { $0.insetBy(-6).contains(nose.pixelLocation) }, "nose \(nose.pixelLocation), faces \(faceBoxes)")
    }

    @Test(
        "Lying on either side: a second look from the landmarks' own alignment puts the joints where the upright photo's pose has them",
        arguments: [1, 3])
    func lying(quarterTurns: Int) async throws {
        let photo = try SampleMedia.photo("messi5.jpg")
        let upright = try #require(try await DetectHumanBodyPoseRequest(maximumPeople: 1).perform(on: photo).first)
        let turned = Image(pixelBuffer: photo.pixelBuffer.rotated(byQuarterTurns: quarterTurns))
        let pose = try #require(try await DetectHumanBodyPoseRequest(maximumPeople: 1).perform(on: turned).first)
        let (width, height) = (Double(photo.pixelBuffer.width), Double(photo.pixelBuffer.height))
        // Clockwise: (x, y) → (h − 1 − y, x); three quarters: (x, y) → (y, w − 1 − x).
        func moved(_ p: PixelPoint) -> PixelPoint {
            quarterTurns == 1 ? PixelPoint(x: height - 1 - p.y, y: p.x) : PixelPoint(x: p.y, y: width - 1 - p.x)
        }
        let torso = upright.recognizedPoint(.neck).pixelLocation.distance(to: upright.recognizedPoint(.root).pixelLocation)
        var distances: [Double] = []
        for (name, point) in upright.recognizedPoints() where point.confidence >= 0.5 {
            distances.append(pose.recognizedPoint(name).pixelLocation.distance(to: moved(point.pixelLocation)) / torso)
        }
        // Nearly every joint within a twentieth of the torso (neck to root): 16 and 17 of 19
        // when written; from the detector's rough turn alone, 12 and 10.
        let close = distances.filter { $0 <= 0.05 }.count
        #expect(distances.count >= 15 && 5 * close >= 4 * distances.count, "\(distances)")
    }

    @Test("Two photos side by side: the closer looks find both players; the whole image alone finds only one")
    func sideBySide() async throws {
        let left = try SampleMedia.photo("messi5.jpg").pixelBuffer.converted(to: .rgb8).packed()
        let right = try SampleMedia.photo("basketball1.png").pixelBuffer.converted(to: .rgb8).packed()
        var canvas = PixelBuffer(width: left.width + right.width, height: max(left.height, right.height), format: .rgb8)
        for (part, x0) in [(left, 0), (right, left.width)] {
            for y in 0..<part.height {
                let row = part.bytes[(y * part.bytesPerRow)..<(y * part.bytesPerRow + part.width * 3)]
                let at = canvas.index(x: x0, y: y)
                canvas.bytes.replaceSubrange(at..<(at + part.width * 3), with: row)
            }
        }
        let image = Image(pixelBuffer: canvas)
        let poses = try await DetectHumanBodyPoseRequest().perform(on: image)
        let roots = poses.map { $0.recognizedPoint(.root).pixelLocation.x }
        #expect(roots.contains { $0 < Double(left.width) } && roots.contains { $0 > Double(left.width) }, "roots at x = \(roots)")
        var wholeOnly = DetectHumanBodyPoseRequest()
        wholeOnly.scansTiles = false
        #expect(try await wholeOnly.perform(on: image).count < 2)
        // The people boxes come from the same search.
        let centres = try await DetectHumanRectanglesRequest().perform(on: image).map { $0.pixelBox.minX + $0.pixelBox.width / 2 }
        #expect(
            centres.contains { $0 < Double(left.width) } && centres.contains { $0 > Double(left.width) }, "box centres at x = \(centres)")
    }

    @Test("No people in a street of buildings; limits out of range and a missing model are typed errors")
    func noneAndBadInput() async throws {
        let street = try SampleMedia.photo("building.jpg")
        #expect(try await DetectHumanBodyPoseRequest().perform(on: street).isEmpty)
        #expect(try await DetectHumanRectanglesRequest().perform(on: street).isEmpty)
        let tiny = Image(pixelBuffer: PixelBuffer(width: 2, height: 1, format: .rgb8, filledWith: [90, 90, 90]))
        #expect(try await DetectHumanBodyPoseRequest().perform(on: tiny).isEmpty)
        await #expect(throws: KameraError.self) { try await DetectHumanBodyPoseRequest(maximumPeople: 0).perform(on: tiny) }
        var noThreads = DetectHumanBodyPoseRequest()
        noThreads.maximumThreads = 0
        await #expect(throws: KameraError.self) { try await noThreads.perform(on: tiny) }
        var request = DetectHumanBodyPoseRequest()
        request.modelStore = ModelStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("no-models-here"))
        await #expect(throws: KameraError.self) { try await request.perform(on: tiny) }
    }
}

extension PixelRect {
    fileprivate func insetBy(_ amount: Double) -> PixelRect {
        PixelRect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }
}
