import Kamera

/// A ``HumanHandPoseObservation`` as JSON (`kamera detect --hands`): which hand, how sure the
/// model is a hand is there, and the 21 joints in Vision's order, in pixels (top-left origin).
package struct HandPoseRecord: Codable, Sendable, Equatable {
    package struct Joint: Codable, Sendable, Equatable {
        package var name: HumanHandPoseObservation.JointName
        package var x: Double
        package var y: Double
    }

    package var chirality: HumanHandPoseObservation.Chirality
    package var confidence: Double
    package var joints: [Joint]

    package init(_ o: HumanHandPoseObservation) {
        chirality = o.chirality
        confidence = RecordRounding.score(Double(o.confidence))
        joints = zip(HumanHandPoseObservation.JointName.allCases, o.pixelLocations).map {
            Joint(name: $0, x: RecordRounding.pixels($1.x), y: RecordRounding.pixels($1.y))
        }
    }
}
