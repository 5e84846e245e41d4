/// `GET /healthz`: alive, and how loaded.
struct Health: Encodable {
    var status = "ok"
    var analysisSlots: Int
    var analysesRunning: Int
    /// Connections open now, of `RequestLimits.maximumConnections`.
    var connections: Int
    var memoryBudgetBytes: Int
    var memoryInUseBytes: Int
}
