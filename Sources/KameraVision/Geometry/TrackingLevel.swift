/// How hard a tracking request works per frame, as Vision's `VNRequestTrackingLevel`.
public enum TrackingLevel: String, Sendable, CaseIterable, Codable {
    /// Fewer points, a smaller flow window; a lost target is searched for every third frame.
    case fast
    /// More points, finer flow; a lost target is searched for in every frame. Vision's default.
    case accurate
}
