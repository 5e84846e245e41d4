import Kamera

/// A ``HumanBodyPose3DObservation`` as JSON (`kamera detect --bodies-3d`): how sure the models
/// are, the body's height in metres and how it was found, and Vision's 17 3-D joints in
/// Vision's order — in metres about the root (the hips' middle; x to the image's right, y up,
/// z toward the camera) and where each is in the image (pixels, top-left origin).
package struct BodyPose3DRecord: Codable, Sendable, Equatable {
    package struct Joint: Codable, Sendable, Equatable {
        package var name: HumanBodyPose3DObservation.JointName
        package var x: Double
        package var y: Double
        package var z: Double
        package var imageX: Double
        package var imageY: Double
    }

    package var confidence: Double
    package var bodyHeight: Double
    package var heightEstimation: HumanBodyPose3DObservation.HeightEstimation
    package var joints: [Joint]

    package init(_ o: HumanBodyPose3DObservation) {
        confidence = RecordRounding.score(Double(o.confidence))
        bodyHeight = RecordRounding.metres(o.bodyHeight)
        heightEstimation = o.heightEstimation
        let points = o.recognizedPoints()
        joints = HumanBodyPose3DObservation.JointName.allCases.compactMap { name in
            points[name].map {
                Joint(
                    name: name, x: RecordRounding.metres($0.position.x), y: RecordRounding.metres($0.position.y),
                    z: RecordRounding.metres($0.position.z), imageX: RecordRounding.pixels($0.location.x * o.imageSize.width),
                    imageY: RecordRounding.pixels((1 - $0.location.y) * o.imageSize.height))
            }
        }
    }
}
