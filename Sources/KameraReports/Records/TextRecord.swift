import Kamera

/// A line of text (``TextObservation`` or ``RecognizedTextObservation``) as JSON
/// (`kamera detect --text`), keys in declaration order, with its words and, when recognized
/// per character, character boxes.
package struct TextRecord: Codable, Sendable, Equatable {
    package struct Character: Codable, Sendable, Equatable {
        package var character: String
        package var boundingBox: RecordBox
        package var pixelBox: RecordBox
    }

    package struct Word: Codable, Sendable, Equatable {
        package var string: String
        package var confidence: Double
        package var boundingBox: RecordBox
        package var pixelBox: RecordBox
        package var characterBoxes: [Character]?
    }

    package var boundingBox: RecordBox
    package var pixelBox: RecordBox
    package var string: String
    package var confidence: Double
    package var characterBoxes: [Character]?
    package var words: [Word]

    package init(_ line: TextObservation) {
        func characters(_ o: TextObservation) -> [Character]? {
            o.characterBoxes?.map {
                Character(character: $0.character, boundingBox: RecordBox($0.boundingBox), pixelBox: RecordBox($0.pixelBox))
            }
        }
        boundingBox = RecordBox(line.boundingBox)
        pixelBox = RecordBox(line.pixelBox)
        string = line.string
        confidence = RecordRounding.score(Double(line.confidence))
        characterBoxes = characters(line)
        words = line.words.map {
            Word(
                string: $0.string, confidence: RecordRounding.score(Double($0.confidence)), boundingBox: RecordBox($0.boundingBox),
                pixelBox: RecordBox($0.pixelBox), characterBoxes: characters($0))
        }
    }

    package init(_ line: RecognizedTextObservation) {
        self.init(line.textObservation)
    }
}
