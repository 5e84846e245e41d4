/// DEQUANTIZE of constant fp16 weights to fp32, widened when read.
struct DequantizeOperator: FoldedConstantOperator {
    static let builtinCode: Int32 = 6
    static let name = "DEQUANTIZE"

    var input: Int, output: Int
}
