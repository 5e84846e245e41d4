import Foundation
import KameraCore
import KameraTestTiers
import Testing

@testable import KameraImageIO

/// A photo's EXIF as Kamera writes it, read back by the decoder's own EXIF reader.
@Suite(.tier(.unit)) struct PhotoMetadataTests {
    let stored = asymmetricPattern(width: 64, height: 32)

    @Test(arguments: ImageOrientation.allCases)
    func orientationRoundTrips(orientation: ImageOrientation) throws {
        let photo = try ImageEncoder.encodePhoto(stored, metadata: PhotoMetadata(orientation: orientation))
        let raw = try ImageDecoder.decode(photo, options: ImageDecodingOptions(appliesOrientation: false))
        #expect(raw.sourceOrientation == orientation && raw.width == 64 && raw.height == 32)
        let shown = try ImageDecoder.decode(photo)
        #expect(shown.width == (orientation.swapsDimensions ? 32 : 64))
    }

    @Test func timeTakenIsWrittenWithMillisecondsAndOffset() throws {
        // 2026-11-26 05:30:15.250 UTC, in a +05:30 zone.
        let moment = Date(timeIntervalSince1970: 1_795_671_015.25)
        let zone = try #require(TimeZone(secondsFromGMT: 5 * 3600 + 1800))
        let photo = try ImageEncoder.encodePhoto(stored, metadata: PhotoMetadata(dateTaken: moment, timeZone: zone))
        let block = try #require(ExifOrientationReader.exifBlock(inJPEG: [UInt8](photo)))
        let text = String(decoding: block.map { $0 == 0 ? 0x7C : $0 }, as: UTF8.self)
        #expect(text.contains("2026:11:26 11:00:15|") && text.contains("+05:30|") && text.contains("250|"), "\(text)")
        #expect(text.contains("Kamera|"))
        // Writing again replaces the block instead of adding a second one.
        let again = try ExifWriter.inserting(PhotoMetadata(orientation: .left), intoJPEG: photo, width: 64, height: 32)
        #expect(again.count == photo.count)
        #expect(try ImageDecoder.decode(again, options: ImageDecodingOptions(appliesOrientation: false)).sourceOrientation == .left)
    }

    @Test func notAJPEGIsATypedError() {
        #expect(throws: KameraError.self) { try ExifWriter.inserting(PhotoMetadata(), intoJPEG: Data([0x89, 0x50]), width: 1, height: 1) }
        #expect(PhotoMetadata.orientation(forClockwiseRotation: 90) == .right)
        #expect(PhotoMetadata.orientation(forClockwiseRotation: -90) == .left)
        #expect(PhotoMetadata.orientation(forClockwiseRotation: 45) == nil)
    }
}
