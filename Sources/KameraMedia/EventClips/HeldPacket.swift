import CFFmpeg

/// An encoded video packet kept for later (a reference to the encoder's data, not a copy):
/// what `PreRollBuffer` holds until a clip needs it or it grows too old.
final class HeldPacket {
    let packet: UnsafeMutablePointer<AVPacket>
    /// Presentation time in `VideoEncoder.timeBase` units.
    var pts: Int64 { packet.pointee.pts }
    var isKeyFrame: Bool { packet.pointee.flags & AV_PKT_FLAG_KEY != 0 }
    var size: Int { Int(packet.pointee.size) }

    /// A new reference to `source`'s data; nil when out of memory.
    init?(referencing source: UnsafePointer<AVPacket>) {
        guard let packet = av_packet_clone(source) else { return nil }
        self.packet = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packet)
    }
}
