#!/usr/bin/env bash
# Text benchmark: character error rate and time per page for Kamera (fast and accurate)
# and the Tesseract CLI through pytesseract (same Debian eng model), on the same rendered
# pages with known text, in one run.
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
pip_peers "pytesseract==0.3.13" "pillow==11.3.0"
apt_peer tesseract-ocr command -v tesseract
apt_peer tesseract-ocr-chi-sim test -f /usr/share/tesseract-ocr/5/tessdata/chi_sim.traineddata
swift build -c release --product kamera-bench >&2
DATA="${KAMERA_BENCH_DATA:-$KAMERA_CACHE/bench-text}"
.build/release/kamera-bench text-dataset "$DATA" >&2
RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
.build/release/kamera-bench text "$DATA" --engine tesseract --level fast > "$RESULTS/kamera tesseract fast.json"
.build/release/kamera-bench text "$DATA" --engine tesseract --level accurate > "$RESULTS/kamera tesseract.json"
.build/release/kamera-bench text "$DATA" --engine scene > "$RESULTS/kamera scene.json"
.build/release/kamera-bench text "$DATA" --engine automatic > "$RESULTS/kamera automatic (default).json"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(grep -qw avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2); $(tesseract --version 2>&1 | head -1)"
"$VENV/bin/python" bench/text_report.py "$DATA" "$RESULTS/kamera tesseract fast.json" "$RESULTS/kamera tesseract.json" \
    "$RESULTS/kamera scene.json" "$RESULTS/kamera automatic (default).json"
