import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@Suite("Face landmarks and head pose", .tier(.models))
struct FaceLandmarkTests {
    /// Whether `p` lies inside the polygon (even-odd rule).
    func inside(_ p: PixelPoint, _ polygon: [PixelPoint]) -> Bool {
        var result = false
        var j = polygon.count - 1
        for i in polygon.indices {
            let a = polygon[i], b = polygon[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { result.toggle() }
            j = i
        }
        return result
    }

    /// Vision's shape: one property per region, each with its points normalized to the face
    /// box, how they connect, and `pointsInImageCoordinates` for any image size and origin.
    @Test func regionsAsVisionHasThem() async throws {
        let photo = try SampleMedia.photo("astronaut.png")
        let face = try #require(try await DetectFaceLandmarksRequest().perform(on: photo).first)
        let landmarks: FaceObservation.Landmarks2D = try #require(face.landmarks)
        let size = photo.pixelBuffer.size
        for name in FaceLandmarks.RegionName.allCases {
            let region = landmarks.region(named: name)
            #expect(region.points == landmarks.regions[name] && region.pointCount > 0)
            let upperLeft = region.pointsInImageCoordinates(size, origin: .upperLeft)
            for (a, b) in zip(upperLeft, landmarks.pixelPoints(name)) { #expect(a.distance(to: b) < 1e-6) }
            let lowerLeft = region.pointsInImageCoordinates(size)
            for (a, b) in zip(lowerLeft, upperLeft) { #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - (size.height - b.y)) < 1e-9) }
            // At half the size, the same places at half the coordinates.
            let half = region.pointsInImageCoordinates(Size(width: size.width / 2, height: size.height / 2), origin: .upperLeft)
            for (a, b) in zip(half, upperLeft) { #expect(abs(a.x * 2 - b.x) < 1e-9 && abs(a.y * 2 - b.y) < 1e-9) }
        }
        #expect(landmarks.leftEye.pointsClassification == .closedPath && landmarks.outerLips.pointsClassification == .closedPath)
        #expect(landmarks.faceContour.pointsClassification == .openPath && landmarks.leftPupil.pointsClassification == .disconnected)
        #expect(landmarks.leftPupil.pointCount == 1 && landmarks.leftEye.name == .leftEye)
        #expect(
            landmarks.allPoints.pointCount == FaceLandmarks.RegionName.allCases.map { landmarks.region(named: $0).pointCount }.reduce(0, +))
    }

    /// `precisionEstimatesPerPoint`: nil unless asked for; then one per point, small on a
    /// sharp frontal face, and larger where the face is hidden or blurred.
    @Test func precisionEstimates() async throws {
        let photo = try SampleMedia.photo("astronaut.png")
        let plain = try #require(try await DetectFaceLandmarksRequest().perform(on: photo).first?.landmarks)
        #expect(plain.leftEye.precisionEstimatesPerPoint == nil && plain.allPoints.precisionEstimatesPerPoint == nil)

        var request = DetectFaceLandmarksRequest()
        request.estimatesPrecision = true
        let face = try #require(try await request.perform(on: photo).first)
        let sharp = try #require(face.landmarks)
        for name in FaceLandmarks.RegionName.allCases {
            let region = sharp.region(named: name)
            let estimates = try #require(region.precisionEstimatesPerPoint, "\(name)")
            #expect(estimates.count == region.pointCount && estimates.allSatisfy { $0.isFinite && $0 >= 0 })
        }
        #expect(sharp.allPoints.precisionEstimatesPerPoint?.count == sharp.allPoints.pointCount)
        func mean(_ region: FaceLandmarks.Region) -> Float {
            let e = region.precisionEstimatesPerPoint ?? []
            return e.reduce(0, +) / Float(max(e.count, 1))
        }
        #expect(mean(sharp.allPoints) < 0.02, "a sharp frontal face: \(mean(sharp.allPoints)) of its size")

        // The mouth covered by a flat patch: the lips become a guess and spread more.
        var covered = photo.pixelBuffer.converted(to: .rgb8)
        let lips = sharp.pixelPoints(.outerLips)
        let (minX, maxX) = (lips.map(\.x).min()!, lips.map(\.x).max()!), (minY, maxY) = (lips.map(\.y).min()!, lips.map(\.y).max()!)
        for y in Int(minY - 12)..<Int(maxY + 12) {
            for x in Int(minX - 12)..<Int(maxX + 12) { for c in 0..<3 { covered.bytes[y * covered.bytesPerRow + x * 3 + c] = 128 } }
        }
        request.inputFaceObservations = [face]
        let hidden = try #require(try await request.perform(on: covered).first?.landmarks)
        #expect(
            mean(hidden.outerLips) > mean(sharp.outerLips) * 1.5,
            "covered lips \(mean(hidden.outerLips)) vs visible \(mean(sharp.outerLips))")
    }

    @Test("Astronaut: every region, pupils inside the eyes, anatomy in order, frontal pose")
    func astronaut() async throws {
        let faces = try await DetectFaceLandmarksRequest().perform(on: try SampleMedia.photo("astronaut.png"))
        #expect(faces.count == 1)
        let face = try #require(faces.first)
        let landmarks = try #require(face.landmarks)
        #expect(landmarks.meshPoints.count == 468)
        for region in FaceLandmarks.RegionName.allCases { #expect(!(landmarks.regions[region] ?? []).isEmpty, "\(region)") }
        let leftEye = landmarks.pixelPoints(.leftEye), rightEye = landmarks.pixelPoints(.rightEye)
        let leftPupil = try #require(landmarks.pixelPoints(.leftPupil).first)
        let rightPupil = try #require(landmarks.pixelPoints(.rightPupil).first)
        #expect(inside(leftPupil, leftEye) && inside(rightPupil, rightEye))
        // The subject's left eye is on the image's right.
        #expect(leftPupil.x > rightPupil.x)
        // Hand-measured pupils in astronaut.png (pixels).
        #expect(leftPupil.distance(to: PixelPoint(x: 247, y: 104)) < 4, "\(leftPupil)")
        #expect(rightPupil.distance(to: PixelPoint(x: 205, y: 103)) < 4, "\(rightPupil)")
        // Eyebrows above eyes above nose tip above lips above chin (image y grows down).
        func meanY(_ r: FaceLandmarks.RegionName) -> Double {
            let p = landmarks.pixelPoints(r); return p.map(\.y).reduce(0, +) / Double(p.count)
        }
        #expect(meanY(.leftEyebrow) < meanY(.leftEye))
        #expect(meanY(.leftEye) < meanY(.noseCrest))
        #expect(meanY(.noseCrest) < meanY(.outerLips))
        #expect(meanY(.outerLips) < landmarks.pixelPoints(.faceContour).map(\.y).max()!)
        // Regions are normalized to the face box (a little outside for the contour is fine).
        for p in landmarks.allPoints.points { #expect(p.x > -0.3 && p.x < 1.3 && p.y > -0.3 && p.y < 1.3) }
        // She faces the camera.
        #expect(
            abs(face.roll.inRadians) < 0.12 && abs(face.yaw.inRadians) < 0.2 && abs(face.pitch.inRadians) < 0.3,
            "\(face.roll) \(face.yaw) \(face.pitch)")
    }

    @Test("Rotated photo: landmarks follow the rotation within 4 % of the eye distance; mesh roll matches", arguments: [25.0, -40])
    func rotationEquivariance(degrees: Double) async throws {
        let photo = try SampleMedia.photo("astronaut.png").pixelBuffer.converted(to: .rgb8)
        let uprightFace = try #require(try await DetectFaceLandmarksRequest().perform(on: photo).first)
        let upright = try #require(uprightFace.landmarks)
        let (rotated, toSource) = photo.rotated(byDegrees: degrees, fill: 0)
        let faces = try await DetectFaceLandmarksRequest().perform(on: rotated)
        let face = try #require(faces.first)
        let turned = try #require(face.landmarks)
        let eyeDistance = upright.meshPoints[263].point.distance(to: upright.meshPoints[33].point)
        var total = 0.0
        for i in 0..<468 { total += toSource.apply(turned.meshPoints[i].point).distance(to: upright.meshPoints[i].point) }
        let meanError = total / 468 / eyeDistance
        #expect(meanError < 0.04, "mean landmark error \(meanError) of the eye distance")
        // rotated(byDegrees:) turns the picture clockwise on screen; roll is counter-clockwise.
        let expected = uprightFace.roll.inRadians - degrees * .pi / 180
        #expect(angleDifference(face.roll.inRadians, expected) < 3, "roll \(face.roll.inDegrees)° vs \(expected * 180 / .pi)°")
    }

    @Test("Yaw: the cameraman turns toward the image's right; his mirror image toward the left")
    func yawSign() async throws {
        let photo = try SampleMedia.photo("camera.png").pixelBuffer.converted(to: .rgb8)
        let face = try #require(try await DetectFaceLandmarksRequest().perform(on: photo).first)
        #expect(face.yaw.inRadians > 0.3, "yaw \(face.yaw)")
        let mirrored = try #require(try await DetectFaceLandmarksRequest().perform(on: photo.mirrored()).first)
        #expect(mirrored.yaw.inRadians < -0.3, "mirrored yaw \(mirrored.yaw)")
        #expect(abs(face.yaw.inRadians + mirrored.yaw.inRadians) < 0.1)
        // The detector keypoints give the same sign.
        let quick = try #require(try await DetectFaceRectanglesRequest().perform(on: photo).first)
        #expect(quick.yaw.inRadians > 0.2)
    }

    /// Detection alone and the landmark request give one estimate of the head's angles, not
    /// two (messi5 once said yaw 64° from the keypoints and 25° from the mesh).
    @Test(
        "Detection and landmarks agree on yaw and pitch within 10°, roll within 12° (15° near profile)",
        arguments: ["messi5.jpg", "astronaut.png", "camera.png"])
    func anglesAgree(photo name: String) async throws {
        let photo = try SampleMedia.photo(name)
        let detected = try #require(try await DetectFaceRectanglesRequest().perform(on: photo).first)
        let landmarked = try #require(try await DetectFaceLandmarksRequest().perform(on: photo).first)
        func degrees(_ angle: Measurement<UnitAngle>) -> Double { angle.inDegrees }
        #expect(abs(degrees(detected.yaw) - degrees(landmarked.yaw)) < 10, "yaw \(degrees(detected.yaw)) vs \(degrees(landmarked.yaw))")
        #expect(
            abs(degrees(detected.pitch) - degrees(landmarked.pitch)) < 10,
            "pitch \(degrees(detected.pitch)) vs \(degrees(landmarked.pitch))")
        // Roll is the eye line; near profile (the cameraman, yaw 43°) the far eye hides behind
        // the nose and the line is poorly defined: the refined eyes put it 13° from the
        // detector's keypoints there (−5° against +7.5°).
        let rollTolerance = abs(degrees(landmarked.yaw)) < 40 ? 12.0 : 15.0
        #expect(
            abs(degrees(detected.roll) - degrees(landmarked.roll)) < rollTolerance,
            "roll \(degrees(detected.roll)) vs \(degrees(landmarked.roll))")
    }

    @Test("Faces given as input are refined, not detected again")
    func inputObservations() async throws {
        let image = try SampleMedia.photo("astronaut.png")
        let faces = try await DetectFaceRectanglesRequest().perform(on: image)
        let refined = try await DetectFaceLandmarksRequest(inputFaceObservations: faces).perform(on: image)
        #expect(refined.count == faces.count)
        #expect(refined.first?.landmarks != nil)
        #expect(refined.first?.pixelBox == faces.first?.pixelBox)
        // A caller's own box without keypoints works too.
        var bare = try #require(faces.first)
        bare.keypoints = []
        let fromBox = try await DetectFaceLandmarksRequest(inputFaceObservations: [bare]).perform(on: image)
        #expect(fromBox.first?.landmarks?.meshPoints.count == 468)
    }
}
