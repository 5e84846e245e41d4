import Foundation
import KameraCore
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraImageIO

@Suite(.tier(.unit)) struct CodecTests {
    @Test func decodesRealPhotoFromPackages() throws {
        let image = try SampleMedia.photo("messi5.jpg")
        #expect(image.width == 548 && image.height == 342)
        #expect(image.pixelBuffer.format == .rgb8)
        // The football pitch fills the lower half: green dominates there.
        let p = image.pixelBuffer.pixel(x: 100, y: 300)
        #expect(p[1] > p[0] && p[1] > p[2])
        let astronautFree = try SampleMedia.photo("baboon.jpg")
        #expect(astronautFree.width == 512 && astronautFree.height == 512)
    }

    @Test(arguments: [PixelFormat.gray8, .rgb8, .rgba8])
    func pngRoundTripIsExact(format: PixelFormat) throws {
        let original = asymmetricPattern(width: 37, height: 23, format: format)
        let data = try ImageEncoder.encode(original, as: .png)
        #expect(ImageFileFormat.detect(data) == .png)
        let decoded = try ImageDecoder.decode(data).pixelBuffer
        #expect(decoded.format == format)
        #expect(decoded == original)
    }

    @Test func pngKeepsStrideAndBGRA() throws {
        let bgra = try PixelBuffer(width: 2, height: 1, format: .bgra8, bytesPerRow: 12, bytes: [1, 2, 3, 255, 4, 5, 6, 128, 0, 0, 0, 0])
        let decoded = try ImageDecoder.decode(ImageEncoder.encode(bgra, as: .png)).pixelBuffer
        #expect(decoded.format == .rgba8)
        #expect(decoded.bytes == [3, 2, 1, 255, 6, 5, 4, 128])
    }

    @Test func jpegRoundTripIsClose() throws {
        let photo = try SampleMedia.photo("messi5.jpg").pixelBuffer
        let data = try ImageEncoder.encode(photo, as: .jpeg(quality: 90))
        #expect(ImageFileFormat.detect(data) == .jpeg)
        let decoded = try ImageDecoder.decode(data).pixelBuffer
        #expect(decoded.width == photo.width && decoded.height == photo.height)
        #expect(psnr(decoded, photo) > 30)
        let gray = try ImageDecoder.decode(ImageEncoder.encode(photo.converted(to: .gray8), as: .jpeg(quality: 90))).pixelBuffer
        #expect(gray.format == .gray8)
    }

    @Test func webpLossyAndLossless() throws {
        let photo = try SampleMedia.photo("messi5.jpg").pixelBuffer
        let lossless = try ImageEncoder.encode(photo, as: .webpLossless)
        #expect(ImageFileFormat.detect(lossless) == .webp)
        #expect(try ImageDecoder.decode(lossless).pixelBuffer == photo)
        let lossy = try ImageDecoder.decode(ImageEncoder.encode(photo, as: .webp(quality: 90))).pixelBuffer
        #expect(psnr(lossy, photo) > 30)
        // Non-zero alpha: libwebp may rewrite the colour of fully transparent pixels.
        var withAlpha = asymmetricPattern(width: 20, height: 10, format: .rgba8)
        for y in 0..<10 { for x in 0..<20 { withAlpha.bytes[y * 80 + x * 4 + 3] = UInt8(20 + x * 10) } }
        let decodedAlpha = try ImageDecoder.decode(ImageEncoder.encode(withAlpha, as: .webpLossless)).pixelBuffer
        #expect(decodedAlpha.format == .rgba8 && decodedAlpha == withAlpha)
    }

    @Test func writesByExtensionAndReadsBack() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pattern = asymmetricPattern(width: 64, height: 48)
        for name in ["a.png", "b.jpg", "c.webp"] {
            let url = dir.appendingPathComponent(name)
            try ImageEncoder.write(pattern, to: url)
            let back = try Image(contentsOf: url)
            #expect(back.width == 64 && back.height == 48)
            #expect(back.sourceURL == url)
        }
        #expect(throws: KameraError.self) { try ImageEncoder.write(pattern, to: dir.appendingPathComponent("d.gif")) }
    }
}
