import KameraCore

/// One operator as the model file stores it: tensor indices and its options table, with
/// readers for the option fields every operator needs (checked, so a corrupt file is an error).
struct OperatorRecord {
    let inputIndices: [Int32]
    let output: Int
    let options: FlatBufferTable?
    /// A custom operator's options, as its implementation lays them out.
    var customOptions: [UInt8]? = nil
    let reader: FlatBufferReader
    let tensorCount: Int

    func fail(_ reason: String) -> KameraError { reader.fail(reason) }

    func tensor(_ value: Int32) throws -> Int {
        guard value >= 0, Int(value) < tensorCount else { throw fail("tensor index \(value) out of range") }
        return Int(value)
    }

    func input(_ i: Int) throws -> Int {
        guard i < inputIndices.count else { throw fail("operator is missing input \(i)") }
        return try tensor(inputIndices[i])
    }

    /// An input that may be absent (index −1 or past the end), like a convolution's bias.
    func optionalInput(_ i: Int) throws -> Int? {
        i < inputIndices.count && inputIndices[i] >= 0 ? try tensor(inputIndices[i]) : nil
    }

    func allInputs() throws -> [Int] { try inputIndices.map(tensor) }

    /// The little-endian 32-bit integer at byte `offset` of the custom options.
    func customInt32(at offset: Int) throws -> Int32 {
        guard let bytes = customOptions, offset >= 0, offset + 4 <= bytes.count else {
            throw fail("custom options hold no integer at byte \(offset)")
        }
        return Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) })
    }

    func int(_ field: Int, default value: Int32 = 0) throws -> Int { Int(try options?.int32(field, default: value) ?? value) }

    func bool(_ field: Int) throws -> Bool { try options?.bool(field) ?? false }

    /// TFLite's `ActivationFunctionType` at `field`.
    func activation(field: Int) throws -> FusedActivation {
        switch try options?.uint8(field) ?? 0 {
        case 0: .none
        case 1: .relu
        case 2: .reluMinus1To1
        case 3: .relu6
        case let other: throw fail("unsupported fused activation \(other)")
        }
    }

    /// Stride, dilation and padding from the options' field numbers.
    func window(stride: (w: Int, h: Int), dilation: (w: Int, h: Int)?, padding: Int) throws -> Window {
        var window = Window()
        guard let options else { return window }
        window.padding = try options.uint8(padding) == 0 ? .same : .valid
        window.strideW = Int(try options.int32(stride.w, default: 1))
        window.strideH = Int(try options.int32(stride.h, default: 1))
        if let dilation {
            window.dilationW = Int(try options.int32(dilation.w, default: 1))
            window.dilationH = Int(try options.int32(dilation.h, default: 1))
        }
        guard window.strideW >= 1, window.strideH >= 1, window.dilationW >= 1, window.dilationH >= 1 else {
            throw fail("invalid stride or dilation")
        }
        return window
    }
}
