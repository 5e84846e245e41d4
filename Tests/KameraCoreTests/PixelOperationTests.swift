import Testing
@testable import KameraCore

@Suite struct PixelOperationTests {
    @Test func grayscaleUsesBT601Weights() throws {
        let rgb = try PixelBuffer(width: 4, height: 1, format: .rgb8, bytes: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])
        #expect(rgb.converted(to: .gray8).bytes == [76, 150, 29, 255])
        let bgra = try PixelBuffer(width: 1, height: 1, format: .bgra8, bytes: [0, 0, 255, 128])
        #expect(bgra.converted(to: .gray8).bytes == [76])
        #expect(bgra.converted(to: .rgba8).bytes == [255, 0, 0, 128])
        #expect(rgb.converted(to: .rgba8).pixel(x: 1, y: 0) == [0, 255, 0, 255])
    }

    @Test func strideIsRespected() throws {
        // 2×2 gray with 2 bytes of padding per row.
        let padded = try PixelBuffer(width: 2, height: 2, format: .gray8, bytesPerRow: 4, bytes: [1, 2, 99, 99, 3, 4, 99, 99])
        #expect(padded.packed().bytes == [1, 2, 3, 4])
        #expect(padded.converted(to: .rgb8).pixel(x: 1, y: 1) == [4, 4, 4])
        #expect(padded.applying(.down).bytes == [4, 3, 2, 1])
        #expect(padded.resized(width: 1, height: 1).bytes == [3])  // (1+2+3+4)/4 = 2.5 → 3
    }

    @Test func tooFewBytesIsAnError() {
        #expect(throws: KameraError.self) { try PixelBuffer(width: 10, height: 10, format: .rgb8, bytes: [0, 1, 2]) }
        #expect(throws: KameraError.self) { try PixelBuffer(width: 0, height: 10, format: .gray8, bytes: []) }
    }

    @Test func downscaleAveragesWithoutAliasing() {
        // A one-pixel checkerboard must become flat grey, not black or white.
        var checker = PixelBuffer(width: 64, height: 64, format: .gray8)
        for y in 0..<64 { for x in 0..<64 { checker.bytes[y * 64 + x] = (x + y) % 2 == 0 ? 255 : 0 } }
        let small = checker.resized(width: 16, height: 16)
        #expect(small.bytes.allSatisfy { (127...128).contains($0) })
        let odd = checker.resized(width: 21, height: 13)
        #expect(odd.bytes.allSatisfy { (100...155).contains($0) })
    }

    @Test func upscaleKeepsFlatAreasAndFitting() {
        let flat = PixelBuffer(width: 3, height: 3, format: .rgb8, filledWith: [10, 20, 30])
        let big = flat.resized(width: 10, height: 7)
        #expect(big.width == 10 && big.height == 7)
        #expect(big.pixel(x: 9, y: 6) == [10, 20, 30])
        let wide = PixelBuffer(width: 400, height: 100, format: .gray8)
        let fitted = wide.fitting(maximumDimension: 200)
        #expect(fitted.width == 200 && fitted.height == 50)
        #expect(wide.fitting(maximumDimension: 1000) == wide)
    }

    @Test func blurKeepsMeanAndSoftensEdges() {
        var step = PixelBuffer(width: 20, height: 4, format: .gray8)
        for y in 0..<4 { for x in 10..<20 { step.bytes[y * 20 + x] = 200 } }
        let blurred = step.gaussianBlurred(sigma: 1.5)
        #expect(blurred.pixel(x: 0, y: 0) == [0] && blurred.pixel(x: 19, y: 0) == [200])
        #expect((60...140).contains(Int(blurred.pixel(x: 10, y: 1)[0])) || (60...140).contains(Int(blurred.pixel(x: 9, y: 1)[0])))
        let total = { (b: PixelBuffer) in b.bytes.reduce(0) { $0 + Int($1) } }
        #expect(abs(total(blurred) - total(step)) < 40)
    }

    @Test func compositeLandsInsideQuad() {
        var scene = PixelBuffer(width: 100, height: 100, format: .gray8)
        let white = PixelBuffer(width: 10, height: 10, format: .gray8, filledWith: [255])
        let quad = Quad(topLeft: PixelPoint(x: 20, y: 30), topRight: PixelPoint(x: 60, y: 30),
                        bottomRight: PixelPoint(x: 60, y: 50), bottomLeft: PixelPoint(x: 20, y: 50))
        scene.composite(white, onto: quad)
        #expect(scene.pixel(x: 40, y: 40) == [255])
        #expect(scene.pixel(x: 10, y: 40) == [0])
        #expect(scene.pixel(x: 40, y: 55) == [0])
        let covered = scene.bytes.filter { $0 > 127 }.count
        #expect(abs(covered - 800) < 60)
    }

    @Test func cropAndInvert() throws {
        let image = try PixelBuffer(width: 3, height: 3, format: .gray8, bytes: [0, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(image.cropped(to: PixelRect(x: 1, y: 1, width: 2, height: 2)).bytes == [4, 5, 7, 8])
        #expect(image.inverted().bytes == [255, 254, 253, 252, 251, 250, 249, 248, 247])
        let rgba = try PixelBuffer(width: 1, height: 1, format: .rgba8, bytes: [10, 20, 30, 40])
        #expect(rgba.inverted().bytes == [245, 235, 225, 40])
    }
}
