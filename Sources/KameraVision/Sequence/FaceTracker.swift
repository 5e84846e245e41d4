import Foundation
import KameraCore

/// Keeps face identities across frames. Each track predicts where its face will be (constant
/// velocity); detections are matched to predictions by distance relative to face size plus
/// size change, cheapest pair first, so crossing faces keep their IDs as long as they move
/// plausibly. A track unmatched for longer than `lostAfter` seconds is lost; IDs only grow.
struct FaceTracker {
    struct Track {
        var id: Int
        var detection: FaceDetection
        var velocity: PixelPoint  // pixels per second
        var lastSeen: Double
        var side: Double { max(detection.box.width, detection.box.height) }

        func predictedCenter(at time: Double) -> PixelPoint {
            let dt = min(time - lastSeen, 0.5)
            return PixelPoint(x: detection.box.center.x + velocity.x * dt, y: detection.box.center.y + velocity.y * dt)
        }
    }

    private(set) var tracks: [Track] = []
    private var nextID = 1
    let lostAfter: Double

    init(lostAfter: Double) {
        self.lostAfter = lostAfter
    }

    /// Matches `detections` at `time` to the tracks. Returns (track id, detection) for every
    /// detection, and the events.
    mutating func update(_ detections: [FaceDetection], at time: Double) -> (matched: [(Int, FaceDetection)], events: [ScanEvent]) {
        var pairs: [(cost: Double, track: Int, detection: Int)] = []
        for (t, track) in tracks.enumerated() {
            let predicted = track.predictedCenter(at: time)
            for (d, detection) in detections.enumerated() {
                let side = max(detection.box.width, detection.box.height)
                let distance = hypot(detection.box.center.x - predicted.x, detection.box.center.y - predicted.y) / max(track.side, side)
                let growth = abs(log(side / track.side))
                if distance < 1.0, growth < 0.5 { pairs.append((distance + growth, t, d)) }
            }
        }
        pairs.sort { $0.cost < $1.cost }
        var usedTracks = Set<Int>(), usedDetections = Set<Int>()
        var matched: [(Int, FaceDetection)] = []
        var events: [ScanEvent] = []
        for pair in pairs where !usedTracks.contains(pair.track) && !usedDetections.contains(pair.detection) {
            usedTracks.insert(pair.track)
            usedDetections.insert(pair.detection)
            let detection = detections[pair.detection]
            var track = tracks[pair.track]
            let dt = time - track.lastSeen
            if dt > 0 {
                let v = PixelPoint(
                    x: (detection.box.center.x - track.detection.box.center.x) / dt,
                    y: (detection.box.center.y - track.detection.box.center.y) / dt)
                // Smoothed, so one jittery box does not throw the prediction off.
                track.velocity = PixelPoint(x: track.velocity.x * 0.5 + v.x * 0.5, y: track.velocity.y * 0.5 + v.y * 0.5)
            }
            track.detection = detection
            track.lastSeen = time
            tracks[pair.track] = track
            matched.append((track.id, detection))
        }
        for (d, detection) in detections.enumerated() where !usedDetections.contains(d) {
            let track = Track(id: nextID, detection: detection, velocity: PixelPoint(x: 0, y: 0), lastSeen: time)
            nextID += 1
            tracks.append(track)
            matched.append((track.id, detection))
            events.append(ScanEvent(type: .appeared, kind: .face, id: String(track.id), time: time))
        }
        tracks.removeAll { track in
            guard time - track.lastSeen > lostAfter else { return false }
            events.append(ScanEvent(type: .lost, kind: .face, id: String(track.id), time: time))
            return true
        }
        return (matched, events)
    }

    /// Ends every track (the stream is over).
    mutating func finish(at time: Double) -> [ScanEvent] {
        defer { tracks.removeAll() }
        return tracks.map { ScanEvent(type: .lost, kind: .face, id: String($0.id), time: time) }
    }
}
