#!/usr/bin/env bash
# Installs real test photos that Debian does not package (faces) from scikit-image's pinned
# wheel into $KAMERA_CACHE/media; opencv-doc (apt) provides the rest. Idempotent.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/versions.sh
source "$ROOT/scripts/versions.sh"
log() { echo "media: $*" >&2; }
MEDIA="$KAMERA_CACHE/media"
FILES=(
  "astronaut.png 88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5 skimage/data/astronaut.png"
  "camera.png b0793d2adda0fa6ae899c03989482bff9a42d3d5690fc7e3648f2795d730c23a skimage/data/camera.png"
)
# shellcheck source=scripts/pypi.sh
source "$ROOT/scripts/pypi.sh"
mkdir -p "$MEDIA"
for entry in "${FILES[@]}"; do
    read -r file sha inner <<<"$entry"
    verified "$MEDIA/$file" "$sha" && continue
    fetch_wheel "scikit-image==$SKIMAGE_VERSION" "$SKIMAGE_WHEEL" "$SKIMAGE_WHEEL_SHA256" \
        --python-version 3.11 --implementation cp --abi cp311 --platform manylinux_2_17_x86_64
    extract_verified "$DOWNLOADS/$SKIMAGE_WHEEL" "$inner" "$MEDIA/$file" "$sha"
done
