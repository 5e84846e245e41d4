import Foundation
import Kamera
import KameraReports
import KameraTestTiers
import Testing

@testable import KameraCLI

/// `AnalysisOptions`: one type read from flags, query parameters and JSON, with one set of
/// defaults and one validation.
@Suite(.tier(.unit)) struct AnalysisOptionsTests {
    private func query(_ text: String) throws -> AnalysisOptions {
        let items = text.split(separator: "&").map { pair -> (key: String, value: String) in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        return try AnalysisOptions.decoding(query: items)
    }

    private func reason(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as KameraError {
            #expect(error.code == .invalidArgument)
            return error.reason
        } catch {
            Issue.record("not a KameraError: \(error)")
            return nil
        }
    }

    @Test func nothingNamedMeansTheMediumsDefault() throws {
        let none = AnalysisOptions()
        let still = try none.imageAnalysis()
        #expect(still.barcodes != nil && still.faces == nil && still.text == nil && still.rectangles == nil)
        #expect(still.barcodes?.effort == .balanced)
        let live = try none.liveConfiguration(frameBudget: nil)
        #expect(live.faceDetection != nil && live.barcodes != nil && live.text == nil && live.rectangles == nil)
        #expect(live.barcodes?.effort == .fast && live.faceDetection?.scansTiles == false)
        // Named false is not "not named": the page unticking everything gets nothing.
        let off = try AnalysisOptions.decoding(json: #"{"faces":false,"barcodes":false}"#)
        let nothing = try off.liveConfiguration(frameBudget: nil)
        #expect(nothing.faceDetection == nil && nothing.barcodes == nil)
    }

    @Test func queryAndJSONGiveTheSameOptions() throws {
        let fromQuery = try query("faces&landmarks=true&faceMode=fast&minConfidence=0.7&maxFaces=3&symbologies=qr,ean13&effort=thorough")
        let fromJSON = try AnalysisOptions.decoding(
            json:
                #"{"faces":true,"landmarks":true,"faceMode":"fast","minConfidence":0.7,"maxFaces":3,"symbologies":["qr","ean13"],"effort":"thorough"}"#
        )
        #expect(fromQuery == fromJSON)
        #expect(fromQuery.symbologies == [.qr, .ean13])
        let analysis = try fromQuery.imageAnalysis()
        #expect(analysis.faces?.detection.maximumFaces == 3 && analysis.faces?.detection.minimumConfidence == 0.7)
        #expect(analysis.faces?.fastLandmarks == true && analysis.faces?.detection.scansTiles == false)
        // Faces were named, codes not: no codes.
        #expect(analysis.barcodes == nil)
        // The encoding reads back as the same options.
        let encoded = String(decoding: try JSONEncoder().encode(fromQuery), as: UTF8.self)
        #expect(try AnalysisOptions.decoding(json: encoded) == fromQuery)
    }

    @Test func maxCodesReachesTheRequestsOfBothMedia() throws {
        let options = try query("maxCodes=2")
        #expect(options == (try AnalysisOptions.decoding(json: #"{"maxCodes":2}"#)))
        #expect(try options.imageAnalysis().barcodes?.maximumCount == 2)
        #expect(try options.liveConfiguration(frameBudget: nil).barcodes?.maximumCount == 2)
        #expect(reason { try query("maxCodes=-1").imageAnalysis() }?.contains("maxCodes must be") == true)
    }

    @Test func peopleOptionsReachBothMediaAndNameADetector() throws {
        let options = try query("personMask=fast")
        #expect(options == (try AnalysisOptions.decoding(json: #"{"personMask":"fast"}"#)))
        let analysis = try options.imageAnalysis()
        #expect(analysis.personMask?.qualityLevel == .fast && analysis.needsColour)
        // Named alone, it is the only thing that runs: no codes by default.
        #expect(analysis.barcodes == nil && analysis.faces == nil)
        // On a stream: the mask at the model's size, nothing else.
        let live = try options.liveConfiguration(frameBudget: nil)
        #expect(live.personSegmentation?.maskSize == .model && live.barcodes == nil && live.faceDetection == nil)
        #expect(reason { try query("personMask=best").imageAnalysis() }?.contains("personMask") == true)
        let bodies = try query("bodies")
        #expect(try bodies.imageAnalysis().bodies != nil && (try bodies.imageAnalysis().barcodes) == nil)
        #expect(try bodies.liveConfiguration(frameBudget: nil).bodies?.maximumPeople == 4)
        let hands = try query("hands")
        #expect(try hands.imageAnalysis().hands?.maximumHandCount == 8 && (try hands.imageAnalysis().needsColour))
        #expect(try hands.liveConfiguration(frameBudget: nil).hands?.maximumHandCount == 4)
    }

    @Test func backgroundIsForStreamsAndBringsTheMask() throws {
        let blur = try query("background=blur&blurRadius=12")
        #expect(blur == (try AnalysisOptions.decoding(json: #"{"background":"blur","blurRadius":12}"#)))
        let live = try blur.liveConfiguration(frameBudget: nil)
        #expect(live.personSegmentation?.qualityLevel == .fast && live.barcodes == nil && live.faceDetection == nil)
        #expect(try blur.backgroundEffect(width: 640, height: 480) == .blur(radius: 12))
        // The default radius follows the frame: 4 % of its shorter side.
        #expect(try query("background=blur").backgroundEffect(width: 640, height: 480) == .blur(radius: 19.2))
        #expect(try query("background=color").backgroundEffect(width: 640, height: 480) == .color(red: 0, green: 0xb1, blue: 0x40))
        let white = try AnalysisOptions.decoding(json: ##"{"background":"color","backgroundColor":"#FFFFFF"}"##)
        #expect(try white.backgroundEffect(width: 8, height: 8) == .color(red: 255, green: 255, blue: 255))
        // Photos refuse it by name; bad values are typed errors naming the option.
        #expect(reason { try blur.imageAnalysis() }?.contains("background") == true)
        #expect(reason { try query("background=sepia") }?.contains("background") == true)
        #expect(
            reason { try query("background=blur&blurRadius=1e300").liveConfiguration(frameBudget: nil) }?.contains("blurRadius") == true)
        #expect(reason { try query("background=blur&blurRadius=nan").liveConfiguration(frameBudget: nil) } != nil)
        for color in ["#12345", "#1234567", "red", "#GGGGGG", "#-12345", "#+12345"] {
            #expect(
                reason { try AnalysisOptions.decoding(json: #"{"background":"color","backgroundColor":"\#(color)"}"#).validate() }?
                    .contains("backgroundColor") == true, "\(color)")
        }
    }

    @Test func textEngineReachesPhotosAndStreams() throws {
        let scene = try query("recognize&textEngine=scene")
        #expect(scene == (try AnalysisOptions.decoding(json: #"{"recognize":true,"textEngine":"scene"}"#)))
        #expect(try scene.imageAnalysis().text?.engine == .scene)
        #expect(try query("text").imageAnalysis().text?.engine == .automatic)
        #expect(try query("text&textEngine=scene").liveConfiguration(frameBudget: nil).text?.engine == .scene)
        #expect(try query("text").liveConfiguration(frameBudget: nil).text?.engine == .automatic)
        #expect(try query("text&textEngine=tesseract").liveConfiguration(frameBudget: nil).text?.engine == .tesseract)
        #expect(reason { try query("recognize&textEngine=easyocr") }?.contains("textEngine") == true)
    }

    @Test func aSingleKeyIsEnough() throws {
        // Every other key takes its default (a message once needed every key).
        #expect(try AnalysisOptions.decoding(json: #"{"faces":true}"#).faces == true)
        #expect(try AnalysisOptions.decoding(json: "{}") == AnalysisOptions())
    }

    @Test func hostileValuesAreTypedErrorsNotTraps() throws {
        let cases: [(String, String)] = [
            ("maxFaces=1e13", "maxFaces"),
            ("maxFaces=99999999999999999999999", "maxFaces"),
            ("maxRectangles=-1", "maxRectangles must be"),
            ("minConfidence=nan", "minConfidence must be"),
            ("minConfidence=2", "minConfidence must be"),
            ("minFaceSize=inf", "minFaceSize must be"),
            ("minFaceSize=1e300", "minFaceSize must be"),
            ("faces=maybe", "true or false"),
            ("effort=max", "effort"),
            ("faceMode=round", "faceMode"),
            ("symbologies=qr,nonsense", "unknown symbology 'nonsense'"),
            ("languages=../../etc/passwd", "is not a Tesseract code"),
            ("regionOfInterest=0,0,2,1", "regionOfInterest must be"),
            ("regionOfInterest=0,0,1", "four numbers"),
            ("bogus", "unknown option 'bogus'"),
            ("faces&faces=false", "more than once"),
        ]
        for (text, expected) in cases {
            let message = reason { try query(text).imageAnalysis() }
            #expect(message?.contains(expected) == true, "\(text): \(message ?? "accepted")")
        }
        let json: [(String, String)] = [
            (#"{"maxFaces":1e13}"#, "maxFaces"),
            (#"{"faces":"yes"}"#, "faces"),
            (#"{"codes":true}"#, "unknown option 'codes'"),
            ("{not json", "not valid JSON"),
        ]
        for (text, expected) in json {
            let message = reason { try AnalysisOptions.decoding(json: text).imageAnalysis() }
            #expect(message?.contains(expected) == true, "\(text): \(message ?? "accepted")")
        }
        // A region is for single images; a stream is tracked in whole frames.
        #expect(reason { try query("regionOfInterest=0,0,0.5,0.5").liveConfiguration(frameBudget: nil) }?.contains("crop") == true)
    }

    @Test func theCLINamesItsFlags() throws {
        #expect(AnalysisArguments.namingFlags("minConfidence must be between 0 and 1") == "--min-confidence must be between 0 and 1")
        #expect(AnalysisArguments.namingFlags("maxRectangles must be 0") == "--max-rectangles must be 0")
        #expect(AnalysisArguments.namingFlags("language 'x' is not") == "language 'x' is not")
        let arguments = try AnalysisArguments.parse([
            "--faces", "--max-faces", "2", "--max", "3", "--rectangles", "--region-of-interest", "0,0,0.5,0.5",
        ])
        let options = try arguments.options()
        #expect(options.faces == true && options.maxFaces == 2 && options.maxRectangles == 3 && options.barcodes == nil)
        #expect(options.regionOfInterest == NormalizedRect(x: 0, y: 0, width: 0.5, height: 0.5))
    }
}
