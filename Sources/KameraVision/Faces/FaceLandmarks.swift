import KameraCore

/// Face landmarks as Vision presents them: named regions whose points are normalized to the
/// face's bounding box (0…1, origin lower-left), plus every Face Mesh point in the image.
/// Left and right are the subject's, as in Vision.
public struct FaceLandmarks: Sendable {
    /// The region names, in Vision's order.
    public enum Region: String, CaseIterable, Sendable {
        case faceContour, leftEye, rightEye, leftEyebrow, rightEyebrow, nose, noseCrest, medianLine,
             outerLips, innerLips, leftPupil, rightPupil
    }

    /// Points of each region, normalized to the face box.
    public var regions: [Region: [NormalizedPoint]]
    /// All 468 mesh points in pixels (top-left origin); `z` is depth in pixels relative to the
    /// face centre, smaller is nearer the camera.
    public var meshPoints: [MeshPoint]
    /// Face Mesh's confidence that the crop holds a face, 0…1.
    public var confidence: Float
    /// The face box the regions are normalized to, in pixels.
    public var faceBox: PixelRect

    /// One 3-D mesh point in pixels.
    public struct MeshPoint: Sendable, Hashable {
        public var x: Double, y: Double, z: Double
        public init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }
        public var point: PixelPoint { PixelPoint(x: x, y: y) }
    }

    public init(regions: [Region: [NormalizedPoint]], meshPoints: [MeshPoint], confidence: Float, faceBox: PixelRect) {
        self.regions = regions
        self.meshPoints = meshPoints
        self.confidence = confidence
        self.faceBox = faceBox
    }

    /// Every region point, normalized to the face box (Vision's `allPoints`).
    public var allPoints: [NormalizedPoint] { Region.allCases.flatMap { regions[$0] ?? [] } }

    /// A region's points in image pixels (top-left origin).
    public func pixelPoints(_ region: Region) -> [PixelPoint] {
        (regions[region] ?? []).map {
            PixelPoint(x: faceBox.x + $0.x * faceBox.width, y: faceBox.y + (1 - $0.y) * faceBox.height)
        }
    }
}
