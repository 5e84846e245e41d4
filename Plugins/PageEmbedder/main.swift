import Foundation

// Writes a Swift file holding each given file's text, by file name, as `PageFiles.contents`
// (the EmbedPage plugin runs it at build time). Usage: PageEmbedder OUTPUT.swift FILE…
let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: PageEmbedder OUTPUT.swift FILE…\n".utf8))
    exit(64)
}
var source = """
    // Generated at build time by the EmbedPage plugin from Sources/KameraServer/Page: edit those files.

    /// The web page's files by name, as the build embedded them.
    enum PageFiles {
        static let contents: [String: String] = [

    """
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        FileHandle.standardError.write(Data("PageEmbedder: cannot read \(path) as UTF-8\n".utf8))
        exit(1)
    }
    // A raw string delimited by more # than any run of # in the text ends only where meant to.
    var longest = 0, run = 0
    for character in text {
        run = character == "#" ? run + 1 : 0
        longest = max(longest, run)
    }
    let hashes = String(repeating: "#", count: longest + 1)
    source += "        \"\(url.lastPathComponent)\": \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes),\n"
}
source += "    ]\n}\n"
do {
    try source.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("PageEmbedder: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
