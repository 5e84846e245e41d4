#!/usr/bin/env bash
# Tracking as a user runs it (issue #36): `kamera track` at both levels against OpenCV's KCF and
# CSRT run as the same kind of command (one process per video, decoding included), on the
# tuning set and on a held-out set (other videos, photos, seeds, frame size and object sizes),
# in one run, with ratios. Usage: bench/tracking_cli.sh [tuning|held-out|both]
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
VENV="$KAMERA_CACHE/geometry-bench-venv"
pip_peers "opencv-contrib-python-headless==4.12.0.88" "numpy==2.2.6"
swift build -c release --product kamera >&2
swift build -c release --product kamera-bench >&2
SETS="${1:-both}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)$(grep -q avx512f /proc/cpuinfo && echo ' (AVX-512)' || echo ' (AVX2)'); peers: OpenCV $("$VENV/bin/python" -c "import cv2; print(cv2.__version__)") (contrib) from Python"
if [[ "$SETS" == tuning || "$SETS" == both ]]; then
    DATA="$KAMERA_CACHE/bench-tracking"
    [[ -f "$DATA/sequences.json" ]] || .build/release/kamera-bench tracking-dataset "$DATA" >&2
    echo; echo "== tuning set (640×480: vtest.avi, Megamind.avi) =="
    "$VENV/bin/python" bench/tracking_cli.py .build/release/kamera "$VENV/bin/python" "$DATA"
fi
if [[ "$SETS" == held-out || "$SETS" == both ]]; then
    DATA="$KAMERA_CACHE/bench-tracking-heldout"
    [[ -f "$DATA/sequences.json" ]] || .build/release/kamera-bench tracking-dataset --held-out "$DATA" >&2
    echo; echo "== held-out set (960×540: tree.avi, Megamind_bugy.avi; other photos and seeds) =="
    "$VENV/bin/python" bench/tracking_cli.py .build/release/kamera "$VENV/bin/python" "$DATA"
fi
