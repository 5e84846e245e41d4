#!/usr/bin/env bash
# Text benchmark: character error rate and time per page for Kamera (fast and accurate)
# and the Tesseract CLI through pytesseract (same Debian eng model), on the same rendered
# pages with known text, in one run.
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
pip_peers "pytesseract==0.3.13" "pillow==11.3.0"
apt_peer tesseract-ocr command -v tesseract
swift build -c release --product kamera-bench >&2
DATA="${KAMERA_BENCH_DATA:-$KAMERA_CACHE/bench-text}"
.build/release/kamera-bench text-dataset "$DATA" >&2
RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
.build/release/kamera-bench text "$DATA" --level fast > "$RESULTS/kamera fast.json"
.build/release/kamera-bench text "$DATA" --level accurate > "$RESULTS/kamera accurate.json"
echo "machine: $(nproc) cores; tesseract $(tesseract --version 2>&1 | head -1)"
"$VENV/bin/python" bench/text_report.py "$DATA" "$RESULTS/kamera fast.json" "$RESULTS/kamera accurate.json"
