import Foundation
import KameraCore
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// A stream's tiled face scan skipping the still parts of the picture: what it keeps, what it
/// scans again, and that it finds what a full scan finds.
@Suite("Tiled face scans skipping still parts of a stream", .tier(.models)) struct TiledScanMemoryTests {
    /// A 1280×720 street with small faces (the tiled scan's job) at `faces`, and ±2 levels of
    /// noise that changes from frame to frame (`seed`), as a camera's and an encoder's would.
    private func frame(faces: [(center: PixelPoint, side: Double)], seed: Int) throws -> PixelBuffer {
        var scene = try FaceScene(background: "building.jpg", width: 1280, height: 720)
        let head = try FaceScene.astronautHead()
        for face in faces { scene.place(head, faceCenter: face.center, faceSide: face.side, degrees: 0) }
        var image = scene.image
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        for index in image.bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            image.bytes[index] = UInt8(clamping: Int(image.bytes[index]) + Int(state % 5) - 2)
        }
        return image
    }

    @Test func cellsTellAFaceFromNoise() throws {
        let still = try frame(faces: [], seed: 1)
        let noisy = CellSignature(try frame(faces: [], seed: 2))
        let face = (center: PixelPoint(x: 600, y: 300), side: 24.0)
        let withFace = CellSignature(try frame(faces: [face], seed: 2))
        let before = CellSignature(still)
        let whole = PixelRect(x: 0, y: 0, width: 1280, height: 720)
        func changed(_ signature: CellSignature, in region: PixelRect = whole, since earlier: CellSignature) -> Set<Int> {
            signature.changedCells(
                in: region, since: earlier, brightnessChange: TiledScanMemory.brightnessChange,
                textureChange: TiledScanMemory.textureChange)
        }
        #expect(changed(noisy, since: before).isEmpty)
        // The cells round the face, and only those: the head cut's box (about twice the face).
        let cells = changed(withFace, since: before)
        let head = PixelRect(x: face.center.x - 40, y: face.center.y - 48, width: 80, height: 96)
        #expect(!cells.isEmpty && withFace.touches(head, anyOf: cells))
        #expect(!withFace.touches(PixelRect(x: 0, y: 0, width: 500, height: 720), anyOf: cells))
        #expect(!withFace.touches(PixelRect(x: 700, y: 0, width: 580, height: 720), anyOf: cells))
        // What a block that scanned the face's region saw is the new frame there.
        #expect(changed(withFace, since: before.updating(head.expanded(dx: 16, dy: 16), from: withFace)).isEmpty)
        // Another frame size is a change everywhere.
        let smaller = CellSignature(still.cropped(to: PixelRect(x: 0, y: 0, width: 640, height: 360)))
        #expect(changed(smaller, in: PixelRect(x: 0, y: 0, width: 64, height: 64), since: before).count == 16)
    }

    @Test func patchesTileABlockWithOverlap() {
        // A 480×288 block at the full scale: 192 px patches a third overlapping, flush at the far edges.
        let region = PixelRect(x: 400, y: 216, width: 480, height: 288)
        let patches = TiledScanMemory.patches(of: region, width: 480, height: 288, native: 192)
        #expect(Set(patches.map(\.minX)) == [400, 528, 656, 688])
        #expect(Set(patches.map(\.minY)) == [216, 312])
        #expect(patches.allSatisfy { $0.width == 192 && $0.height == 192 && $0.maxX <= region.maxX && $0.maxY <= region.maxY })
        // At a third of the scale a patch is three times larger in the image.
        let coarse = TiledScanMemory.patches(of: PixelRect(x: 0, y: 0, width: 1344, height: 768), width: 448, height: 256, native: 192)
        #expect(coarse.count == 6 && coarse.allSatisfy { $0.width == 576 })
    }

    @Test func stillBlocksAreKeptAndAFaceThatAppearsIsFoundAtOnce() throws {
        let scanner = try FaceScanner(models: .default)
        let memory = TiledScanMemory()
        let first = (center: PixelPoint(x: 300, y: 420), side: 34.0)
        let second = (center: PixelPoint(x: 1010, y: 190), side: 30.0)
        func faces(_ image: PixelBuffer, memory: TiledScanMemory?) throws -> [FaceDetection] {
            try scanner.detect(
                in: TensorSampler(rgb: image), minimumFaceSize: nil, threads: 2, overlapThreshold: 0.3, memory: memory)
        }
        func found(_ detections: [FaceDetection], _ face: (center: PixelPoint, side: Double)) -> Bool {
            detections.contains { hypot($0.box.center.x - face.center.x, $0.box.center.y - face.center.y) < face.side * 0.4 }
        }
        var fullScan = 0
        for seed in 0..<3 {
            let image = try frame(faces: [first], seed: seed)
            let (remembered, fresh) = (try faces(image, memory: memory), try faces(image, memory: nil))
            if seed == 0 { fullScan = memory.fullScanPixels }
            #expect(found(remembered, first) && found(fresh, first), "scan \(seed)")
            #expect(remembered.count == fresh.count, "scan \(seed): \(remembered.count) faces kept, \(fresh.count) scanned afresh")
        }
        // The first scan ran everything; the two after it only the blocks due for a refresh.
        #expect(memory.scannedPixels < fullScan * 2, "\(memory.scannedPixels) of \(memory.fullScanPixels) model pixels run")
        let before = memory.scannedPixels
        let image = try frame(faces: [first, second], seed: 3)
        let remembered = try faces(image, memory: memory)
        #expect(found(remembered, first) && found(remembered, second), "\(remembered.map(\.box))")
        // Round the new face only, with the blocks due: well under a full scan.
        let ran = memory.scannedPixels - before
        #expect(ran > 0 && ran < fullScan * 3 / 4, "\(ran) of \(fullScan)")
    }
}
