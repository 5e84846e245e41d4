import Foundation
import Kamera

/// The JSON line `kamera scan` writes per frame: time, frame index, the tracked faces and
/// codes (each record with its identity first), and the events decided at this frame.
package struct ScanRecord: Encodable {
    /// The tracker's identity of a face, before the face record's fields.
    package struct FaceIdentity: Encodable {
        package var faceID: Int
        package var detected: Bool
    }

    /// A rectangle's identity, before the rectangle record's fields.
    package struct RectangleIdentity: Encodable {
        package var rectangleID: Int
        package var detected: Bool
    }

    /// A body's identity, before the body pose record's fields.
    package struct BodyIdentity: Encodable {
        package var bodyID: Int
        package var detected: Bool
    }

    /// A hand's identity, before the hand pose record's fields.
    package struct HandIdentity: Encodable {
        package var handID: Int
        package var detected: Bool
    }

    /// A code's key and state, before the code record's fields.
    package struct CodeIdentity: Encodable {
        package var key: String
        package var state: String
    }

    package struct EventRecord: Encodable {
        package var type: String
        package var kind: String
        package var id: String

        package init(_ event: ScanEvent) {
            (type, kind, id) = (event.type.rawValue, event.kind.rawValue, event.id)
        }
    }

    /// The last line: everything still in view is reported lost.
    package struct EndRecord: Encodable {
        package var t: Double
        package var end = true
        package var events: [EventRecord]
    }

    package var t: Double
    package var frame: Int
    package var faces: [FlattenedRecord<FaceIdentity, FaceRecord>]
    package var barcodes: [FlattenedRecord<CodeIdentity, BarcodeRecord>]
    package var rectangles: [FlattenedRecord<RectangleIdentity, RectangleRecord>]?
    /// Body poses followed, when bodies are asked for.
    package var bodies: [FlattenedRecord<BodyIdentity, BodyPoseRecord>]?
    /// Hands followed, when hands are asked for.
    package var hands: [FlattenedRecord<HandIdentity, HandPoseRecord>]?
    /// The person mask's figures, when a mask (or a background) is asked for.
    package var personMask: PersonMaskRecord?
    package var events: [EventRecord]
    /// Text lines of the newest finished text detection, when text is asked for.
    package var text: [TextRecord]?
    /// Stream time of the frame that text was found on (text is found at its own pace, seconds
    /// behind the faces and codes).
    package var textTime: Double?

    /// - Parameters:
    ///   - includesRectangles, includesBodies, includesHands: whether the record lists them
    ///     (as empty lists when none are in view) rather than leaving the key out.
    ///   - maskQuality: the quality the mask was asked at, reported with it.
    package init(
        _ scan: FrameScan, includesRectangles: Bool, includesBodies: Bool = false, includesHands: Bool = false,
        maskQuality: GeneratePersonSegmentationRequest.QualityLevel = .fast
    ) {
        t = RecordRounding.seconds(scan.time)
        frame = scan.frameIndex
        faces = scan.faces.map {
            FlattenedRecord(head: FaceIdentity(faceID: $0.faceID, detected: $0.isDetected), body: FaceRecord($0.observation))
        }
        barcodes = scan.barcodes.map {
            FlattenedRecord(head: CodeIdentity(key: $0.key, state: $0.state.rawValue), body: BarcodeRecord($0.observation))
        }
        rectangles =
            includesRectangles
            ? scan.rectangles.map {
                FlattenedRecord(
                    head: RectangleIdentity(rectangleID: $0.rectangleID, detected: $0.isDetected), body: RectangleRecord($0.observation))
            } : nil
        bodies =
            includesBodies
            ? scan.bodies.map {
                FlattenedRecord(head: BodyIdentity(bodyID: $0.bodyID, detected: $0.isDetected), body: BodyPoseRecord($0.observation))
            }
            : nil
        hands =
            includesHands
            ? scan.hands.map {
                FlattenedRecord(head: HandIdentity(handID: $0.handID, detected: $0.isDetected), body: HandPoseRecord($0.observation))
            }
            : nil
        personMask = scan.personMask.map { PersonMaskRecord($0, quality: maskQuality) }
        events = scan.events.map(EventRecord.init)
        text = scan.text.map { $0.lines.map(TextRecord.init) }
        textTime = scan.text.map { RecordRounding.seconds($0.frameTime) }
    }

    /// The record of `scan` with what `options` asked for.
    package init(_ scan: FrameScan, options: AnalysisOptions) {
        self.init(
            scan, includesRectangles: options.detectsRectangles, includesBodies: options.bodies == true,
            includesHands: options.hands == true,
            maskQuality: options.personMask ?? .fast)
    }

    package static func line(_ scan: FrameScan, options: AnalysisOptions) throws -> String {
        try JSONValueEncoder.encode(ScanRecord(scan, options: options)).compact()
    }

    package static func endLine(_ events: [ScanEvent]) throws -> String {
        try JSONValueEncoder.encode(EndRecord(t: RecordRounding.seconds(events.first?.time ?? 0), events: events.map(EventRecord.init)))
            .compact()
    }
}
