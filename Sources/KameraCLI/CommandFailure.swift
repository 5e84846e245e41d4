import ArgumentParser
import Kamera
import KameraReports

/// How every command ends on a Kamera error: the reason and hint on standard error, and the
/// exit status — 64 (EX_USAGE, as ArgumentParser uses for bad options) when the arguments were
/// wrong, 1 when the input or the system failed.
enum CommandFailure {
    static let usage: Int32 = 64

    static func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as KameraError {
            throw report(error)
        }
    }

    static func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as KameraError {
            throw report(error)
        }
    }

    /// Runs a library check inside `validate()`: its `invalidArgument` becomes ArgumentParser's
    /// usage error (message, usage line, exit 64) like the command's own checks.
    static func validating(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as KameraError where error.code == .invalidArgument {
            throw ValidationError(error.reason)
        }
    }

    private static func report(_ error: KameraError) -> ExitCode {
        let error = CommandLineHints.adapted(error)
        StandardStreams.error("kamera: \(error.reason) (\(error.hint))\n")
        if error.code == .invalidArgument { return ExitCode(usage) }
        return ExitCode(1)
    }
}
