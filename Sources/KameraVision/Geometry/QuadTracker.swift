import CGeometry
import KameraCore

/// One target followed through frames by the OpenCV shim's corner tracker (flow of features
/// inside the target, appearance confidence, re-detection after a loss). Not thread-safe: the
/// tracking requests keep it behind a lock.
final class QuadTracker {
    private let handle: OpaquePointer
    let frameSize: Size

    /// Starts on `frame` with the target at `corners` (pixels, top-left origin).
    init(frame: PixelBuffer, corners: Quad, level: TrackingLevel, rectangle: Bool) throws {
        var created: OpaquePointer?
        let points = corners.corners.flatMap { [$0.x, $0.y] }
        try GeometryEngine.withImage(frame) { image in
            try GeometryEngine.run("tracking") { error, size in
                kgeo_tracker_create(image, points, level == .accurate ? 1 : 0, rectangle ? 1 : 0, &created, error, size)
            }
        }
        guard let created else { throw KameraError.geometryEngineFailure(operation: "tracking", reason: "no tracker was made") }
        handle = created
        frameSize = frame.size
    }

    deinit { kgeo_tracker_free(handle) }

    /// The target's corners in `frame` and the confidence (0…1) that it is there.
    func update(_ frame: PixelBuffer) throws -> (corners: Quad, confidence: Float) {
        guard frame.size == frameSize else {
            throw KameraError.invalidArgument(
                "frame size changed while tracking: \(Int(frameSize.width))×\(Int(frameSize.height)) to \(frame.width)×\(frame.height); start a new request"
            )
        }
        var points = [Double](repeating: 0, count: 8)
        var confidence = 0.0
        try GeometryEngine.withImage(frame) { image in
            try GeometryEngine.run("tracking") { error, size in
                kgeo_tracker_update(handle, image, &points, &confidence, error, size)
            }
        }
        let quad = Quad(
            topLeft: PixelPoint(x: points[0], y: points[1]), topRight: PixelPoint(x: points[2], y: points[3]),
            bottomRight: PixelPoint(x: points[4], y: points[5]), bottomLeft: PixelPoint(x: points[6], y: points[7]))
        return (quad, Float(confidence))
    }
}
