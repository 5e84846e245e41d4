import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `DetectDocumentSegmentationRequest` and perspective correction: what a document camera does.
@Suite(.tier(.models)) struct DocumentSegmentationTests {
    @Test("The page's corners within 1 % of its diagonal, also low contrast and cut by the frame")
    func pages() async throws {
        for sceneCase in GeometryTestScenes.cases where sceneCase.kind == .page {
            let scene = try GeometryTestScenes.make(sceneCase)
            let truth = try #require(scene.corners)
            let documents = try await DetectDocumentSegmentationRequest().perform(on: scene.image)
            #expect(documents.count == 1)
            let document = try #require(documents.first)
            let error = GeometryTestScenes.cornerError(document.pixelCorners, truth)
            #expect(error <= 0.01 * GeometryTestScenes.diagonal(truth), "page on \(sceneCase.background): \(error) px")
        }
    }

    /// Scenes (the geometry bench's 1011, 1013, 1015, 1035) whose object the gray image alone
    /// misses: its brightness is close to what it lies on, its colour is not.
    @Test(
        "Signs and cards that differ from their background in colour more than in brightness",
        arguments: [
            GeometryTestScenes.Case(kind: .sign, background: "orange.jpg", seed: 1011),
            GeometryTestScenes.Case(kind: .card, background: "home.jpg", seed: 1013, lowContrast: true),
            GeometryTestScenes.Case(kind: .sign, background: "messi5.jpg", seed: 1015),
            GeometryTestScenes.Case(kind: .sign, background: "starry_night.jpg", seed: 1035),
        ])
    func colourEdges(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Scenes (the geometry bench's 1021 and 1039) on a circuit board. The card's left side
    /// differs from the board in colour only and its bottom in brightness only, and a chip is
    /// the best rectangle on the gray image: the card is found only when each side is fitted
    /// on the plane that shows it. The sign's sides run on to an edge of the board photo 7 px
    /// from the frame, which is the photo's edge, not the sign's.
    @Test(
        "A card whose sides show in different planes; a sign beside the photo's own edge",
        arguments: [
            GeometryTestScenes.Case(kind: .card, background: "board.jpg", seed: 1021),
            GeometryTestScenes.Case(kind: .sign, background: "board.jpg", seed: 1039),
        ])
    func mixedPlanes(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Scenes (the geometry bench's 1006, 1030 and 1042, the fresh set's 1166, 1194 and 1210) where the
    /// bright picture's edge is stronger than the thin dark bezel round it: the document is the
    /// screen, bezel included.
    @Test(
        "Screens: the bezel's outline, not the picture's",
        arguments: [
            GeometryTestScenes.Case(kind: .screen, background: "messi5.jpg", seed: 1006),
            GeometryTestScenes.Case(kind: .screen, background: "board.jpg", seed: 1030),
            // Its bezel's outer edge is lost on two sides against a dark crowd.
            GeometryTestScenes.Case(kind: .screen, background: "messi5.jpg", seed: 1042),
            // Fresh scenes 1166 and 1194: one side's outer edge is faint (dark fur against the
            // bezel, or an edge on just under 60 % of the side) and its band is narrower than the
            // opposite one, whose width it used to borrow (corners 8–10 px out).
            GeometryTestScenes.Case(kind: .screen, background: "home.jpg", seed: 1166, lowContrast: true),
            GeometryTestScenes.Case(kind: .screen, background: "baboon.jpg", seed: 1194),
            // Fresh scene 1210 and tuning scene 1426, on the board: two adjacent sides' outer
            // edges are lost in the board's clutter while the other two moved out, and a side
            // under perspective has a wider band than the opposite one (corners 20–45 px out).
            GeometryTestScenes.Case(kind: .screen, background: "board.jpg", seed: 1210),
            GeometryTestScenes.Case(kind: .screen, background: "board.jpg", seed: 1426),
            // Fresh scene 1234 and tuning scene 1546: the picture outranks the screen, and the
            // search just outside it stops on the blur of the picture's bright edge (8 px out,
            // the bezel is 25-35); the bezel's edge is one the detector fitted (corners 3-6 % off).
            GeometryTestScenes.Case(kind: .screen, background: "building.jpg", seed: 1234),
            GeometryTestScenes.Case(kind: .screen, background: "messi5.jpg", seed: 1546),
            // Fresh scene 1222: three sides on the bezel's outer edge, the fourth on its inner
            // one, inside which the painting's light margin is an even band too. The outline
            // as found is one reading (every band inside); the bezel's edge found outside the
            // fourth side is a more even one (2.8 % off while the unmoved reading won outright).
            GeometryTestScenes.Case(kind: .screen, background: "messi5.jpg", seed: 1222),
        ])
    func screenBezels(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Scenes of the framed-screen tuning set (`geometry-dataset --kinds framedScreen`, seeds
    /// 4000 on) where what the screen shows has stronger edges than its 2–14 px bezel and won:
    /// a white window with a dark title bar (4032, 4024, 4042: corners 15 %, 10 % and 11 % off)
    /// and a photo on a light mat inside a dark rule (4015: the mat's outline, 6 % off). Along
    /// most of each of the screen's sides the bezel's edge is second to the picture's.
    @Test(
        "Framed screens: the screen's outline, not its window's or mat's",
        arguments: [
            GeometryTestScenes.Case(kind: .framedScreen, background: "starry_night.jpg", seed: 4032),
            GeometryTestScenes.Case(kind: .framedScreen, background: "building.jpg", seed: 4024),
            GeometryTestScenes.Case(kind: .framedScreen, background: "building.jpg", seed: 4042),
            GeometryTestScenes.Case(kind: .framedScreen, background: "building.jpg", seed: 4015),
        ])
    func framedScreens(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Framed-screen tuning scenes 4000 and 4009, on the circuit board: the outline found first
    /// is the bezel's inner edge, and just outside, the board's traces and white print are
    /// stronger edges than the black bezel's outer one on more than half of each side (the
    /// outline stayed on the inner edge, corners 2.3–2.6 % off). A band ends at the first
    /// strong edge going out.
    @Test(
        "Framed screens on a busy background: the bezel ends at the first strong edge outside",
        arguments: [
            GeometryTestScenes.Case(kind: .framedScreen, background: "board.jpg", seed: 4000),
            GeometryTestScenes.Case(kind: .framedScreen, background: "board.jpg", seed: 4009),
        ])
    func bezelsOnClutter(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Framed-screen tuning scene 4028: a photo on a white mat inside a grey bezel — two even
    /// bands, one round the other. The outline moved out to the mat's edge and stopped there
    /// (1.7 % off); the bezel round it is a second band, taken when every side moves out again.
    @Test("A photo on a mat inside a bezel: the outline moves out through both bands")
    func matInsideBezel() async throws {
        try await expectDocumentWithinOnePercent(
            GeometryTestScenes.Case(kind: .framedScreen, background: "home.jpg", seed: 4028, lowContrast: true))
    }

    /// Framed-screen tuning scenes 4034, 4006, 4016 and 4035, where the window or the mat's
    /// photo was reported (10–31 % off) though the rectangle request found the screen: along
    /// most of one of the screen's sides the picture's border is the stronger edge, so the side
    /// failed the fit and the screen was never a document candidate. Its edge is among each
    /// sample's two strongest nearly all along; the outline then goes before the picture it
    /// encloses, or is dropped if it does not enclose one.
    @Test(
        "Framed screens: a side under the picture's stronger border is still fitted",
        arguments: [
            GeometryTestScenes.Case(kind: .framedScreen, background: "fruits.jpg", seed: 4034, lowContrast: true),
            GeometryTestScenes.Case(kind: .framedScreen, background: "building.jpg", seed: 4006),
            GeometryTestScenes.Case(kind: .framedScreen, background: "fruits.jpg", seed: 4016, lowContrast: true),
            GeometryTestScenes.Case(kind: .framedScreen, background: "orange.jpg", seed: 4035),
        ])
    func hiddenScreenSides(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Framed-screen scene 4240 (the second held-out set, looked into after scoring): a photo on
    /// a 40 px grey mat inside a thin dark bezel. The screen's outline is edged all round among
    /// its samples' two strongest edges, but it was dropped as the extension of a hybrid quad —
    /// the photo's top, right and bottom sides closed by the screen's left one, far less edged
    /// all round — before it could be weighed against the photo (the photo was reported, 12.7 %
    /// off).
    @Test("A screen is not dropped as the extension of a quad that borrowed one of its sides")
    func screenOverHybridQuad() async throws {
        try await expectDocumentWithinOnePercent(
            GeometryTestScenes.Case(kind: .framedScreen, background: "building.jpg", seed: 4240))
    }

    /// Scenes 4407 and 4432 (the fourth framed-screen set, looked into in session 48): the
    /// outline lies on the outer edge along two adjacent sides and on an inner one along the
    /// other two — a card whose photo has a black strip along its right and bottom, a screen
    /// whose 2–5 px top bezel the refinement fitted while its wider side and bottom bezel
    /// were left inside (corners 1.9 % and 2.6 % off). The sides left inside move out through
    /// their even, flat bands and the others stay; no reading moved every side.
    @Test(
        "A card dark along two sides, a screen with a thin top bezel: two sides move out, two stay",
        arguments: [
            GeometryTestScenes.Case(kind: .card, background: "baboon.jpg", seed: 4407),
            GeometryTestScenes.Case(kind: .framedScreen, background: "board.jpg", seed: 4432),
        ])
    func twoSidesMoveOut(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Held-out scenes 1065, 1077 and 1105, where a side's fit used to tilt (one or two corners
    /// 8–16 px off): along part of a faint side the strongest edge is the caption printed beside
    /// it or the background's texture; the side's own edge runs its whole length.
    @Test(
        "Cards: each side on the edge most of its length agrees on, not pulled by a caption or texture",
        arguments: [
            GeometryTestScenes.Case(kind: .card, background: "orange.jpg", seed: 1065),
            GeometryTestScenes.Case(kind: .card, background: "baboon.jpg", seed: 1077),
            GeometryTestScenes.Case(kind: .card, background: "messi5.jpg", seed: 1105),
        ])
    func sidesByConsensus(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Fresh scene 1201 and tuning scenes 1405 and 1501: a card on a circuit board, a building's
    /// facade or a crowd. The facade's grid of straight edges made thousands of fully edged
    /// quads that crowded the card out of the candidates (ranked 900th–1900th); the crowd broke
    /// the card's sides into runs covering about half of each, under the 55 % then needed.
    @Test(
        "Cards on a grid of edges or a crowd are still among the candidates",
        arguments: [
            GeometryTestScenes.Case(kind: .card, background: "board.jpg", seed: 1201),
            GeometryTestScenes.Case(kind: .card, background: "messi5.jpg", seed: 1501),
            GeometryTestScenes.Case(kind: .card, background: "building.jpg", seed: 1405),
        ])
    func cardsAmongMany(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Tuning scenes 1495, 1509 and 1489: a red sign on the building, cards on the baboon and on
    /// the circuit board. A side of each was not among the lines quads are built from: the
    /// sign's lower side ranked 148th of 1945 lines by length (first in its own direction), and
    /// its outline runs covered 28 % of it, a clean red-on-white edge broken up by noise.
    @Test(
        "A side outnumbered by a busy photo's edges is still a line, covered by its edge pixels",
        arguments: [
            GeometryTestScenes.Case(kind: .sign, background: "building.jpg", seed: 1495),
            GeometryTestScenes.Case(kind: .card, background: "baboon.jpg", seed: 1509),
            GeometryTestScenes.Case(kind: .card, background: "board.jpg", seed: 1489),
        ])
    func sidesAmongManyLines(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Fresh scene 1180, tuning scene 1468 and held-out scene 1117: pages cut by the frame and a
    /// card on the building, each beaten by a larger quad of the facade's floor and window lines,
    /// which run on past its corners (the object's own outline does not).
    @Test(
        "A document's outline ends at its corners: a larger quad of a building's longer lines does not outrank it",
        arguments: [
            GeometryTestScenes.Case(kind: .page, background: "building.jpg", seed: 1180, cutByFrame: true),
            GeometryTestScenes.Case(kind: .page, background: "building.jpg", seed: 1468, cutByFrame: true),
            GeometryTestScenes.Case(kind: .card, background: "building.jpg", seed: 1117),
        ])
    func outlinesEndAtCorners(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Tuning scene 1540 and fourth-set scene 1261: a page cut by the frame and a card on the
    /// building, each outranked by a larger quad that carries the object's sides on along the
    /// facade's lines; the object's own outline was found too, nearly as well edged (0.71 against
    /// 0.57 for the card).
    @Test(
        "A larger quad that is the object's outline carried on along the background does not outrank it",
        arguments: [
            GeometryTestScenes.Case(kind: .page, background: "building.jpg", seed: 1540, cutByFrame: true),
            GeometryTestScenes.Case(kind: .card, background: "building.jpg", seed: 1261),
        ])
    func extensionsDoNotOutrank(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Framed-screen scene 4564 (the fifth held-out set, looked into in session 49): a quad that
    /// carries the screen's left and bottom sides 100–140 px on past its corners to a building's
    /// lines encloses the screen's picture and went first as its outline (48.9 % off). Its sides
    /// have no edge next to those corners (0.65–0.87 bare); the screen's reach its own.
    @Test("A document's edges reach its corners: a quad whose sides are bare next to them does not outrank the screen")
    func edgesReachCorners() async throws {
        try await expectDocumentWithinOnePercent(
            GeometryTestScenes.Case(kind: .framedScreen, background: "building.jpg", seed: 4564))
    }

    /// Framed-screen scenes 4010 and 4014 (the tuning set): the outline lies on the bezel's
    /// outer edge but for one side, on the picture's edge where the bezel is widest (1.5 and
    /// 1.9 % off; in 4014 after the first search moved out to a mat's edge); no other side has a
    /// band to move by, so only a reading that moves that side alone — its band the tone of the
    /// thin strip inside the other three — finds the screen.
    @Test(
        "One side moves out alone onto the bezel's outer edge",
        arguments: [
            GeometryTestScenes.Case(kind: .framedScreen, background: "home.jpg", seed: 4010, lowContrast: true),
            GeometryTestScenes.Case(kind: .framedScreen, background: "starry_night.jpg", seed: 4014),
        ])
    func oneSideMovesAlone(_ sceneCase: GeometryTestScenes.Case) async throws {
        try await expectDocumentWithinOnePercent(sceneCase)
    }

    /// Framed-screen scene 4021 (the tuning set): a white mat inside a black bezel 10–14 px wide
    /// along two sides, 2–3 px along the others. The bezel's band changes by 13.5 grey levels
    /// across its width, the white mat's blur in its inner quarter — more than the 10 a band
    /// may change where sides stay (2.1 % off), within a tenth of its contrast with the mat (169).
    @Test("A dark bezel beside a white mat is a flat band: its change across within a tenth of its contrast")
    func darkBezelBesideMat() async throws {
        try await expectDocumentWithinOnePercent(
            GeometryTestScenes.Case(kind: .framedScreen, background: "messi5.jpg", seed: 4021))
    }

    /// The document request finds the scene's object with every corner within 1 % of its diagonal.
    func expectDocumentWithinOnePercent(_ sceneCase: GeometryTestScenes.Case) async throws {
        let scene = try GeometryTestScenes.make(sceneCase)
        let truth = try #require(scene.corners)
        let document = try #require(try await DetectDocumentSegmentationRequest().perform(on: scene.image).first)
        let error = GeometryTestScenes.cornerError(document.pixelCorners, truth)
        #expect(error <= 0.01 * GeometryTestScenes.diagonal(truth), "\(sceneCase.kind) on \(sceneCase.background): \(error) px")
    }

    @Test("Perspective correction makes the page upright, its size the page's; whitening makes paper white")
    func flatten() async throws {
        // A page of known text pasted at an angle: flattened, its top-left text block is where
        // the layout put it, and the paper is near white after whitening.
        let scene = try GeometryTestScenes.make(GeometryTestScenes.cases[4])
        let truth = try #require(scene.corners)
        let page = try scene.image.perspectiveCorrected(to: truth)
        let top = truth.topLeft.distance(to: truth.topRight), left = truth.topLeft.distance(to: truth.bottomLeft)
        #expect(abs(Double(page.width) - top) <= 1 || Double(page.width) >= top)
        #expect(Double(page.height) >= left - 1)
        let plain = try scene.image.perspectiveCorrected(to: truth, width: 420, height: 594)
        let white = try scene.image.perspectiveCorrected(to: truth, width: 420, height: 594, whitensPaper: true)
        #expect(white.width == 420 && white.height == 594 && white.format == .rgb8)
        func levels(_ image: PixelBuffer) -> (paper: UInt8, ink: UInt8) {
            let sorted = image.converted(to: .gray8).bytes.sorted()
            return (sorted[sorted.count / 2], sorted[sorted.count / 200])
        }
        let before = levels(plain), after = levels(white)
        #expect(after.paper >= 225, "paper should come out white: median \(after.paper), before \(before.paper)")
        // The ink keeps (at least) its contrast with the paper.
        #expect(
            Int(after.paper) - Int(after.ink) >= Int(before.paper) - Int(before.ink) - 5,
            "ink \(after.ink) on \(after.paper), before \(before.ink) on \(before.paper)")
        // Gray in, gray out; an absurd quad is an argument error, not a 100 GB allocation.
        #expect(try scene.image.converted(to: .gray8).perspectiveCorrected(to: truth).format == .gray8)
        let far = Quad(PixelRect(x: 0, y: 0, width: 1e7, height: 10))
        #expect {
            _ = try scene.image.perspectiveCorrected(to: far)
        } throws: { ($0 as? KameraError)?.code == .invalidArgument }
    }

    @Test("Flattened page reads: the text recognizer finds the page's words")
    func recognizable() async throws {
        let scene = try GeometryTestScenes.make(GeometryTestScenes.cases[4])
        let document = try #require(try await DetectDocumentSegmentationRequest().perform(on: scene.image).first)
        let page = try scene.image.perspectiveCorrected(to: document.pixelCorners, whitensPaper: true)
        let lines = try await RecognizeTextRequest().perform(on: page)
        let read = lines.compactMap { $0.topCandidates(1).first?.string }.joined(separator: " ").split(separator: " ")
        // The page holds 14 lines from the sample text: most of what is read must be its words.
        let known = Set(TextScene.sampleLines.flatMap { $0.split(separator: " ") })
        let correct = read.filter { known.contains($0) }
        #expect(correct.count >= 30, "read \(correct.count) known words of \(read.count): \(read.prefix(20))")
    }
}
