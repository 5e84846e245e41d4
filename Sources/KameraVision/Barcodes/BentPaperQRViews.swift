import CGeometry
import KameraCore

/// QR codes on bent paper (a bottle's label, a curled receipt, a folded flyer) seen flat.
///
/// A reader samples a QR code through one plane-to-plane mapping fixed by its finder patterns
/// (and an alignment pattern); across a curled code that mapping drifts by modules and the
/// symbol no longer decodes. The geometry shim models the paper as a sheet bent along one
/// direction with a curvature free to vary across the code (a cylinder, a wave, a rounded fold)
/// or turned at one sharp crease, seen by a pinhole camera; fits its pose and shape to the finder
/// patterns' corners, the timing patterns' module edges and every other module edge measured
/// along the sheet; and samples the code on each sheet into a flat view
/// (`kgeo_qr_surface_views`). Any QR decoder then reads the views.
enum BentPaperQRViews {
    /// A flat view of one candidate code and where that code lies in the photo.
    struct View {
        /// The code sampled flat: 6 pixels a module, 4 modules of margin (gray).
        var image: PixelBuffer
        /// The code's corners in the photo (top-left, top-right, bottom-right, bottom-left).
        var outline: Quad
        /// Maps the view's pixels to the photo's, through the code's corners (exact at the
        /// corners; within the bend's sag elsewhere).
        var toPhoto: PerspectiveTransform
    }

    /// How many views one photo yields at most (each is one decoder read).
    static let maximumViews = 16
    /// Pixels a module and modules of margin in a view (the shim's layout).
    static let pixelsPerModule = 6.0
    static let margin = 4.0

    /// Flat views of the QR codes whose finder patterns `gray` shows, best first.
    /// - Throws: `KameraError.geometryEngineFailure` when the shim fails.
    static func views(of gray: PixelBuffer) throws -> [View] {
        var found = kgeo_qr_views()
        try GeometryEngine.withImage(gray) { image in
            try GeometryEngine.run("bent QR code views") { error, size in
                kgeo_qr_surface_views(image, Int32(maximumViews), &found, error, size)
            }
        }
        defer { kgeo_qr_views_free(&found) }
        var views: [View] = []
        var offset = 0
        for i in 0..<Int(found.count) {
            let side = Int(found.sides[i])
            let pixels = Array(UnsafeBufferPointer(start: found.pixels + offset, count: side * side))
            offset += side * side
            let o = (0..<8).map { found.outlines[8 * i + $0] }
            guard o.allSatisfy(\.isFinite) else { continue }
            let outline = Quad(
                topLeft: PixelPoint(x: o[0], y: o[1]), topRight: PixelPoint(x: o[2], y: o[3]),
                bottomRight: PixelPoint(x: o[4], y: o[5]), bottomLeft: PixelPoint(x: o[6], y: o[7]))
            // The code's corners in the view: the margin in, the side less the margin out.
            let (near, far) = (margin * pixelsPerModule, Double(side) - margin * pixelsPerModule)
            let square = [
                PixelPoint(x: near, y: near), PixelPoint(x: far, y: near), PixelPoint(x: far, y: far), PixelPoint(x: near, y: far),
            ]
            guard let toPhoto = PerspectiveTransform(from: square, to: outline.corners) else { continue }
            let image = try PixelBuffer(width: side, height: side, format: .gray8, bytes: pixels)
            views.append(View(image: image, outline: outline, toPhoto: toPhoto))
        }
        return views
    }
}
