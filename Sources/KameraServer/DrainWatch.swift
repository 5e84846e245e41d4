import Foundation
import Logging
import ServiceLifecycle

/// The service that notices a stop (SIGTERM, SIGINT) first: the server group shuts its
/// services down in reverse order, so this one, listed last, hears the signal before the HTTP
/// server. It marks the server as draining (`/readyz` answers 503 to the balancer) while the
/// HTTP server stops accepting and lets the requests in flight finish, and it arms a last
/// resort: a process still running `timeout` + 10 s later exits anyway, so a rolling update
/// is never held up by a request that cannot be interrupted.
struct DrainWatch: Service {
    let lifecycle: ServerLifecycle
    let timeout: Double
    let logger: Logger

    func run() async throws {
        // Throws when the group is cancelled instead: nothing to drain then.
        guard (try? await gracefulShutdown()) != nil else { return }
        lifecycle.beginDraining()
        logger.notice("stopping: draining requests in flight for at most \(timeout.formatted()) s")
        let (limit, logger) = (timeout + 10, logger)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: limit)
            logger.error("still stopping after \(limit.formatted()) s: exiting anyway")
            exit(0)
        }
    }
}
