import KameraReports

extension AnalysisOptions {
    /// Makes a stream's analysis look for `events` on top of what the options ask for: what
    /// a camera keeping event clips must see whatever its watchers chose.
    mutating func detect(_ events: Set<CameraEvent>) {
        guard !events.isEmpty else { return }
        // Naming a detector turns a stream's defaults off: keep them as they were.
        if !namesDetector {
            faces = detectsFaces(in: .stream)
            barcodes = readsBarcodes
        }
        for event in events {
            switch event {
            case .face: faces = true
            case .code: barcodes = true
            case .person: bodies = true
            }
        }
    }
}
