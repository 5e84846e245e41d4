import CFFmpeg
import Foundation
import KameraCore

/// Clips around events in a stream, with pre-roll (beyond AVFoundation; what a security
/// camera's "motion clips" do): every frame is encoded once, as it arrives, into a buffer of
/// the last seconds of H.264; when an event is noted (a face, a code, a person — whatever the
/// caller watches for), a clip opens at the key frame `preRoll` seconds before it, takes the
/// buffered packets as they are, and goes on with the live ones until `postRoll` seconds
/// after the event was last noted. Clips are fragmented movies written packet by packet, so
/// a killed process leaves each one playable up to its last key frame.
///
/// Not thread-safe: append frames and note events from one thread (or behind one lock).
public final class EventClipRecorder {
    /// A clip about to open: the event's source time, and the source time of the key frame
    /// the clip starts on.
    public struct Opening: Sendable {
        public var eventTime: Double
        public var startTime: Double
        /// Seconds from the clip's start to the event.
        public var eventOffset: Double { eventTime - startTime }
    }

    /// A clip opening or ending, as `append` reports it.
    public enum Progress {
        /// A clip was opened at `url` for the event at `eventTime`; its first frame is the
        /// source's frame at `startTime`.
        case started(url: URL, startTime: Double, eventTime: Double)
        /// A clip ended; its file is complete.
        case finished(EventClip)
        /// The event at `eventTime` got no clip: the file could not be made, or the disk is
        /// below its free-space minimum. A later event tries again.
        case skipped(eventTime: Double, reason: KameraError)
    }

    public let settings: EventClipSettings
    private let encoder: VideoEncoder
    private let clipURL: (Opening) throws -> URL
    private var buffer: PreRollBuffer
    private var firstTime: Double?
    private var lastPTS: Int64 = -1
    /// The earliest event no clip has covered yet.
    private var pendingEvent: Double?
    /// The last packet any clip holds: a later clip starts after it, so none overlap.
    private var clippedUntil: Int64?
    private var clip: OpenClip?

    private struct OpenClip {
        var muxer: MovieMuxer
        var eventTime: Double
        var lastEvent: Double
        /// The first packet's time, which becomes the clip's 0.
        var origin: Int64
        var lastPTS: Int64
        var frames = 0
    }

    /// - Parameters:
    ///   - settings: the stream's size and rate, and how clips are cut.
    ///   - clipURL: where a clip goes (.mp4 or .mov); called as it opens, so a caller can list
    ///     it before its first frame. Throwing skips the event.
    /// - Throws: `invalidArgument` for settings out of range; `missingResource` without an
    ///   H.264 encoder.
    public init(settings: EventClipSettings, clipURL: @escaping (Opening) throws -> URL) throws {
        try FFmpegSetup.load()
        try settings.validate()
        self.settings = settings
        self.clipURL = clipURL
        encoder = try VideoEncoder(
            width: settings.width, height: settings.height, frameRate: settings.frameRate, keyFrameInterval: settings.keyFrameInterval,
            preset: settings.preset, quality: settings.quality, globalHeader: true, path: "event clip")
        // Events are noted after the frame they were seen on was analysed: two seconds more
        // than the pre-roll lets a late note still get its whole pre-roll.
        buffer = PreRollBuffer(seconds: settings.preRoll + 2, maximumBytes: settings.maximumBufferBytes)
    }

    /// Whether a clip is being written.
    public var isWritingClip: Bool { clip != nil }

    /// Bytes of encoded video held for pre-roll.
    public var bufferedBytes: Int { buffer.bytes }

    /// Notes that the event was seen on the source's frame at `time` (seconds, on the clock
    /// `append` is given): a clip opens at the next frame, or the open one goes on.
    public func noteEvent(at time: Double) {
        guard time.isFinite else { return }
        if clip != nil {
            clip!.lastEvent = max(clip!.lastEvent, time)
        } else {
            pendingEvent = min(pendingEvent ?? time, time)
        }
    }

    /// Encodes `image`, shown at `time` seconds (any origin, increasing), into the pre-roll
    /// and the open clip, and opens or ends clips as the events noted so far ask.
    /// - Returns: the clips that opened or ended at this frame. A clip whose disk failed ends
    ///   with `diskFull` or `writeFailed` and keeps what it has; the recorder goes on.
    /// - Throws: `invalidArgument` for a frame of another size; `writeFailed` when the
    ///   encoder fails.
    public func append(_ image: PixelBuffer, at time: Double) throws -> [Progress] {
        guard time.isFinite else { throw KameraError.invalidArgument("frame time must be a finite number of seconds") }
        let start = firstTime ?? time
        firstTime = start
        let elapsed = (time - start) * 1000
        // Range-checked before the conversion to Int64, which would trap.
        guard abs(elapsed) < 9e15 else { throw KameraError.invalidArgument("frame time \(time) is out of range") }
        let pts = max(Int64(elapsed.rounded()), lastPTS + 1)
        lastPTS = pts
        var progress: [Progress] = []
        var held: [HeldPacket] = []
        try encoder.encode(image, pts: pts) { packet in
            guard let packet = HeldPacket(referencing: packet) else {
                throw KameraError.writeFailed(path: "event clip", reason: "out of memory")
            }
            held.append(packet)
        }
        for packet in held {
            buffer.append(packet)
            guard let open = clip else { continue }
            if packet.isKeyFrame, time - open.lastEvent < settings.postRoll,
                Double(packet.pts - open.origin) / 1000 > settings.maximumDuration - settings.keyFrameInterval
            {
                // As long as it may be: cut on this key frame, and the next clip opens on it,
                // so the event's video goes on without a frame lost or repeated.
                if let ended = close(.maximumDurationReached) { progress.append(.finished(ended)) }
                pendingEvent = open.lastEvent
                progress += openIfDue()
            } else if let ended = write(packet) {
                progress.append(.finished(ended))
            }
        }
        if let open = clip, let ended = endIfDue(open, at: time) { progress.append(.finished(ended)) }
        if clip == nil { progress += openIfDue() }
        return progress
    }

