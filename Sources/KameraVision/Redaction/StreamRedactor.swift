import Dispatch
import KameraCore
import Synchronization

/// Redacts a stream frame by frame: detection and tracking by a ``LiveScanner``, coverage by a
/// ``RedactionTimeline``, frames held back by the configuration's `lead` so a region is
/// covered before its first sighting. Frames come out in order, `lead` seconds behind the
/// newest one pushed; ``finish()`` returns the rest.
///
/// Memory is bounded by the frames within `lead` (15 frames of 1080p at 30 fps for 0.5 s:
/// about 90 MB). One redactor per stream; not thread-safe.
public final class StreamRedactor {
    public let configuration: Redactor.Configuration
    /// Whether each frame waits for its text detection (files: every frame gets one; a live
    /// camera keeps its pace and takes text as it comes).
    public var waitsForText = true
    /// Nil when the frames are scanned by the caller (``init(scannedElsewhere:)``).
    private let scanner: LiveScanner?
    private var timeline: RedactionTimeline
    private let painter: RedactionPainter
    private let rotation: Int
    private var pending: [(frame: PixelBuffer, time: Double, index: Int, coverage: PersonCoverage?)] = []
    private var frameCount = 0
    private var lastTextFrame = -Double.infinity
    /// The newest frame's time (frames must not go back in time).
    private var lastTime = -Double.infinity
    /// Faces followed by their look, by timeline track: refreshed at each detection, asked
    /// where the face went on the frames its detector misses.
    private var followers: [Int: AppearanceFollower] = [:]

    /// - Parameters:
    ///   - rotation: the clockwise degrees (0, 90, 180, 270) that turn the frames upright, as
    ///     `MovieReader.rotation`: detectors see upright frames, the frames come back as given.
    /// - Throws: `KameraError.invalidArgument` for a configuration out of range; the
    ///   detectors' model errors.
    public init(configuration: Redactor.Configuration, rotation: Int = 0) throws {
        try configuration.validate()
        self.configuration = configuration
        self.rotation = rotation
        scanner = try LiveScanner(configuration: configuration.scannerConfiguration)
        timeline = try RedactionTimeline(lead: configuration.lead, hold: configuration.hold)
        painter = RedactionPainter(style: configuration.style)
    }

    /// A redactor for frames the caller scans with a `LiveScanner` of its own (a live view that
    /// also reports what it sees): ``push(_:scan:at:)`` covers what each scan found, followed
    /// and held as for files. The configuration's kinds, style, padding, follow, hold and lead
    /// apply; its detector settings are the caller's scanner's. Upright frames only.
    /// - Throws: `KameraError.invalidArgument` for a configuration out of range.
    public init(scannedElsewhere configuration: Redactor.Configuration) throws {
        try configuration.validate()
        self.configuration = configuration
        rotation = 0
        scanner = nil
        timeline = try RedactionTimeline(lead: configuration.lead, hold: configuration.hold)
        painter = RedactionPainter(style: configuration.style)
    }

    /// Tracks seen so far (each face, code, line or person counted once).
    public var trackCount: Int { timeline.trackCount }

    /// Scans `frame`, taken at `time` seconds, and returns the frames now ready: those at least
    /// `lead` seconds older than it, covered.
    /// - Throws: `invalidArgument` when times go backwards; the detectors' errors.
    public func push(_ frame: PixelBuffer, at time: Double) throws -> [RedactedFrame] {
        guard let scanner else {
            throw KameraError.invalidArgument("this redactor covers frames scanned elsewhere: push them with their scan")
        }
        let turn = QuarterTurn(degrees: rotation, width: frame.width, height: frame.height)
        let upright = turn.turns == 0 ? frame : frame.rotated(byQuarterTurns: turn.turns)
        // The followers' brightness table is made on another core while this one scans: it
        // depends on the frame alone, and the scan leaves a core idle part of the time.
        let integral = Mutex<LumaIntegral?>(nil)
        let integralDone = DispatchGroup()
        if followsFaces {
            DispatchQueue.global().async(group: integralDone) { integral.withLock { $0 = LumaIntegral(frame) } }
        }
        let scan = try scanner.scan(upright, at: time)
        if waitsForText, configuration.kinds.contains(.text) { scanner.waitForText() }
        integralDone.wait()
        return cover(frame, scan: scan, turn: turn, at: time, integral: integral.withLock { $0 })
    }

    /// Whether faces are followed by their look (``follow(_:tracks:on:at:integral:)``).
    private var followsFaces: Bool { configuration.follow > 0 && configuration.kinds.contains(.face) }

    /// Covers `frame`, taken at `time` seconds, by what `scan` (the caller's scanner's, of
    /// this very frame) found, and returns the frames now ready (with no lead: this one).
    /// - Throws: `invalidArgument` when times go backwards.
    public func push(_ frame: PixelBuffer, scan: FrameScan, at time: Double) throws -> [RedactedFrame] {
        guard time.isFinite, time >= lastTime else { throw KameraError.invalidArgument("frame times must not go backwards") }
        return cover(frame, scan: scan, turn: QuarterTurn(degrees: 0, width: frame.width, height: frame.height), at: time)
    }

