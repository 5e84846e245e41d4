/// The web page `kamera serve` serves: plain HTML, CSS and JavaScript compiled into the
/// binary (no npm, no build step, nothing to install beside the executable).
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

    /// A lens: a dark ring round a green centre.
    static let favicon =
        ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#222"/><circle cx="16" cy="16" r="7" fill="#3d6"/></svg>"##

    static let assets: [Asset] = [
        Asset(path: "/", contentType: "text/html; charset=utf-8", body: PageHTML.text, summary: "The web page"),
        Asset(path: "/app.js", contentType: "text/javascript; charset=utf-8", body: PageScript.text, summary: "The page's script"),
        Asset(path: "/style.css", contentType: "text/css; charset=utf-8", body: PageStyle.text, summary: "The page's style sheet"),
        Asset(path: "/favicon.svg", contentType: "image/svg+xml", body: favicon, summary: "The page's icon"),
    ]
}
