import KameraCore

/// Face landmarks as Vision presents them (`FaceObservation.Landmarks2D`): one property per
/// region (`leftEye`, `outerLips`, …) whose points are normalized to the face's bounding box
/// (0…1, origin lower-left), plus every Face Mesh point in the image. Left and right are the
/// subject's, as in Vision.
public struct FaceLandmarks: Sendable {
    /// The region names, in Vision's order.
    public enum RegionName: String, CaseIterable, Sendable {
        case faceContour, leftEye, rightEye, leftEyebrow, rightEyebrow, nose, noseCrest, medianLine,
            outerLips, innerLips, leftPupil, rightPupil
    }

    /// Points of each region, normalized to the face box.
    public var regions: [RegionName: [NormalizedPoint]]
    /// All 468 mesh points in pixels (top-left origin); `z` is depth in pixels relative to the
    /// face centre, smaller is nearer the camera.
    public var meshPoints: [MeshPoint]
    /// Face Mesh's confidence that the crop holds a face, 0…1.
    public var confidence: Float
    /// The face box the regions are normalized to, in pixels.
    public var faceBox: PixelRect
    /// Size of the image the face is in.
    public var imageSize: Size
    /// Each region point's expected error as a fraction of the face box's larger side, when
    /// the request asked for them (`DetectFaceLandmarksRequest.estimatesPrecision`).
    public var precisionEstimates: [RegionName: [Float]]?

    /// One 3-D mesh point in pixels.
    public struct MeshPoint: Sendable, Hashable {
        public var x: Double, y: Double, z: Double
        public init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }
        public var point: PixelPoint { PixelPoint(x: x, y: y) }
    }

    public init(
        regions: [RegionName: [NormalizedPoint]], meshPoints: [MeshPoint], confidence: Float, faceBox: PixelRect,
        imageSize: Size
    ) {
        self.regions = regions
        self.meshPoints = meshPoints
        self.confidence = confidence
        self.faceBox = faceBox
        self.imageSize = imageSize
    }

    /// A region's points in image pixels (top-left origin).
    public func pixelPoints(_ region: RegionName) -> [PixelPoint] {
        (regions[region] ?? []).map {
            PixelPoint(x: faceBox.x + $0.x * faceBox.width, y: faceBox.y + (1 - $0.y) * faceBox.height)
        }
    }
}

extension FaceLandmarks {
    /// One landmark region, as Vision's `FaceObservation.Landmarks2D.Region`.
    public struct Region: Sendable, Hashable {
        /// How the points connect.
        public enum PointsClassification: Sendable, Hashable {
            case disconnected, openPath, closedPath
        }

        /// Which region (nil for `allPoints`).
        public let name: RegionName?
        /// The points, normalized to the face's bounding box (origin lower-left).
        public let points: [NormalizedPoint]
        /// How the points connect: a closed ring (eyes, lips), an open line, or single points.
        public let pointsClassification: PointsClassification
        /// The face's bounding box normalized to the image, which `points` are relative to.
        public let faceBoundingBox: NormalizedRect
        /// Each point's expected error as a fraction of the face box's larger side (Vision's
        /// `precisionEstimatesPerPoint`); nil unless the request's `estimatesPrecision` is set.
        public let precisionEstimatesPerPoint: [Float]?

        /// The number of points.
        public var pointCount: Int { points.count }

        /// The points in the pixels of an image of `imageSize` (the analysed image or the same
        /// picture at another size), with y counted from `origin`.
        public func pointsInImageCoordinates(_ imageSize: Size, origin: CoordinateOrigin = .lowerLeft) -> [PixelPoint] {
            points.map { point in
                let x = (faceBoundingBox.x + point.x * faceBoundingBox.width) * imageSize.width
                let y = (faceBoundingBox.y + point.y * faceBoundingBox.height) * imageSize.height
                return PixelPoint(x: x, y: origin == .lowerLeft ? y : imageSize.height - y)
            }
        }
    }

    /// The region called `name`.
    public func region(named name: RegionName) -> Region {
        let classification: Region.PointsClassification =
            switch name {
            case .leftEye, .rightEye, .outerLips, .innerLips: .closedPath
            case .leftPupil, .rightPupil: .disconnected
            default: .openPath
            }
        return Region(
            name: name, points: regions[name] ?? [], pointsClassification: classification,
            faceBoundingBox: faceBox.normalized(in: imageSize), precisionEstimatesPerPoint: precisionEstimates?[name])
    }

    /// Every region's points in one (Vision's `allPoints`).
    public var allPoints: Region {
        Region(
            name: nil, points: RegionName.allCases.flatMap { regions[$0] ?? [] }, pointsClassification: .disconnected,
            faceBoundingBox: faceBox.normalized(in: imageSize),
            precisionEstimatesPerPoint: precisionEstimates.map { estimates in RegionName.allCases.flatMap { estimates[$0] ?? [] } })
    }
    /// The outline of the face from ear to ear over the chin.
    public var faceContour: Region { region(named: .faceContour) }
    /// The subject's left eye, a closed ring.
    public var leftEye: Region { region(named: .leftEye) }
    /// The subject's right eye, a closed ring.
    public var rightEye: Region { region(named: .rightEye) }
    /// The subject's left eyebrow.
    public var leftEyebrow: Region { region(named: .leftEyebrow) }
    /// The subject's right eyebrow.
    public var rightEyebrow: Region { region(named: .rightEyebrow) }
    /// The outline of the nose.
    public var nose: Region { region(named: .nose) }
    /// The ridge of the nose.
    public var noseCrest: Region { region(named: .noseCrest) }
    /// The face's vertical midline.
    public var medianLine: Region { region(named: .medianLine) }
    /// The outer edge of the lips, a closed ring.
    public var outerLips: Region { region(named: .outerLips) }
    /// The inner edge of the lips, a closed ring.
    public var innerLips: Region { region(named: .innerLips) }
    /// The subject's left pupil, one point.
    public var leftPupil: Region { region(named: .leftPupil) }
    /// The subject's right pupil, one point.
    public var rightPupil: Region { region(named: .rightPupil) }
}

extension FaceObservation {
    /// Vision's name for a face's landmarks.
    public typealias Landmarks2D = FaceLandmarks
}
