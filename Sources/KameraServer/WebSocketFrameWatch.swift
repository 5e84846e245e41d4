import NIOCore

/// Follows a client's WebSocket frames across reads — only their headers, skipping payloads —
/// to see that every frame is masked, as RFC 6455 §5.1 requires of clients (a server must
/// close the connection on an unmasked one).
struct WebSocketFrameWatch {
    /// Header bytes of the frame being read, until the header is complete.
    private var header: [UInt8] = []
    /// Payload bytes of the current frame still to come.
    private var remaining: UInt64 = 0

    /// Reads `bytes`; false as soon as a frame header without the mask bit is complete.
    mutating func allMasked(_ bytes: ByteBufferView) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if remaining > 0 {
                let available = UInt64(bytes.distance(from: index, to: bytes.endIndex))
                let skipped = min(remaining, available)
                remaining -= skipped
                index = bytes.index(index, offsetBy: Int(skipped))
                continue
            }
            header.append(bytes[index])
            index = bytes.index(after: index)
            guard header.count >= 2 else { continue }
            let masked = header[1] & 0x80 != 0
            guard masked else { return false }
            let short = header[1] & 0x7F
            let lengthBytes = short == 126 ? 2 : short == 127 ? 8 : 0
            guard header.count == 2 + lengthBytes + 4 else { continue }
            var length = UInt64(short)
            if lengthBytes > 0 {
                length = header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
            }
            remaining = length
            header.removeAll(keepingCapacity: true)
        }
        return true
    }
}
