// swift-tools-version: 6.0
// A package that uses Kamera the way an app does: one dependency line. scripts/test.sh builds
// and runs it (debug, as a consumer's first build is), so the README's library snippets —
// which are this target's source — compile and work on real media.
import PackageDescription

let package = Package(
    name: "PortedFromiOS",
    dependencies: [
        // An app names a version instead: .package(url: "https://…/kamera", from: "1.0.0").
        .package(name: "Kamera", path: "../..")
    ],
    targets: [
        .executableTarget(name: "PortedFromiOS", dependencies: [.product(name: "Kamera", package: "Kamera")])
    ],
    swiftLanguageModes: [.v6]
)
