import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// Redaction on real faces: covering, following through missed frames, leaving the rest alone.
@Suite struct RedactionTimelineTests {
    private func face(_ x: Double) -> RedactionSighting {
        RedactionSighting(kind: .face, detectorID: "1", shape: .ellipse(PixelRect(x: x, y: 100, width: 50, height: 50)))
    }

    @Test func coversBetweenBeforeAndAfterSightings() throws {
        var timeline = try RedactionTimeline(lead: 0.2, hold: 0.3)
        timeline.record([face(100)], at: 1.0)
        timeline.record([], at: 1.1)
        timeline.record([face(140)], at: 1.2)
        // Ahead of the first sighting by less than the lead; not earlier.
        #expect(timeline.regions(at: 0.85).map(\.source) == [.ahead])
        #expect(timeline.regions(at: 0.7).isEmpty)
        #expect(timeline.regions(at: 1.0).map(\.source) == [.detected])
        // The missed frame: half-way between the two sightings.
        let between = timeline.regions(at: 1.1)
        #expect(between.map(\.source) == [.interpolated])
        #expect(abs(between[0].shape.bounds.x - 120) < 1e-9)
        // Held after the last one: carried on at 200 px/s for 0.2 s and grown by half of those
        // 40 px on each side; then gone.
        let held = timeline.regions(at: 1.4)
        #expect(held.map(\.source) == [.held])
        #expect(abs(held[0].shape.bounds.width - 90) < 1e-6 && abs(held[0].shape.bounds.x - 160) < 1e-6, "\(held[0].shape.bounds)")
        #expect(timeline.regions(at: 1.55).isEmpty)
    }

    @Test func aFaceFoundAgainUnderANewIDKeepsItsTrack() throws {
        var timeline = try RedactionTimeline(lead: 0.5, hold: 0.5)
        timeline.record([face(100)], at: 0)
        let again = RedactionSighting(kind: .face, detectorID: "7", shape: .ellipse(PixelRect(x: 106, y: 100, width: 50, height: 50)))
        timeline.record([again], at: 0.3)
        let far = RedactionSighting(kind: .face, detectorID: "8", shape: .ellipse(PixelRect(x: 400, y: 100, width: 50, height: 50)))
        timeline.record([far], at: 0.3)
        #expect(timeline.trackCount == 2)
        // The gap is bridged on the continued track only.
        #expect(timeline.regions(at: 0.15).map(\.source).sorted { $0.rawValue < $1.rawValue } == [.ahead, .interpolated])
    }

    @Test func unidentifiedTextJoinsTheLineItOverlaps() throws {
        var timeline = try RedactionTimeline(lead: 0, hold: 1)
        let line = { (x: Double) in
            RedactionSighting(kind: .text, shape: .polygon(Quad(PixelRect(x: x, y: 10, width: 200, height: 30)).corners))
        }
        timeline.record([line(10), line(10 + 400)], at: 0)
        timeline.record([line(14), line(414)], at: 0.5)
        #expect(timeline.trackCount == 2)
        #expect(throws: KameraError.self) { try RedactionTimeline(lead: -1, hold: 0) }
    }

    @Test func followedPlacesAreCoveredAndKeepTheTrackGoing() throws {
        var timeline = try RedactionTimeline(lead: 0, hold: 0.2)
        let tracks = timeline.record([face(100), RedactionSighting(kind: .barcode, detectorID: "x", shape: face(300).shape)], at: 0)
        #expect(tracks == [1, 2])
        #expect(timeline.record([face(104)], at: 0.1) == [1])
        // Followed on, frame after frame, well past the hold: covered where it was followed.
        for (step, x) in [110.0, 116, 122, 128].enumerated() {
            timeline.recordFollowed(.ellipse(PixelRect(x: x, y: 100, width: 50, height: 50)), track: 1, at: 0.2 + 0.1 * Double(step))
        }
        let followed = timeline.regions(at: 0.5).filter { $0.trackID == 1 }
        #expect(followed.map(\.source) == [.followed] && followed[0].shape.bounds.x == 128)
        // The hold runs from the last followed place; a track not kept is not revived.
        #expect(timeline.regions(at: 0.65).map(\.source) == [.held])
        timeline.recordFollowed(.ellipse(PixelRect(x: 0, y: 0, width: 9, height: 9)), track: 99, at: 0.6)
        #expect(timeline.trackCount == 2)
    }

