import Logging

/// What the routes, live sockets and cameras of one server share: the analysis slots, the
/// request and recording limits, the memory budget, the results library, the log and the
/// metrics.
struct ServerServices: Sendable {
    let admission: AnalysisAdmission
    let limits: RequestLimits
    let recordingLimits: RecordingLimits
    let budget: MemoryBudget
    let library: ResultsLibrary
    let logger: Logger
    let metrics: ServerMetrics
}
