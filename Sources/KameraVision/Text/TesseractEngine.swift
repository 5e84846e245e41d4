import CTesseract
import Foundation
import KameraCore

/// Words and characters as Tesseract reports them, in the coordinates of the image it saw.
struct TesseractPage {
    struct Symbol {
        var text: String
        var box: PixelRect
        var confidence: Float
        /// The box's corners; no longer axis-aligned once mapped back through a deskew.
        var quad: Quad
    }

    struct Word {
        var text: String
        var box: PixelRect
        var confidence: Float
        var symbols: [Symbol]
        var quad: Quad
    }

    struct Line {
        var text: String
        var box: PixelRect
        var confidence: Float
        var words: [Word]
        var quad: Quad
    }

    var lines: [Line]
}

/// One initialised Tesseract instance (loading a language model takes ~100 ms, so engines
/// are kept in `TesseractEnginePool` and reused). Not thread-safe: one caller at a time.
final class TesseractEngine {
    let key: Key
    private let handle: OpaquePointer
    private let api: TesseractLibrary

    /// What an engine was initialised with.
    struct Key: Hashable, Sendable {
        var languages: [String]
        var usesLanguageCorrection: Bool
    }

    init(_ key: Key) throws {
        let dataPath = try TextLanguages.dataDirectory(for: key.languages)
        let api = try TesseractLibrary.shared.get()
        guard let handle = api.create() else {
            throw KameraError.missingResource(name: "Tesseract", hint: "install libtesseract5 (scripts/setup.sh does)")
        }
        // Without language correction the word lists are not loaded at all. Tesseract's
        // chatter ("Empty page!!", "Detected 5 diacritics") goes nowhere.
        var names = ["debug_file"], values = ["/dev/null"]
        if !key.usesLanguageCorrection {
            names += ["load_system_dawg", "load_freq_dawg"]
            values += ["0", "0"]
        }
        let status = dataPath.withCString { path in
            key.languages.joined(separator: "+").withCString { language in
                withCStringArray(names) { nameArray in
                    withCStringArray(values) { valueArray in
                        api.initialize(handle, path, language, OEM_LSTM_ONLY, nil, 0, nameArray, valueArray, names.count, 0)
                    }
                }
            }
        }
        guard status == 0 else {
            api.delete(handle)
            throw KameraError.missingResource(
                name: "Tesseract language data for \(key.languages.joined(separator: "+"))",
                hint: TextLanguages.installHint(key.languages))
        }
        api.setPageSegMode(handle, PSM_AUTO)
        _ = Self.drainAtExit
        self.handle = handle
        self.api = api
        self.key = key
    }

    /// Tesseract's model cache is a function-local static created by the first Init, and
    /// exit handlers run in reverse order of registration: registering after that Init ends
    /// the pooled engines before the cache is destroyed, which otherwise reports every model
    /// still held as leaked.
    private static let drainAtExit: Void = {
        atexit { TesseractEnginePool.shared.drain() }
    }()

    deinit {
        api.end(handle)
        api.delete(handle)
    }

    /// Recognizes `gray` (gray8) and returns its lines, words and characters in reading order.
    func recognize(_ gray: PixelBuffer) throws -> TesseractPage {
        precondition(gray.format == .gray8, "Tesseract is given gray8")
        let api = self.api
        defer { api.clear(handle) }
        // When FFmpeg (or anything else) loaded libgomp before us, OMP_THREAD_LIMIT came too
        // late; dynamic adjustment lets OpenMP run fewer threads than Tesseract asks for when
        // the cores are busy, instead of oversubscribing them. Per thread, like all OpenMP ICVs.
        api.setDynamic?(1)
        let status = gray.bytes.withUnsafeBufferPointer { pixels -> Int32 in
            api.setImage(handle, pixels.baseAddress, Int32(gray.width), Int32(gray.height), 1, Int32(gray.bytesPerRow))
            // Photos carry no usable resolution; a fixed one silences Tesseract's guess and warning.
            api.setSourceResolution(handle, 300)
            return api.recognize(handle, nil)
        }
        guard status == 0 else { throw KameraError.invalidArgument("Tesseract could not recognize the image") }
        guard let iterator = api.iterator(handle) else { return TesseractPage(lines: []) }
        defer { api.iteratorDelete(iterator) }
        let page = api.pageIterator(iterator)

        func text(_ level: TessPageIteratorLevel) -> String {
            guard let raw = api.text(iterator, level) else { return "" }
            defer { api.deleteText(raw) }
            return String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func box(_ level: TessPageIteratorLevel) -> PixelRect? {
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            guard api.boundingBox(page, level, &left, &top, &right, &bottom) != 0 else { return nil }
            return PixelRect(x: Double(left), y: Double(top), width: Double(right - left), height: Double(bottom - top))
        }

        var lines: [TesseractPage.Line] = []
        repeat {
            if api.isAtBeginningOf(page, RIL_TEXTLINE) != 0, let lineBox = box(RIL_TEXTLINE) {
                lines.append(
                    .init(
                        text: text(RIL_TEXTLINE), box: lineBox, confidence: api.confidence(iterator, RIL_TEXTLINE), words: [],
                        quad: Quad(lineBox)))
            }
            if api.isAtBeginningOf(page, RIL_WORD) != 0, let wordBox = box(RIL_WORD), !lines.isEmpty {
                lines[lines.count - 1].words.append(
                    .init(
                        text: text(RIL_WORD), box: wordBox,
                        confidence: api.confidence(iterator, RIL_WORD), symbols: [], quad: Quad(wordBox)))
            }
            if let symbolBox = box(RIL_SYMBOL), !lines.isEmpty, !lines[lines.count - 1].words.isEmpty {
                let w = lines[lines.count - 1].words.count - 1
                lines[lines.count - 1].words[w].symbols.append(
                    .init(
                        text: text(RIL_SYMBOL), box: symbolBox,
                        confidence: api.confidence(iterator, RIL_SYMBOL), quad: Quad(symbolBox)))
            }
        } while api.next(iterator, RIL_SYMBOL) != 0
        // Tesseract reports blank regions as empty lines; drop them.
        lines = lines.compactMap { line in
            var kept = line
            kept.words = line.words.filter { !$0.text.isEmpty }
            return kept.words.isEmpty ? nil : kept
        }
        return TesseractPage(lines: lines)
    }
}

/// Calls `body` with a C array of C strings for `strings` (nil when empty).
private func withCStringArray<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> R) -> R {
    if strings.isEmpty { return body(nil) }
    var pointers = strings.map { strdup($0) }
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress) }
}