    @Test func aFollowerGoneAstrayDoesNotTakeAwayTheHoldOfItsDetections() throws {
        func followed(_ xs: [Double]) throws -> RedactionTimeline {
            var timeline = try RedactionTimeline(lead: 0, hold: 0.5)
            // Detected moving right at 200 px/s, then followed by its look.
            timeline.record([face(100)], at: 0)
            timeline.record([face(120)], at: 0.1)
            for (step, x) in xs.enumerated() {
                timeline.recordFollowed(.ellipse(PixelRect(x: x, y: 100, width: 50, height: 50)), track: 1, at: 0.2 + 0.1 * Double(step))
            }
            return timeline
        }
        // Followed backwards onto the background: covered there and where the detections' path
        // puts it, 200 px/s on for 0.2 s and grown by half of those 40 px on each side.
        let astray = try followed([60, 20])
        let regions = astray.regions(at: 0.3)
        #expect(regions.map(\.source) == [.followed, .held])
        #expect(regions.allSatisfy { $0.trackID == 1 })
        #expect(abs(regions[1].shape.bounds.x - 140) < 1e-6 && abs(regions[1].shape.bounds.width - 90) < 1e-6, "\(regions[1].shape.bounds)")
        // The detections' hold ends 0.5 s after the last one; the follower's own goes on.
        #expect(astray.regions(at: 0.65).map(\.source) == [.held])
        // A follower that keeps to the path adds nothing to it.
        #expect(try followed([140, 160]).regions(at: 0.3).map(\.source) == [.followed])
    }

    @Test func aFaceLeavingTheFrameKeepsTheSizeItHadInside() throws {
        let frame = PixelRect(x: 0, y: 0, width: 640, height: 360)
        func face(x: Double, y: Double, side: Double) -> RedactionSighting {
            RedactionSighting(kind: .face, detectorID: "1", shape: .ellipse(PixelRect(x: x, y: y, width: side, height: side)))
        }
        var leaving = try RedactionTimeline(lead: 0, hold: 0.5)
        leaving.record([face(x: 560, y: 100, side: 60)], at: 0, frame: frame)
        // At the right edge the detector sees the part in view: a smaller box, lower down. The
        // outline keeps the size it had inside, its left side where the detection's is, centred
        // on it vertically.
        leaving.record([face(x: 600, y: 110, side: 44)], at: 0.1, frame: frame)
        #expect(leaving.regions(at: 0.1).map(\.shape.bounds) == [PixelRect(x: 600, y: 102, width: 60, height: 60)])
        // A face standing at the edge from the start keeps its own size, as does any face when
        // the frame is not given.
        var standing = try RedactionTimeline(lead: 0, hold: 0.5)
        standing.record([face(x: 600, y: 110, side: 44)], at: 0, frame: frame)
        standing.record([face(x: 602, y: 110, side: 40)], at: 0.1, frame: frame)
        #expect(standing.regions(at: 0.1).map(\.shape.bounds.width) == [40])
        var unknown = try RedactionTimeline(lead: 0, hold: 0.5)
        unknown.record([face(x: 560, y: 100, side: 60)], at: 0)
        unknown.record([face(x: 600, y: 110, side: 44)], at: 0.1)
        #expect(unknown.regions(at: 0.1).map(\.shape.bounds.width) == [44])
    }
}

