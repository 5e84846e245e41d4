/// `y = clamp(x · scale[c] + shift[c], lower, upper)` with constant per-channel (or single)
/// scale and shift: what ONNX graphs spell as BatchNormalization, an Add, Sub, Mul or Div by a
/// constant, Clip and HardSigmoid. Not a TFLite operator (TFLite models fold these into their
/// convolutions); the ONNX importer emits it.
struct ChannelAffineOperator: GraphOperator {
    static let builtinCode: Int32 = -1
    static let name = "CHANNEL_AFFINE"

    var input: Int, output: Int
    /// One value, or one per channel (the last dimension).
    var scale: [Float], shift: [Float]
    var lower: Float, upper: Float

    init(input: Int, output: Int, scale: [Float], shift: [Float], lower: Float = -.infinity, upper: Float = .infinity) {
        (self.input, self.output, self.scale, self.shift, self.lower, self.upper) = (input, output, scale, shift, lower, upper)
    }

    init(_ record: OperatorRecord) throws { throw record.fail("\(Self.name) is not read from model files") }

    var inputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        try planner.sameCount(input, output)
        let channels = planner.tensors[input].shape.last ?? 1
        guard [1, channels].contains(scale.count), [1, channels].contains(shift.count) else {
            throw planner.fail("\(Self.name): \(scale.count) scales and \(shift.count) shifts for \(channels) channels")
        }
        let (scale, shift) = (scale, shift)
        let scales = planner.appendPacked(count: channels) { scale.count == 1 ? scale[0] : scale[$0] }
        let shifts = planner.appendPacked(count: channels) { shift.count == 1 ? shift[0] : shift[$0] }
        return ChannelAffineKernel(
            input: planner.arena(input), output: planner.arena(output), pixels: planner.tensors[input].elementCount / channels,
            channels: channels, scales: scales, shifts: shifts, lower: lower, upper: upper)
    }
}

/// One scale and one shift with no clamp after an activation (PP-OCR's "learnable affine
/// blocks") run in the producer's epilogue.
extension ChannelAffineOperator: FusibleActivation {
    func epilogue(after producer: GraphTensor, tensors: [GraphTensor]) -> FusedActivation? {
        epilogue(following: .none, after: producer, tensors: tensors)
    }

    func epilogue(following current: FusedActivation, after producer: GraphTensor, tensors: [GraphTensor]) -> FusedActivation? {
        guard scale.count == 1, shift.count == 1, lower == -.infinity, upper == .infinity else { return nil }
        if case .scaled(let inner, let s, let t) = current {
            return .scaled(inner, scale: s * scale[0], shift: t * scale[0] + shift[0])
        }
        return .scaled(current, scale: scale[0], shift: shift[0])
    }
}

struct ChannelAffineKernel: PlannedKernel {
    var input: Int, output: Int, pixels: Int, channels: Int, scales: Int, shifts: Int
    var lower: Float, upper: Float
    var kernelName: String { "channel affine" }

    func run(_ context: KernelContext) {
        let (input, output, scales, shifts, channels, lower, upper) = (input, output, scales, shifts, channels, lower, upper)
        let clamps = lower > -.infinity || upper < .infinity
        context.parallelRows(pixels, minimumPerThread: 4096 / max(channels, 1) + 1) { p0, p1 in
            let (x, y) = (context.arena + input, context.arena + output)
            let (scale, shift) = (context.weights + scales, context.weights + shifts)
            let vectors = channels / 16
            let (low, high) = (SIMD16<Float>(repeating: lower), SIMD16<Float>(repeating: upper))
            for p in p0..<p1 {
                let row = p * channels
                // Sixteen channels at a time (the scales and shifts are padded to 16).
                for v in 0..<vectors {
                    let c = v * 16
                    let a = UnsafeRawPointer(x + row + c).loadUnaligned(as: SIMD16<Float>.self)
                    let m = UnsafeRawPointer(scale + c).loadUnaligned(as: SIMD16<Float>.self)
                    let b = UnsafeRawPointer(shift + c).loadUnaligned(as: SIMD16<Float>.self)
                    var r = a * m + b
                    if clamps { r = r.clamped(lowerBound: low, upperBound: high) }
                    UnsafeMutableRawPointer(y + row + c).storeBytes(of: r, as: SIMD16<Float>.self)
                }
                for c in (vectors * 16)..<channels {
                    y[row + c] = min(max(x[row + c] * scale[c] + shift[c], lower), upper)
                }
            }
        }
    }
}
