import Foundation

/// `GET /readyz`: whether this instance should get traffic now (200) or not (503), and why.
/// Unlike `/healthz` (the process answers), readiness fails while the models load, when one
/// failed to load, when the results library cannot be read, when the data disk is below the
/// recording minimum, and while the server drains after SIGTERM.
struct Readiness: Encodable, Sendable {
    var ready: Bool
    var modelsLoaded: Bool
    var libraryOpen: Bool
    /// Free bytes on the data directory's volume (nil: it could not be read).
    var freeDiskBytes: Int64?
    var minimumFreeDiskBytes: Int64
    var draining: Bool
    /// What keeps the instance from being ready, a sentence each.
    var problems: [String]

    init(lifecycle: ServerLifecycle, libraryOpen: Bool, freeDiskBytes: Int64?, minimumFreeDiskBytes: Int64) {
        let models = lifecycle.models
        var problems = models.problems
        if !models.loaded { problems.append("the models are still loading") }
        if !libraryOpen { problems.append("the results library cannot be read") }
        if let freeDiskBytes, freeDiskBytes < minimumFreeDiskBytes {
            problems.append("the data disk has \(freeDiskBytes >> 20) MB free, below the minimum of \(minimumFreeDiskBytes >> 20) MB")
        } else if freeDiskBytes == nil {
            problems.append("the data disk's free space cannot be read")
        }
        if lifecycle.isDraining { problems.append("the server is stopping (draining)") }
        (ready, modelsLoaded, self.libraryOpen, self.freeDiskBytes) = (problems.isEmpty, models.loaded, libraryOpen, freeDiskBytes)
        (self.minimumFreeDiskBytes, draining, self.problems) = (minimumFreeDiskBytes, lifecycle.isDraining, problems)
    }
}
