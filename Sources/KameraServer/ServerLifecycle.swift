import Foundation
import Kamera
import Synchronization

/// Where one server is in its life, for `/readyz`: its models warming up (then loaded or
/// failing), serving, or draining after SIGTERM. A fleet's balancer (Kubernetes, nginx health
/// checks) sends traffic only to an instance that says it is ready.
final class ServerLifecycle: Sendable {
    /// The models the server loads when it starts, so the first photo does not pay for them
    /// and a broken install shows in `/readyz` instead of in a user's 503: the face detectors
    /// and the landmarker behind `/v1/detect` and the live view's defaults.
    static let warmedModels: [KameraModel] = [.faceDetectionShortRange, .faceDetectionFullRange, .faceLandmarkWithAttention]

    private struct State {
        var modelsLoaded = false
        var modelProblems: [String] = []
    }

    private let state = Mutex(State())
    private let drainingFlag = Atomic(false)

    /// Whether the server stopped taking new work (SIGTERM): it finishes what it has and exits.
    var isDraining: Bool { drainingFlag.load(ordering: .relaxed) }

    /// Marks the start of the drain.
    func beginDraining() { drainingFlag.store(true, ordering: .relaxed) }

    /// Whether warm-up finished, and what failed to load (a sentence each).
    var models: (loaded: Bool, problems: [String]) { state.withLock { ($0.modelsLoaded, $0.modelProblems) } }

    /// Loads `warmedModels` from `store` on an analysis thread, timing each into `metrics`.
    func warmUp(store: ModelStore = .default, metrics: ServerMetrics) async {
        let problems =
            (try? await AnalysisExecutor.run {
                Self.warmedModels.compactMap { model -> String? in
                    let began = ContinuousClock.now
                    do {
                        _ = try store.sessions(model)
                        metrics.modelLoaded(model.fileName, seconds: (ContinuousClock.now - began) / .seconds(1))
                        return nil
                    } catch let error as KameraError {
                        return "\(model.fileName): \(error.reason) (\(error.hint))"
                    } catch {
                        return "\(model.fileName): \(error)"
                    }
                }
            }) ?? []
        state.withLock { ($0.modelsLoaded, $0.modelProblems) = (true, problems) }
    }
}
