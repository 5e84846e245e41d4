import KameraCore

/// Checks shared by the tracking requests, so a bad target is an argument error up front.
enum TrackingTarget {
    static func validate(_ quad: Quad, imageSize: Size) throws {
        guard quad.corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw KameraError.invalidArgument("the target's corners are not finite numbers")
        }
        let box = quad.boundingRect
        guard box.width >= 4, box.height >= 4, abs(quad.signedArea) >= 16 else {
            throw KameraError.invalidArgument(
                "the target (\(Int(box.width))×\(Int(box.height)) pixels) is too small to track: at least 4×4 pixels")
        }
        let x0 = max(0, box.minX), y0 = max(0, box.minY)
        let x1 = min(imageSize.width, box.maxX), y1 = min(imageSize.height, box.maxY)
        guard x1 > x0, y1 > y0, (x1 - x0) * (y1 - y0) >= 0.3 * box.width * box.height else {
            throw KameraError.invalidArgument(
                "the target's box lies (mostly) outside the \(Int(imageSize.width))×\(Int(imageSize.height)) frame")
        }
    }
}