    private func cover(
        _ frame: PixelBuffer, scan: FrameScan, turn: QuarterTurn, at time: Double, integral: LumaIntegral? = nil
    ) -> [RedactedFrame] {
        lastTime = time
        let found = sightings(in: scan, turn)
        let tracks = timeline.record(found.map(\.sighting), at: time, frame: frame.bounds)
        follow(found, tracks: tracks, on: frame, at: time, integral: integral)
        if let text = scan.text, text.frameTime > lastTextFrame {
            lastTextFrame = text.frameTime
            timeline.record(
                text.lines.map { line in
                    RedactionSighting(
                        kind: .text,
                        shape: RedactionShape.polygon(line.pixelCorners.corners).mapped(turn.toFrame)
                            .padded(by: configuration.padding(for: .text)))
                }, at: text.frameTime)
        }
        let coverage = scan.personMask.flatMap {
            PersonCoverage(
                mask: $0, frameWidth: frame.width, frameHeight: frame.height, rotation: rotation)
        }
        pending.append((frame, time, frameCount, coverage))
        frameCount += 1
        var ready: [RedactedFrame] = []
        while let first = pending.first, first.time <= time - configuration.lead + 1e-9 {
            ready.append(paint(pending.removeFirst()))
        }
        return ready
    }

    /// The frames still held back, covered; the redactor takes no more frames after it.
    public func finish() -> [RedactedFrame] {
        let rest = pending.map(paint)
        pending.removeAll()
        _ = scanner?.finish()
        return rest
    }

    private func paint(_ entry: (frame: PixelBuffer, time: Double, index: Int, coverage: PersonCoverage?)) -> RedactedFrame {
        let regions = timeline.regions(at: entry.time)
        timeline.forget(before: entry.time)
        return RedactedFrame(
            pixelBuffer: painter.paint(regions, on: entry.frame, covered: entry.coverage?.contains, coveredBounds: entry.coverage?.bounds),
            time: entry.time, index: entry.index, regions: regions, personBounds: entry.coverage?.bounds)
    }

    /// Refreshes the followers of the faces seen on this frame and follows the faces not seen
    /// (within `follow` seconds of their last detection) by their look, recording where they
    /// went. `integral`: the frame's brightness table when already made.
    private func follow(
        _ found: [(sighting: RedactionSighting, face: PixelRect?)], tracks: [Int], on frame: PixelBuffer, at time: Double,
        integral: LumaIntegral?
    ) {
        guard followsFaces else { return }
        let seen = Set(tracks)
        guard !followers.isEmpty || found.contains(where: { $0.face != nil }) else { return }
        let integral = integral ?? LumaIntegral(frame)
        for (entry, track) in zip(found, tracks) {
            guard let face = entry.face else { continue }
            followers[track] = AppearanceFollower(box: face, in: integral, at: time, continuing: followers[track])
        }
        let detected = found.compactMap(\.face)
        for (track, var follower) in followers where !seen.contains(track) {
            guard time - follower.lastDetected <= configuration.follow,
                let followed = follower.follow(in: integral, at: time, avoiding: detected)
            else {
                followers[track] = nil
                continue
            }
            followers[track] = follower
            timeline.recordFollowed(
                RedactionShape.ellipse(followed.box).padded(by: configuration.padding(for: .face)), track: track, at: time,
                frame: frame.bounds)
        }
    }

    /// The scan's faces, codes and people as sightings in the stored frame's pixels, each face
    /// with its unpadded box (what is followed when its detector misses it).
    private func sightings(in scan: FrameScan, _ turn: QuarterTurn) -> [(sighting: RedactionSighting, face: PixelRect?)] {
        let faces = scan.faces.map { face in
            let shape = RedactionShape.ellipse(face.observation.pixelBox).mapped(turn.toFrame)
            return (
                sighting: RedactionSighting(
                    kind: .face, detectorID: String(face.faceID), shape: shape.padded(by: configuration.padding(for: .face))),
                face: Optional(shape.bounds)
            )
        }
        let codes = scan.barcodes.map { code in
            RedactionSighting(
                kind: .barcode, detectorID: code.key,
                shape: RedactionShape.polygon(code.observation.pixelCorners.corners).mapped(turn.toFrame)
                    .padded(by: configuration.padding(for: .barcode)))
        }
        let people = scan.bodies.map { body in
            RedactionSighting(
                kind: .person, detectorID: String(body.bodyID),
                shape: Redactor.personShape(body.observation.pixelBoundingBox, padding: configuration.padding(for: .person))
                    .mapped(turn.toFrame))
        }
        return faces + (codes + people).map { (sighting: $0, face: nil) }
    }
}
