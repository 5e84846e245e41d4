import Foundation

/// Roll, yaw and pitch solved from the 3-D Face Mesh: the face's horizontal axis is the mean
/// direction of symmetric point pairs (left minus right), its up axis the mean of midline
/// pairs made orthogonal to it, its forward axis their cross product; the angles are that
/// rotation's Euler angles. Robust to a few misplaced points because every axis averages
/// several pairs. Conventions as in `FaceObservation`.
enum HeadPose {
    typealias Vector = (x: Double, y: Double, z: Double)

    static func angles(mesh: [FaceLandmarks.MeshPoint]) -> (roll: Double, yaw: Double, pitch: Double)? {
        guard mesh.count >= 468 else { return nil }
        // Camera frame: x right, y up, z toward the camera (mesh z grows away from it).
        func point(_ i: Int) -> Vector { (mesh[i].x, -mesh[i].y, -mesh[i].z) }
        func sub(_ a: Vector, _ b: Vector) -> Vector { (a.x - b.x, a.y - b.y, a.z - b.z) }
        func add(_ a: Vector, _ b: Vector) -> Vector { (a.x + b.x, a.y + b.y, a.z + b.z) }
        func scale(_ a: Vector, _ s: Double) -> Vector { (a.x * s, a.y * s, a.z * s) }
        func dot(_ a: Vector, _ b: Vector) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
        func normalized(_ a: Vector) -> Vector? {
            let n = dot(a, a).squareRoot()
            return n > 1e-9 ? scale(a, 1 / n) : nil
        }
        func cross(_ a: Vector, _ b: Vector) -> Vector {
            (a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        var across: Vector = (0, 0, 0)
        for (left, right) in FaceMeshTopology.symmetricPairs {
            if let d = normalized(sub(point(left), point(right))) { across = add(across, d) }
        }
        var up: Vector = (0, 0, 0)
        for (top, bottom) in FaceMeshTopology.verticalPairs {
            if let d = normalized(sub(point(top), point(bottom))) { up = add(up, d) }
        }
        guard let xAxis = normalized(across),
            let yAxis = normalized(sub(up, scale(xAxis, dot(up, xAxis))))
        else { return nil }
        let zAxis = cross(xAxis, yAxis)
        // R = [x y z] (columns); R = Rz(roll) · Ry(yaw) · Rx(pitch) in the camera frame.
        let yaw = asin(min(max(zAxis.x, -1), 1))
        let pitch = atan2(zAxis.y, zAxis.z)
        let roll = atan2(xAxis.y, xAxis.x)
        return (roll, yaw, pitch)
    }
}
