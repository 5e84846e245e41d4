import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `GeneratePersonSegmentationRequest` on real photos: people are in the mask where the face
/// detector finds them, and a street of buildings has none. (The selfie models assume a person
/// in view: on fruit or a baboon's face they mark 10–40 % of the photo, with LiteRT and
/// MediaPipe's preprocessing as with Kamera's.)
@Suite("Person segmentation on real photos", .tier(.models))
struct PersonSegmentationTests {
    @Test("Each quality level: its size, the person in the mask, the background out of it")
    func qualityLevels() async throws {
        let photo = try SampleMedia.photo("messi5.jpg")
        let face = try #require(try await DetectFaceRectanglesRequest().perform(on: photo).first)
        for (quality, width, height) in [
            (GeneratePersonSegmentationRequest.QualityLevel.fast, 256, 144), (.balanced, 256, 256),
            (.accurate, photo.width, photo.height),
        ] {
            let mask = try await GeneratePersonSegmentationRequest(qualityLevel: quality).perform(on: photo)
            #expect(mask.width == width && mask.height == height, "\(quality)")
            #expect(mask.values.count == width * height && mask.values.allSatisfy { (0...1).contains($0) })
            // Under the face, in the mask's own pixels.
            let box = face.boundingBox.toImageCoordinates(face.imageSize)
            let (sx, sy) = (Double(width) / Double(photo.width), Double(height) / Double(photo.height))
            var inside = 0, total = 0
            for y in Int(box.minY * sy)..<Int(box.maxY * sy) {
                for x in Int(box.minX * sx)..<Int(box.maxX * sx) {
                    total += 1
                    if mask.values[y * width + x] >= 0.5 { inside += 1 }
                }
            }
            #expect(total > 0 && Double(inside) / Double(total) >= 0.8, "\(quality): \(inside) of \(total) face pixels")
            // A player, not the pitch: some of the photo, far from all of it.
            #expect(mask.coverage > 0.02 && mask.coverage < 0.6, "\(quality): coverage \(mask.coverage)")
            let bounds = try #require(mask.personBounds)
            #expect(bounds.width < Double(width) * 0.9, "\(quality): the person spans \(bounds)")
            #expect(mask.pixelBuffer.width == width && mask.pixelBuffer.format == .gray8)
        }
    }

    @Test("The accurate mask at full size agrees with the model's own mask, stretched")
    func accurateAgreesWithBalanced() async throws {
        let photo = try SampleMedia.photo("messi5.jpg")
        let accurate = try await GeneratePersonSegmentationRequest(qualityLevel: .accurate).perform(on: photo)
        let balanced = try await GeneratePersonSegmentationRequest(qualityLevel: .balanced, maskSize: .image).perform(on: photo)
        var both = 0, either = 0
        for (a, b) in zip(accurate.values, balanced.values) {
            if a >= 0.5 && b >= 0.5 { both += 1 }
            if a >= 0.5 || b >= 0.5 { either += 1 }
        }
        #expect(either > 0 && Double(both) / Double(either) >= 0.85, "IoU \(Double(both) / Double(max(either, 1)))")
    }

    @Test("No person: a street of buildings gives an (almost) empty mask at every level")
    func noPerson() async throws {
        let photo = try SampleMedia.photo("building.jpg")
        for quality in GeneratePersonSegmentationRequest.QualityLevel.allCases {
            let mask = try await GeneratePersonSegmentationRequest(qualityLevel: quality).perform(on: photo)
            #expect(mask.coverage < 0.01, "\(quality): coverage \(mask.coverage)")
        }
    }

    @Test("A 1×1 image gets a mask; a missing model is a typed error naming the install script")
    func badInput() async throws {
        let tiny = Image(pixelBuffer: PixelBuffer(width: 1, height: 1, format: .rgb8, filledWith: [200, 150, 120]))
        let mask = try await GeneratePersonSegmentationRequest(qualityLevel: .accurate).perform(on: tiny)
        #expect(mask.width == 1 && mask.height == 1)
        var request = GeneratePersonSegmentationRequest()
        request.modelStore = ModelStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("no-models-here"))
        await #expect(throws: KameraError.self) { try await request.perform(on: tiny) }
    }
}
