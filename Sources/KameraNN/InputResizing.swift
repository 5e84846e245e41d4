import KameraCore

/// Gives a fully convolutional model a new input size: every activation's spatial size is
/// scaled with the input's, so a detector slides over a whole image in one run instead of
/// many overlapping crops. Only exact scalings are accepted — each image tensor must be the
/// input divided by a whole factor that divides the new size too, and flattened outputs scale
/// with the area — and the operators' own shape checks in compilation then prove the result
/// consistent (a convolution's output size, an ADD's operands), so a model that is not fully
/// convolutional fails to compile instead of running wrong.
enum InputResizing {
    /// `tensors` with the activations resized for a `height` × `width` input. Runs after
    /// constant folding, so weights (which can also be 4-D with a leading 1) are constants.
    static func resize(
        _ tensors: [GraphTensor], input: Int, height: Int, width: Int, path: String
    ) throws -> [GraphTensor] {
        func fail(_ reason: String) -> KameraError { .invalidModel(path: path, reason: reason) }
        let shape = tensors[input].shape
        guard shape.count == 4, shape[0] == 1 else { throw fail("only an NHWC image input can be resized") }
        let (oldHeight, oldWidth) = (shape[1], shape[2])
        guard height > 0, width > 0 else { throw fail("input size \(width)×\(height) is empty") }
        var resized = tensors
        for (index, tensor) in tensors.enumerated() where !tensor.isConstant {
            var shape = tensor.shape
            switch shape.count {
            case 4 where shape[0] == 1:
                // h = oldHeight / k for a whole k, so the new h is height / k.
                guard shape[1] > 0, shape[2] > 0, oldHeight % shape[1] == 0, oldWidth % shape[2] == 0,
                    height % (oldHeight / shape[1]) == 0, width % (oldWidth / shape[2]) == 0
                else {
                    throw fail(
                        "\(tensor.name) \(shape) does not scale to a \(width)×\(height) input "
                            + "(the size must be a multiple of the model's largest stride)")
                }
                shape[1] = height / (oldHeight / shape[1])
                shape[2] = width / (oldWidth / shape[2])
            case 3 where shape[0] == 1:
                // A flattened [1, positions, values] output: positions scale with the area.
                let scaled = shape[1] * height * width
                guard scaled % (oldHeight * oldWidth) == 0 else { throw fail("\(tensor.name) \(shape) does not scale") }
                shape[1] = scaled / (oldHeight * oldWidth)
            default:
                throw fail("\(tensor.name) \(shape) is neither an image nor a flattened image")
            }
            resized[index].shape = shape
        }
        return resized
    }
}
