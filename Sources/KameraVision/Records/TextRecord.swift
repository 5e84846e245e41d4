import KameraCore

/// A line of text (``TextObservation`` or ``RecognizedTextObservation``) as JSON
/// (`kamera detect --text`), keys in declaration order, with its words and, when recognized
/// per character, character boxes.
public struct TextRecord: Codable, Sendable, Equatable {
    public struct Character: Codable, Sendable, Equatable {
        public var character: String
        public var boundingBox: RecordBox
        public var pixelBox: RecordBox
    }

    public struct Word: Codable, Sendable, Equatable {
        public var string: String
        public var confidence: Double
        public var boundingBox: RecordBox
        public var pixelBox: RecordBox
        public var characterBoxes: [Character]?
    }

    public var boundingBox: RecordBox
    public var pixelBox: RecordBox
    public var string: String
    public var confidence: Double
    public var characterBoxes: [Character]?
    public var words: [Word]

    public init(_ line: TextObservation) {
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

    public init(_ line: RecognizedTextObservation) {
        self.init(line.textObservation)
    }
}
