import KameraCore

/// The rectangles part of ``LiveScanner``: detection (tens of milliseconds) every
/// `searchInterval` frames; between detections each rectangle is followed by its corners (a few
/// milliseconds) until its tracker loses it. When as many are followed as asked for, a newly
/// detected rectangle takes the place of a followed one the search no longer finds at all:
/// otherwise whatever filled the slots while the object was out of view (a lamp, a window)
/// would be followed for ever and the object never taken up. A followed rectangle the search
/// still finds keeps its place (and its ID) even when something else now ranks above it.
struct RectangleFollower {
    private struct Track {
        var id: Int
        var request: TrackRectangleRequest
    }

    let detection: DetectRectanglesRequest
    /// Frames between searches while rectangles are missing.
    let searchInterval: Int
    private var tracks: [Track] = []
    private var nextID = 1
    private var framesSinceSearch = Int.max

    init(detection: DetectRectanglesRequest, searchInterval: Int = 5) {
        self.detection = detection
        self.searchInterval = searchInterval
    }

    /// The rectangles in `frame` and the appeared/lost events decided there.
    mutating func update(_ frame: PixelBuffer, at time: Double) throws -> ([TrackedRectangle], [ScanEvent]) {
        var events: [ScanEvent] = []
        var results: [TrackedRectangle] = []
        let context = ImageAnalysisContext(Image(pixelBuffer: frame))
        var kept: [Track] = []
        for track in tracks {
            let followed = try track.request.perform(in: context)
            if followed.confidence >= LiveScanner.trackedConfidence {
                kept.append(track)
                results.append(TrackedRectangle(rectangleID: track.id, observation: followed, isDetected: false))
            } else {
                events.append(ScanEvent(type: .lost, kind: .rectangle, id: String(track.id), time: time))
            }
        }
        tracks = kept
        let wanted = detection.maximumObservations == 0 ? Int.max : detection.maximumObservations
        framesSinceSearch = framesSinceSearch == Int.max ? Int.max : framesSinceSearch + 1
        if framesSinceSearch >= searchInterval {
            framesSinceSearch = 0
            var confirmed: Set<Int> = []
            var fresh: [RectangleObservation] = []
            // Every rectangle the request would report, best first, so a followed one ranked
            // below `maximumObservations` still counts as found.
            var everything = detection
            everything.maximumObservations = 0
            for found in try everything.perform(in: context) {
                // Already followed: the same corners within 5 % of its size, or another reading
                // of the same object (mostly the same area: a side on the object's printed
                // frame, say).
                let tolerance = 0.05 * max(found.pixelBounds.width, found.pixelBounds.height)
                let known = results.first { r in
                    zip(r.observation.pixelCorners.corners, found.pixelCorners.corners).allSatisfy { $0.distance(to: $1) < tolerance }
                        || r.observation.pixelBounds.intersectionOverUnion(found.pixelBounds) >= 0.5
                }
                if let known { confirmed.insert(known.rectangleID) } else { fresh.append(found) }
            }
            for found in fresh {
                if tracks.count >= wanted {
                    // The oldest followed rectangle this search did not find at all makes room.
                    guard let stale = tracks.first(where: { !confirmed.contains($0.id) }) else { break }
                    tracks.removeAll { $0.id == stale.id }
                    results.removeAll { $0.rectangleID == stale.id }
                    events.append(ScanEvent(type: .lost, kind: .rectangle, id: String(stale.id), time: time))
                }
                let request = TrackRectangleRequest(detectedRectangle: found)
                _ = try request.perform(in: context)  // starts the tracker on this frame
                tracks.append(Track(id: nextID, request: request))
                confirmed.insert(nextID)
                results.append(TrackedRectangle(rectangleID: nextID, observation: found, isDetected: true))
                events.append(ScanEvent(type: .appeared, kind: .rectangle, id: String(nextID), time: time))
                nextID += 1
            }
        }
        return (results.sorted { $0.rectangleID < $1.rectangleID }, events)
    }

    /// Ends the stream: every rectangle still followed is lost.
    mutating func finish(at time: Double) -> [ScanEvent] {
        defer { tracks = [] }
        return tracks.map { ScanEvent(type: .lost, kind: .rectangle, id: String($0.id), time: time) }
    }
}
