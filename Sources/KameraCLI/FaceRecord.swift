import Kamera

/// One face as `kamera detect --faces` and `kamera scan` print it. Angles in degrees.
struct FaceRecord {
    var observation: FaceObservation

    var jsonValue: JSONValue { .object(members) }

    /// The fields in order, for records that prepend their own (`scan`'s faceID).
    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("boundingBox", .box(observation.boundingBox)),
            ("pixelBox", .box(observation.pixelBox)),
            ("confidence", .score(Double(observation.confidence))),
        ]
        for (name, angle) in [("roll", observation.roll), ("yaw", observation.yaw), ("pitch", observation.pitch)] {
            members.append((name, .degrees(radians: angle.inRadians)))
        }
        if let landmarks = observation.landmarks {
            members.append(("landmarks", .object(FaceLandmarks.RegionName.allCases.map { region in
                (region.rawValue, .array((landmarks.regions[region] ?? []).map { .array([.normalized($0.x), .normalized($0.y)]) }))
            })))
        }
        return members
    }
}
