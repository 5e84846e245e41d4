import Foundation
import Kamera
import KameraReports
import Synchronization

/// One live connection's state: its `LiveScanner` (faces keep their IDs, codes their keys
/// across frames) and the options the page chose.
///
/// `@unchecked Sendable`: the scanner is not thread-safe, and it is only touched inside
/// `analyse`, which the connection calls for one frame at a time (the next frame waits for
/// the previous result), on whichever analysis thread is free.
final class LiveSession: @unchecked Sendable {
    private let options = Mutex(LiveOptions())
    private var scanner: LiveScanner?
    private var scannerOptions: LiveOptions?
    private let started = ContinuousClock.now
    private let maximumPixelCount: Int

    init(maximumPixelCount: Int) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// Takes new options; the scanner is rebuilt at the next frame if they changed.
    func update(_ new: LiveOptions) {
        options.withLock { $0 = new }
    }

    /// Decodes and scans one frame (JPEG, WebP or PNG bytes) received now; returns the
    /// result message's JSON (encoded here, on the analysis thread).
    func analyse(id: UInt32, image data: Data, dropped: Int) throws -> String {
        let began = ContinuousClock.now
        let wanted = options.withLock { $0 }
        if scanner == nil || scannerOptions != wanted {
            scanner = try LiveScanner(configuration: wanted.scannerConfiguration)
            scannerOptions = wanted
        }
        let image = try ImageDecoder.decode(
            data, path: "live frame", options: ImageDecodingOptions(maximumPixelCount: maximumPixelCount, acceptsDamagedData: true))
        let time = (began - started) / .seconds(1)
        let scan = try scanner!.scan(image.pixelBuffer, at: time)
        var text: [TextRecord]?
        if wanted.text {
            text = try DetectTextRectanglesRequest().perform(in: ImageAnalysisContext(image)).map(TextRecord.init)
        }
        let elapsed = (ContinuousClock.now - began) / .milliseconds(1)
        return try LiveFrameResult(
            head: .init(id: id, width: image.width, height: image.height, analysisMs: (elapsed * 10).rounded() / 10, dropped: dropped),
            scan: ScanRecord(scan, includesRectangles: false), tail: .init(text: text)
        ).json()
    }
}
