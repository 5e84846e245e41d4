import CKameraNNKernels

/// A kernel epilogue's activation: its C kind, for PReLU the alpha offset in the weights, and
/// the `· scale + shift` after it.
struct PlannedActivation: @unchecked Sendable {
    // @unchecked: `knn_activation_kind` is an imported C enum (a plain integer).
    var kind: knn_activation_kind
    var alpha: Int?
    var scale: Float = 1, shift: Float = 0

    static let none = PlannedActivation(kind: KNN_ACT_NONE)

    init(kind: knn_activation_kind, alpha: Int? = nil) {
        self.kind = kind
        self.alpha = alpha
    }
}
