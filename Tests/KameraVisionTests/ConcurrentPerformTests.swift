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
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        let longest = gaps.max() ?? elapsed
        // A gap of a whole face scan (hundreds of ms) means the ticker waited for analysis.
        #expect(times.count > 10 && longest < .milliseconds(150), "longest gap \(longest) over \(elapsed), \(times.count) ticks")
    }
}
