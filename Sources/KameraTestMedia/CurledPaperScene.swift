import Foundation
import KameraCore
import KameraVision

/// A small QR code printed on paper that is curled or folded, as a phone photographs a label
/// on a bottle, a receipt that will not lie flat, or a flyer bent in the hand: one QR code
/// (version 2–7) on a 320 × 240 or 240 × 320 photo, its paper bent around a cylinder (30–115°
/// of arc, bulging towards the camera or away) or folded along one crease (20–55°), the bend's
/// axis at any angle to the code, the sheet turned in the photo and leaning up to 25°, lit
/// from one side so the print darkens where the paper turns away. Rendered by casting each
/// pixel's ray onto the bent sheet (2 × 2 samples a pixel), so module widths shrink towards the
/// turned-away part as a lens sees them — not a warp of a flat picture.
public enum CurledPaperScene {
    /// How the sheet is bent.
    public enum Bend: String, Sendable, Codable {
        /// Around a cylinder (a bottle's label, a curled receipt).
        case curl
        /// Along one straight crease.
        case fold
    }

    /// Scene `index` of the set made with `seed` over `photos` (`kamera-bench dataset
    /// --curled-scenes`).
    /// - Throws: the generator's errors.
    public static func make(index: Int, of seed: UInt64, photos: [PixelBuffer]) throws -> (
        image: PixelBuffer, payload: String, bend: Bend, jpegQuality: Int
    ) {
        precondition(!photos.isEmpty, "a curled-paper scene needs photos")
        return try make(seed: seed &* 100_000 &+ 80_000 &+ UInt64(index), background: photos[(index + 5) % photos.count])
    }

    /// The scene for `seed` over `background`, the QR code's payload and how its paper is bent.
    /// - Throws: the generator's errors.
    public static func make(seed: UInt64, background: PixelBuffer) throws -> (
        image: PixelBuffer, payload: String, bend: Bend, jpegQuality: Int
    ) {
        var random = SeededRandom(seed: seed)
        let portrait = Bool.random(using: &random)
        let (width, height) = portrait ? (240, 320) : (320, 240)
        let composer = SceneComposer(background: background, width: width, height: height)
        let payload = randomPayload(using: &random)
        let level = [BarcodeGenerator.ErrorCorrection.low, .medium, .quartile].randomElement(using: &random)!
        let code = try BarcodeGenerator(symbology: .qr, moduleSize: 6, quietZone: 4, errorCorrection: level).generate(.text(payload))
            .converted(to: .gray8)

        // The bend's axis: along a side of the code (as labels are printed) or at any angle.
        let axisAngle =
            Int.random(in: 0..<3, using: &random) < 2
            ? Double([0, 90].randomElement(using: &random)!) + Double.random(in: -10...10, using: &random)
            : Double.random(in: 0..<180, using: &random)
        // How far the code reaches across the bend (1 along a side, up to √2 across a corner).
        let reach = abs(cos(axisAngle * .pi / 180)) + abs(sin(axisAngle * .pi / 180))
        let bend: Bend = Int.random(in: 0..<4, using: &random) < 3 ? .curl : .fold
        let sheet: Sheet
        switch bend {
        case .curl:
            let arc = Double.random(in: 0.5...2.0, using: &random)
            sheet = .cylinder(radius: reach / arc, convex: Bool.random(using: &random))
        case .fold:
            let angle = Double.random(in: 20...55, using: &random) * .pi / 180
            sheet = .crease(
                offset: reach * Double.random(in: -0.25...0.25, using: &random), angle: Bool.random(using: &random) ? angle : -angle)
        }
        let surface = Surface(sheet: sheet, axisAngle: axisAngle * .pi / 180)

        // The camera: a phone's field of view; the sheet turned, leaning, 45–85 % of the short side.
        let shortSide = Double(min(width, height))
        let focal = shortSide * Double.random(in: 0.9...1.5, using: &random)
        var pose = Pose.identity
        var placed = false
        // Each failed try leans less and shrinks the sheet, so a strong bend still finds a view.
        for attempt in 0..<60 {
            let easing = 1 - Double(attempt) / 60
            let roll = Double.random(in: 0..<360, using: &random) * .pi / 180
            let lean = Double.random(in: 0...25, using: &random) * easing * .pi / 180
            let leanDirection = Double.random(in: 0..<360, using: &random) * .pi / 180
            let apparent = shortSide * Double.random(in: 0.45...0.85, using: &random) * (0.5 + 0.5 * easing)
            let distance = focal / apparent
            let offset = (
                x: Double.random(in: -0.12...0.12, using: &random) * distance,
                y: Double.random(in: -0.12...0.12, using: &random) * distance
            )
            let candidate = Pose(roll: roll, lean: lean, leanDirection: leanDirection, center: (offset.x, offset.y, distance))
            if surface.fitsInView(candidate, focal: focal, width: width, height: height, margin: 3) {
                pose = candidate
                placed = true
                break
            }
        }
        guard placed else { throw KameraError.invalidArgument("no view of the bent sheet fits the photo") }

        // Towards the light, from the camera's side: the print darkens where the paper turns away.
        let light = normalized((Double.random(in: -1...1, using: &random), Double.random(in: -1...1, using: &random), -1.2))
        let ambient = Double.random(in: 0.35...0.6, using: &random)
        let paper = Double.random(in: 215...250, using: &random)
        let ink = Double.random(in: 15...70, using: &random)
        var image = composer.canvas
        render(
            code: code, on: surface, pose: pose, focal: focal, into: &image, light: light, ambient: ambient, paper: paper, ink: ink)

        let module = apparentModule(of: code, shortSide: shortSide)
        let damage = Degradation(
            blurSigma: module * Double.random(in: 0.05...0.25, using: &random),
            noiseSigma: Double.random(in: 1...5, using: &random),
            contrast: Double.random(in: 0.6...1, using: &random))
        var noise = SeededRandom(seed: seed &+ 1)
        return (damage.apply(to: image, random: &noise), payload, bend, Int.random(in: 70...92, using: &random))
    }

