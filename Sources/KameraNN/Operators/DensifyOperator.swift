/// DENSIFY of a sparse constant (the BlazePose detector's weights), densified when read.
struct DensifyOperator: FoldedConstantOperator {
    static let builtinCode: Int32 = 124
    static let name = "DENSIFY"

    var input: Int, output: Int
}
