extension OverwriteOptions {
    /// Runs a command that writes `outputs` (nil: not asked for) once each may be written,
    /// until it ends or Ctrl-C or SIGTERM, which `body` sees through the flag so it finishes its
    /// files instead of dying mid-write. Failures are printed as the CLI prints them.
    func runUntilInterrupted(writing outputs: [String?], _ body: (InterruptFlag) throws -> Void) throws {
        let interrupt = InterruptFlag()
        try CommandFailure.run {
            try check(outputs.compactMap { $0 })
            try body(interrupt)
        }
    }
}