    /// A text a phone's QR code holds: a link with a path and query, or a short message.
    static func randomPayload(using random: inout SeededRandom) -> String {
        let words = ["menu", "table", "order", "ticket", "parcel", "invoice", "label", "bottle", "event", "wifi", "room", "track"]
        func word() -> String { words.randomElement(using: &random)! }
        func digits(_ n: Int) -> String { (0..<n).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined() }
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return "https://example.com/\(word())/\(digits(Int.random(in: 3...12, using: &random)))"
        case 1:
            return "https://shop.example.org/\(word())?id=\(digits(Int.random(in: 6...16, using: &random)))&ref=\(word())\(digits(3))"
        default: return "\(word().uppercased()) \(digits(4)) \(word()) \(word()) \(digits(Int.random(in: 2...30, using: &random)))"
        }
    }

    /// Roughly how wide one module looks (pixels) for blur scaled to the print.
    static func apparentModule(of code: PixelBuffer, shortSide: Double) -> Double {
        let modules = Double(code.width) / 6
        return shortSide * 0.65 / modules
    }

    // MARK: - The bent sheet

    /// The sheet's shape in its own frame: flat coordinates (s along the bend's direction, t
    /// along its axis), unit side; z away from the camera.
    enum Sheet {
        /// Bent around a cylinder of `radius` sheet sides; convex bulges towards the camera.
        case cylinder(radius: Double, convex: Bool)
        /// Flat up to the crease at s = `offset`, then turned by `angle` (radians) about it.
        case crease(offset: Double, angle: Double)
    }

    /// A bent sheet whose code lies at (a, b) ∈ [−½, ½]², the bend's axis `axisAngle` from the
    /// code's vertical.
    struct Surface {
        var sheet: Sheet
        var axisAngle: Double

        /// The sheet's point and normal (towards the camera) for code position (a, b).
        func point(a: Double, b: Double) -> (point: Vector, normal: Vector) {
            let (c, s) = (cos(axisAngle), sin(axisAngle))
            let along = a * c + b * s, axis = -a * s + b * c
            switch sheet {
            case .cylinder(let radius, let convex):
                let k = convex ? 1.0 : -1.0
                let angle = along / radius
                return ((radius * sin(angle), axis, k * radius * (1 - cos(angle))), (k * sin(angle), 0, -cos(angle)))
            case .crease(let offset, let angle):
                guard along > offset else { return ((along, axis, 0), (0, 0, -1)) }
                let d = along - offset
                return ((offset + d * cos(angle), axis, d * sin(angle)), (sin(angle), 0, -cos(angle)))
            }
        }

        /// Where the ray from the camera through `direction` (in the sheet's frame, from
        /// `origin`) first meets the sheet within the code: the code position and the normal.
        func hit(origin o: Vector, direction d: Vector) -> (a: Double, b: Double, normal: Vector)? {
            var best: (t: Double, a: Double, b: Double, normal: Vector)?
            func consider(t: Double, along: Double) {
                guard t > 0, best.map({ t < $0.t }) ?? true else { return }
                let axis = o.1 + t * d.1
                let (c, s) = (cos(axisAngle), sin(axisAngle))
                let a = along * c - axis * s, b = along * s + axis * c
                guard abs(a) <= 0.5, abs(b) <= 0.5 else { return }
                best = (t, a, b, point(a: a, b: b).normal)
            }
            switch sheet {
            case .cylinder(let radius, let convex):
                // x² + (z − k·r)² = r², centre on the far (convex) or near side.
                let k = convex ? 1.0 : -1.0
                let cz = k * radius
                let qa = d.0 * d.0 + d.2 * d.2
                let qb = 2 * (o.0 * d.0 + (o.2 - cz) * d.2)
                let qc = o.0 * o.0 + (o.2 - cz) * (o.2 - cz) - radius * radius
                let disc = qb * qb - 4 * qa * qc
                guard qa > 1e-12, disc >= 0 else { return nil }
                for t in [(-qb - disc.squareRoot()) / (2 * qa), (-qb + disc.squareRoot()) / (2 * qa)] {
                    let x = o.0 + t * d.0, z = o.2 + t * d.2
                    let angle = atan2(x, radius - k * z)
                    consider(t: t, along: radius * angle)
                }
            case .crease(let offset, let angle):
                if abs(d.2) > 1e-12 {
                    let t = -o.2 / d.2
                    let along = o.0 + t * d.0
                    if along <= offset { consider(t: t, along: along) }
                }
                // The turned part: through (offset, ·, 0) along (cos, 0, sin).
                let e = (cos(angle), 0.0, sin(angle))
                let n = (-sin(angle), 0.0, cos(angle))
                let denominator = n.0 * d.0 + n.2 * d.2
                if abs(denominator) > 1e-12 {
                    let t = (n.0 * (offset - o.0) + n.2 * (0 - o.2)) / denominator
                    let x = o.0 + t * d.0, z = o.2 + t * d.2
                    let along = offset + (x - offset) * e.0 + z * e.2
                    if along > offset { consider(t: t, along: along) }
                }
            }
            return best.map { ($0.a, $0.b, $0.normal) }
        }

        /// Whether the whole code, seen at `pose`, lies `margin` pixels inside the photo and
        /// faces the camera everywhere (no part seen edge-on).
        func fitsInView(_ pose: Pose, focal: Double, width: Int, height: Int, margin: Double) -> Bool {
            for i in 0...16 {
                for j in 0...16 {
                    let (a, b) = (Double(i) / 16 - 0.5, Double(j) / 16 - 0.5)
                    let (p, n) = point(a: a, b: b)
                    let world = pose.apply(p)
                    let normal = pose.rotate(n)
                    let view = normalized(world)
                    // Turned more than 78° from the line of sight: a sliver, not a code.
                    guard -dot(normal, view) > cos(78 * Double.pi / 180), world.2 > 0.05 else { return false }
                    let x = Double(width) / 2 + focal * world.0 / world.2
                    let y = Double(height) / 2 + focal * world.1 / world.2
                    guard x >= margin, y >= margin, x <= Double(width) - margin, y <= Double(height) - margin else { return false }
                }
            }
            return true
        }
    }

    typealias Vector = (Double, Double, Double)

    /// The sheet's placement: turned by `roll` in the photo, leaning by `lean` towards
    /// `leanDirection`, its centre at `center` (camera frame, z forward).
    struct Pose {
        var rotation: [Double]
        var center: Vector

        static let identity = Pose(rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], center: (0, 0, 1))

        init(rotation: [Double], center: Vector) {
            self.rotation = rotation
            self.center = center
        }

        init(roll: Double, lean: Double, leanDirection: Double, center: Vector) {
            // Lean: about the axis (cos φ, sin φ, 0) by `lean`; then roll about z.
            let (ux, uy) = (cos(leanDirection), sin(leanDirection))
            let (c, s) = (cos(lean), sin(lean))
            let lean3: [Double] = [
                c + ux * ux * (1 - c), ux * uy * (1 - c), uy * s,
                uy * ux * (1 - c), c + uy * uy * (1 - c), -ux * s,
                -uy * s, ux * s, c,
            ]
            let (cr, sr) = (cos(roll), sin(roll))
            let roll3: [Double] = [cr, -sr, 0, sr, cr, 0, 0, 0, 1]
            var product = [Double](repeating: 0, count: 9)
            for r in 0..<3 {
                for col in 0..<3 {
                    product[r * 3 + col] = (0..<3).reduce(0) { $0 + lean3[r * 3 + $1] * roll3[$1 * 3 + col] }
                }
            }
            self.init(rotation: product, center: center)
        }

        func rotate(_ v: Vector) -> Vector {
            (
                rotation[0] * v.0 + rotation[1] * v.1 + rotation[2] * v.2,
                rotation[3] * v.0 + rotation[4] * v.1 + rotation[5] * v.2,
                rotation[6] * v.0 + rotation[7] * v.1 + rotation[8] * v.2
            )
        }

        func unrotate(_ v: Vector) -> Vector {
            (
                rotation[0] * v.0 + rotation[3] * v.1 + rotation[6] * v.2,
                rotation[1] * v.0 + rotation[4] * v.1 + rotation[7] * v.2,
                rotation[2] * v.0 + rotation[5] * v.1 + rotation[8] * v.2
            )
        }

        func apply(_ p: Vector) -> Vector {
            let r = rotate(p)
            return (r.0 + center.0, r.1 + center.1, r.2 + center.2)
        }
    }

    /// Casts every pixel's ray (2 × 2 samples) onto the sheet and paints the print there, lit.
    static func render(
        code: PixelBuffer, on surface: Surface, pose: Pose, focal: Double, into image: inout PixelBuffer,
        light: Vector, ambient: Double, paper: Double, ink: Double
    ) {
        let origin = pose.unrotate((-pose.center.0, -pose.center.1, -pose.center.2))
        let (cx, cy) = (Double(image.width) / 2, Double(image.height) / 2)
        let offsets: [(Double, Double)] = [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]
        let bpp = image.format.bytesPerPixel
        code.bytes.withUnsafeBufferPointer { codePixels in
            let sampler = BilinearSampler(codePixels, of: code)
            for y in 0..<image.height {
                for x in 0..<image.width {
                    var sum = 0.0, covered = 0
                    for (dx, dy) in offsets {
                        let ray = pose.unrotate(((Double(x) + dx - cx) / focal, (Double(y) + dy - cy) / focal, 1))
                        guard let hit = surface.hit(origin: origin, direction: ray) else { continue }
                        let print =
                            sampler.sample(
                                x: (hit.a + 0.5) * Double(code.width) - 0.5, y: (hit.b + 0.5) * Double(code.height) - 0.5, channel: 0)
                            / 255
                        let normal = pose.rotate(hit.normal)
                        let lit = ambient + (1 - ambient) * max(0, dot(normal, light))
                        sum += (ink + (paper - ink) * print) * lit
                        covered += 1
                    }
                    guard covered > 0 else { continue }
                    let coverage = Double(covered) / 4
                    let value = sum / Double(covered)
                    let base = y * image.bytesPerRow + x * bpp
                    for c in 0..<min(3, bpp) {
                        let blended = Double(image.bytes[base + c]) * (1 - coverage) + value * coverage
                        image.bytes[base + c] = UInt8(max(0, min(255, blended.rounded())))
                    }
                }
            }
        }
    }

    static func dot(_ a: Vector, _ b: Vector) -> Double { a.0 * b.0 + a.1 * b.1 + a.2 * b.2 }

    static func normalized(_ v: Vector) -> Vector {
        let length = dot(v, v).squareRoot()
        return (v.0 / length, v.1 / length, v.2 / length)
    }
}
