import Foundation
import KameraCore
import KameraNN

/// Face Mesh and Iris run by KameraNN on a face: the mesh on a square crop turned upright by
/// the eye line (MediaPipe's detection-to-ROI: 1.5× the box), refined once on the crop its
/// own points define, then the iris model on each eye for the pupils.
struct FaceLandmarker: Sendable {
    private let mesh: InferenceSessionPool
    private let iris: InferenceSessionPool

    init(models: ModelStore) throws {
        mesh = try models.sessions(.faceLandmark)
        iris = try models.sessions(.irisLandmark)
        guard mesh.network.outputShapes.contains(where: { $0.reduce(1, *) == 1404 }),
            iris.network.outputShapes.contains(where: { $0.reduce(1, *) == 15 })
        else {
            throw KameraError.invalidModel(path: mesh.network.path, reason: "unexpected Face Mesh / Iris outputs")
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
        var (points, presence) = runMesh(first, sampler: sampler)
        var used = first
        // A second pass on the crop the mesh itself defines, when the detector's crop was off
        // (turned, shifted or sized wrongly enough that the mesh is less sure).
        let second = Self.region(for: points)
        let shift = hypot(second.center.x - first.center.x, second.center.y - first.center.y) / first.width
        let turn = abs(remainder(second.angle - first.angle, 2 * .pi))
        if refinesMesh, presence >= 0.5, shift > 0.03 || turn > 0.05 || abs(second.width / first.width - 1) > 0.08 {
            let (refined, refinedPresence) = runMesh(second, sampler: sampler)
            if refinedPresence >= presence * 0.9 { (points, presence, used) = (refined, refinedPresence, second) }
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
        regions[.leftPupil] = [
            normalized(
                usesIris
                    ? pupil(points, corners: FaceMeshTopology.leftEyeCorners, sampler: sampler)
                    : eyeCentre(FaceMeshTopology.leftEye))
        ]
        regions[.rightPupil] = [
            normalized(
                usesIris
                    ? pupil(points, corners: FaceMeshTopology.rightEyeCorners, sampler: sampler)
                    : eyeCentre(FaceMeshTopology.rightEye))
        ]
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
            let (other, _) = runMesh(moved, sampler: sampler)
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

    /// Runs Face Mesh on `rect`: 468 points in image pixels and the face-presence score.
    private func runMesh(_ rect: RotatedRect, sampler: TensorSampler) -> ([FaceLandmarks.MeshPoint], Float) {
        mesh.withSession { session in
            session.withInput { sampler.sample(rect, into: $0, width: 192, height: 192, range: 0...1) }
            session.invoke()
            let outputs = mesh.network.outputShapes
            let coordinates = session.output(outputs.firstIndex { $0.reduce(1, *) == 1404 }!)
            let flag = session.output(outputs.firstIndex { $0.reduce(1, *) == 1 }!)[0]
            let points = (0..<468).map { i -> FaceLandmarks.MeshPoint in
                let p = rect.imagePoint(u: Double(coordinates[3 * i]) / 192, v: Double(coordinates[3 * i + 1]) / 192)
                return FaceLandmarks.MeshPoint(x: p.x, y: p.y, z: Double(coordinates[3 * i + 2]) / 192 * rect.width)
            }
            return (points, 1 / (1 + exp(-flag)))
        }
    }

    /// The pupil centre from the iris model on the eye's crop (2.3× the corner distance,
    /// turned to the eye line); the model sees every eye as a left eye, so right eyes are
    /// mirrored in and out.
    private func pupil(_ points: [FaceLandmarks.MeshPoint], corners: (Int, Int), sampler: TensorSampler) -> PixelPoint {
        let outer = points[corners.0].point, inner = points[corners.1].point
        let center = PixelPoint(x: (outer.x + inner.x) / 2, y: (outer.y + inner.y) / 2)
        let distance = hypot(outer.x - inner.x, outer.y - inner.y)
        // Both crops use the image-left → image-right eye line, whichever corner is where.
        let leftmost = outer.x < inner.x ? outer : inner, rightmost = outer.x < inner.x ? inner : outer
        let rect = RotatedRect(
            center: center, width: distance * 2.3, height: distance * 2.3,
            angle: atan2(rightmost.y - leftmost.y, rightmost.x - leftmost.x))
        let mirrored = corners.0 == FaceMeshTopology.leftEyeCorners.0 ? Self.mirrorLeftEye : !Self.mirrorLeftEye
        return iris.withSession { session in
            session.withInput { sampler.sample(rect, into: $0, width: 64, height: 64, range: Self.irisRange, mirrored: mirrored) }
            session.invoke()
            let outputs = iris.network.outputShapes
            let irisPoints = session.output(outputs.firstIndex { $0.reduce(1, *) == 15 }!)
            var u = Double(irisPoints[0]) / 64
            if mirrored { u = 1 - u }
            return rect.imagePoint(u: u, v: Double(irisPoints[1]) / 64)
        }
    }

    // Set from measurement (see FaceLandmarkTests): which eye the model wants mirrored and its input range.
    static let mirrorLeftEye = false
    static let irisRange: ClosedRange<Float> = 0...1
}
