import ArgumentParser
import KameraServer
import Logging

/// `--log-level`: swift-log's levels by name.
enum LogLevelArgument: String, CaseIterable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level {
        switch self {
        case .trace: .trace
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        case .critical: .critical
        }
    }
}

extension LogFormat: ExpressibleByArgument {}
