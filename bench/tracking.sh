#!/usr/bin/env bash
# Tracking benchmark: Kamera's TrackObjectRequest (both levels) and TrackRectangleRequest
# against OpenCV's CSRT, KCF and MOSSE trackers on the same movies (objects and cards moving
# through real video, covered, leaving and coming back), in one run, with ratios.
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
# OpenCV's wheel pins its own numpy; it shares the geometry benchmark's environment.
VENV="$KAMERA_CACHE/geometry-bench-venv"
pip_peers "opencv-contrib-python-headless==4.12.0.88" "numpy==2.2.6"
swift build -c release --product kamera-bench >&2
DATA="${KAMERA_BENCH_DATA:-$KAMERA_CACHE/bench-tracking}"
[[ -f "$DATA/sequences.json" ]] || .build/release/kamera-bench tracking-dataset "$DATA" >&2
RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
.build/release/kamera-bench tracking "$DATA" > "$RESULTS/kamera.json"
"$VENV/bin/python" bench/tracking_peers.py "$DATA" > "$RESULTS/peers.json"
echo "machine: $(nproc) cores; peers: OpenCV $("$VENV/bin/python" -c "import cv2; print(cv2.__version__)") (contrib) from Python; Kamera: Debian's OpenCV $(pkg-config --modversion opencv4) under its own tracker (default threads on both sides)"
"$VENV/bin/python" bench/tracking_report.py "$DATA" "$RESULTS/kamera.json" "$RESULTS/peers.json"
