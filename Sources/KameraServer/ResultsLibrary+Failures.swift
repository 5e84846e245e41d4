import Foundation
import GRDB
import Kamera
import Logging

extension ResultsLibrary {
    /// Notes a live frame's findings; a failure (a full disk) is logged, never the end of the
    /// stream: the page still gets its results.
    func noteLogging(_ sightings: LiveSightings, session: String, logger: Logger) async {
        do {
            try await note(sightings, session: session)
        } catch {
            _ = apiError(error, logger: logger)
        }
    }

    /// A library failure as the client sees it, logged: a full disk is `diskFull` (507).
    func apiError(_ error: any Error, logger: Logger) -> APIError {
        if let error = error as? APIError { return error }
        if let error = error as? KameraError {
            logger.error("results library: \(error.reason)", metadata: ["code": "\(error.code)"])
            return APIError(error)
        }
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_FULL {
            logger.error("results library: the disk is full (\(directory.path))")
            return APIError(KameraError.diskFull(path: directory.path))
        }
        logger.error("results library: \(error)")
        return APIError(
            .internalServerError, code: .writeFailed, message: "the results library could not be written", hint: "see the server's log")
    }
}
