import Foundation

/// `kamera serve`'s settings from environment variables, for containers and unit files: every
/// flag `--some-name` has `KAMERA_SOME_NAME` (a repeatable flag takes a comma-separated list).
/// A flag on the command line wins over its variable; the variables become arguments placed
/// before the command line's, so one parser checks both the same way.
enum ServeEnvironment {
    /// What a variable's value must look like before it becomes an argument.
    enum Kind: Sendable {
        case integer, number, text
        /// Comma-separated; each item becomes one occurrence of the flag.
        case list
        case choice([String])
    }

    /// Every `kamera serve` flag that takes a value, with its kind. A test checks this against
    /// `kamera serve --help`, so a new flag cannot miss its variable.
    static let flags: [(flag: String, kind: Kind)] = [
        ("host", .text), ("port", .integer), ("token", .text), ("token-file", .text), ("allow-origin", .list),
        ("max-connections", .integer), ("memory-budget", .integer), ("header-timeout", .number), ("body-timeout", .number),
        ("idle-timeout", .number), ("data", .text), ("camera", .list), ("privacy", .choice(["blur", "pixelate", "fill"])),
        // One flag whose value is itself a list (`face,code`): passed whole.
        ("clips", .text), ("pre-roll", .number), ("post-roll", .number), ("max-clip-seconds", .number),
        ("max-body", .integer), ("max-megapixels", .integer), ("timeout", .number), ("slots", .integer),
        ("max-record-seconds", .number), ("max-record-mb", .integer), ("min-free-mb", .integer), ("drain-timeout", .number),
        ("log-format", .choice(["text", "json"])),
        ("log-level", .choice(["trace", "debug", "info", "notice", "warning", "error", "critical"])),
    ]

    /// Flags of which only one may be given: a variable of the group is not used when the
    /// command line has any of them.
    static let exclusive: [Set<String>] = [["token", "token-file"]]

    /// `KAMERA_SOME_NAME` for `some-name`.
    static func variable(for flag: String) -> String {
        "KAMERA_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The arguments the environment adds before `given` (the command line after `serve`).
    /// - Throws: `ValidationError`-style `ServeEnvironment.Failure` naming the variable whose
    ///   value is not of its kind.
    static func arguments(before given: [String], environment: [String: String]) throws -> [String] {
        let named = Set(
            given.compactMap { argument -> String? in
                guard argument.hasPrefix("--") else { return nil }
                return String(argument.dropFirst(2).prefix { $0 != "=" })
            })
        var added: [String] = []
        for (flag, kind) in flags {
            let name = variable(for: flag)
            guard let value = environment[name], !value.isEmpty, !named.contains(flag) else { continue }
            if let group = exclusive.first(where: { $0.contains(flag) }), !group.isDisjoint(with: named) { continue }
            for item in try values(value, kind: kind, variable: name) { added += ["--\(flag)", item] }
        }
        return added
    }

    private static func values(_ value: String, kind: Kind, variable: String) throws -> [String] {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        switch kind {
        case .text:
            return [value]
        case .integer:
            guard Int(trimmed) != nil else { throw Failure(variable: variable, value: value, expected: "a whole number") }
            return [trimmed]
        case .number:
            guard let number = Double(trimmed), number.isFinite else {
                throw Failure(variable: variable, value: value, expected: "a number")
            }
            return [trimmed]
        case .list:
            return value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        case .choice(let choices):
            guard choices.contains(trimmed) else {
                throw Failure(variable: variable, value: value, expected: "one of " + choices.joined(separator: ", "))
            }
            return [trimmed]
        }
    }

    /// A variable whose value is not of its kind.
    struct Failure: Error, CustomStringConvertible {
        var variable: String
        var value: String
        var expected: String
        var description: String { "\(variable)=\(value.prefix(80)) is not \(expected)" }
    }
}
