import Foundation
import KameraCore
import KameraNN

/// A mask of the people in an image, like Vision's `GeneratePersonSegmentationRequest`:
/// MediaPipe's selfie-segmentation models run by KameraNN. Each mask value is the probability
/// that the pixel shows a person (all of them: the model does not tell people apart).
public struct GeneratePersonSegmentationRequest: ImageRequest {
    /// How much work goes into the mask, as in Vision.
    public enum QualityLevel: String, Sendable, CaseIterable, Codable {
        /// The landscape model (256×144): the cheapest, for video and live views.
        case fast
        /// The general model (256×256).
        case balanced
        /// The general model, its mask brought to the image's size along the image's own edges
        /// (a guided filter), so hair and fingers keep their outline.
        case accurate
    }

    /// Where the mask is returned.
    public enum MaskSize: Sendable, Hashable {
        /// The model's output size (256×144 or 256×256).
        case model
        /// The image's (or region's) size.
        case image
    }

    /// Default `.accurate`, as Vision.
    public var qualityLevel: QualityLevel
    /// Default: the image's size for `.accurate`, the model's otherwise (as Vision's masks).
    public var maskSize: MaskSize?
    public var regionOfInterest = NormalizedRect.fullImage
    /// Where the models are read from.
    public var modelStore = ModelStore.default

    public init(qualityLevel: QualityLevel = .accurate, maskSize: MaskSize? = nil) {
        self.qualityLevel = qualityLevel
        self.maskSize = maskSize
    }

    /// The model each quality level runs.
    var model: KameraModel { qualityLevel == .fast ? .selfieSegmentationLandscape : .selfieSegmentation }

    /// - Throws: `KameraError.missingResource` when the model is not installed, `invalidModel`
    ///   when it does not have the expected shape, and the region's errors.
    public func perform(in context: ImageAnalysisContext) throws -> PersonSegmentationObservation {
        let region = try context.region(regionOfInterest)
        let sessions = try modelStore.sessions(model)
        let network = sessions.network
        guard network.inputShapes.count == 1, network.outputShapes.count == 1,
            network.inputShapes[0].count == 4, network.inputShapes[0][3] == 3,
            network.outputShapes[0] == [1, network.inputShapes[0][1], network.inputShapes[0][2], 1]
        else {
            throw KameraError.invalidModel(path: network.path, reason: "unexpected shapes \(network.inputShapes) → \(network.outputShapes)")
        }
        let (height, width) = (network.inputShapes[0][1], network.inputShapes[0][2])
        let sampler = region.tensorSampler
        let image = sampler.image
        // The whole image stretched to the model's input, values 0…1, on MediaPipe's grid (as its
        // graph: the region's centre at half the image's size, corner pixel on corner pixel).
        let whole = RotatedRect(
            center: PixelPoint(x: Double(image.width) / 2, y: Double(image.height) / 2),
            width: Double(image.width), height: Double(image.height), angle: 0)
        let probabilities = sessions.withSession { session -> [Float] in
            session.withInput { sampler.sample(whole, into: $0, width: width, height: height, range: 0...1, grid: .corners) }
            session.invoke()
            return Array(session.output(0))
        }
        let modelMask = FloatMask(width: width, height: height, values: probabilities.map { min(max($0, 0), 1) })
        let size = maskSize ?? (qualityLevel == .accurate ? .image : .model)
        let mask: FloatMask
        switch (size, qualityLevel) {
        case (.model, _): mask = modelMask
        case (.image, .accurate): mask = GuidedUpsampling.upsample(modelMask, along: region.grayscale)
        case (.image, _): mask = modelMask.resampled(width: image.width, height: image.height)
        }
        return PersonSegmentationObservation(mask: mask, imageSize: Size(width: Double(image.width), height: Double(image.height)))
    }
}
