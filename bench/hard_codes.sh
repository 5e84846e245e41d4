#!/usr/bin/env bash
# Hard photos of codes (issue #36), one kind a run: Kamera (balanced, thorough) against zxing-cpp and
# ZBar on 200 generated photos a seed, each with one code.
#   edgecut  an EAN-13, UPC-A or EAN-8 with the photo's edge through one end (`EdgeCutScene`)
#   motion   EAN/UPC close-ups seen from one end, smeared by the hand, print where the quiet zone
#            should be (`MotionBlurScene`)
#   curled   a small QR code on paper bent around a cylinder or folded (`CurledPaperScene`)
# Usage: bench/hard_codes.sh SET SEED… (bench/edgecut.sh, motion.sh and curled.sh name the seeds)
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
SET="${1:?usage: bench/hard_codes.sh edgecut|motion|curled SEED…}"
shift
case "$SET" in
    edgecut) SCENES=(--edge-cut-scenes 200) ;;
    motion) SCENES=(--motion-scenes 200) ;;
    curled) SCENES=(--curled-scenes 200) ;;
    *) echo "unknown set: $SET (edgecut, motion or curled)" >&2; exit 2 ;;
esac
[[ $# -gt 0 ]] || { echo "usage: bench/hard_codes.sh $SET SEED…" >&2; exit 2; }
barcode_peers
swift build -c release --product kamera-bench >&2
RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)$(grep -q avx512f /proc/cpuinfo && echo ' (AVX-512)' || echo ' (AVX2)'); zxing-cpp $ZXING_VERSION from PyPI; one thread per engine"
for seed in "$@"; do
    DATA="$KAMERA_CACHE/bench-$SET-$seed"
    [[ -f "$DATA/truth.json" ]] || .build/release/kamera-bench dataset "$DATA" --scenes 0 --add-on-scenes 0 --retail-scenes 0 \
        "${SCENES[@]}" --seed "$seed" >&2
    for effort in balanced thorough; do
        .build/release/kamera-bench barcodes "$DATA" --effort "$effort" > "$RESULTS/kamera-$effort.json"
    done
    "$VENV/bin/python" bench/barcode_peers.py "$DATA" > "$RESULTS/peers.json"
    "$VENV/bin/python" - "$RESULTS" <<'PY'
import json, sys
results = sys.argv[1]
peers = json.load(open(f"{results}/peers.json"))
engines = {f"kamera ({effort})": json.load(open(f"{results}/kamera-{effort}.json")) for effort in ["balanced", "thorough"]}
engines.update({name: peers[name] for name in ["zxing-cpp", "zbar"] if name in peers})
json.dump(engines, open(f"{results}/all.json", "w"))
PY
    echo; echo "== $SET, seed $seed =="
    "$VENV/bin/python" bench/barcode_report.py "$DATA/truth.json" "$RESULTS/all.json" | grep -E "engine|$SET"
done
