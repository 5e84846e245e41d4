import Foundation
import KameraCore
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraImageIO

/// Every broken input must give a typed error, never a crash or a silently wrong image.
@Suite(.tier(.unit)) struct BadInputTests {
    let photo = try! SampleMedia.photo("messi5.jpg").pixelBuffer

    private func expectError(
        _ data: Data, options: ImageDecodingOptions = .init(), _ matches: (KameraError) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try ImageDecoder.decode(data, path: "input", options: options)
            Issue.record("decoding succeeded", sourceLocation: sourceLocation)
        } catch let error as KameraError {
            #expect(matches(error), "unexpected error \(error)", sourceLocation: sourceLocation)
            #expect(!error.hint.isEmpty, sourceLocation: sourceLocation)
        } catch {
            Issue.record("untyped error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func zeroByteFile() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("empty.jpg")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))
        #expect(throws: KameraError.emptyInput(path: url.path)) { try Image(contentsOf: url) }
    }

    @Test func textFileNamedPNG() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("notes.png")
        try Data("hello, this is not an image\n".utf8).write(to: url)
        do {
            _ = try Image(contentsOf: url)
            Issue.record("a text file decoded")
        } catch let error as KameraError where error.code == .unsupportedFormat {
            #expect(error.path == url.path)
            #expect(error.reason.contains("(text"))
        }
    }

    @Test func otherFormatsAreNamed() {
        expectError(Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8)) { $0.code == .unsupportedFormat && $0.reason.hasSuffix("(GIF)") }
        expectError(Data([0x42, 0x4D, 0, 0, 0, 0])) { $0.code == .unsupportedFormat && $0.reason.hasSuffix("(BMP)") }
    }

    @Test func missingFileAndDirectory() throws {
        #expect(throws: KameraError.self) { try Image(contentsOf: URL(fileURLWithPath: "/nonexistent/kamera.png")) }
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            _ = try Image(contentsOf: dir)
            Issue.record("a directory decoded")
        } catch let error as KameraError where error.code == .unreadableFile {
            #expect(error.reason.hasSuffix(": is a directory"))
        }
    }

    @Test(arguments: [ImageEncoding.png, .webp(quality: 80), .webpLossless])
    func truncatedFiles(encoding: ImageEncoding) throws {
        let full = try ImageEncoder.encode(photo, as: encoding)
        for fraction in [0.1, 0.5, 0.9] {
            expectError(full.prefix(Int(Double(full.count) * fraction))) {
                $0.code == .corruptImage
            }
        }
        // Only the signature left.
        expectError(full.prefix(12)) { $0.code == .corruptImage }
    }

    /// JPEGs are decoded as browsers and FFmpeg show them when mostly present: the damage is
    /// reported, the decoded part matches the intact image. Cut near the start, or with
    /// `acceptsDamagedData` off, they are errors.
    @Test func damagedJPEGs() throws {
        let full = try ImageEncoder.encode(photo, as: .jpeg(quality: 90))
        let intact = try ImageDecoder.decode(full).pixelBuffer
        #expect(try ImageDecoder.decode(full).damage == nil)
        let cut = try ImageDecoder.decode(full.prefix(full.count * 9 / 10), path: "cut")
        let damage = try #require(cut.damage)
        #expect(damage.contains("Premature end of JPEG file") && damage.contains("rows missing"), "\(damage)")
        // The top 80 % is the intact image.
        let rows = intact.height * 8 / 10, rowBytes = intact.bytesPerRow
        #expect(cut.pixelBuffer.bytes[0..<(rows * rowBytes)] == intact.bytes[0..<(rows * rowBytes)])
        expectError(full.prefix(full.count * 9 / 10), options: ImageDecodingOptions(acceptsDamagedData: false)) {
            $0.code == .corruptImage && $0.reason.contains("JPEG image")
        }
        for fraction in [0.1, 0.3] {
            expectError(full.prefix(Int(Double(full.count) * fraction))) {
                $0.code == .corruptImage && $0.reason.contains("JPEG image") && $0.reason.contains("rows are present")
            }
        }
        expectError(full.prefix(12)) { $0.code == .corruptImage }
        // Bytes flipped in the middle of the entropy-coded data: decoded, damage reported.
        var flipped = [UInt8](full)
        for i in stride(from: full.count / 2, to: full.count / 2 + 64, by: 8) { flipped[i] ^= 0x55 }
        let corrupt = try ImageDecoder.decode(Data(flipped))
        #expect(corrupt.damage != nil || corrupt.pixelBuffer.bytes != intact.bytes)
        #expect(corrupt.width == intact.width && corrupt.height == intact.height)
    }

    @Test func corruptPNGData() throws {
        var bytes = [UInt8](try ImageEncoder.encode(photo, as: .png))
        // Flip bytes inside the first IDAT: its CRC no longer matches.
        let idat = try #require((8..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual(Array("IDAT".utf8)) })
        for i in 0..<16 { bytes[idat + 40 + i] ^= 0x5A }
        expectError(Data(bytes)) { $0.code == .corruptImage && $0.reason.contains("PNG image") }
    }

    @Test func corruptJPEGHeader() throws {
        var bytes = [UInt8](try ImageEncoder.encode(photo, as: .jpeg(quality: 90)))
        // Destroy the quantization and frame headers after the SOI marker.
        for i in 20..<400 { bytes[i] = 0xA5 }
        expectError(Data(bytes)) { $0.code == .corruptImage && $0.reason.contains("JPEG image") }
    }

    @Test func pngDecompressionBomb() {
        // A PNG declaring 100000 × 100000 RGB pixels (30 GB decoded) in a few dozen bytes.
        var ihdr = bigEndian32(100_000) + bigEndian32(100_000)
        ihdr += [8, 2, 0, 0, 0]
        let png =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", ihdr)
            + pngChunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + pngChunk("IEND", [])
        expectError(Data(png)) {
            $0.code == .imageTooLarge && $0.reason.contains("100000×100000 pixels")
        }
    }

    @Test func jpegDecompressionBomb() throws {
        var bytes = [UInt8](try ImageEncoder.encode(photo, as: .jpeg(quality: 90)))
        // Rewrite the frame header (SOF0: FF C0 len P Y Y X X) to 65000 × 65000.
        let sof = try #require((2..<bytes.count - 9).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = 0xFD; bytes[sof + 6] = 0xE8
        bytes[sof + 7] = 0xFD; bytes[sof + 8] = 0xE8
        expectError(Data(bytes)) { $0.code == .imageTooLarge && $0.reason.contains("65000×65000 pixels") }
    }

    @Test func webpDecompressionBomb() {
        // A lossless WebP header declaring 16384 × 16384 (the format's maximum).
        let bits: UInt32 = 16383 | (16383 << 14)
        let vp8l: [UInt8] =
            [0x2F, UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24 & 0xFF)]
            + [UInt8](repeating: 0, count: 27)
        func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        let chunk = Array("VP8L".utf8) + le32(vp8l.count) + vp8l
        let riff = Array("RIFF".utf8) + le32(4 + chunk.count) + Array("WEBP".utf8) + chunk
        expectError(Data(riff)) { $0.code == .imageTooLarge && $0.reason.contains("16384×16384 pixels") }
    }

    @Test func pixelLimitIsConfigurable() throws {
        let data = try ImageEncoder.encode(photo, as: .png)
        #expect(throws: KameraError.imageTooLarge(path: nil, width: 548, height: 342, limit: 1000)) {
            try ImageDecoder.decode(data, options: ImageDecodingOptions(maximumPixelCount: 1000))
        }
    }
}

/// Writing onto a full disk fails cleanly and never replaces a good file with a partial one.
@Suite(.enabled(if: getuid() == 0, "needs root to mount a small tmpfs"), .tier(.unit))
struct FullDiskTests {
    @Test func fullDiskIsAWriteError() throws {
        let mountPoint = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint.path]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "mount failed")
        defer {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = [mountPoint.path]
            try? umount.run()
            umount.waitUntilExit()
        }
        let target = mountPoint.appendingPathComponent("out.png")
        let small = asymmetricPattern(width: 16, height: 16)
        try ImageEncoder.write(small, to: target)
        var noise = PixelBuffer(width: 512, height: 512, format: .rgb8)
        var random = SeededRandom(seed: 7)
        for i in noise.bytes.indices { noise.bytes[i] = UInt8.random(in: 0...255, using: &random) }
        do {
            try ImageEncoder.write(noise, to: target)
            Issue.record("writing 780 KB onto a 64 KB filesystem succeeded")
        } catch let error as KameraError where error.code == .writeFailed {
            #expect(error.path == target.path)
        }
        // The earlier file is intact.
        #expect(try Image(contentsOf: target).pixelBuffer == small)
    }
}
