import Foundation
import KameraCore

/// Language names for text recognition: Tesseract codes ("eng", "deu") or BCP 47 tags as
/// Vision uses them ("en-US", "de-DE").
public enum TextLanguages {
    private static let bcp47: [String: String] = [
        "en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "pt": "por", "nl": "nld", "sv": "swe",
        "da": "dan", "nb": "nor", "fi": "fin", "pl": "pol", "cs": "ces", "ru": "rus", "uk": "ukr", "tr": "tur",
        "ja": "jpn", "ko": "kor", "zh-Hans": "chi_sim", "zh-Hant": "chi_tra", "ar": "ara", "he": "heb", "el": "ell",
    ]

    /// The Tesseract code for `name` ("en-US" → "eng"; "eng" stays).
    public static func tesseractCode(_ name: String) -> String {
        if name.count == 3 || name.contains("_") { return name }
        if let exact = bcp47[name] { return exact }
        let base = String(name.split(separator: "-").first ?? Substring(name))
        if name.hasPrefix("zh") { return name.contains("Hant") || name.hasSuffix("TW") || name.hasSuffix("HK") ? "chi_tra" : "chi_sim" }
        return bcp47[base] ?? name
    }

    /// Directories searched for `<code>.traineddata`: `TESSDATA_PREFIX`, then Debian's.
    static var searchPath: [String] {
        var paths: [String] = []
        if let prefix = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"] { paths.append(prefix) }
        paths += ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata"]
        return paths
    }

    /// The directory holding every language in `codes`, or a missing-resource error naming the package.
    static func dataDirectory(for codes: [String]) throws -> String {
        for directory in searchPath where codes.allSatisfy({ FileManager.default.fileExists(atPath: "\(directory)/\($0).traineddata") }) {
            return directory
        }
        throw KameraError.missingResource(name: "Tesseract language data for \(codes.joined(separator: "+"))", hint: installHint(codes))
    }

    static func installHint(_ codes: [String]) -> String {
        "install " + codes.map { "tesseract-ocr-" + $0.replacingOccurrences(of: "_", with: "-").lowercased() }.joined(separator: " ")
            + " (apt-get install), or set TESSDATA_PREFIX"
    }
}
