import Foundation
import KameraCore

/// Keeps codes by their decoded content across frames: appeared the first time, moved when
/// its corners shift by more than 1 % of the frame, lost when unseen for `lostAfter` seconds
/// (the seed hides a code's layer 0.2 s after its last sighting).
struct BarcodeTracker {
    private var lastSeen: [String: (time: Double, corners: [PixelPoint])] = [:]
    let lostAfter: Double

    init(lostAfter: Double) {
        self.lostAfter = lostAfter
    }

    static func key(_ observation: BarcodeObservation) -> String {
        "\(observation.symbology.rawValue):" + (observation.payloadString ?? observation.payloadData.base64EncodedString())
    }

    mutating func update(_ observations: [BarcodeObservation], at time: Double, frameDiagonal: Double) -> ([TrackedBarcode], [ScanEvent]) {
        var tracked: [TrackedBarcode] = []
        var events: [ScanEvent] = []
        var seen = Set<String>()
        for observation in observations {
            let key = Self.key(observation)
            guard seen.insert(key).inserted else { continue }
            let corners = observation.pixelCorners.corners
            let state: TrackedBarcode.State
            if let previous = lastSeen[key] {
                let shift = zip(previous.corners, corners).map { hypot($0.x - $1.x, $0.y - $1.y) }.max() ?? 0
                state = shift > frameDiagonal * 0.01 ? .moved : .still
            } else {
                state = .appeared
                events.append(ScanEvent(type: .appeared, kind: .barcode, id: key, time: time))
            }
            lastSeen[key] = (time, corners)
            tracked.append(TrackedBarcode(key: key, observation: observation, state: state))
        }
        for (key, entry) in lastSeen where time - entry.time >= lostAfter - 1e-9 && !seen.contains(key) {
            lastSeen[key] = nil
            events.append(ScanEvent(type: .lost, kind: .barcode, id: key, time: time))
        }
        return (tracked, events.sorted { ($0.type.rawValue, $0.id) < ($1.type.rawValue, $1.id) })
    }

    mutating func finish(at time: Double) -> [ScanEvent] {
        defer { lastSeen.removeAll() }
        return lastSeen.keys.sorted().map { ScanEvent(type: .lost, kind: .barcode, id: $0, time: time) }
    }
}
