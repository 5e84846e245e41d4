import Foundation
import NIOCore

/// A live frame's picture on a WebSocket: one binary message, the 4-byte little-endian frame
/// number, then the frame as JPEG, sent just before the frame's text message (same id). A
/// server camera sends one with every frame; a page's own camera gets one back when the server
/// changed the frame (its background blurred or replaced).
enum LivePicture {
    static func message(id: UInt32, jpeg: Data) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(jpeg.count + 4)
        buffer.writeInteger(id, endianness: .little)
        buffer.writeBytes(jpeg)
        return buffer
    }
}
