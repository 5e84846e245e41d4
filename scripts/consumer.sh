#!/usr/bin/env bash
# Kamera as a dependency: builds Examples/PortedFromiOS (which names Kamera by path, as an
# app's Package.swift names it by URL) in debug, as a consumer's first build is, and runs
# the README's library snippets and the DocC articles' snippets in it on real media. Run by scripts/test.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
eval "$(bash scripts/setup.sh)"
source scripts/versions.sh
# SwiftPM re-plans a build when the root package changes, not when a path dependency gains
# a source file: drop the cached plan (objects stay, so the build is still incremental).
rm -f .build-consumer/debug.yaml .build-consumer/debug/description.json
# The DocC articles' runnable snippets become a source file of the package (not committed).
python3 scripts/doc_snippets.py Sources/Kamera/Kamera.docc Examples/PortedFromiOS/Sources/PortedFromiOS/DocSnippets.swift
swift build --package-path Examples/PortedFromiOS --scratch-path .build-consumer
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
# The "shelf": the demo's first scene, codes printed into a real photo (opencv-doc's), made
# by the kamera build the tests use; then a face photo, opencv-doc's page and movie.
.build-test/release/kamera-demo -o "$OUT/demo" > /dev/null
.build-consumer/debug/PortedFromiOS "$OUT/demo/scene1.jpg" "$KAMERA_CACHE/media/astronaut.png" \
    /usr/share/doc/opencv-doc/examples/data/imageTextR.png /usr/share/doc/opencv-doc/examples/data/Megamind.avi "$OUT"
