import Foundation
import KameraCore

/// Where a followed body or hand is, and where it will be: the region its landmarks gave in
/// the frame it was last seen, moved on at its recent speed. MediaPipe's streaming graphs
/// look in the last frame's region as it was; a hand crossing a tenth of its size a frame then
/// sits off-centre, the landmarks come out biased towards the region's middle, and the next
/// region lags further, until the track slides off the hand (onto the other one when they
/// are close). Predicting the move keeps the hand in the middle.
struct FollowedRegion {
    private(set) var region: RotatedRect
    /// Pixels per second, smoothed.
    private(set) var velocity = PixelPoint(x: 0, y: 0)
    private(set) var lastSeen: Double

    init(_ region: RotatedRect, at time: Double) {
        (self.region, lastSeen) = (region, time)
    }

    /// The region moved on to `time` (at most half a second ahead: a long-unseen track is
    /// looked for where it was last going, not far beyond).
    func predicted(at time: Double) -> RotatedRect {
        let dt = min(max(time - lastSeen, 0), 0.5)
        var moved = region
        moved.center = PixelPoint(x: region.center.x + velocity.x * dt, y: region.center.y + velocity.y * dt)
        return moved
    }

    /// Takes the region found at `time`; the speed is half the new move's, half the old.
    mutating func update(_ found: RotatedRect, at time: Double) {
        let dt = time - lastSeen
        if dt > 0 {
            let move = PixelPoint(x: (found.center.x - region.center.x) / dt, y: (found.center.y - region.center.y) / dt)
            velocity = PixelPoint(x: (velocity.x + move.x) / 2, y: (velocity.y + move.y) / 2)
        }
        (region, lastSeen) = (found, time)
    }
}
