import Foundation
import HTTPTypes
import Kamera
import KameraReports
import NIOCore
import Synchronization

/// The first handler of every connection, before any HTTP parsing: it bounds what a
/// connection can hold and checks the connection's first request head itself, because before
/// that head is complete Hummingbird's WebSocket-upgrade pipeline has no timeout and answers
/// nothing to a malformed request.
///
/// - at most `limits.maximumConnections` open at once (503 and closed beyond);
/// - the first head must be complete within `limits.headerTimeout` (408 and closed; a silent
///   connection is closed), at most `limits.maximumHeadBytes` long (431) with a target of at
///   most 8 KiB (414), a known method (501) and HTTP/1.0 or 1.1 (505), well formed (400);
/// - a WebSocket upgrade is held to the `AccessPolicy` here, with a proper 401 or 403.
///
/// After the first head it passes bytes through: later requests on the connection go through
/// Hummingbird's HTTP pipeline, which answers malformed heads itself and closes idle
/// connections after `limits.idleTimeout`. After a WebSocket upgrade it follows the frames
/// and closes the connection (1002) on a frame the client did not mask, as RFC 6455 §5.1
/// requires (the WebSocket library accepts them).
final class FrontDoor: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Connections open on the server now (shared by every connection's front door).
    final class Occupancy: Sendable {
        private let count = Mutex(0)
        var open: Int { count.withLock { $0 } }
        func enter(limit: Int) -> Bool {
            count.withLock { count in
                guard count < limit else { return false }
                count += 1
                return true
            }
        }
        func leave() { count.withLock { $0 -= 1 } }
    }

    static let methods: Set<Substring> = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]
    static let maximumTargetBytes = 8192

    private let limits: RequestLimits
    private let policy: AccessPolicy
    private let occupancy: Occupancy
    private let metrics: ServerMetrics?
    private var head = ByteBuffer()
    private var passing = false
    private var frames: WebSocketFrameWatch?
    private var counted = false
    /// Over `limits.maximumConnections` when it arrived: answered 503 and closed.
    private var overLimit = false
    private var deadline: Scheduled<Void>?

    init(limits: RequestLimits, policy: AccessPolicy, occupancy: Occupancy, metrics: ServerMetrics? = nil) {
        self.limits = limits
        self.policy = policy
        self.occupancy = occupancy
        self.metrics = metrics
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard occupancy.enter(limit: limits.maximumConnections) else {
            metrics?.unavailable(code: KameraError.Code.busy.rawValue)
            overLimit = true
            // A new connection's handlers are added before it is active, when nothing can be
            // written to it yet: the 503 goes out once it is.
            if context.channel.isActive { refuseOverLimit(context) }
            return
        }
        counted = true
        let timeout = TimeAmount.milliseconds(Int64(limits.headerTimeout * 1000))
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            guard !passing else { return }
            if head.readableBytes == 0 {
                context.close(promise: nil)
            } else {
                refuse(
                    context, 408, "Request Timeout",
                    APIError(
                        .requestTimeout, code: .bodyTimeout,
                        message: "the request head did not arrive within \(limits.headerTimeout.formatted()) s", hint: "send it at once"))
            }
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        if overLimit, !passing { refuseOverLimit(context) }
        context.fireChannelActive()
    }

    private func refuseOverLimit(_ context: ChannelHandlerContext) {
        refuse(
            context, 503, "Service Unavailable",
            APIError.busy(reason: "the server has as many connections open as it allows (\(limits.maximumConnections))"))
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        if counted {
            counted = false
            occupancy.leave()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        if counted {
            counted = false
            occupancy.leave()
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if passing, frames != nil {
            let bytes = unwrapInboundIn(data)
            guard frames!.allMasked(bytes.readableBytesView) else {
                // Close, protocol error (1002).
                context.writeAndFlush(NIOAny(ByteBuffer(bytes: [0x88, 0x02, 0x03, 0xEA]))).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
                frames = nil
                return
            }
            return context.fireChannelRead(data)
        }
        guard !passing else { return context.fireChannelRead(data) }
        var bytes = unwrapInboundIn(data)
        head.writeBuffer(&bytes)
        let view = head.readableBytesView
        guard let end = Self.endOfHead(view) else {
            if head.readableBytes > limits.maximumHeadBytes {
                refuse(
                    context, 431, "Request Header Fields Too Large",
                    APIError(
                        .init(code: 431), code: .invalidArgument, message: "the request head is over \(limits.maximumHeadBytes) bytes",
                        hint: "send shorter headers"))
            } else {
                // A request line that is already wrong (an unknown method, a 1 MB URL) is
                // answered before the rest arrives.
                let lineEnd = view.firstIndex(of: UInt8(ascii: "\n"))
                let length = view.distance(from: view.startIndex, to: lineEnd ?? view.endIndex)
                let line = head.getString(at: head.readerIndex, length: min(length, Self.maximumTargetBytes + 64)) ?? ""
                if let refusal = check(requestLine: line, complete: lineEnd != nil) {
                    refuse(context, refusal.code, refusal.phrase, refusal.error)
                }
            }
            return
        }
        if let refusal = check(head: head.getString(at: head.readerIndex, length: view.distance(from: view.startIndex, to: end)) ?? "") {
            return refuse(context, refusal.code, refusal.phrase, refusal.error)
        }
        passing = true
        deadline?.cancel()
        var buffered = head
        head = ByteBuffer()
        let headBytes = view.distance(from: view.startIndex, to: end)
        if Self.isUpgrade(buffered.getString(at: buffered.readerIndex, length: headBytes) ?? "") {
            // Frames may already follow the head in this read.
            var watch = WebSocketFrameWatch()
            let after = buffered.getSlice(at: buffered.readerIndex + headBytes, length: buffered.readableBytes - headBytes) ?? ByteBuffer()
            guard watch.allMasked(after.readableBytesView) else {
                buffered.moveWriterIndex(to: buffered.readerIndex + headBytes)
                context.fireChannelRead(wrapInboundOut(buffered))
                context.close(promise: nil)
                return
            }
            frames = watch
        }
        context.fireChannelRead(wrapInboundOut(buffered))
    }

    private typealias Refusal = (code: Int, phrase: String, error: APIError)

    /// The request line's faults, if any; `complete` when its end has arrived.
    private func check(requestLine: String, complete: Bool) -> Refusal? {
        let line = requestLine.trimmingCharacters(in: .newlines)
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard let method = parts.first, !method.isEmpty else { return Self.malformed("an empty request line") }
        guard Self.methods.contains(method) else {
            return (
                501, "Not Implemented",
                APIError(.notImplemented, code: .invalidArgument, message: "unknown method", hint: "use GET, POST or DELETE")
            )
        }
        if parts.count > 1, parts[1].utf8.count > Self.maximumTargetBytes {
            return (
                414, "URI Too Long",
                APIError(.uriTooLong, code: .invalidArgument, message: "the URL is over 8 KiB", hint: "send a shorter URL")
            )
        }
        guard complete else { return nil }
        // Origin form (/path), absolute form (http://host/path) or OPTIONS' asterisk.
        guard parts.count == 3,
            parts[1].hasPrefix("/") || parts[1].hasPrefix("http://") || parts[1].hasPrefix("https://") || parts[1] == "*"
        else { return Self.malformed("a request line that is not METHOD /path HTTP/1.1") }
        guard parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            return (
                505, "HTTP Version Not Supported",
                APIError(.init(code: 505), code: .invalidArgument, message: "only HTTP/1.x", hint: "use HTTP/1.1")
            )
        }
        return nil
    }

    /// The whole head's faults: its request line, its header lines, and for a WebSocket
    /// upgrade the access policy.
    private func check(head text: String) -> Refusal? {
        // "\r\n" is one Character in Swift: split on newline Characters, not on "\n".
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let requestLine = lines.first else { return Self.malformed("no request line") }
        if let refusal = check(requestLine: String(requestLine), complete: true) { return refusal }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, !line[line.startIndex].isWhitespace else {
                return Self.malformed("a header line without a name")
            }
            fields.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let parts = requestLine.split(separator: " ")
        let isUpgrade = fields.contains { $0.name == "upgrade" && $0.value.lowercased() == "websocket" }
        guard isUpgrade else { return nil }
        let path = String(parts[1].prefix { $0 != "?" })
        let host = fields.last { $0.name == "host" }?.value
        let refusal = policy.refusal(method: String(parts[0]), path: path, host: host, isUpgrade: true) { name in
            fields.last { $0.name == name.canonicalName }?.value
        }
        return refusal.map { ($0.status.code, $0.status.reasonPhrase, $0) }
    }

    /// Whether a head asks for a WebSocket upgrade.
    private static func isUpgrade(_ head: String) -> Bool {
        head.split(whereSeparator: \.isNewline).contains { line in
            let lower = line.lowercased()
            return lower.hasPrefix("upgrade:") && lower.contains("websocket")
        }
    }

    private static func malformed(_ what: String) -> Refusal {
        (400, "Bad Request", APIError.badRequest("a malformed request: \(what)", hint: "send HTTP/1.1"))
    }

    /// The index just past the blank line ending the head, if it has arrived.
    static func endOfHead(_ view: ByteBufferView) -> ByteBufferView.Index? {
        var index = view.startIndex
        var newlines = 0
        while index < view.endIndex {
            switch view[index] {
            case UInt8(ascii: "\n"):
                newlines += 1
                if newlines == 2 { return view.index(after: index) }
            case UInt8(ascii: "\r"): break
            default: newlines = 0
            }
            index = view.index(after: index)
        }
        return nil
    }

    /// Answers with `error` as JSON and closes the connection.
    private func refuse(_ context: ChannelHandlerContext, _ code: Int, _ phrase: String, _ error: APIError) {
        passing = true
        deadline?.cancel()
        let body = ((try? JSONValueEncoder.encode(["error": error.error]).compact()) ?? "{}") + "\n"
        let response =
            "HTTP/1.1 \(code) \(phrase)\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\(error.retryAfter.map { "Retry-After: \($0)\r\n" } ?? "")\r\n\(body)"
        context.writeAndFlush(NIOAny(ByteBuffer(string: response))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
