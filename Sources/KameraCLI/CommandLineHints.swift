import Kamera

/// The library's hints are neutral (they reach HTTP clients and other programs too); on the
/// command line they name the flag or command that helps.
enum CommandLineHints {
    static func adapted(_ error: KameraError) -> KameraError {
        var error = error
        switch error.code {
        case .imageTooLarge: error.hint = "raise the limit with --max-pixels if the image is expected"
        case .invalidArgument: error.hint = "see `kamera help`"
        default: break
        }
        return error
    }
}
