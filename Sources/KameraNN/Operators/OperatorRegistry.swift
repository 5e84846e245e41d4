/// The operators KameraNN runs, found by TFLite builtin code.
enum OperatorRegistry {
    static let operators: [any GraphOperator.Type] = [
        AddOperator.self, ConcatenationOperator.self, Conv2DOperator.self, DepthwiseConv2DOperator.self,
        DequantizeOperator.self, LogisticOperator.self, MaxPool2DOperator.self, ReluOperator.self,
        Relu6Operator.self, ReshapeOperator.self, ResizeBilinearOperator.self, PadOperator.self, PReluOperator.self,
        HardSwishOperator.self, MulOperator.self, AveragePool2DOperator.self, MeanOperator.self, FullyConnectedOperator.self,
        TransposeConvBiasOperator.self, DensifyOperator.self, DepthToSpaceOperator.self, ResizeNearestOperator.self,
        StridedSliceOperator.self, LandmarksToTransformMatrixOperator.self, TransformTensorBilinearOperator.self,
        TransformLandmarksOperator.self,
    ]

    /// TFLite's code for custom operators, which are told apart by name.
    static let customBuiltinCode: Int32 = 32

    static func operatorType(code: Int32, custom: String? = nil) -> (any GraphOperator.Type)? {
        guard code == customBuiltinCode else { return operators.first { $0.builtinCode == code && $0.customCode == nil } }
        return operators.first { $0.customCode != nil && $0.customCode == custom }
    }
}
