#!/usr/bin/env bash
# Geometry benchmark: Kamera's document, rectangle and registration requests against OpenCV's
# usual approaches (contour document finder, the squares sample, findTransformECC, ORB +
# RANSAC) on the same synthetic scenes over real photos, in one run, with ratios.
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
# OpenCV's wheel pins its own numpy; it gets its own environment.
VENV="$KAMERA_CACHE/geometry-bench-venv"
pip_peers "opencv-contrib-python-headless==4.12.0.88" "numpy==2.2.6"
swift build -c release --product kamera-bench >&2
DATA="${KAMERA_BENCH_DATA:-$KAMERA_CACHE/bench-geometry}"
[[ -f "$DATA/pairs.json" ]] || .build/release/kamera-bench geometry-dataset "$DATA" >&2
RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
.build/release/kamera-bench geometry "$DATA" > "$RESULTS/kamera.json"
"$VENV/bin/python" bench/geometry_peers.py "$DATA" > "$RESULTS/peers.json"
echo "machine: $(nproc) cores; peers: OpenCV $("$VENV/bin/python" -c "import cv2; print(cv2.__version__)") from Python; Kamera: Debian's OpenCV $(pkg-config --modversion opencv4) (default threads on both sides)"
"$VENV/bin/python" bench/geometry_report.py "$DATA" "$RESULTS/kamera.json" "$RESULTS/peers.json"
# The scenes above have guided the detector's tuning; 96 more from the same generator, with
# seeds no tuning has seen, show whether it generalises.
HELD="${KAMERA_BENCH_HELDOUT:-$KAMERA_CACHE/bench-geometry-heldout}"
[[ -f "$HELD/pairs.json" ]] ||
    .build/release/kamera-bench geometry-dataset "$HELD" --first-index 48 --scenes 96 --pairs 0 >&2
.build/release/kamera-bench geometry "$HELD" > "$RESULTS/kamera-heldout.json"
"$VENV/bin/python" bench/geometry_peers.py "$HELD" > "$RESULTS/peers-heldout.json"
echo
echo "Held-out scenes (seeds 1048 on; no tuning ran on them, but their misses were studied)"
"$VENV/bin/python" bench/geometry_report.py "$HELD" "$RESULTS/kamera-heldout.json" "$RESULTS/peers-heldout.json"
# The held-out set above has since guided changes too (session 15 looked at its misses); a
# third set, seeds 1144 on, shows the same on scenes nobody has looked at.
FRESH="${KAMERA_BENCH_FRESH:-$KAMERA_CACHE/bench-geometry-fresh}"
[[ -f "$FRESH/pairs.json" ]] ||
    .build/release/kamera-bench geometry-dataset "$FRESH" --first-index 144 --scenes 96 --pairs 0 >&2
.build/release/kamera-bench geometry "$FRESH" > "$RESULTS/kamera-fresh.json"
"$VENV/bin/python" bench/geometry_peers.py "$FRESH" > "$RESULTS/peers-fresh.json"
echo
echo "Fresh scenes (seeds 1144 on, never looked at when tuning)"
"$VENV/bin/python" bench/geometry_report.py "$FRESH" "$RESULTS/kamera-fresh.json" "$RESULTS/peers-fresh.json"
