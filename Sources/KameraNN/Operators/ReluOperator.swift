/// RELU: max(x, 0); usually absorbed by the convolution or ADD before it.
struct ReluOperator: ClampActivationOperator {
    static let builtinCode: Int32 = 19
    static let name = "RELU"
    static let activation = FusedActivation.relu

    var input: Int, output: Int
}
