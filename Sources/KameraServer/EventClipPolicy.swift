import Kamera

/// Event clips of the server cameras (`kamera serve --clips`): each camera keeps its last
/// seconds of encoded video, and when one of `events` comes into view a clip is saved from
/// `preRoll` seconds before it until `postRoll` seconds after it was last seen, listed with
/// the recordings and the event that started it. The cameras then capture and analyse all
/// the time, watched or not.
public struct EventClipPolicy: Sendable, Equatable {
    /// What starts a clip (at least one).
    public var events: Set<CameraEvent>
    /// Seconds of video a clip has before the event (0…60).
    public var preRoll: Double
    /// Seconds a clip goes on after the event was last seen (0…600).
    public var postRoll: Double
    /// A clip is cut at this length, and the next one carries on (seconds, 2…86400).
    public var maximumDuration: Double

    /// - Parameters:
    ///   - events: what starts a clip.
    ///   - preRoll: seconds before the event.
    ///   - postRoll: seconds after it was last seen.
    ///   - maximumDuration: seconds a clip may last.
    public init(events: Set<CameraEvent>, preRoll: Double = 5, postRoll: Double = 5, maximumDuration: Double = 300) {
        (self.events, self.preRoll, self.postRoll, self.maximumDuration) = (events, preRoll, postRoll, maximumDuration)
    }

    /// The recorder's settings for a camera delivering `width`×`height` at `frameRate`,
    /// stopping clips when the data disk has less than `minimumFreeDiskSpace` bytes.
    func settings(width: Int, height: Int, frameRate: Double, minimumFreeDiskSpace: Int64?) -> EventClipSettings {
        var settings = EventClipSettings(
            width: width, height: height, frameRate: frameRate, preRoll: preRoll, postRoll: postRoll, maximumDuration: maximumDuration)
        settings.minimumFreeDiskSpace = minimumFreeDiskSpace
        return settings
    }

    /// Throws `invalidArgument` for no events or seconds out of range.
    public func validate() throws {
        guard !events.isEmpty else { throw KameraError.invalidArgument("event clips need at least one event: face, code or person") }
        try settings(width: 640, height: 480, frameRate: 30, minimumFreeDiskSpace: nil).validate()
    }
}
