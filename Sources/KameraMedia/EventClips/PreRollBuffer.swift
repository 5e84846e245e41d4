/// The last seconds of a stream's encoded video, whole groups of pictures from a key frame
/// on, so a clip can start before the moment it was asked for without a frame being encoded
/// again. Holds at least `seconds` before the newest packet (one group more at most), and
/// never more than `maximumBytes` (the oldest groups go first; the newest group stays).
struct PreRollBuffer {
    /// Milliseconds kept before the newest packet.
    let span: Int64
    let maximumBytes: Int
    private(set) var packets: [HeldPacket] = []
    private(set) var bytes = 0

    init(seconds: Double, maximumBytes: Int) {
        span = Int64((seconds * 1000).rounded())
        self.maximumBytes = maximumBytes
    }

    mutating func append(_ packet: HeldPacket) {
        packets.append(packet)
        bytes += packet.size
        trim()
    }

    /// Where a clip wanting frames from `pts` on starts: the last key frame at or before it
    /// (the first one held when the buffer does not reach so far back), never at or before
    /// `after` (what an earlier clip already has). Nil when no such key frame is held.
    func start(from pts: Int64, after: Int64?) -> Int? {
        var chosen: Int?
        for (index, packet) in packets.enumerated() where packet.isKeyFrame && after.map({ packet.pts > $0 }) ?? true {
            if chosen == nil || packet.pts <= pts { chosen = index }
            if packet.pts > pts { break }
        }
        return chosen
    }

    /// Drops the groups of pictures no clip can need: those wholly older than `span` before
    /// the newest packet, then the oldest while over `maximumBytes`.
    private mutating func trim() {
        guard let newest = packets.last?.pts else { return }
        var cut = 0
        // The latest key frame at or before newest − span: everything before it goes.
        for (index, packet) in packets.enumerated() where packet.isKeyFrame {
            if packet.pts <= newest - span { cut = index } else { break }
        }
        if bytes - packets[..<cut].reduce(0, { $0 + $1.size }) > maximumBytes {
            let keys = packets.indices.filter { $0 > cut && packets[$0].isKeyFrame }
            var held = bytes - packets[..<cut].reduce(0, { $0 + $1.size })
            for key in keys where held > maximumBytes {
                held -= packets[cut..<key].reduce(0, { $0 + $1.size })
                cut = key
            }
        }
        guard cut > 0 else { return }
        bytes -= packets[..<cut].reduce(0, { $0 + $1.size })
        packets.removeFirst(cut)
    }
}
