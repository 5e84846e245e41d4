import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// Translational and homographic registration on real photos under known motions, with a
/// second shot's light, blur and noise and 30 % of the view gone.
@Suite(.tier(.unit)) struct ImageRegistrationTests {
    static let photos = ["building.jpg", "board.jpg", "fruits.jpg", "home.jpg"]

    @Test("Translation: within half a pixel after 30 % overlap loss, light change, blur, noise", arguments: 0..<4)
    func translation(_ index: Int) async throws {
        let pair = try RegistrationPair.make(photo: Self.photos[index], seed: UInt64(2000 + index), homographic: false)
        let result = try await TranslationalImageRegistrationRequest(targetedImage: Image(pixelBuffer: pair.moving))
            .perform(on: pair.reference)
        let t = result.alignmentTransform
        let error = pair.cornerError(of: PerspectiveTransform(matrix: [1, 0, t.x, 0, 1, t.y, 0, 0, 1]))
        #expect(error <= 0.6, "\(Self.photos[index]): \(error) px")
        #expect(result.confidence > 0.05)
    }

    @Test("Homography: within 2 pixels at up to 30° turn, scale, tilt and 30 % loss (bench: 11/12 within 1)", arguments: 0..<4)
    func homography(_ index: Int) async throws {
        let pair = try RegistrationPair.make(photo: Self.photos[index], seed: UInt64(2100 + index), homographic: true)
        let result = try await HomographicImageRegistrationRequest(targetedImage: Image(pixelBuffer: pair.moving))
            .perform(on: pair.reference)
        let error = pair.cornerError(of: result.warpTransform)
        #expect(error <= 2, "\(Self.photos[index]): \(error) px")
        #expect(result.confidence > 0.2)
    }

    @Test("Frame to frame: nil on the first frame, then the motion from the previous frame")
    func tracking() async throws {
        let pair = try RegistrationPair.make(photo: "building.jpg", seed: 2000, homographic: false)
        let translational = TrackTranslationalImageRegistrationRequest()
        let homographic = TrackHomographicImageRegistrationRequest()
        #expect(try await translational.perform(on: pair.moving) == nil)
        #expect(try await homographic.perform(on: pair.moving) == nil)
        // The second frame is the reference: the result maps the previous (moving) onto it.
        let shift = try #require(try await translational.perform(on: pair.reference))
        let t = shift.alignmentTransform
        #expect(pair.cornerError(of: PerspectiveTransform(matrix: [1, 0, t.x, 0, 1, t.y, 0, 0, 1])) <= 0.6)
        let warp = try #require(try await homographic.perform(on: pair.reference))
        #expect(pair.cornerError(of: warp.warpTransform) <= 2)
    }

    @Test("Tiny, one-colour and unrelated images: a typed error or a low-confidence answer, never a crash")
    func badInput() async throws {
        let tiny = PixelBuffer(width: 4, height: 4, format: .gray8)
        let photo = try SampleMedia.photo("fruits.jpg").pixelBuffer.converted(to: .gray8)
        for request in [TranslationalImageRegistrationRequest(targetedImage: Image(pixelBuffer: tiny))] {
            await #expect {
                _ = try await request.perform(on: photo)
            } throws: { ($0 as? KameraError)?.code == .geometryEngineFailure }
        }
        await #expect {
            _ = try await HomographicImageRegistrationRequest(targetedImage: Image(pixelBuffer: tiny)).perform(on: photo)
        } throws: { ($0 as? KameraError)?.code == .geometryEngineFailure }
        // One colour against a photo: no features, nothing to correlate; it must answer.
        let flat = PixelBuffer(width: 320, height: 240, format: .gray8, filledWith: [90])
        let plain = try await HomographicImageRegistrationRequest(targetedImage: Image(pixelBuffer: flat)).perform(on: photo)
        #expect(plain.confidence < 0.5)
        _ = try await TranslationalImageRegistrationRequest(targetedImage: Image(pixelBuffer: flat)).perform(on: flat)
    }
}
