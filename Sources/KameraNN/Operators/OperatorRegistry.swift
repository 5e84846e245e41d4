/// The operators KameraNN runs, found by TFLite builtin code.
enum OperatorRegistry {
    static let operators: [any GraphOperator.Type] = [
        AddOperator.self, ConcatenationOperator.self, Conv2DOperator.self, DepthwiseConv2DOperator.self,
        DequantizeOperator.self, LogisticOperator.self, MaxPool2DOperator.self, ReluOperator.self,
        Relu6Operator.self, ReshapeOperator.self, ResizeBilinearOperator.self, PadOperator.self, PReluOperator.self,
    ]

    static func operatorType(code: Int32) -> (any GraphOperator.Type)? {
        operators.first { $0.builtinCode == code }
    }
}
