/// RELU6: min(max(x, 0), 6); usually absorbed by the operator before it.
struct Relu6Operator: ClampActivationOperator {
    static let builtinCode: Int32 = 21
    static let name = "RELU6"
    static let activation = FusedActivation.relu6

    var input: Int, output: Int
}