@Suite(.tier(.models)) struct RedactionTests {
    /// A face 120 px wide crossing a 640×360 street from outside the left edge to outside the
    /// right one in 2 s, and where it is on each frame.
    private func crossing() throws -> [(frame: PixelBuffer, face: PixelRect)] {
        let head = try FaceScene.astronautHead()
        return try (0..<60).map { i in
            var scene = try FaceScene(background: "building.jpg", width: 640, height: 360)
            let x = -60 + 760 * Double(i) / 59
            scene.place(head, faceCenter: PixelPoint(x: x, y: 170), faceSide: 120, degrees: 0)
            return (scene.image, PixelRect(x: x - 60, y: 110, width: 120, height: 120))
        }
    }

    /// Mean absolute change over the part of `box` inside the frame.
    private func change(_ a: PixelBuffer, _ b: PixelBuffer, in box: PixelRect) -> Double {
        let x0 = max(0, Int(box.minX)), x1 = min(a.width, Int(box.maxX)), y0 = max(0, Int(box.minY)), y1 = min(a.height, Int(box.maxY))
        guard x1 > x0, y1 > y0 else { return 0 }
        var sum = 0
        for y in y0..<y1 {
            for x in x0..<x1 {
                for c in 0..<3 { sum += abs(Int(a.bytes[y * a.bytesPerRow + x * 3 + c]) - Int(b.bytes[y * b.bytesPerRow + x * 3 + c])) }
            }
        }
        return Double(sum) / Double((x1 - x0) * (y1 - y0) * 3)
    }

    @Test func aFaceEnteringAndLeavingIsCoveredOnEveryFrameItShows() throws {
        let movie = try crossing()
        let redactor = try StreamRedactor(configuration: Redactor.Configuration())
        var out: [RedactedFrame] = []
        for (i, entry) in movie.enumerated() { out += try redactor.push(entry.frame, at: Double(i) / 30) }
        out += redactor.finish()
        #expect(out.map(\.index) == Array(0..<60))
        var sources = Set<RedactionRegion.Source>()
        for (entry, redacted) in zip(movie, out) {
            sources.formUnion(redacted.regions.map(\.source))
            let visible = (entry.face.intersection(PixelRect(x: 0, y: 0, width: 640, height: 360))?.area ?? 0) / entry.face.area
            guard visible >= 0.25 else { continue }
            // Covered: the face's pixels changed a lot (a blur of a face, not encoder noise).
            let changed = change(entry.frame, redacted.pixelBuffer, in: entry.face)
            #expect(changed > 12, "frame \(redacted.index): face \(Int(visible * 100)) % visible, change \(changed)")
        }
        // The edges were reached by following, not only by detection.
        #expect(sources.contains(.detected) && (sources.contains(.ahead) || sources.contains(.held)), "\(sources)")
        #expect(redactor.trackCount == 1)
        // The far side of the street (no face there on frame 10) is untouched.
        #expect(change(movie[10].frame, out[10].pixelBuffer, in: PixelRect(x: 420, y: 0, width: 220, height: 360)) == 0)
    }

    /// A face that turns away (narrowing to 30 % of its width, past what the detector finds)
    /// while it walks right, with its lower half behind a passing object for half a second,
    /// at 640×360 and 30 fps for 2.5 s; and where it is on each frame.
    private func turningAway() throws -> [(frame: PixelBuffer, face: PixelRect)] {
        let head = try FaceScene.astronautHead()
        let background = try SampleMedia.photo("building.jpg").pixelBuffer
        let cover = try SampleMedia.photo("fruits.jpg").pixelBuffer.converted(to: .rgb8)
            .cropped(to: PixelRect(x: 100, y: 100, width: 200, height: 120))
        return (0..<75).map { i in
            var composer = SceneComposer(background: background, width: 640, height: 360)
            let narrowing = i < 12 ? 1 : max(0.3, 1 - Double(i - 12) * 0.07)
            let center = PixelPoint(x: 200 + 3 * Double(i), y: 180), side = 110.0
            let scale = side / head.face.width
            func place(_ p: PixelPoint) -> PixelPoint {
                PixelPoint(
                    x: center.x + (p.x - head.face.center.x) * scale * narrowing, y: center.y + (p.y - head.face.center.y) * scale)
            }
            let (w, h) = (Double(head.image.width), Double(head.image.height))
            composer.paste(
                head.image,
                onto: Quad(
                    topLeft: place(PixelPoint(x: 0, y: 0)), topRight: place(PixelPoint(x: w, y: 0)),
                    bottomRight: place(PixelPoint(x: w, y: h)), bottomLeft: place(PixelPoint(x: 0, y: h))))
            let face = PixelRect(x: center.x - side * narrowing / 2, y: center.y - side / 2, width: side * narrowing, height: side)
            if (35..<50).contains(i) {
                composer.paste(
                    cover, onto: Quad(PixelRect(x: face.x - 15, y: face.y + 0.45 * side, width: face.width + 30, height: 0.7 * side)))
            }
            return (composer.canvas, face)
        }
    }

    @Test func aFaceTurnedAwayAndHalfHiddenStaysCoveredByFollowingItsLook() throws {
        let movie = try turningAway()
        func redacted(follow: Double) throws -> [RedactedFrame] {
            let redactor = try StreamRedactor(configuration: Redactor.Configuration(follow: follow, hold: 0.3))
            var out: [RedactedFrame] = []
            for (i, entry) in movie.enumerated() { out += try redactor.push(entry.frame, at: Double(i) / 30) }
            return out + redactor.finish()
        }
        // The top 40 % of the face (eyes and brow) shows on every frame.
        func uncovered(_ out: [RedactedFrame]) -> [Int] {
            zip(movie, out).filter { entry, frame in
                let top = PixelRect(x: entry.face.x, y: entry.face.y, width: entry.face.width, height: 0.4 * entry.face.height)
                return change(entry.frame, frame.pixelBuffer, in: top) <= 12
            }.map { $0.1.index }
        }
        // The detector alone loses the turned face: held for 0.3 s, then it shows.
        let detectorOnly = try redacted(follow: 0)
        #expect(uncovered(detectorOnly).count >= 5, "\(uncovered(detectorOnly))")
        // Followed by its look, it is covered on every frame, behind the cover too, and the
        // cover stays on the face (centre within a third of its height of the truth).
        let followed = try redacted(follow: 4)
        #expect(uncovered(followed).isEmpty, "\(uncovered(followed))")
        let followedFrames = followed.filter { $0.regions.contains { $0.source == .followed } }
        #expect(followedFrames.count > 20)
        for frame in followed {
            guard let region = frame.regions.first(where: { $0.source == .followed }) else { continue }
            let truth = movie[frame.index].face
            #expect(region.shape.bounds.center.distance(to: truth.center) < truth.height / 3, "frame \(frame.index)")
        }
    }

    /// The cameraman's face (100 px) walking behind the astronaut's (130 px, standing still)
    /// from outside the left edge to outside the right one in 2.5 s, at 640×360 and 30 fps;
    /// each frame with the cameraman's face box and the astronaut's whole head cut (in front).
    private func passingBehind() throws -> [(frame: PixelBuffer, face: PixelRect, front: PixelRect)] {
        let (walker, stander) = (try FaceScene.cameramanHead(), try FaceScene.astronautHead())
        return try (0..<75).map { i in
            var scene = try FaceScene(background: "building.jpg", width: 640, height: 360)
            let x = -50 + 750 * Double(i) / 74
            scene.place(walker, faceCenter: PixelPoint(x: x, y: 165), faceSide: 100, degrees: 0)
            scene.place(stander, faceCenter: PixelPoint(x: 330, y: 190), faceSide: 130, degrees: 0)
            let cut = [PixelPoint(x: 0, y: 0), PixelPoint(x: Double(stander.image.width), y: Double(stander.image.height))]
                .map { scene.faces[1].transform.apply($0) }
            return (scene.image, PixelRect(x: x - 50, y: 115, width: 100, height: 100), PixelRect(enclosing: cut))
        }
    }

    @Test func aFacePassingBehindAnotherIsCoveredWhereverItShows() throws {
        let movie = try passingBehind()
        // No lead (a live camera's): he must be followed out from behind her, not found again
        // and covered back in time.
        let redactor = try StreamRedactor(configuration: Redactor.Configuration(lead: 0))
        var out: [RedactedFrame] = []
        for (i, entry) in movie.enumerated() { out += try redactor.push(entry.frame, at: Double(i) / 30) }
        out += redactor.finish()
        #expect(out.count == movie.count)
        // Without a lead nothing can be covered before the detector first finds him (entering
        // at the left edge); from then on he must be.
        var uncovered: [Int] = [], checked = 0, seen = false, beforeFirstCover = 0
        for (entry, redacted) in zip(movie, out) {
            // The part of the walker's face in the frame and not behind the astronaut's head,
            // in columns (his face passes behind hers sideways); a quarter of it at least.
            let inFrame =
                entry.face.intersection(PixelRect(x: 0, y: 0, width: 640, height: 360)) ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
            let parts = [
                PixelRect(
                    x: inFrame.minX, y: inFrame.minY, width: max(0, min(inFrame.maxX, entry.front.minX) - inFrame.minX),
                    height: inFrame.height),
                PixelRect(
                    x: max(inFrame.minX, entry.front.maxX), y: inFrame.minY,
                    width: max(0, inFrame.maxX - max(inFrame.minX, entry.front.maxX)), height: inFrame.height),
            ].filter { $0.width >= 1 }
            let shown = parts.map(\.area).reduce(0, +)
            guard shown >= 0.25 * entry.face.area else { continue }
            checked += 1
            let changed = parts.map { change(entry.frame, redacted.pixelBuffer, in: $0) * $0.area }.reduce(0, +) / shown
            if changed > 12 { seen = true } else if seen { uncovered.append(redacted.index) } else { beforeFirstCover += 1 }
        }
        // He shows on both sides of her, is found within two-thirds of a second of coming in,
        // and is covered on every frame he shows from then on.
        #expect(checked > 40)
        #expect(seen && beforeFirstCover <= 20, "covered from the \(beforeFirstCover + 1)th frame he shows")
        #expect(uncovered.isEmpty, "uncovered on frames \(uncovered)")
        // Followed behind her and out again, he keeps one track.
        #expect(redactor.trackCount == 2)
    }

    @Test func framesScannedByTheCallersOwnScannerAreCoveredAtOnce() throws {
        let movie = Array(try crossing()[20..<30])
        let scanner = try LiveScanner()
        let redactor = try StreamRedactor(scannedElsewhere: Redactor.Configuration(lead: 0))
        for (i, entry) in movie.enumerated() {
            let time = Double(i) / 30
            let out = try redactor.push(entry.frame, scan: try scanner.scan(entry.frame, at: time), at: time)
            // No lead: each frame comes back as it is pushed, its face covered.
            #expect(out.count == 1 && out.first?.index == i)
            if let covered = out.first { #expect(change(entry.frame, covered.pixelBuffer, in: entry.face) > 12, "frame \(i)") }
        }
        #expect(throws: KameraError.self) { try redactor.push(movie[0].frame, scan: try scanner.scan(movie[0].frame, at: 1), at: 0.1) }
        #expect(throws: KameraError.self) { try redactor.push(movie[0].frame, at: 2) }
    }

    @Test func photosCoverEachFaceAndNothingElse() throws {
        let photo = try SampleMedia.photo("messi5.jpg")
        for style in RedactionStyle.allCases {
            let redacted = try Redactor(configuration: Redactor.Configuration(style: style)).redact(photo)
            #expect(redacted.regions.count == 1 && redacted.regions[0].kind == .face, "\(redacted.regions)")
            let face = redacted.regions[0].shape.bounds
            let rgb = photo.pixelBuffer.converted(to: .rgb8)
            #expect(change(rgb, redacted.pixelBuffer, in: face.expanded(dx: -face.width / 4, dy: -face.height / 4)) > 10)
            // Everything outside the face's box is exactly as it was.
            var outside = redacted.pixelBuffer
            var original = rgb
            for y in Int(face.minY)..<Int(face.maxY.rounded(.up)) where y >= 0 && y < rgb.height {
                for x in Int(face.minX)..<Int(face.maxX.rounded(.up)) where x >= 0 && x < rgb.width {
                    for c in 0..<3 {
                        (outside.bytes[y * outside.bytesPerRow + x * 3 + c], original.bytes[y * original.bytesPerRow + x * 3 + c]) = (0, 0)
                    }
                }
            }
            #expect(outside.bytes == original.bytes)
            if style == .fill {
                let centre = face.center
                #expect(redacted.pixelBuffer.bytes[Int(centre.y) * rgb.bytesPerRow + Int(centre.x) * 3] == 0)
            }
        }
    }

    @Test func turnedVideosAreAnalysedUprightAndCoveredAsStored() throws {
        // The street turned a quarter anticlockwise as stored, with a display rotation of 90°:
        // the face lies on its side in the stored frames, upright on screen.
        let upright = try crossing()[30]
        let stored = upright.frame.rotated(byQuarterTurns: 3)
        let redactor = try StreamRedactor(configuration: Redactor.Configuration(lead: 0), rotation: 90)
        var out: [RedactedFrame] = []
        for i in 0..<3 { out += try redactor.push(stored, at: Double(i) / 30) }
        out += redactor.finish()
        #expect(out.count == 3 && out[2].pixelBuffer.width == stored.width && out[2].pixelBuffer.height == stored.height)
        // The face's box, turned the same way as the frame.
        let face = upright.face
        let storedFace = PixelRect(x: face.minY, y: 640 - face.maxX, width: face.height, height: face.width)
        #expect(change(stored, out[2].pixelBuffer, in: storedFace) > 12)
        #expect(out[2].regions.count == 1)
    }

    @Test func peopleAreCoveredByTheirPoseAndTheMask() throws {
        let photo = try SampleMedia.photo("basketball1.png")
        let redacted = try Redactor(configuration: Redactor.Configuration(kinds: [.person], style: .fill)).redact(photo)
        #expect(redacted.regions.contains { $0.kind == .person })
        #expect(redacted.personBounds != nil)
        // The player on the left (his head near x 80, y 110) is black.
        let rgb = redacted.pixelBuffer
        #expect(rgb.bytes[110 * rgb.bytesPerRow + 80 * 3] == 0)
    }

    @Test func settingsOutOfRangeAreRefusedByName() {
        for (configuration, name) in [
            (Redactor.Configuration(kinds: []), "nothing to redact"), (Redactor.Configuration(padding: .nan), "padding"),
            (Redactor.Configuration(minimumFaceConfidence: 2), "minConfidence"), (Redactor.Configuration(hold: .infinity), "hold"),
            (Redactor.Configuration(follow: 61), "follow"),
            (Redactor.Configuration(lead: -1), "lead"),
        ] {
            let error = #expect(throws: KameraError.self) { try Redactor(configuration: configuration) }
            #expect(error?.code == .invalidArgument && error?.reason.contains(name) == true, "\(String(describing: error))")
        }
    }
}
