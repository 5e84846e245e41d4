import Foundation
import Kamera
import KameraTestMedia
import Synchronization
import Testing

/// The async API keeps Swift's cooperative pool free: heavy analysis runs on its own threads.
@Suite struct ConcurrentPerformTests {
    /// 50 face scans (tiles on every core) and code reads at once from a task group all finish
    /// with the right results, while a task that wakes every 10 ms keeps waking on time. Were
    /// the work run on the cooperative pool (two threads here), that task would wait for whole
    /// scans — seconds.
    @Test func fiftyConcurrentCallsFinishAndDoNotStarveOtherTasks() async throws {
        let photo = try SampleMedia.photo("messi5.jpg")
        let codes = try BarcodeGenerator(symbology: .qr, moduleSize: 4).generate(text: "concurrent")
        let ticks = Mutex<[ContinuousClock.Instant]>([])
        let done = Atomic<Bool>(false)
        let ticker = Task {
            while !done.load(ordering: .relaxed) {
                try? await Task.sleep(for: .milliseconds(10))
                ticks.withLock { $0.append(.now) }
            }
        }
        let started = ContinuousClock.now
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask {
                    if index % 2 == 0 {
                        return try await DetectFaceRectanglesRequest().perform(on: photo).count
                    }
                    return try await DetectBarcodesRequest(symbologies: [.qr]).perform(on: codes)
                        .filter { $0.payloadString == "concurrent" }.count
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        done.store(true, ordering: .relaxed)
        await ticker.value
        let elapsed = ContinuousClock.now - started

        #expect(results.count == 50 && results.allSatisfy { $0 == 1 })
        let times = ticks.withLock { $0 }
        // The ticker asks to wake every 10 ms; on a busy two-core machine the OS still gives it
        // a slice every few tens of ms (about 25 wakes a second seen here). Starved by analysis
        // on the pool it woke 3 times in 2.2 s.
        let expected = elapsed / .milliseconds(10)
        #expect(Double(times.count) > expected / 10, "\(times.count) ticks in \(elapsed)")
        // And directly: every request ran on an analysis thread.
        let places = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { try await WhereItRunsRequest().perform(on: codes) } }
            return try await group.reduce(into: Set<Bool>()) { $0.insert($1) }
        }
        #expect(places == [true] && !AnalysisExecutor.isCurrent)
    }

    /// Vision's file and memory forms: the same faces as from the decoded image; bytes that
    /// are no image are a typed error.
    @Test func performsOnFilesAndData() async throws {
        let url = try SampleMedia.url("messi5.jpg")
        let fromImage = try await DetectFaceRectanglesRequest().perform(on: try Image(contentsOf: url))
        let fromFile = try await DetectFaceRectanglesRequest().perform(on: url)
        let fromData = try await DetectFaceRectanglesRequest().perform(on: try Data(contentsOf: url))
        #expect(fromImage.count == 1 && fromFile.map(\.pixelBox) == fromImage.map(\.pixelBox)
                && fromData.map(\.pixelBox) == fromImage.map(\.pixelBox))
        await #expect(throws: KameraError.self) { try await DetectBarcodesRequest().perform(on: Data("not an image".utf8)) }
        await #expect(throws: KameraError.self) { try await DetectBarcodesRequest().perform(on: URL(fileURLWithPath: "/nonexistent.png")) }
    }
}

/// Reports whether it runs on an analysis thread.
private struct WhereItRunsRequest: ImageRequest {
    func perform(in context: ImageAnalysisContext) throws -> Bool { AnalysisExecutor.isCurrent }
}
