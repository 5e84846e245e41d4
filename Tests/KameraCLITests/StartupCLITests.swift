import Foundation
import KameraTestTiers
import Testing

/// What a `kamera` command loads: FFmpeg's libraries (with some 190 dependencies) only when a
/// movie is read or written, so commands on photos start in milliseconds.
@Suite(.tier(.endToEnd)) struct StartupCLITests {
    /// The shared libraries the dynamic loader opened for a run, from glibc's own trace
    /// (written to a file: it is longer than a pipe holds).
    func librariesLoaded(by arguments: [String]) throws -> (run: CLIRun, libraries: Set<String>) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-ld-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try kamera(arguments, environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": folder.appendingPathComponent("trace").path])
        var trace = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            trace += try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        let libraries = Set(
            trace.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: "file=") else { return nil }
                return String(line[range.upperBound...].prefix { $0 != " " && $0 != ";" && $0 != "[" })
            })
        return (run, libraries)
    }

    @Test("kamera --version and a photo's detection open no FFmpeg library; a movie's thumbnail does, and works")
    func ffmpegIsOpenedOnlyForMovies() throws {
        let version = try librariesLoaded(by: ["--version"])
        #expect(version.run.status == 0 && !version.libraries.isEmpty, "the loader's trace is read")
        #expect(!version.libraries.contains { $0.hasPrefix("libav") || $0.hasPrefix("libswscale") }, "\(version.libraries.sorted())")
        let photo = try librariesLoaded(by: ["detect", "--barcodes", "/usr/share/doc/opencv-doc/examples/data/building.jpg"])
        #expect(photo.run.status == 0)
        #expect(!photo.libraries.contains { $0.hasPrefix("libav") })
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-startup-\(UUID()).jpg")
        let movie = try librariesLoaded(by: ["thumbnail", "/usr/share/doc/opencv-doc/examples/data/vtest.avi", "-o", output.path])
        #expect(movie.run.status == 0 && FileManager.default.fileExists(atPath: output.path))
        #expect(movie.libraries.contains { $0.hasPrefix("libavformat.so") } && movie.libraries.contains { $0.hasPrefix("libswscale.so") })
        // Capture devices (libavdevice and its own dependencies) only for a camera.
        #expect(!movie.libraries.contains { $0.hasPrefix("libavdevice") })
    }
}
