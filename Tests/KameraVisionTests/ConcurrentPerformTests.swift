import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// The async API keeps Swift's cooperative pool free: heavy analysis runs on its own threads.
@Suite(.tier(.models)) struct ConcurrentPerformTests {
    /// 50 face scans (tiles on every core) and code reads at once from a task group all finish
    /// with the right results, each on an analysis thread, not on the cooperative pool. (Run on
    /// the pool — two threads here — they stalled a task that asks to wake every 10 ms: it woke
    /// 3 times in 2.2 s, against about 25 times a second with the executor. That rate is not
    /// asserted: the rest of the suite runs on the same pool at the same time.)
    @Test func fiftyConcurrentCallsFinishOnAnalysisThreads() async throws {
        let photo = try SampleMedia.photo("messi5.jpg")
        let codes = try BarcodeGenerator(symbology: .qr, moduleSize: 4).generate(text: "concurrent")
        let results = try await withThrowingTaskGroup(of: (found: Int, onAnalysisThread: Bool).self) { group in
            for index in 0..<50 {
                group.addTask {
                    if index % 2 == 0 {
                        let (faces, place) = try await Located(DetectFaceRectanglesRequest()).perform(on: photo)
                        return (faces.count, place)
                    }
                    let (found, place) = try await Located(DetectBarcodesRequest(symbologies: [.qr])).perform(on: codes)
                    return (found.filter { $0.payloadString == "concurrent" }.count, place)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 50 && results.allSatisfy { $0.found == 1 && $0.onAnalysisThread })
        #expect(!AnalysisExecutor.isCurrent)
    }

    /// Vision's file and memory forms: the same faces as from the decoded image; bytes that
    /// are no image are a typed error.
    @Test func performsOnFilesAndData() async throws {
        let url = try SampleMedia.url("messi5.jpg")
        let fromImage = try await DetectFaceRectanglesRequest().perform(on: try Image(contentsOf: url))
        let fromFile = try await DetectFaceRectanglesRequest().perform(on: url)
        let fromData = try await DetectFaceRectanglesRequest().perform(on: try Data(contentsOf: url))
        #expect(
            fromImage.count == 1 && fromFile.map(\.pixelBox) == fromImage.map(\.pixelBox)
                && fromData.map(\.pixelBox) == fromImage.map(\.pixelBox))
        await #expect(throws: KameraError.self) { try await DetectBarcodesRequest().perform(on: Data("not an image".utf8)) }
        await #expect(throws: KameraError.self) { try await DetectBarcodesRequest().perform(on: URL(fileURLWithPath: "/nonexistent.png")) }
    }
}

/// A request's result and whether it was computed on an analysis thread.
private struct Located<Request: ImageRequest>: ImageRequest {
    var request: Request
    init(_ request: Request) { self.request = request }

    var regionOfInterest: NormalizedRect {
        get { request.regionOfInterest }
        set { request.regionOfInterest = newValue }
    }

    func perform(in context: ImageAnalysisContext) throws -> (Request.Result, Bool) {
        (try request.perform(in: context), AnalysisExecutor.isCurrent)
    }
}

/// Vision's handler for pixels stored sideways: the requests see them upright.
@Suite(.tier(.models)) struct OrientedHandlerTests {
    @Test func requestsSeeTheUprightImage() async throws {
        let upright = try BarcodeGenerator(symbology: .code128, moduleSize: 3).generate(text: "sideways")
        // Stored as a camera held on its side would write it: `.right` turns it back.
        let stored = upright.applying(.left)
        #expect(stored.width == upright.height)
        let handler = ImageRequestHandler(stored, orientation: .right)
        let (found, ) = try await handler.perform(DetectBarcodesRequest(symbologies: [.code128], effort: .fast))
        let code = try #require(found.first)
        #expect(code.payloadString == "sideways" && !code.isColorInverted)
        // Corners in the upright image's coordinates: the bars run across its width.
        #expect(code.imageSize == upright.size && code.pixelBounds.width > code.pixelBounds.height)
    }
}
