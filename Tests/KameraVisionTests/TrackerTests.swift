import Foundation
import KameraCore
import KameraTestTiers
import Testing

@testable import KameraVision

/// The state LiveScanner keeps between frames, on hand-made detections (no models).
@Suite(.tier(.unit)) struct TrackerTests {
    func face(x: Double, y: Double, side: Double = 80, score: Float = 0.9) -> FaceDetection {
        FaceDetection(box: PixelRect(x: x, y: y, width: side, height: side), keypoints: [], score: score)
    }

    @Test("Faces keep their IDs while they move, new faces get new IDs, unseen faces are lost in time")
    func faceIdentities() {
        var tracker = FaceTracker(lostAfter: 0.4)
        let (first, appeared) = tracker.update([face(x: 100, y: 100), face(x: 400, y: 100)], at: 0)
        #expect(first.map(\.0) == [1, 2] && appeared.map(\.type) == [.appeared, .appeared])
        // Both move 12 px a frame; listed in the other order, they keep their IDs.
        var time = 0.0
        for step in 1...5 {
            time = Double(step) / 30
            let (matched, events) = tracker.update(
                [face(x: 400 + 12 * Double(step), y: 100), face(x: 100 + 12 * Double(step), y: 100)], at: time)
            #expect(Set(matched.map { "\($0.0)@\(Int($0.1.box.x) < 300 ? "left" : "right")" }) == ["1@left", "2@right"] && events.isEmpty)
        }
        // The right face leaves; a third arrives: a new ID, never a reused one.
        let (third, arrivals) = tracker.update([face(x: 160, y: 100), face(x: 700, y: 400)], at: time + 1 / 30)
        #expect(third.map(\.0).sorted() == [1, 3] && arrivals.map(\.id) == ["3"])
        // Still unseen after 0.4 s: lost, exactly once.
        var lost: [ScanEvent] = []
        for k in 2...16 {
            lost += tracker.update([face(x: 160, y: 100), face(x: 700, y: 400)], at: time + Double(k) / 30).events
        }
        #expect(lost.map(\.id) == ["2"] && lost.first?.type == .lost)
        #expect(Set(tracker.finish(at: 2).map(\.id)) == ["1", "3"])
    }

    @Test("A face that doubles in size between frames is a different face")
    func sizeJump() {
        var tracker = FaceTracker(lostAfter: 0.4)
        _ = tracker.update([face(x: 100, y: 100, side: 60)], at: 0)
        let (matched, _) = tracker.update([face(x: 100, y: 100, side: 240)], at: 1 / 30)
        #expect(matched.map(\.0) == [2])
    }

    @Test("Codes: appeared, still, moved, lost after the hide time; duplicates in a frame count once")
    func codeStates() {
        func code(_ text: String, x: Double) -> BarcodeObservation {
            let corners = Quad(
                topLeft: PixelPoint(x: x, y: 10), topRight: PixelPoint(x: x + 50, y: 10),
                bottomRight: PixelPoint(x: x + 50, y: 60), bottomLeft: PixelPoint(x: x, y: 60))
            return BarcodeObservation(
                symbology: .qr, payloadString: text, payloadData: Data(text.utf8), pixelCorners: corners,
                imageSize: Size(width: 640, height: 480))
        }
        var tracker = BarcodeTracker(lostAfter: 0.2)
        let diagonal = 800.0
        let (a, events) = tracker.update([code("A", x: 10), code("A", x: 10), code("B", x: 200)], at: 0, frameDiagonal: diagonal)
        #expect(a.map(\.state) == [.appeared, .appeared] && events.count == 2)
        let (b, _) = tracker.update([code("A", x: 12), code("B", x: 260)], at: 0.05, frameDiagonal: diagonal)
        #expect(b.map(\.state) == [.still, .moved], "2 px is still, 60 px moved (1 % of the diagonal is 8 px)")
        _ = tracker.update([code("A", x: 12)], at: 0.1, frameDiagonal: diagonal)
        let (_, early) = tracker.update([code("A", x: 12)], at: 0.2, frameDiagonal: diagonal)
        #expect(early.isEmpty, "B unseen for 0.15 s is not lost yet")
        let (_, late) = tracker.update([code("A", x: 12)], at: 0.25, frameDiagonal: diagonal)
        #expect(late.map(\.id) == [BarcodeTracker.key(code("B", x: 0))] && late.first?.type == .lost)
    }
}
