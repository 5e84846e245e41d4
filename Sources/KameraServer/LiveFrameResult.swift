import Foundation
import Kamera
import KameraReports

/// The JSON message the server sends for each live frame it analysed: the client's frame
/// number, the frame's size, how long the analysis took and how many frames were dropped
/// so far (latest frame wins) and the recording's length while recording, then `kamera scan`'s record for the frame (faces with IDs,
/// codes with keys, rectangles, events and, when asked, the newest text found).
struct LiveFrameResult: Encodable {
    struct Head: Encodable {
        var id: UInt32
        var width: Int
        var height: Int
        var analysisMs: Double
        var dropped: Int
        /// Seconds recorded so far, while recording.
        var recording: Double?
    }

    var head: Head
    var scan: ScanRecord

    func encode(to encoder: any Encoder) throws {
        try head.encode(to: encoder)
        try scan.encode(to: encoder)
    }

    func json() throws -> String {
        try JSONValueEncoder.encode(self).compact()
    }
}
