import Kamera

/// One face as `kamera detect --faces` prints it.
struct FaceRecord {
    var observation: FaceObservation

    var jsonValue: JSONValue {
        func round(_ v: Double, _ digits: Double) -> JSONValue { .number((v * digits).rounded() / digits) }
        let b = observation.boundingBox, p = observation.pixelBox
        var members: [(String, JSONValue)] = [
            ("boundingBox", .object([("x", round(b.x, 1e4)), ("y", round(b.y, 1e4)),
                                     ("width", round(b.width, 1e4)), ("height", round(b.height, 1e4))])),
            ("pixelBox", .object([("x", round(p.x, 10)), ("y", round(p.y, 10)),
                                  ("width", round(p.width, 10)), ("height", round(p.height, 10))])),
            ("confidence", round(Double(observation.confidence), 1000)),
        ]
        for (name, angle) in [("roll", observation.roll), ("yaw", observation.yaw), ("pitch", observation.pitch)] {
            if let angle { members.append((name, round(angle, 1e4))) }
        }
        if let landmarks = observation.landmarks {
            members.append(("landmarks", .object(FaceLandmarks.Region.allCases.map { region in
                (region.rawValue, .array((landmarks.regions[region] ?? []).map { .array([round($0.x, 1e4), round($0.y, 1e4)]) }))
            })))
        }
        return .object(members)
    }
}
