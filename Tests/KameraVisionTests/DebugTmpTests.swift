import Testing
import Foundation
@testable import KameraVision
import KameraCore
import KameraImageIO

@Suite struct DebugTmpTests {
    @Test func debugRegions() async throws {
        for name in (ProcessInfo.processInfo.environment["DEBUG_IMAGES"] ?? "").split(separator: ",") {
            let image = try Image(contentsOf: URL(fileURLWithPath: NSHomeDirectory() + "/.cache/kamera/bench-barcodes/" + name)).pixelBuffer
            let gray = image.converted(to: .gray8)
            print("IMAGE", name, gray.width, gray.height)
            for r in StripeOrientationEstimator.regions(in: gray) {
                print("REGION", r.bounds, r.gradientAngle, DetectBarcodesRequest.axisTurn(forGradient: r.gradientAngle) as Any)
            }
            for o in try await DetectBarcodesRequest(effort: .thorough).perform(on: image) {
                print("OBS", o.symbology, o.payloadString ?? "", o.pixelBounds)
            }
        }
    }
}
