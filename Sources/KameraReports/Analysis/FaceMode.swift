import Kamera

/// How faces are looked for: from the thorough default for photos to MediaPipe's own
/// pipelines (measured in bench/faces.sh).
package enum FaceMode: String, CaseIterable, Codable, Sendable {
    /// Whole image, tiles for small faces, a closer look at each face (the default for photos).
    case tiled
    /// Whole image only (faces above about 1/20 of it), a closer look at each face.
    case whole
    /// Whole image only, the full-range model's faces as they come: MediaPipe's full-range
    /// pipeline, about 0.8× its time.
    case fast
    /// The short-range model only, faces as they come: faces a tenth of the image or larger
    /// (selfies, calls, ID photos), as MediaPipe's Face Mesh finds them.
    case short

    /// With landmarks: MediaPipe's modes also take Face Mesh's own landmark pipeline (one
    /// mesh pass, pupils from the mesh, no Iris) — the library's fast landmark configuration.
    package var fastLandmarks: Bool { self == .fast || self == .short }

    /// `request` set up for this mode (its other options kept).
    package func configured(_ request: DetectFaceRectanglesRequest) -> DetectFaceRectanglesRequest {
        var request = request
        request.scansTiles = self == .tiled
        request.refinesFaces = self == .tiled || self == .whole
        request.detectorRange = self == .short ? .short : .full
        return request
    }
}
