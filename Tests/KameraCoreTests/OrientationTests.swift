import KameraTestTiers
import Testing

@testable import KameraCore

@Suite(.tier(.unit)) struct OrientationTests {
    /// A 3×2 image whose pixels are their own indices 0…5.
    let stored = try! PixelBuffer(width: 3, height: 2, format: .gray8, bytes: [0, 1, 2, 3, 4, 5])

    /// Where the stored top-left pixel (value 0) must appear when displayed, per the EXIF
    /// definition of each orientation ("0th row is visual …, 0th column is visual …").
    @Test(arguments: [
        (ImageOrientation.up, 0, 0), (.upMirrored, 2, 0), (.down, 2, 1), (.downMirrored, 0, 1),
        (.leftMirrored, 0, 0), (.right, 1, 0), (.rightMirrored, 1, 2), (.left, 0, 2),
    ])
    func storedOriginLandsWhereExifSays(orientation: ImageOrientation, x: Int, y: Int) {
        let shown = stored.applying(orientation)
        #expect(shown.width == (orientation.swapsDimensions ? 2 : 3))
        #expect(shown.height == (orientation.swapsDimensions ? 3 : 2))
        #expect(shown.pixel(x: x, y: y) == [0])
        #expect(shown.bytes.sorted() == [0, 1, 2, 3, 4, 5])
    }

    @Test func rightTurnsClockwise() {
        // Stored rows 0 1 2 / 3 4 5 turned clockwise read 3 0 / 4 1 / 5 2.
        #expect(stored.applying(.right).bytes == [3, 0, 4, 1, 5, 2])
        #expect(stored.applying(.left).bytes == [2, 5, 1, 4, 0, 3])
    }

    @Test func quarterTurnsCompose() {
        #expect(stored.rotated(byQuarterTurns: 4) == stored)
        #expect(stored.rotated(byQuarterTurns: 1).rotated(byQuarterTurns: 3) == stored)
        #expect(stored.mirrored().mirrored() == stored)
        #expect(stored.applying(.down).applying(.down) == stored)
    }

    @Test func arbitraryRotationMatchesQuarterTurn() {
        var big = PixelBuffer(width: 40, height: 20, format: .gray8)
        for i in big.bytes.indices { big.bytes[i] = UInt8(i % 251) }
        let (turned, toSource) = big.rotated(byDegrees: 90)
        #expect(turned.width == 20 && turned.height == 40)
        let quarter = big.rotated(byQuarterTurns: 1)
        #expect(zip(turned.bytes, quarter.bytes).filter { $0 != $1 }.count == 0)
        // The returned transform maps the result's centre back to the source's centre.
        #expect(toSource.apply(PixelPoint(x: 10, y: 20)).distance(to: PixelPoint(x: 20, y: 10)) < 1e-9)
    }
}
