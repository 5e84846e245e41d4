/// The web page `kamera serve` serves: plain HTML, CSS and JavaScript compiled into the
/// binary (no npm, no build step, nothing to install beside the executable).
enum WebPage {
    struct Asset: Sendable {
        var path: String
        var contentType: String
        var body: String
    }

    static let assets: [Asset] = [
        Asset(path: "/", contentType: "text/html; charset=utf-8", body: PageHTML.text),
        Asset(path: "/app.js", contentType: "text/javascript; charset=utf-8", body: PageScript.text),
        Asset(path: "/style.css", contentType: "text/css; charset=utf-8", body: PageStyle.text),
    ]
}
