import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `kamera detect --rectangles`, `kamera document` and `kamera register` on scenes with known
/// geometry.
@Suite(.tier(.endToEnd)) struct GeometryCLITests {
    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("kamera-geometry-\(UUID().uuidString)-\(name)")
    }

    /// A page photographed at an angle over a real photo, written as PNG.
    static func pageScene() throws -> (url: URL, corners: Quad) {
        let scene = try DocumentScene.make(kind: .page, background: "starry_night.jpg", seed: 1008)
        let url = temporary("page.png")
        try ImageEncoder.write(scene.image, to: url)
        return (url, try #require(scene.corners))
    }

    /// `pixelCorners` as for codes: [[x, y]] from the top-left corner, clockwise.
    static func corners(_ value: Any?) -> [PixelPoint]? {
        guard let points = value as? [[Double]], points.count == 4, points.allSatisfy({ $0.count == 2 }) else { return nil }
        return points.map { PixelPoint(x: $0[0], y: $0[1]) }
    }

    static func error(_ found: [PixelPoint], _ truth: Quad) -> Double {
        (0..<4).map { s in (0..<4).map { found[(s + $0) % 4].distance(to: truth.corners[$0]) }.max()! }.min()!
    }

    @Test func detectRectanglesReportsCornersInPixels() throws {
        let (url, truth) = try Self.pageScene()
        defer { try? FileManager.default.removeItem(at: url) }
        let run = try kamera(["detect", "--rectangles", "--max", "3", url.path])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require((run.json?["results"] as? [[String: Any]])?.first)
        #expect(result["barcodes"] == nil && result["faces"] == nil, "rectangles only when only --rectangles is asked")
        let rectangles = try #require(result["rectangles"] as? [[String: Any]])
        #expect((1...3).contains(rectangles.count))
        let first = try #require(rectangles.first)
        let found = try #require(Self.corners(first["pixelCorners"]))
        #expect(Self.error(found, truth) < 8, "\(found) vs \(truth)")
        #expect(first["boundingBox"] is [String: Double] && first["confidence"] is Double)
        let table = try kamera(["detect", "--rectangles", "--format", "table", url.path])
        #expect(table.status == 0 && table.stdout.contains("rectangle"), "\(table.stdout)")
    }

    @Test func maxWithoutRectanglesIsAUsageError() throws {
        let run = try kamera(["detect", "--max", "2", try SampleMedia.url("fruits.jpg").path])
        #expect(run.status == 64, "\(run.stdout) \(run.stderr)")
    }

    @Test func documentWritesTheFlattenedPageAndReadsIt() throws {
        let (url, truth) = try Self.pageScene()
        let out = Self.temporary("flat.png")
        defer { for u in [url, out] { try? FileManager.default.removeItem(at: u) } }
        let run = try kamera(["document", url.path, "-o", out.path, "--recognize"])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(run.json)
        let found = try #require(Self.corners(json["pixelCorners"]))
        #expect(Self.error(found, truth) < 8)
        let page = try Image(contentsOf: out)
        #expect(page.width == json["width"] as? Int && page.height == json["height"] as? Int)
        // Portrait, like the A4 page that was pasted.
        #expect(page.height > page.width)
        let text = try #require(json["text"] as? [String])
        #expect(text.count >= 8, "\(text)")
        // Again without -y (and no terminal to ask): the page is not overwritten.
        let again = try kamera(["document", url.path, "-o", out.path])
        #expect(again.status != 0)
    }

    @Test func documentWithoutAPageIsNotFound() throws {
        let empty = try DocumentScene.make(kind: nil, background: "fruits.jpg", seed: 1055)
        let url = Self.temporary("empty.png"), out = Self.temporary("none.png")
        try ImageEncoder.write(empty.image, to: url)
        defer { for u in [url, out] { try? FileManager.default.removeItem(at: u) } }
        let run = try kamera(["document", url.path, "-o", out.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("no document found"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let bad = try kamera(["document", "/nonexistent.jpg", "-o", out.path])
        #expect(bad.status == 1)
        let wrongExtension = try kamera(["document", url.path, "-o", Self.temporary("page.txt").path])
        #expect(wrongExtension.status == 64)
    }

    @Test func registerPrintsTheTransformAndWarps() throws {
        let pair = try RegistrationPair.make(photo: "building.jpg", seed: 2000, homographic: false)
        let a = Self.temporary("a.png"), b = Self.temporary("b.png"), warped = Self.temporary("warped.png")
        try ImageEncoder.write(pair.reference, to: a)
        try ImageEncoder.write(pair.moving, to: b)
        defer { for u in [a, b, warped] { try? FileManager.default.removeItem(at: u) } }
        let shift = try kamera(["register", a.path, b.path])
        #expect(shift.status == 0, "\(shift.stderr)")
        let t = try #require(shift.json?["alignmentTransform"] as? [String: Double])
        #expect(abs(t["tx"]! - pair.truth.m[2]) < 0.6 && abs(t["ty"]! - pair.truth.m[5]) < 0.6, "\(t) vs \(pair.truth.m)")

        let homographic = try RegistrationPair.make(photo: "fruits.jpg", seed: 2102, homographic: true)
        try ImageEncoder.write(homographic.reference, to: a)
        try ImageEncoder.write(homographic.moving, to: b)
        let warp = try kamera(["register", "--homography", "--warped", warped.path, "-y", a.path, b.path])
        #expect(warp.status == 0, "\(warp.stderr)")
        let rows = try #require(warp.json?["warpTransform"] as? [[Double]])
        #expect(rows.count == 3 && rows.allSatisfy { $0.count == 3 })
        let estimate = PerspectiveTransform(matrix: rows.flatMap { $0 })
        #expect(homographic.cornerError(of: estimate) < 2)
        let image = try Image(contentsOf: warped)
        #expect(image.width == 800 && image.height == 600)

        let bad = try kamera(["register", a.path, "/nonexistent.png"])
        #expect(bad.status == 1)
    }
}
