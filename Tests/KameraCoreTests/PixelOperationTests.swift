import KameraTestTiers
import Testing

@testable import KameraCore

@Suite(.tier(.unit)) struct PixelOperationTests {
    @Test func grayscaleUsesBT601Weights() throws {
        let rgb = try PixelBuffer(width: 4, height: 1, format: .rgb8, bytes: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])
        #expect(rgb.converted(to: .gray8).bytes == [76, 150, 29, 255])
        let bgra = try PixelBuffer(width: 1, height: 1, format: .bgra8, bytes: [0, 0, 255, 128])
        #expect(bgra.converted(to: .gray8).bytes == [76])
        #expect(bgra.converted(to: .rgba8).bytes == [255, 0, 0, 128])
        #expect(rgb.converted(to: .rgba8).pixel(x: 1, y: 0) == [0, 255, 0, 255])
    }

    /// The fixed-point rotation against bilinear sampling in doubles, written out plainly.
    @Test(arguments: [PixelFormat.gray8, .rgb8])
    func rotationMatchesAFloatingPointReference(format: PixelFormat) throws {
        var random = SystemRandomNumberGenerator()
        let (width, height, bpp) = (37, 23, format.bytesPerPixel)
        let image = try PixelBuffer(
            width: width, height: height, format: format,
            bytes: (0..<(width * height * bpp)).map { _ in UInt8.random(in: 0...255, using: &random) })
        for degrees in [0.0, 7, -25, 45, 90, 133, 180, -271.5] {
            let (turned, toSource) = image.rotated(byDegrees: degrees, fill: 9)
            var worst = 0
            for oy in 0..<turned.height {
                for ox in 0..<turned.width {
                    let source = toSource.apply(PixelPoint(x: Double(ox) + 0.5, y: Double(oy) + 0.5))
                    let (sx, sy) = (source.x - 0.5, source.y - 0.5)
                    let inside = sx > -0.5 && sy > -0.5 && sx < Double(width) - 0.5 && sy < Double(height) - 0.5
                    // Centres within a hair of the edge may go either way in fixed point.
                    let nearEdge = min(abs(sx + 0.5), abs(sy + 0.5), abs(sx - Double(width) + 0.5), abs(sy - Double(height) + 0.5)) < 1e-3
                    if nearEdge { continue }
                    for ch in 0..<bpp {
                        let expected: Int
                        if inside {
                            let cx = min(max(sx, 0), Double(width - 1)), cy = min(max(sy, 0), Double(height - 1))
                            let x0 = Int(cx), y0 = Int(cy), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                            let fx = cx - Double(x0), fy = cy - Double(y0)
                            func p(_ x: Int, _ y: Int) -> Double { Double(image.pixel(x: x, y: y)[ch]) }
                            let top = p(x0, y0) + (p(x1, y0) - p(x0, y0)) * fx, bottom = p(x0, y1) + (p(x1, y1) - p(x0, y1)) * fx
                            expected = Int(top + (bottom - top) * fy + 0.5)
                        } else {
                            expected = 9
                        }
                        worst = max(worst, abs(Int(turned.pixel(x: ox, y: oy)[ch]) - expected))
                    }
                }
            }
            #expect(worst <= 1, "\(format) \(degrees)°: off by \(worst)")
        }
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

    /// The fixed-point upscale against bilinear interpolation in doubles (pixel centres
    /// aligned, edges clamped): within one level, on random pixels in every format.
    @Test(arguments: [PixelFormat.gray8, .rgb8, .rgba8])
    func upscaleMatchesAFloatingPointReference(format: PixelFormat) throws {
        var random = SystemRandomNumberGenerator()
        let (width, height, bpp) = (19, 11, format.bytesPerPixel)
        let image = try PixelBuffer(
            width: width, height: height, format: format,
            bytes: (0..<(width * height * bpp)).map { _ in UInt8.random(in: 0...255, using: &random) })
        for (newWidth, newHeight) in [(38, 22), (50, 13), (19, 40)] {
            let big = image.resized(width: newWidth, height: newHeight)
            var worst = 0
            for oy in 0..<newHeight {
                for ox in 0..<newWidth {
                    let fx = max(0, (Double(ox) + 0.5) * Double(width) / Double(newWidth) - 0.5)
                    let fy = max(0, (Double(oy) + 0.5) * Double(height) / Double(newHeight) - 0.5)
                    let x0 = min(Int(fx), width - 1), y0 = min(Int(fy), height - 1)
                    let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                    for ch in 0..<bpp {
                        func p(_ x: Int, _ y: Int) -> Double { Double(image.pixel(x: x, y: y)[ch]) }
                        let top = p(x0, y0) + (p(x1, y0) - p(x0, y0)) * (fx - Double(x0))
                        let bottom = p(x0, y1) + (p(x1, y1) - p(x0, y1)) * (fx - Double(x0))
                        let expected = Int((top + (bottom - top) * (fy - Double(y0))).rounded())
                        worst = max(worst, abs(Int(big.pixel(x: ox, y: oy)[ch]) - expected))
                    }
                }
            }
            #expect(worst <= 1, "\(newWidth)×\(newHeight): off by \(worst)")
        }
    }

    /// Every orientation against its definition, pixel by pixel, on a non-square RGB image.
    @Test func orientationsMoveEachPixelWhereEXIFSays() throws {
        let (w, h) = (5, 3)
        let image = try PixelBuffer(width: w, height: h, format: .rgb8, bytes: (0..<(w * h * 3)).map { UInt8($0) })
        for orientation in [ImageOrientation.up, .upMirrored, .down, .downMirrored, .leftMirrored, .right, .rightMirrored, .left] {
            let shown = image.applying(orientation)
            for oy in 0..<shown.height {
                for ox in 0..<shown.width {
                    let (sx, sy): (Int, Int)
                    switch orientation {
                    case .up: (sx, sy) = (ox, oy)
                    case .upMirrored: (sx, sy) = (w - 1 - ox, oy)
                    case .down: (sx, sy) = (w - 1 - ox, h - 1 - oy)
                    case .downMirrored: (sx, sy) = (ox, h - 1 - oy)
                    case .leftMirrored: (sx, sy) = (oy, ox)
                    case .right: (sx, sy) = (oy, h - 1 - ox)
                    case .rightMirrored: (sx, sy) = (w - 1 - oy, h - 1 - ox)
                    case .left: (sx, sy) = (w - 1 - oy, ox)
                    }
                    #expect(shown.pixel(x: ox, y: oy) == image.pixel(x: sx, y: sy), "\(orientation) at \(ox),\(oy)")
                }
            }
        }
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
        let quad = Quad(
            topLeft: PixelPoint(x: 20, y: 30), topRight: PixelPoint(x: 60, y: 30),
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
