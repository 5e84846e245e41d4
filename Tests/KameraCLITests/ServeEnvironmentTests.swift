import Foundation
import KameraTestTiers
import Testing

@testable import KameraCLI

/// `kamera serve`'s settings from KAMERA_* variables: every flag has one, the command line
/// wins, bad values name their variable, and the deployment files use only real ones.
@Suite(.tier(.unit)) struct ServeEnvironmentTests {
    @Test("Variables become the flags the command line does not give; lists split on commas")
    func variablesBecomeFlags() throws {
        let environment = [
            "KAMERA_PORT": "9000", "KAMERA_HOST": "0.0.0.0", "KAMERA_CAMERA": "/dev/video0, clip.mp4", "KAMERA_LOG_FORMAT": "json",
            "KAMERA_DRAIN_TIMEOUT": "12.5", "KAMERA_UNRELATED": "x", "KAMERA_SLOTS": "", "KAMERA_TOKEN": "0123456789abcdef0123",
        ]
        let arguments = try ServeEnvironment.arguments(before: ["--port=8081", "--data", "/srv"], environment: environment)
        #expect(!arguments.contains("--port"), "the command line's --port wins")
        #expect(arguments.contains("--host") && arguments[arguments.firstIndex(of: "--host")! + 1] == "0.0.0.0")
        #expect(arguments.filter { $0 == "--camera" }.count == 2 && arguments.contains("/dev/video0") && arguments.contains("clip.mp4"))
        #expect(arguments.contains("--log-format") && arguments.contains("--drain-timeout") && !arguments.contains("--slots"))
        // The command line's flags after the variables': the parser reads both the same way.
        let command = try ServeCommand.parse(arguments + ["--port=8081", "--data", "/srv"])
        #expect(command.port == 8081 && command.host == "0.0.0.0" && command.camera == ["/dev/video0", "clip.mp4"])
        #expect(command.logFormat == .json && command.drainTimeout == 12.5 && command.data == "/srv")
    }

    @Test("A token from the environment gives way to either token flag; a bad value names its variable")
    func exclusiveAndBadValues() throws {
        let withFile = try ServeEnvironment.arguments(
            before: ["--token-file", "/run/secret"], environment: ["KAMERA_TOKEN": "0123456789abcdef"])
        #expect(withFile.isEmpty)
        for (variable, value, expected) in [
            ("KAMERA_PORT", "eighty", "a whole number"), ("KAMERA_TIMEOUT", "nan", "a number"),
            ("KAMERA_LOG_LEVEL", "loud", "one of trace"),
        ] {
            #expect {
                _ = try ServeEnvironment.arguments(before: [], environment: [variable: value])
            } throws: { error in
                "\(error)".hasPrefix("\(variable)=\(value) is not \(expected)")
            }
        }
    }

    @Test("Every option of kamera serve --help has its variable, and the deployment files name only real ones")
    func everyFlagHasAVariable() throws {
        let help = ServeCommand.helpMessage(columns: 200)
        let options = Set(
            help.split(separator: "\n").compactMap { line -> String? in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("--"), trimmed.contains(" <") else { return nil }
                return String(trimmed.dropFirst(2).prefix { $0 != " " })
            })
        #expect(options.count >= 20)
        #expect(options == Set(ServeEnvironment.flags.map(\.flag)))
        let known = Set(ServeEnvironment.flags.map { ServeEnvironment.variable(for: $0.flag) }).union([
            "KAMERA_MODELS", "KAMERA_CACHE", "KAMERA_SOME_NAME",
        ])
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for file in ["docs/deploy/kubernetes.yaml", "docs/deploy/kamera.service"] {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            let named = Set(text.matches(of: /KAMERA_[A-Z_]+/).map { String($0.output) })
            #expect(!named.isEmpty && named.isSubset(of: known), "\(file) names \(named.subtracting(known).sorted())")
        }
    }
}
