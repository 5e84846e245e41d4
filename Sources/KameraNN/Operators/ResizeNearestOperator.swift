/// RESIZE_NEAREST_NEIGHBOR as ONNX's Resize in nearest mode with asymmetric coordinates and
/// floor rounding writes it (and TFLite's without align corners or half-pixel centres): each
/// output pixel copies input pixel `floor(y · inH / outH), floor(x · inW / outW)`.
struct ResizeNearestOperator: GraphOperator {
    static let builtinCode: Int32 = 97
    static let name = "RESIZE_NEAREST_NEIGHBOR"

    var input: Int, output: Int

    init(input: Int, output: Int) { (self.input, self.output) = (input, output) }

    init(_ record: OperatorRecord) throws {
        guard try !record.bool(0), try !record.bool(1) else {
            throw record.fail("\(Self.name) is supported without align_corners and half_pixel_centers")
        }
        self.init(input: try record.input(0), output: record.output)
    }

    var inputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let (ih, iw, ic) = try planner.image(input)
        let (oh, ow, oc) = try planner.image(output)
        guard oc == ic else { throw planner.fail("\(Self.name) changes channels") }
        return ResizeNearestKernel(
            input: planner.arena(input), inputHeight: ih, inputWidth: iw, channels: ic, output: planner.arena(output),
            outputHeight: oh, outputWidth: ow)
    }
}

struct ResizeNearestKernel: PlannedKernel {
    var input: Int, inputHeight: Int, inputWidth: Int, channels: Int
    var output: Int, outputHeight: Int, outputWidth: Int
    var kernelName: String { "resize nearest" }

    func run(_ context: KernelContext) {
        let (input, output) = (input, output)
        let (ih, iw, c, oh, ow) = (inputHeight, inputWidth, channels, outputHeight, outputWidth)
        context.parallelRows(oh, minimumPerThread: 8) { y0, y1 in
            let (x, y) = (context.arena + input, context.arena + output)
            for oy in y0..<y1 {
                let sy = min(oy * ih / oh, ih - 1)
                for ox in 0..<ow {
                    let sx = min(ox * iw / ow, iw - 1)
                    (y + (oy * ow + ox) * c).update(from: x + (sy * iw + sx) * c, count: c)
                }
            }
        }
    }
}
