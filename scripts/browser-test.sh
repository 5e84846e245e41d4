#!/usr/bin/env bash
# The web page in a real browser (issue #10): headless Chromium from Debian, Selenium from
# PyPI (pinned in Tests/browser/requirements.txt), a fake camera made from real photos, and a
# real `kamera serve`. Screenshots go to $KAMERA_ARTIFACTS (default .build-test/browser).
# Usage: scripts/browser-test.sh [KAMERA_BINARY]  (after scripts/setup.sh and a build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
eval "$(bash scripts/setup.sh)"
source scripts/versions.sh
KAMERA="${1:-$ROOT/.build-test/release/kamera}"
ARTIFACTS="${KAMERA_ARTIFACTS:-$ROOT/.build-test/browser}"
VENV="$KAMERA_CACHE/browser-venv"
if ! cmp -s "$ROOT/Tests/browser/requirements.txt" "$VENV/requirements.txt" 2>/dev/null; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$ROOT/Tests/browser/requirements.txt" >&2
    cp "$ROOT/Tests/browser/requirements.txt" "$VENV/requirements.txt"
fi
# The page's script parses (node --check) before a browser runs it.
node --check Sources/KameraServer/Page/app.js
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$KAMERA" generate qr KAMERA-BROWSER-TEST --module-size 6 -o "$WORK/qr.png" >/dev/null
"$VENV/bin/python" Tests/browser/make_camera_video.py "$KAMERA_CACHE/media/astronaut.png" \
    /usr/share/doc/opencv-doc/examples/data/building.jpg "$WORK/qr.png" "$WORK/camera.y4m"
# Selenium must use Debian's driver, never download one.
SE_OFFLINE=true "$VENV/bin/python" Tests/browser/test_live_page.py "$KAMERA" "$WORK/camera.y4m" \
    /usr/share/doc/opencv-doc/examples/data/messi5.jpg "$ARTIFACTS"
