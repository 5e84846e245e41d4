import ArgumentParser
import KameraServer

/// `--clips face,code,person`: the events a server camera keeps clips of.
struct CameraEventList: ExpressibleByArgument {
    var events: Set<CameraEvent>

    init?(argument: String) {
        var events = Set<CameraEvent>()
        for name in argument.split(separator: ",") {
            guard let event = CameraEvent(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased()) else { return nil }
            events.insert(event)
        }
        guard !events.isEmpty else { return nil }
        self.events = events
    }

    static var allValueStrings: [String] { CameraEvent.allCases.map(\.rawValue) }
}
