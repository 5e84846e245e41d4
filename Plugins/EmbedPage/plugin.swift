import Foundation
import PackagePlugin

/// Compiles the web page's files (`Sources/KameraServer/Page/`: HTML, JavaScript, CSS, SVG)
/// into the server as string constants: they stay real files to edit, lint and test, and the
/// `kamera` binary needs no resource bundle beside it (it can be copied anywhere).
@main
struct EmbedPage: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let page = target.directoryURL.appending(path: "Page")
        let files = try FileManager.default.contentsOfDirectory(at: page, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "PageFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the web page (\(files.count) files)",
                executable: try context.tool(named: "PageEmbedder").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
