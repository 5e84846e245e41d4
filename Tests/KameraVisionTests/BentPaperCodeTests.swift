import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// QR codes on curled and folded paper (`CurledPaperScene`): no plane-to-plane grid samples
/// them, so the thorough effort samples each one flat along a sheet fitted to its finder and
/// timing patterns (`BentPaperQRViews`).
@Suite(.tier(.unit)) struct BentPaperCodeTests {
    /// Scene `index` of the bench's seed-801 set (the tuning set) as the bench stores it (JPEG).
    func scene(_ index: Int) throws -> (image: Image, payload: String, bend: CurledPaperScene.Bend) {
        let photos = try SampleMedia.availableBackgrounds().map { try SampleMedia.photo($0).pixelBuffer }
        let scene = try CurledPaperScene.make(index: index, of: 801, photos: photos)
        let jpeg = try ImageEncoder.encode(scene.image, as: .jpeg(quality: scene.jpegQuality))
        return (try ImageDecoder.decode(jpeg), scene.payload, scene.bend)
    }

    func read(_ image: Image, _ effort: DetectBarcodesRequest.Effort) throws -> [BarcodeObservation] {
        try DetectBarcodesRequest(effort: effort).perform(in: ImageAnalysisContext(image))
    }

    @Test(arguments: [0, 5, 26]) func aCurledCodeIsReadOnlyAlongItsSheet(index: Int) throws {
        let (image, payload, bend) = try scene(index)
        #expect(bend == .curl)
        #expect(try read(image, .balanced).isEmpty)
        let found = try read(image, .thorough)
        #expect(found.map(\.payloadString) == [payload])
        // Placed back on the photo: a code of a plausible size, inside the photo.
        let box = try #require(found.first).pixelBounds
        #expect(box.width > 40 && box.height > 40 && box.minX > -2 && box.minY > -2)
        #expect(box.maxX < Double(image.width) + 2 && box.maxY < Double(image.height) + 2)
    }

    @Test(arguments: [4, 12]) func aFoldedCodeIsReadToo(index: Int) throws {
        let (image, payload, bend) = try scene(index)
        #expect(bend == .fold)
        #expect(try read(image, .balanced).isEmpty)
        #expect(try read(image, .thorough).map(\.payloadString) == [payload])
    }

    @Test func aFlatCodeGivesAViewThatReads() throws {
        // The sheet model holds a flat sheet too: no bend fitted where there is none.
        let photo = try SampleMedia.photo(SampleMedia.availableBackgrounds()[0]).pixelBuffer
        var composer = SceneComposer(background: photo, width: 480, height: 360)
        let pose = CodePose(center: PixelPoint(x: 240, y: 180), width: 200, rotation: 17, tilt: 0.1)
        try composer.place(.qr, payload: .text("https://example.org/flat/sheet"), pose: pose, moduleSize: 4)
        let gray = ImageAnalysisContext(Image(pixelBuffer: composer.render())).grayscale
        let views = try BentPaperQRViews.views(of: gray)
        var pass = BarcodeReaderPass(formats: BarcodeSymbology.qr.readerNames.joined(separator: ","))
        pass.tryRotate = false
        let read = try views.flatMap { try pass.read($0.image) }.map(\.payloadString)
        #expect(read.first == "https://example.org/flat/sheet")
        // The view's outline is the code's place in the photo (its centre within a module).
        let outline = try #require(views.first).outline.boundingRect
        #expect(abs(outline.center.x - 240) < 6 && abs(outline.center.y - 180) < 6)
    }

    @Test func photosWithoutCodesGiveNothingAndOddImagesNoCrash() throws {
        for name in SampleMedia.availableBackgrounds().prefix(4) {
            let image = try SampleMedia.photo(name)
            #expect(try read(image, .thorough).filter { $0.symbology == .qr }.isEmpty, "\(name)")
        }
        for (width, height, value) in [(1, 1, 0), (9, 7, 255), (300, 2, 128), (64, 64, 0)] {
            let blank = PixelBuffer(width: width, height: height, format: .gray8, filledWith: [UInt8(value)])
            #expect(try BentPaperQRViews.views(of: blank).isEmpty)
        }
    }

    @Test func aPhotoFullOfFinderPatternsStaysBounded() throws {
        // 80 finder patterns scattered over noise: every triple of them is a candidate code.
        var random = SeededRandom(seed: 36)
        var image = PixelBuffer(width: 1200, height: 900, format: .gray8, filledWith: [200])
        for i in image.bytes.indices { image.bytes[i] = UInt8(Int.random(in: 150...250, using: &random)) }
        for _ in 0..<80 {
            let module = Int.random(in: 2...6, using: &random)
            let (x0, y0) = (Int.random(in: 0..<(1200 - 7 * module), using: &random), Int.random(in: 0..<(900 - 7 * module), using: &random))
            for y in 0..<(7 * module) {
                for x in 0..<(7 * module) {
                    let (mx, my) = (x / module, y / module)
                    let ring = min(mx, my, 6 - mx, 6 - my)
                    image.bytes[(y0 + y) * image.bytesPerRow + x0 + x] = ring == 1 ? 255 : 0
                }
            }
        }
        let views = try BentPaperQRViews.views(of: image)
        #expect(views.count <= BentPaperQRViews.maximumViews)
        #expect(views.allSatisfy { $0.outline.corners.allSatisfy { $0.x.isFinite && $0.y.isFinite } })
        #expect(try read(Image(pixelBuffer: image), .thorough).filter { $0.symbology == .qr }.isEmpty)
    }
}
