/// The web page `kamera serve` serves: plain HTML, CSS and JavaScript (`Page/`), compiled into
/// the binary at build time (no npm, no build step, nothing to install beside the executable).
enum WebPage {
    struct Asset: Sendable {
        var path: String
        var contentType: String
        var body: String
        /// What it is, for the OpenAPI document.
        var summary: String

        /// The content type without its parameters.
        var mediaType: String { String(contentType.prefix { $0 != ";" }) }
    }

    static let assets: [Asset] = [
        Asset(path: "/", contentType: "text/html; charset=utf-8", body: file("index.html"), summary: "The web page"),
        Asset(path: "/app.js", contentType: "text/javascript; charset=utf-8", body: file("app.js"), summary: "The page's script"),
        Asset(path: "/style.css", contentType: "text/css; charset=utf-8", body: file("style.css"), summary: "The page's style sheet"),
        Asset(path: "/favicon.svg", contentType: "image/svg+xml", body: file("favicon.svg"), summary: "The page's icon (a lens)"),
    ]

    /// An embedded file; the build fails before this could (the plugin embeds every file of Page/).
    private static func file(_ name: String) -> String {
        PageFiles.contents[name] ?? ""
    }
}
