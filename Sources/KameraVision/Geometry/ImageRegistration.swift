import CGeometry
import KameraCore

/// The two registrations over the OpenCV shim, shared by the pairwise and the frame-to-frame
/// requests. Both map `moving`'s pixels onto `reference`'s.
enum ImageRegistration {
    static func translation(reference: PixelBuffer, moving: PixelBuffer) throws -> ImageTranslationAlignmentObservation {
        var tx = 0.0, ty = 0.0, confidence = 0.0
        try GeometryEngine.withImage(reference) { a in
            try GeometryEngine.withImage(moving) { b in
                try GeometryEngine.run("translational registration") { error, size in
                    kgeo_register_translation(a, b, &tx, &ty, &confidence, error, size)
                }
            }
        }
        return ImageTranslationAlignmentObservation(alignmentTransform: PixelPoint(x: tx, y: ty), confidence: Float(confidence))
    }

    static func homography(reference: PixelBuffer, moving: PixelBuffer) throws -> ImageHomographicAlignmentObservation {
        var matrix = [Double](repeating: 0, count: 9)
        var confidence = 0.0
        try GeometryEngine.withImage(reference) { a in
            try GeometryEngine.withImage(moving) { b in
                try GeometryEngine.run("homographic registration") { error, size in
                    kgeo_register_homography(a, b, &matrix, &confidence, error, size)
                }
            }
        }
        return ImageHomographicAlignmentObservation(
            warpTransform: PerspectiveTransform(matrix: matrix), confidence: Float(confidence))
    }
}
