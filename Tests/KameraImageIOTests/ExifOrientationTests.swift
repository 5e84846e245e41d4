import Foundation
import KameraCore
import KameraTestTiers
import Testing

@testable import KameraImageIO

@Suite(.tier(.unit)) struct ExifOrientationTests {
    let stored = asymmetricPattern(width: 64, height: 32)

    @Test(arguments: ImageOrientation.allCases)
    func jpegOrientationIsApplied(orientation: ImageOrientation) throws {
        let jpeg = jpegWithOrientation(try ImageEncoder.encode(stored, as: .jpeg(quality: 95)), orientation: orientation.rawValue)
        let image = try ImageDecoder.decode(jpeg)
        #expect(image.sourceOrientation == orientation)
        let expected = stored.applying(orientation)
        #expect(image.width == expected.width && image.height == expected.height)
        #expect(psnr(image.pixelBuffer, expected) > 30)
        // Opting out keeps the stored pixels.
        let raw = try ImageDecoder.decode(jpeg, options: ImageDecodingOptions(appliesOrientation: false))
        #expect(raw.width == 64 && raw.sourceOrientation == orientation)
    }

    @Test(arguments: ImageOrientation.allCases)
    func pngOrientationIsApplied(orientation: ImageOrientation) throws {
        let png = pngWithOrientation(try ImageEncoder.encode(stored, as: .png), orientation: orientation.rawValue)
        let image = try ImageDecoder.decode(png)
        #expect(image.sourceOrientation == orientation)
        #expect(image.pixelBuffer == stored.applying(orientation))
    }

    @Test func malformedExifIsIgnored() throws {
        var jpeg = [UInt8](try ImageEncoder.encode(stored, as: .jpeg(quality: 90)))
        // An Exif segment whose IFD offset points past its end.
        let payload = Array("Exif".utf8) + [0, 0, 0x49, 0x49, 42, 0, 0xFF, 0xFF, 0, 0]
        jpeg.insert(contentsOf: [0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload, at: 2)
        let image = try ImageDecoder.decode(Data(jpeg))
        #expect(image.sourceOrientation == .up && image.width == 64)
    }
}
