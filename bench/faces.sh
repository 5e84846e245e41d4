#!/usr/bin/env bash
# Face benchmark, one run, same images for every tool: Kamera (whole-image and tiled
# detection, landmarks) against MediaPipe's face detection (short and full range) and Face
# Mesh, dlib's HOG detector and OpenCV's Haar cascade; plus raw invokes of the same .tflite
# files in KameraNN and LiteRT (ai-edge-litert). Prints recall, accuracy against the pasted
# ground truth, time per image and the ratios; then the tiled default on a held-out set.
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
face_peers
swift build -c release --product kamera-bench >&2
DATA="${KAMERA_BENCH_DATA:-$KAMERA_CACHE/bench-faces}"
.build/release/kamera-bench face-dataset "$DATA" >&2
RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
.build/release/kamera-bench faces "$DATA" > "$RESULTS/kamera.json"
.build/release/kamera-bench models > "$RESULTS/invoke.json"
"$FACE_VENV/bin/python" bench/face_peers.py "$DATA" "$KAMERA_MODELS" > "$RESULTS/peers.json" 2>"$RESULTS/peers.log" \
    || { cat "$RESULTS/peers.log" >&2; exit 1; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
"$FACE_VENV/bin/python" bench/face_report.py "$DATA" "$RESULTS/kamera.json" "$RESULTS/peers.json" "$RESULTS/invoke.json"
# A held-out set (another seed, 144 small faces) for the tiled default, whose scan settings
# were chosen on the set above.
.build/release/kamera-bench face-dataset "$DATA-heldout" --seed 11 --small-photos 24 >&2
.build/release/kamera-bench faces "$DATA-heldout" --tiled-only > "$RESULTS/heldout.json"
"$FACE_VENV/bin/python" bench/face_heldout_report.py "$DATA-heldout" "$RESULTS/heldout.json"
