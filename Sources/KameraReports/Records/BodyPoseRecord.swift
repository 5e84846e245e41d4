import Kamera

/// A ``HumanBodyPoseObservation`` as JSON (`kamera detect --bodies`): the person's box and
/// confidence, and Vision's 19 joints in Vision's order, each in pixels (top-left origin) with
/// its confidence.
package struct BodyPoseRecord: Codable, Sendable, Equatable {
    package struct Joint: Codable, Sendable, Equatable {
        package var name: HumanBodyPoseObservation.JointName
        package var x: Double
        package var y: Double
        package var confidence: Double
    }

    package var confidence: Double
    package var boundingBox: RecordBox
    package var pixelBox: RecordBox
    package var joints: [Joint]

    package init(_ o: HumanBodyPoseObservation) {
        confidence = RecordRounding.score(Double(o.confidence))
        boundingBox = RecordBox(o.boundingBox)
        pixelBox = RecordBox(o.boundingBox.toImageCoordinates(o.imageSize))
        let points = o.recognizedPoints()
        joints = HumanBodyPoseObservation.JointName.allCases.compactMap { name in
            points[name].map {
                Joint(
                    name: name, x: RecordRounding.pixels($0.pixelLocation.x), y: RecordRounding.pixels($0.pixelLocation.y),
                    confidence: RecordRounding.score(Double($0.confidence)))
            }
        }
    }
}