    /// Ends the open clip (the source ended); nil when none was open.
    public func finish() -> EventClip? {
        guard clip != nil else { return nil }
        return close(.finished)
    }

    private func time(of pts: Int64) -> Double { (firstTime ?? 0) + Double(pts) / 1000 }

    /// Writes `packet` to the open clip; the clip that ended when the disk failed or the free
    /// space ran low.
    private func write(_ packet: HeldPacket) -> EventClip? {
        guard var open = clip else { return nil }
        if let minimum = settings.minimumFreeDiskSpace, open.frames % 30 == 0,
            let free = MovieRecorder.freeSpace(at: open.muxer.url), free < minimum
        {
            return close(.diskSpaceLow)
        }
        do {
            try open.muxer.write(packet.packet, shiftedBy: open.origin)
        } catch let error as KameraError {
            return close(error.code == .diskFull ? .diskFull : .writeFailed, failed: true)
        } catch {
            return close(.writeFailed, failed: true)
        }
        open.frames += 1
        open.lastPTS = packet.pts
        clippedUntil = packet.pts
        clip = open
        return nil
    }

    /// Ends the open clip when its post-roll has run out.
    private func endIfDue(_ open: OpenClip, at time: Double) -> EventClip? {
        time - open.lastEvent >= settings.postRoll ? close(.finished) : nil
    }

    /// Opens a clip for the pending event, from the pre-roll buffer, when a key frame to
    /// start on is held.
    private func openIfDue() -> [Progress] {
        guard let noted = pendingEvent, let first = firstTime else { return [] }
        // Range-checked before the conversion to Int64, which would trap (an event time is the caller's).
        let milliseconds = ((noted - settings.preRoll - first) * 1000).rounded(.down)
        let wanted = Int64(min(max(milliseconds, -9e15), 9e15))
        guard let start = buffer.start(from: wanted, after: clippedUntil) else { return [] }
        pendingEvent = nil
        let origin = buffer.packets[start].pts
        // An event noted before the clip's first frame (one going on across a length cut, or
        // seen before anything was buffered) is at the clip's start, not before it.
        let event = max(noted, time(of: origin))
        let url: URL
        let muxer: MovieMuxer
        do {
            url = try clipURL(Opening(eventTime: event, startTime: time(of: origin)))
            try MovieRecorder.validateContainer(of: url)
            if let minimum = settings.minimumFreeDiskSpace, let free = MovieRecorder.freeSpace(at: url), free < minimum {
                throw KameraError.writeFailed(path: url.path, reason: "\(free) bytes free, below the minimum of \(minimum)")
            }
            guard let parameters = encoder.parameters else { throw KameraError.writeFailed(path: url.path, reason: "out of memory") }
            muxer = try MovieMuxer(url: url, video: parameters, rotation: settings.rotation)
            try muxer.begin(fragmentInterval: settings.keyFrameInterval, waitsForAudio: false)
        } catch {
            let reason = error as? KameraError ?? .writeFailed(path: "event clip", reason: "\(error)")
            return [.skipped(eventTime: event, reason: reason)]
        }
        clip = OpenClip(muxer: muxer, eventTime: event, lastEvent: event, origin: origin, lastPTS: origin)
        var progress = [Progress.started(url: url, startTime: time(of: origin), eventTime: event)]
        for packet in buffer.packets[start...] {
            guard clip != nil else { break }
            if let ended = write(packet) { progress.append(.finished(ended)) }
        }
        return progress
    }

    /// Closes the open clip as `reason`; after a failed write the file is closed as it is.
    private func close(_ reason: RecordingStopReason, failed: Bool = false) -> EventClip? {
        guard let open = clip else { return nil }
        clip = nil
        if failed {
            open.muxer.abandon(writingTrailer: true)
        } else {
            do { try open.muxer.finish() } catch { open.muxer.abandon(writingTrailer: false) }
        }
        let url = open.muxer.url
        let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64) ?? 0
        return EventClip(
            url: url, startTime: time(of: open.origin), eventTime: open.eventTime,
            duration: open.frames > 0 ? Double(open.lastPTS - open.origin) / 1000 + 1 / settings.frameRate : 0,
            frames: open.frames, bytes: bytes, width: settings.width, height: settings.height, stopReason: reason)
    }
}
