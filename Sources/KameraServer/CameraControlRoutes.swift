import Foundation
import Hummingbird
import Kamera
import KameraReports

/// A server camera's controls over HTTP: `GET /v1/cameras/{index}/controls` lists them with
/// what they mean in AVCaptureDevice's terms; `PUT` with a `CaptureDevice.Settings` body
/// (`{"focusMode":"continuous","autoFocusRangeRestriction":"near"}`) changes them. The server
/// keeps the device locked for configuration from the first change on, so other applications
/// cannot change what a page set.
struct CameraControlRoutes: Sendable {
    let routes: CameraRoutes

    /// The camera's controls as `GET` and `PUT` return them.
    struct Listing: Encodable {
        var device: String
        var controls: [CameraControl]
        var supports: CaptureDevice.Support
        var locked: Bool
    }

    func device(_ context: some RequestContext) throws -> (ServerCamera, CaptureDevice) {
        let camera = try routes.camera(context)
        guard let device = camera.captureDevice else {
            throw APIError(
                .conflict, code: .noCameraControls, message: "camera \(camera.index) (\(camera.path)) has no controls",
                hint: "a video file standing in for a camera, or a driver that lists none")
        }
        return (camera, device)
    }

    func list(context: some RequestContext) throws -> Response {
        let (_, device) = try device(context)
        return try Self.respond(device)
    }

    func change(_ request: Request, context: some RequestContext) async throws -> Response {
        let (_, device) = try device(context)
        var limits = routes.services.limits
        limits.maximumBodyBytes = 16 << 10
        let (data, _) = try await RequestBody.collect(request, limits: limits, budget: routes.services.budget)
        let settings: CaptureDevice.Settings
        do {
            settings = try JSONDecoder().decode(CaptureDevice.Settings.self, from: data)
        } catch {
            throw APIError.badRequest(
                "the body is not camera settings: \(error.localizedDescription)",
                hint: #"send JSON such as {"focusMode":"continuous","autoFocusRangeRestriction":"near","exposureDuration":0.01}"#)
        }
        try APIError.mappingKameraErrors {
            // Refused settings are reported before the device is taken.
            _ = try device.controls.writes(for: settings)
            try device.lockForConfiguration()
            try device.apply(settings)
        }
        return try Self.respond(device)
    }

    static func respond(_ device: CaptureDevice) throws -> Response {
        let controls = device.controls
        let listing = Listing(
            device: controls.device, controls: controls.controls, supports: CaptureDevice.Support(controls),
            locked: device.isLockedForConfiguration)
        return JSONResponse.make(try JSONValueEncoder.encode(listing).rendered() + "\n")
    }
}
