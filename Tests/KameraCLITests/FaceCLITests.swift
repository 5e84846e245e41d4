import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@Suite(.tier(.endToEnd)) struct FaceCLITests {
    @Test func detectFacesAddsFacesToTheDocument() throws {
        let photo = try SampleMedia.url("astronaut.png").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("faces-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try kamera(["detect", "--faces", "--landmarks", "--annotate", out.path, photo])
        #expect(run.status == 0, "\(run.stderr)")
        // Keys in the documented order.
        let faceKeys = ["\"boundingBox\"", "\"pixelBox\"", "\"confidence\"", "\"roll\"", "\"yaw\"", "\"pitch\"", "\"landmarks\""]
        let positions = faceKeys.compactMap { run.stdout.range(of: $0)?.lowerBound }
        #expect(positions.count == faceKeys.count && positions == positions.sorted(), "\(run.stdout.prefix(600))")
        let result = try #require((run.json?["results"] as? [[String: Any]])?.first)
        #expect(result["barcodes"] == nil, "faces only when only --faces is asked")
        let faces = try #require(result["faces"] as? [[String: Any]])
        #expect(faces.count == 1)
        let face = try #require(faces.first)
        let pixelBox = try #require(face["pixelBox"] as? [String: Double])
        #expect(abs(pixelBox["x"]! - 175) < 25 && abs(pixelBox["y"]! - 78) < 25 && pixelBox["width"]! > 70)
        let landmarks = try #require(face["landmarks"] as? [String: [[Double]]])
        #expect(Set(landmarks.keys) == Set(FaceLandmarks.RegionName.allCases.map(\.rawValue)))
        #expect(landmarks["leftPupil"]?.count == 1)
        #expect(abs(face["roll"] as? Double ?? 99) < 11)  // degrees
        // The annotation has red (face layer) and green (landmarks) pixels.
        let annotated = try Image(contentsOf: out).pixelBuffer.converted(to: .rgb8)
        var red = 0, green = 0
        for y in 60..<200 {
            for x in 160..<290 {
                let p = annotated.pixel(x: x, y: y)
                if p[0] > 200 && p[1] < 60 && p[2] < 60 { red += 1 }
                if p[1] > 150 && p[0] < 80 && p[2] < 80 { green += 1 }
            }
        }
        #expect(red > 100 && green > 100, "red \(red) green \(green)")
    }

    /// Each face mode finds the one face of a portrait; a mode that does not exist is a usage
    /// error naming the choices.
    @Test(arguments: ["tiled", "whole", "fast", "short"])
    func faceModesFindThePortraitFace(mode: String) throws {
        let run = try kamera(["detect", "--faces", "--face-mode", mode, try SampleMedia.url("astronaut.png").path])
        #expect(run.status == 0, "\(run.stderr)")
        let faces = try #require(((run.json?["results"] as? [[String: Any]])?.first)?["faces"] as? [[String: Any]])
        #expect(faces.count == 1, "\(mode): \(faces.count) faces")
        let box = try #require(faces.first?["pixelBox"] as? [String: Double])
        #expect(abs(box["x"]! - 175) < 25 && abs(box["y"]! - 78) < 25, "\(mode): \(box)")
    }

    /// `--face-mode short --landmarks` is Face Mesh's configuration: the same face and regions,
    /// pupils from the mesh instead of the Iris model: the same eye (the other is 0.4 of the box
    /// away), not the same point (the boxes differ too, and the points are relative to them).
    @Test func fastModesTakeFaceMeshLandmarks() throws {
        let photo = try SampleMedia.url("astronaut.png").path
        func face(_ arguments: [String]) throws -> [String: Any] {
            let run = try kamera(["detect", "--faces", "--landmarks"] + arguments + [photo])
            #expect(run.status == 0, "\(run.stderr)")
            let faces = try #require(((run.json?["results"] as? [[String: Any]])?.first)?["faces"] as? [[String: Any]])
            #expect(faces.count == 1)
            return try #require(faces.first)
        }
        func pupil(_ face: [String: Any]) throws -> [Double] {
            let landmarks = try #require(face["landmarks"] as? [String: Any])
            #expect((landmarks["outerLips"] as? [[Double]])?.isEmpty == false)
            return try #require((landmarks["leftPupil"] as? [[Double]])?.first)
        }
        let full = try pupil(face([])), mesh = try pupil(face(["--face-mode", "short"]))
        let distance = hypot(full[0] - mesh[0], full[1] - mesh[1])
        #expect(distance > 0 && distance < 0.1, "pupils \(full) and \(mesh)")
    }

    @Test func unknownFaceModeIsAUsageError() throws {
        let run = try kamera(["detect", "--faces", "--face-mode", "quick", try SampleMedia.url("astronaut.png").path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("face-mode") && run.stderr.contains("short"), "\(run.stderr)")
    }

    @Test func tableListsFacesWithAngles() throws {
        let run = try kamera(["detect", "--faces", "--format", "table", try SampleMedia.url("messi5.jpg").path])
        #expect(run.status == 0)
        #expect(run.stdout.contains("face") && run.stdout.contains("roll/yaw/pitch"))
    }

    @Test func missingModelsAreAnErrorNamingTheInstallCommand() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let run = try kamera(["detect", "--faces", try SampleMedia.url("astronaut.png").path], environment: ["KAMERA_MODELS": empty.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("missing model face_detection"))
        #expect(run.stdout.contains("scripts/models.sh"))
        let models = try kamera(["models"], environment: ["KAMERA_MODELS": empty.path])
        #expect(models.status == 1 && models.stdout.contains("missing"))
        // A corrupt copy is reported as such.
        let source = try ModelStore.default.path(of: .faceDetectionShortRange)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: empty.appendingPathComponent(KameraModel.faceDetectionShortRange.fileName))
        let corrupt = try kamera(
            ["detect", "--faces", try SampleMedia.url("astronaut.png").path], environment: ["KAMERA_MODELS": empty.path])
        #expect(corrupt.status == 1 && corrupt.stdout.contains("checksum"), "\(corrupt.stdout)")
    }

    @Test func modelsListsEveryModelVerified() throws {
        let run = try kamera(["models", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let models = try #require(run.json?["models"] as? [[String: Any]])
        #expect(models.count == KameraModel.allCases.count)
        #expect(models.allSatisfy { $0["verified"] as? Bool == true && ($0["size"] as? Int ?? 0) > 100_000 })
    }
}
