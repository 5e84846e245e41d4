/// What a server camera can keep event clips of (`kamera serve --clips face,code,person`):
/// the analysis of the camera's frames sees one of these.
public enum CameraEvent: String, Codable, Sendable, CaseIterable, Comparable {
    /// A face is in view.
    case face
    /// A barcode or QR code is in view.
    case code
    /// A person's body is in view.
    case person

    public static func < (a: CameraEvent, b: CameraEvent) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
