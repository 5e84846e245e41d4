import Dispatch
import Foundation
import Kamera
import Synchronization

/// Turns Ctrl-C (and SIGTERM) into a flag the long-running commands poll, so they finish
/// their movie or event file cleanly instead of dying mid-write. Signals are process-wide,
/// so the flag is too; the handlers live as long as this object.
final class InterruptFlag {
    private static let raised = Atomic<Bool>(false)
    private let sources: [DispatchSourceSignal]

    init(signals: [Int32] = [SIGINT, SIGTERM]) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { InterruptFlag.raised.store(true, ordering: .relaxed) }
            source.resume()
            return source
        }
    }

    var isRaised: Bool { Self.raised.load(ordering: .relaxed) }

    deinit { for source in sources { source.cancel() } }
}
