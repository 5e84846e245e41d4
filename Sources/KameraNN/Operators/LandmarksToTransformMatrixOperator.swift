import Foundation

/// MediaPipe's custom `Landmarks2TransformMatrix` (version 2), in the attention face mesh: from
/// the mesh's landmarks it builds the 4×4 matrix that maps a small output grid (16×16) onto
/// a region of the feature map — the lips or one eye — turned so that the two rotation
/// landmarks lie level, centred on the region's landmarks and `scale` times their extent.
/// Options (a FlexBuffer map): `subset_idxs` (the region's landmarks; MediaPipe reads them as
/// pairs and pairs an odd last one with itself, which is the same set of points),
/// `left_rotation_idx`, `right_rotation_idx`, `target_rotation_radians`, `output_width`,
/// `output_height`, `scale_x`, `scale_y`.
struct LandmarksToTransformMatrixOperator: GraphOperator {
    static let builtinCode: Int32 = OperatorRegistry.customBuiltinCode
    static let customCode: String? = "Landmarks2TransformMatrix"
    static let name = "Landmarks2TransformMatrix"

    /// The region and framing the operator's options describe.
    struct Region: Sendable, Equatable {
        var subset: [Int]
        var leftRotation: Int, rightRotation: Int
        var targetRotation: Float
        var outputWidth: Int, outputHeight: Int
        var scaleX: Float, scaleY: Float
    }

    var input: Int, output: Int
    var region: Region

    init(input: Int, output: Int, region: Region) {
        (self.input, self.output, self.region) = (input, output, region)
    }

    init(_ record: OperatorRecord) throws {
        guard let bytes = record.customOptions else { throw record.fail("\(Self.name) has no options") }
        do {
            let options = try FlexBufferReader(bytes: bytes).root().map()
            func field(_ name: String) throws -> FlexBufferReader.Value {
                guard let value = options[name] else { throw FlexBufferReader.Failure(description: "missing \(name)") }
                return value
            }
            let region = Region(
                subset: try field("subset_idxs").integers(),
                leftRotation: try field("left_rotation_idx").integer(), rightRotation: try field("right_rotation_idx").integer(),
                targetRotation: Float(try options["target_rotation_radians"]?.number() ?? 0),
                outputWidth: try field("output_width").integer(), outputHeight: try field("output_height").integer(),
                scaleX: Float(try field("scale_x").number()), scaleY: Float(try field("scale_y").number()))
            self.init(input: try record.input(0), output: record.output, region: region)
        } catch let failure as FlexBufferReader.Failure {
            throw record.fail("\(Self.name) options: \(failure.description)")
        }
    }

    var inputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let landmarks = planner.tensors[input]
        // Version 2 takes [1, N, 3]; version 1's [1, 1, 1, 3N] and its other options are not read.
        guard landmarks.shape.count == 3, landmarks.shape.last == 3 else {
            throw planner.fail("\(Self.name) (version 2) takes [1, N, 3] landmarks, not \(landmarks.shape)")
        }
        let count = landmarks.elementCount / 3
        let indices = region.subset + [region.leftRotation, region.rightRotation]
        guard !region.subset.isEmpty, indices.allSatisfy({ $0 >= 0 && $0 < count }) else {
            throw planner.fail("\(Self.name) landmark indices out of range for \(count) landmarks")
        }
        guard region.outputWidth > 0, region.outputHeight > 0, region.scaleX > 0, region.scaleY > 0,
            planner.tensors[output].elementCount == 16
        else { throw planner.fail("\(Self.name) options or output \(planner.tensors[output].shape) are invalid") }
        return LandmarksToTransformMatrixKernel(input: planner.arena(input), output: planner.arena(output), region: region)
    }
}

struct LandmarksToTransformMatrixKernel: PlannedKernel {
    var input: Int, output: Int
    var region: LandmarksToTransformMatrixOperator.Region
    var kernelName: String { "landmarks to transform matrix" }

    func run(_ context: KernelContext) {
        let points = context.arena + input
        func point(_ i: Int) -> (x: Float, y: Float) { (points[3 * i], points[3 * i + 1]) }
        let left = point(region.leftRotation), right = point(region.rightRotation)
        // The turn that levels the rotation landmarks, then the region's box in that frame.
        let rotation = region.targetRotation - atan2(right.y - left.y, right.x - left.x)
        let (c, s) = (cos(rotation), sin(rotation))
        var (minX, minY, maxX, maxY) = (Float.infinity, Float.infinity, -Float.infinity, -Float.infinity)
        for index in region.subset {
            let p = point(index)
            let (x, y) = (c * p.x - s * p.y, s * p.x + c * p.y)
            (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
        }
        let (width, height) = (maxX - minX, maxY - minY)
        // The box's centre back in the landmarks' frame (the inverse turn).
        let (mx, my) = ((minX + maxX) / 2, (minY + maxY) / 2)
        let centre = (x: c * mx + s * my, y: -s * mx + c * my)
        // shift(centre) · rotate(−rotation) · scale · shift(−output / 2), rows of a 4×4.
        let scaleX = region.scaleX * width / Float(region.outputWidth)
        let scaleY = region.scaleY * height / Float(region.outputHeight)
        let (shiftX, shiftY) = (-Float(region.outputWidth) / 2, -Float(region.outputHeight) / 2)
        let (a, b, d, e) = (c * scaleX, s * scaleY, -s * scaleX, c * scaleY)
        let matrix: [Float] = [
            a, b, 0, a * shiftX + b * shiftY + centre.x,
            d, e, 0, d * shiftX + e * shiftY + centre.y,
            0, 0, 1, 0,
            0, 0, 0, 1,
        ]
        let out = context.arena + output
        for i in 0..<16 { out[i] = matrix[i] }
    }
}
