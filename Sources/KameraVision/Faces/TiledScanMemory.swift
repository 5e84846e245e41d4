import KameraCore

/// What a stream's tiled face scans found block by block (`ScanBlocks`), so that a scan runs
/// the model only where the picture changed since the block was last scanned: a fixed
/// camera's still background is not searched for small faces again on every scan, only round
/// whoever moves.
///
/// Change is told by cells (`CellSignature`), compared with what the block last saw — so a slow
/// change adds up until it counts. A block with no changed cell keeps its candidates; one with
/// a few runs the model on the native-size patches (the scan's own 192² crops, overlapping by
/// a third: every face up to 60 tensor pixels lies wholly inside one) that touch a changed
/// cell, keeping its old candidates away from the change; one with many is scanned whole. Every
/// block is scanned whole at least every `refreshEvery` scans (staggered over the blocks), so
/// a change the cells miss waits at most that long. Every candidate, kept or new, is still
/// measured again on the current frame by the scan's closer look. One memory per stream.
final class TiledScanMemory {
    /// Which block of which scale of the scan.
    struct Key: Hashable {
        var scale: Int
        var block: Int
    }

    /// How one block is scanned this time.
    enum Plan {
        /// Nothing changed: these candidates stand.
        case keep([FaceDetection])
        /// The whole block runs.
        case whole
        /// These patches run; `kept` are the old candidates touching no changed cell, and a new
        /// candidate counts when it touches one (`changed`).
        case patches([PixelRect], kept: [FaceDetection], changed: Set<Int>)
    }

    private struct Seen {
        var region: PixelRect
        var signature: CellSignature
        var candidates: [FaceDetection]
    }

    /// Scans after which a block is scanned whole whatever its cells say (4 scans of every
    /// eighth frame: about a second at 30 fps, the redaction's lead, which covers a face found
    /// that late back to its first frame).
    static let refreshEvery = 4
    /// A cell counts as changed past these differences in mean brightness or texture (levels);
    /// H.264 at the recorder's quality moves a still cell's means by under one level.
    static let brightnessChange: Float = 3
    static let textureChange: Float = 3

    private var seen: [Key: Seen] = [:]
    private var scans = 0
    private(set) var signature: CellSignature?
    /// Model input pixels run and pixels a full scan would have run, over the stream.
    private(set) var scannedPixels = 0
    private(set) var fullScanPixels = 0

    init() {}

    /// Starts a scan of `frame` (the signature the blocks are compared with).
    func begin(_ frame: PixelBuffer) {
        let current = CellSignature(frame)
        if let signature, signature.width != current.width || signature.height != current.height { seen.removeAll() }
        signature = current
    }

    /// How `key`'s block (`region` of the image, run at `width` × `height`) is scanned on this
    /// scan's frame; `native` is the model's input side (a patch's, in model pixels).
    func plan(_ key: Key, region: PixelRect, width: Int, height: Int, native: Int) -> Plan {
        fullScanPixels += width * height
        guard let current = signature, let entry = seen[key], entry.region == region,
            (scans + key.scale + key.block) % Self.refreshEvery != 0
        else {
            scannedPixels += width * height
            return .whole
        }
        let changed = current.changedCells(
            in: region, since: entry.signature, brightnessChange: Self.brightnessChange, textureChange: Self.textureChange)
        if changed.isEmpty { return .keep(entry.candidates) }
        let patches = Self.patches(of: region, width: width, height: height, native: native).filter {
            current.touches($0, anyOf: changed)
        }
        guard !patches.isEmpty, patches.count * native * native < width * height else {
            scannedPixels += width * height
            return .whole
        }
        scannedPixels += patches.count * native * native
        return .patches(patches, kept: entry.candidates.filter { !current.touches($0.box, anyOf: changed) }, changed: changed)
    }

    /// Records what `key`'s block holds after this scan: its candidates, and (for a block of
    /// which only `patches` ran) which of its cells it saw anew.
    func remember(_ key: Key, region: PixelRect, candidates: [FaceDetection], patches: [PixelRect]? = nil) {
        guard let current = signature else { return }
        var signature = current
        if let patches, let earlier = seen[key]?.signature {
            signature = patches.reduce(earlier) { $0.updating($1, from: current) }
        }
        seen[key] = Seen(region: region, signature: signature, candidates: candidates)
    }

    /// Ends the scan begun by ``begin(_:)``.
    func end() { scans += 1 }

    /// Native-size patches tiling `region` (run at `width` × `height`), overlapping by a third
    /// of their side, the last of each row and column flush with the region's edge.
    static func patches(of region: PixelRect, width: Int, height: Int, native: Int) -> [PixelRect] {
        guard width >= native, height >= native else { return [region] }
        let side = region.width * Double(native) / Double(width)
        let step = side * 2 / 3
        func origins(_ start: Double, _ extent: Double) -> [Double] {
            var result: [Double] = []
            var origin = start
            while origin + side < start + extent - 1e-6 {
                result.append(origin)
                origin += step
            }
            result.append(start + extent - side)
            return result
        }
        // Blocks are run at one scale across and down: a patch is `side` square in the image too.
        return origins(region.minY, region.height).flatMap { y in
            origins(region.minX, region.width).map { x in PixelRect(x: x, y: y, width: side, height: side) }
        }
    }
}
