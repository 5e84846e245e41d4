import Foundation
import KameraCore

/// Where the people in a photo are: BlazePose's detector on the whole image and, when that
/// gives fewer people than asked for, on closer squares of it. The detector sees people from
/// about a fifth of the image's longer side up; squares of the shorter side, then of half of
/// it, bring people down to about a tenth of the shorter side and people side by side in view.
/// Shared by the body-pose and people-box requests, so both find the same people.
struct PersonSearch {
    let detector: LetterboxedSSDDetector<PersonDetection>
    /// Whether to look closer at all (false: the whole image only, as MediaPipe's pipeline).
    var scansTiles: Bool
    /// Threads for the closer looks.
    var threads: Int

    /// The people in the sampler's image, at most `limit`: the whole image's (MediaPipe's
    /// reading of them) first, then those only the closer looks found, each best first.
    func people(in sampler: TensorSampler, limit: Int) -> [PersonDetection] {
        var people = detector.detect(in: sampler, limit: limit)
        let squares = Self.closerLooks(width: sampler.image.width, height: sampler.image.height)
        guard scansTiles, people.count < limit, !squares.isEmpty else { return people }
        for person in detector.detect(in: sampler, closerLooks: squares, threads: threads, limit: limit) where people.count < limit {
            // Someone whose hips lie within a third of a found body's radius of that body's
            // hips is the same person.
            let hips = person.keypoints[PersonDetection.hipsCenter]
            let known = people.contains {
                let center = $0.keypoints[PersonDetection.hipsCenter]
                return center.distance(to: hips) < center.distance(to: $0.keypoints[PersonDetection.bodyCircle]) / 3
            }
            if !known { people.append(person) }
        }
        return people
    }

    /// The squares looked at closer in a `width` × `height` image: of the shorter side along
    /// the longer one (when it is clearly longer), then of half the shorter side (when that is
    /// at least 320 px: smaller squares cost a dozen looks for people too few pixels tall for
    /// the landmark model), each overlapping its neighbours by a quarter or more.
    static func closerLooks(width: Int, height: Int) -> [RotatedRect] {
        let (shorter, longer) = (Double(min(width, height)), Double(max(width, height)))
        var squares: [RotatedRect] = []
        for side in [shorter, shorter / 2] where side <= 0.8 * longer && side >= 320 {
            // Enough squares that neighbours overlap by at least a quarter, spread evenly.
            func starts(_ length: Double) -> [Double] {
                let count = Int(((length - side) / (0.75 * side)).rounded(.up)) + 1
                return count == 1 ? [(length - side) / 2] : (0..<count).map { Double($0) * (length - side) / Double(count - 1) }
            }
            for y in starts(Double(height)) {
                for x in starts(Double(width)) {
                    squares.append(RotatedRect(center: PixelPoint(x: x + side / 2, y: y + side / 2), width: side, height: side, angle: 0))
                }
            }
        }
        return squares
    }
}
