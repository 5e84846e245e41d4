import Kamera
import KameraTestTiers
import Testing

/// Which format a server camera records in: the largest size, compressed when offered so.
@Suite(.tier(.unit)) struct CameraFormatTests {
    @Test("Full quality is the largest size, MJPG over YUYV at that size; unknown formats leave the driver's choice")
    func fullQuality() {
        let webcam = CameraDevice(
            path: "/dev/video0", name: "webcam",
            formats: [
                .init(fourCC: "YUYV", width: 640, height: 480), .init(fourCC: "YUYV", width: 1920, height: 1080),
                .init(fourCC: "MJPG", width: 1920, height: 1080), .init(fourCC: "MJPG", width: 1280, height: 720),
            ])
        #expect(webcam.fullQualityFormat == .init(fourCC: "MJPG", width: 1920, height: 1080))
        let raw = CameraDevice(
            path: "/dev/video1", formats: [.init(fourCC: "YUYV", width: 640, height: 480), .init(fourCC: "YUYV", width: 320, height: 240)])
        #expect(raw.fullQualityFormat == .init(fourCC: "YUYV", width: 640, height: 480))
        #expect(CameraDevice(path: "/dev/video2").fullQualityFormat == nil)
        #expect(CameraDevice(queryingDeviceAt: "/dev/null") == nil)
        #expect(CameraDevice(queryingDeviceAt: "/nonexistent/video0") == nil)
    }
}
