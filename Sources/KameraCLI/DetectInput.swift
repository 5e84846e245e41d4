import Foundation
import Kamera

/// One image `kamera detect` analyses: a file, or image bytes piped to standard input.
enum DetectInput: Sendable {
    case file(String)
    case bytes(name: String, Data)

    /// What the result's `input` field says.
    var name: String {
        switch self {
        case .file(let path): path
        case .bytes(let name, _): name
        }
    }

    func image(options: ImageDecodingOptions) throws -> Image {
        switch self {
        case .file(let path): try Image(contentsOf: URL(fileURLWithPath: path), options: options)
        case .bytes(let name, let data): try ImageDecoder.decode(data, path: name, options: options)
        }
    }

    /// The inputs for the command's arguments. A directory stands for every JPEG, PNG and
    /// WebP file below it, in path order (so every run, and every shard, sees one order). `-`
    /// reads standard input once: image bytes (`cat photo.jpg | kamera detect -`) when they
    /// start like a JPEG, PNG or WebP file, otherwise a list of paths, one per line
    /// (`find … | kamera detect -`).
    static func resolve(_ arguments: [String], readStandardInput: () throws -> Data = StandardInputReader.readAll) throws -> [DetectInput] {
        var inputs: [DetectInput] = []
        var readStdin = false
        for argument in arguments {
            guard argument == "-" else {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
                    inputs += try imageFiles(under: argument).map(DetectInput.file)
                } else {
                    inputs.append(.file(argument))
                }
                continue
            }
            guard !readStdin else { throw KameraError.invalidArgument("- (standard input) can be given only once") }
            readStdin = true
            let data = try readStandardInput()
            if ImageFileFormat.detect(data) != nil {
                inputs.append(.bytes(name: "-", data))
            } else {
                let text = String(decoding: data, as: UTF8.self)
                inputs += text.split(whereSeparator: \.isNewline).map { String($0) }
                    .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(DetectInput.file)
            }
        }
        return inputs
    }
}

extension DetectInput {
    /// Image files (by extension) below `directory`, recursively, sorted by path. Hidden files
    /// and folders are skipped; links to files count, links to folders below it are not followed
    /// (no cycles). `directory` itself may be a link (a cluster's `photos -> /shared/photos`).
    static func imageFiles(under directory: String) throws -> [String] {
        // Foundation's walker lists nothing under a root that is a symbolic link: walk its target.
        let root = URL(fileURLWithPath: directory).resolvingSymlinksInPath()
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: nil,
                options: [.skipsHiddenFiles])
        else {
            throw KameraError.unreadableFile(path: directory, reason: "cannot list the directory")
        }
        var files: [String] = []
        for case let url as URL in walker where ImageFileFormat(pathExtension: url.pathExtension) != nil {
            // stat, not lstat: a symbolic link to a photo counts as the photo.
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                // Keep the caller's spelling of the folder (relative stays relative).
                let relative = url.path.hasPrefix(root.path + "/") ? String(url.path.dropFirst(root.path.count + 1)) : url.lastPathComponent
                files.append(directory.hasSuffix("/") ? directory + relative : directory + "/" + relative)
            }
        }
        return files.sorted()
    }
}

/// `--shard i/n`: the i-th of n disjoint parts of a batch (every n-th input from the i-th,
/// counting from 0), so machines that share nothing but the file list split it between them.
struct Shard: Sendable, Equatable {
    let index: Int
    let count: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, (0..<count).contains(index) else { return nil }
        (self.index, self.count) = (index, count)
    }

    func contains(position: Int) -> Bool { position % count == index }
}

/// Standard input read to its end, refusing more than an image file may hold.
enum StandardInputReader {
    static func readAll() throws -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw KameraError.unreadableFile(path: "standard input", reason: String(cString: strerror(errno)))
            }
            data.append(contentsOf: chunk[0..<count])
            guard data.count <= Image.maximumFileSize else {
                throw KameraError.unreadableFile(path: "standard input", reason: "more than \(Image.maximumFileSize) bytes")
            }
        }
    }
}
