// swift-tools-version: 6.1
// Kamera: Apple's camera-vision stack (AVFoundation capture, Vision requests) for Linux.
// C libraries come from Debian; zxing-cpp is built by scripts/setup.sh into a local
// prefix found through pkg-config (scripts/env.sh sets PKG_CONFIG_PATH).
import PackageDescription

let package = Package(
    name: "Kamera",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Kamera", targets: ["Kamera"]),
        .executable(name: "kamera", targets: ["KameraCLI"]),
        .executable(name: "kamera-demo", targets: ["KameraDemo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The server's /metrics (swift-metrics objects over a Prometheus registry), its log and
        // its graceful stop; Hummingbird already builds on all of them.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C libraries.
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CZXingEngine", pkgConfig: "zxing"),
        // The OpenCV modules the geometry shim links (kamera-opencv.pc, from scripts/setup.sh).
        .systemLibrary(
            name: "COpenCVEngine", pkgConfig: "kamera-opencv",
            providers: [.apt(["libopencv-dev", "libopencv-contrib-dev"])]),
        // FFmpeg's headers only: the libraries are opened when a movie is first read or written
        // (CFFmpegLoader), not linked, so commands that touch no movie start without them.
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavdevice-dev"])]),
        // Headers only (no pkgConfig: it would link libtesseract, which Kamera dlopens).
        .systemLibrary(name: "CTesseract", providers: [.apt(["libtesseract-dev"])]),
        .target(
            name: "CZXing",
            dependencies: ["CZXingEngine"],
            cxxSettings: [.define("NDEBUG")]
        ),
        // Rectangles, documents, contours, registration and optical flow over OpenCV, as a C API
        // that catches every C++ exception.
        .target(
            name: "CGeometry",
            dependencies: ["COpenCVEngine"],
            cxxSettings: [.define("NDEBUG")]
        ),

        // KameraNN's SIMD kernels (C vector extensions, multiversioned for AVX-512/AVX2/baseline) and image-to-tensor sampling.
        // No unsafeFlags (SwiftPM refuses them in a dependency): the kernels ask for FMA
        // contraction themselves (#pragma), and release builds compile C at -O2.
        .target(name: "CKameraNNKernels"),

        // Swift modules.
        .target(name: "KameraCore"),
        .target(name: "KameraImageIO", dependencies: ["KameraCore", "CTurboJPEG", "CPNG", "CWebP"]),
        .target(name: "KameraVision", dependencies: ["KameraCore", "KameraNN", "CZXing", "CGeometry", "CTesseract"]),
        .target(name: "KameraNN", dependencies: ["KameraCore", "CKameraNNKernels"]),
        .target(name: "CFFmpegLoader", dependencies: ["CFFmpeg"]),
        .target(name: "KameraMedia", dependencies: ["KameraCore", "CFFmpeg", "CFFmpegLoader"]),
        .target(name: "KameraRender", dependencies: ["KameraCore", "KameraVision", "CFreeType"]),
        .target(name: "Kamera", dependencies: ["KameraCore", "KameraImageIO", "KameraMedia", "KameraNN", "KameraVision", "KameraRender"]),
        // The `kamera` command (the product's name); the module is KameraCLI so that no two
        // folders or modules differ only in case (`Kamera` is the library).
        // The JSON records and the per-image analysis that the CLI and the server share.
        .target(name: "KameraReports", dependencies: ["Kamera"]),
        // `kamera serve`: the HTTP API, the live WebSocket and the web page (Hummingbird 2).
        .target(
            name: "KameraServer",
            dependencies: [
                "Kamera", "KameraReports",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The page's HTML, JavaScript and CSS are real files, compiled in by EmbedPage.
            exclude: ["Page"],
            plugins: ["EmbedPage"]),
        .executableTarget(name: "PageEmbedder", path: "Plugins/PageEmbedder"),
        .plugin(name: "EmbedPage", capability: .buildTool(), dependencies: ["PageEmbedder"]),
        .executableTarget(
            name: "KameraCLI",
            dependencies: [
                "Kamera", "KameraReports", "KameraServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The demo (scripts/demo.sh): its own program, so the `kamera` tool carries no synthetic media.
        .executableTarget(
            name: "KameraDemo",
            dependencies: [
                "Kamera", "KameraReports", "KameraTestMedia", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmarks (bench/): the Swift side; peers run from Python in the same script.
        .executableTarget(
            name: "kamera-bench",
            dependencies: ["Kamera", "KameraTestMedia", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "bench/kamera-bench"
        ),
        // Synthetic scenes from real photos (codes warped, blurred, noised) for tests, demo and bench.
        .target(name: "KameraTestMedia", dependencies: ["KameraCore", "KameraImageIO", "KameraVision", "KameraRender", "KameraMedia"]),

        // One test target per module; each suite names its cost tier (KameraTestTiers), which
        // scripts/test.sh runs in order: the unit tier first, then models, media, end to end.
        .target(name: "KameraTestTiers", path: "Tests/KameraTestTiers"),
        // MediaPipe's image-to-tensor step run by OpenCV: the reference for the people models' inputs.
        .target(
            name: "COpenCVWarpReference", dependencies: ["COpenCVEngine"], path: "Tests/COpenCVWarpReference",
            cxxSettings: [.define("NDEBUG")]),
        .testTarget(name: "KameraCoreTests", dependencies: ["KameraCore", "KameraTestTiers"]),
        .testTarget(
            name: "KameraNNTests",
            dependencies: ["KameraNN", "KameraCore", "KameraImageIO", "KameraRender", "KameraTestMedia", "KameraTestTiers"]),
        .testTarget(name: "KameraImageIOTests", dependencies: ["KameraImageIO", "KameraTestMedia", "KameraTestTiers"]),
        .testTarget(
            name: "KameraVisionTests", dependencies: ["Kamera", "KameraTestMedia", "KameraTestTiers", "COpenCVWarpReference"]),
        .testTarget(name: "KameraMediaTests", dependencies: ["Kamera", "KameraTestMedia", "KameraTestTiers"]),
        .testTarget(name: "KameraRenderTests", dependencies: ["Kamera", "KameraTestMedia", "KameraTestTiers"]),
        // AnalysisOptions is read by the CLI's flags too: its tests check that surface as well.
        .testTarget(name: "KameraReportsTests", dependencies: ["KameraReports", "Kamera", "KameraCLI", "KameraTestTiers"]),
        .testTarget(
            name: "KameraCLITests",
            dependencies: [
                "Kamera", "KameraCLI", "KameraTestMedia", "KameraTestTiers",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            // What `kamera detect` printed before the edge was rebuilt, read by GoldenDetectTests.
            exclude: ["Golden"]),
        .testTarget(
            name: "KameraServerTests",
            dependencies: [
                "KameraServer", "Kamera", "KameraTestMedia", "KameraTestTiers",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
            ]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx20
)
