import Foundation
import KameraCore

/// Finds faces and their landmarks, like Vision's `DetectFaceLandmarksRequest`: faces as
/// `DetectFaceRectanglesRequest` finds them (or the ones given), then the attention Face Mesh
/// on each (468 points with refined lips and eyes, and the irises). Roll, yaw and pitch come
/// from the 3-D mesh.
public struct DetectFaceLandmarksRequest: ImageRequest {
    /// Face detection settings for the first stage; its `modelStore` also serves Face Mesh.
    public var faceDetection: DetectFaceRectanglesRequest
    /// Faces to refine instead of detecting (Vision's `inputFaceObservations`), in the
    /// coordinates of `regionOfInterest` when one is set.
    public var inputFaceObservations: [FaceObservation]?
    /// Pupils at the iris centres the mesh's eye networks place (no extra cost); false takes
    /// the centre of the mesh's eye ring instead (less exact when the eyes look aside). The
    /// name is kept from when a separate Iris model ran on each eye.
    public var usesIrisModel: Bool
    /// Allows a second Face Mesh pass on the mesh's own crop when the detector's was off.
    public var refinesMesh: Bool
    /// Fills each region's `precisionEstimatesPerPoint` (two more Face Mesh runs per face,
    /// about 5 ms); off by default, as Vision leaves them nil unless asked.
    public var estimatesPrecision = false
    /// The part of the image to analyse (normalized, lower-left origin); results are relative
    /// to it, as in Vision. Default: the whole image.
    public var regionOfInterest = NormalizedRect.fullImage

    public init(
        faceDetection: DetectFaceRectanglesRequest = DetectFaceRectanglesRequest(),
        inputFaceObservations: [FaceObservation]? = nil, usesIrisModel: Bool = true, refinesMesh: Bool = true
    ) {
        self.faceDetection = faceDetection
        self.inputFaceObservations = inputFaceObservations
        self.usesIrisModel = usesIrisModel
        self.refinesMesh = refinesMesh
    }

    public func perform(in context: ImageAnalysisContext) throws -> [FaceObservation] {
        let context = try context.region(regionOfInterest)
        let size = context.rgb.size
        let detections: [FaceDetection] =
            if let inputFaceObservations {
                inputFaceObservations.map { FaceDetection(box: $0.pixelBox, keypoints: $0.keypoints, score: $0.confidence) }
            } else {
                try faceDetection.detections(in: context)
            }
        let landmarker = try FaceLandmarker(models: faceDetection.modelStore)
        let sampler = context.tensorSampler
        // Faces are independent: their mesh (and Iris) runs spread over the detection's threads.
        let threads = faceDetection.maximumThreads ?? ProcessInfo.processInfo.activeProcessorCount
        return FaceScanner.concurrentCompactMap(detections, threads: threads) { [self] detection in
            observation(for: detection, imageSize: size, sampler: sampler, landmarker: landmarker)
        }
    }

    /// One face's observation with its landmarks and the mesh's pose, by this request's
    /// options; shared with `LiveScanner`.
    func observation(
        for detection: FaceDetection, imageSize: Size, sampler: TensorSampler,
        landmarker: FaceLandmarker
    ) -> FaceObservation {
        var observation = DetectFaceRectanglesRequest.observation(detection, imageSize: imageSize)
        if let (landmarks, pose) = landmarker.landmarks(
            for: detection, sampler: sampler, usesIris: usesIrisModel,
            refinesMesh: refinesMesh, estimatesPrecision: estimatesPrecision)
        {
            observation.landmarks = landmarks
            if let pose {
                (observation.roll, observation.yaw, observation.pitch) = (.radians(pose.roll), .radians(pose.yaw), .radians(pose.pitch))
            }
        }
        return observation
    }
}
