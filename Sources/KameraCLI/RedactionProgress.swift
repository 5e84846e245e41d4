import Foundation
import Kamera
import KameraReports

/// `kamera redact`'s progress line on standard error (once a second) and its closing counts.
struct RedactionProgress {
    let total: Int?
    private let started = Date()
    private var lastReport = 0.0
    private var frames = 0
    private var coveredFrames = 0
    private var tracks: [RedactionKind: Set<Int>] = [:]

    init(total: Int?) { self.total = total.flatMap { $0 > 0 ? $0 : nil } }

    mutating func count(_ frame: RedactedFrame) {
        frames += 1
        if !frame.regions.isEmpty || frame.personBounds != nil { coveredFrames += 1 }
        for region in frame.regions { tracks[region.kind, default: []].insert(region.trackID) }
        report(force: false)
    }

    mutating func report(force: Bool) {
        let elapsed = Date().timeIntervalSince(started)
        guard force || elapsed - lastReport >= 1 else { return }
        lastReport = elapsed
        let share = total.map { String(format: "/%d (%.0f%%)", $0, min(100, 100 * Double(frames) / Double($0))) } ?? ""
        StandardStreams.progress(
            String(format: "redact: %d%@ frames, %.1f fps, %@", frames, share, Double(frames) / max(elapsed, 1e-3), summary))
    }

    /// "3 faces, 1 code followed; 240 frames covered".
    var summary: String {
        let parts = tracks.sorted { $0.key < $1.key }.map { Self.counted($0.value.count, $0.key) }
        return (parts.isEmpty ? "nothing followed" : parts.joined(separator: ", ") + " followed") + "; \(coveredFrames) frames covered"
    }

    static func counted(_ count: Int, _ kind: RedactionKind) -> String {
        let name =
            switch kind {
            case .face: count == 1 ? "face" : "faces"
            case .barcode: count == 1 ? "code" : "codes"
            case .text: count == 1 ? "text line" : "text lines"
            case .person: count == 1 ? "person" : "people"
            }
        return "\(count) \(name)"
    }
}
