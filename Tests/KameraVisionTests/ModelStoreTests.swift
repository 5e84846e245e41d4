import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// Models and caches are found through values an app can set, with the environment as default.
@Suite(.tier(.models)) struct ModelStoreTests {
    @Test func cacheRootFollowsKameraCacheThenXDGThenHome() {
        #expect(CacheDirectory.root(environment: ["KAMERA_CACHE": "/a", "XDG_CACHE_HOME": "/b", "HOME": "/h"]).path == "/a")
        #expect(CacheDirectory.root(environment: ["XDG_CACHE_HOME": "/b", "HOME": "/h"]).path == "/b/kamera")
        #expect(CacheDirectory.root(environment: ["XDG_CACHE_HOME": "", "HOME": "/h"]).path == "/h/.cache/kamera")
        #expect(ModelStore(environment: ["KAMERA_MODELS": "/m", "KAMERA_CACHE": "/a"]).directory.path == "/m")
        #expect(ModelStore(environment: ["XDG_CACHE_HOME": "/b"]).directory.path == "/b/kamera/models")
    }

    /// A request given a store that holds the models (here: links to the installed ones in
    /// another folder) finds faces; one given an empty folder fails with a typed error that
    /// names the folder and the install command.
    @Test func requestsReadModelsFromTheirStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try SampleMedia.photo("astronaut.png")

        var request = DetectFaceLandmarksRequest()
        request.faceDetection.modelStore = ModelStore(directory: folder)
        do {
            _ = try await request.perform(on: photo)
            Issue.record("no error without models")
        } catch let error as KameraError {
            #expect("\(error)".contains(folder.path) && "\(error)".contains("scripts/models.sh"))
        }

        for model in KameraModel.allCases {
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(model.fileName),
                withDestinationURL: URL(fileURLWithPath: try ModelStore.default.path(of: model)))
        }
        let faces = try await request.perform(on: photo)
        #expect(faces.count == 1 && faces[0].landmarks != nil)
    }
}
