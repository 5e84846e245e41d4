import ArgumentParser

/// `kamera-bench`: the Swift side of the benchmarks in bench/ (peers run from Python).
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kamera-bench",
        abstract: "Builds benchmark datasets and times Kamera on them.",
        subcommands: [
            DatasetCommand.self, BarcodesCommand.self, TextDatasetCommand.self, TextCommand.self, VideoReadCommand.self, ModelsCommand.self,
            FaceDatasetCommand.self, FacesCommand.self, LiveDatasetCommand.self, LiveCommand.self, ProfileFacesCommand.self,
            GeometryDatasetCommand.self, GeometryCommand.self, TrackingDatasetCommand.self, TrackingCommand.self, PeopleCommand.self,
            PeopleLiveCommand.self, SceneTextCommand.self, RedactionDatasetCommand.self,
        ])
}
