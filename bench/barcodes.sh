#!/usr/bin/env bash
# Barcode benchmark: detection rate and time per image for Kamera (each effort), zxing-cpp
# (PyPI, newest pinned release) and ZBar (pyzbar), on the same images, in one run.
# Usage: bench/barcodes.sh [SCENES] [SEED]   (default 120 photo scenes, seed 2026: the set
# tuned on; another seed makes a set of the same kinds nothing was tuned on)
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
barcode_peers

swift build -c release --product kamera-bench >&2
SEED="${2:-2026}"
DATA="${KAMERA_BENCH_DATA:-$KAMERA_CACHE/bench-barcodes$([ "$SEED" = 2026 ] || echo "-$SEED")}"
.build/release/kamera-bench dataset "$DATA" --scenes "${1:-120}" --seed "$SEED" >&2

RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
"$VENV/bin/python" bench/barcode_peers.py "$DATA" > "$RESULTS/peers.json"
for effort in fast balanced thorough; do
    .build/release/kamera-bench barcodes "$DATA" --effort "$effort" > "$RESULTS/kamera-$effort.json"
done
"$VENV/bin/python" - "$RESULTS" <<'PY' > "$RESULTS/all.json"
import json, sys
d = sys.argv[1]
peers = json.load(open(f"{d}/peers.json"))
out = {f"kamera ({e})": json.load(open(f"{d}/kamera-{e}.json")) for e in ["fast", "balanced", "thorough"]}
out["zxing-cpp"] = peers["zxing-cpp"]
out["zbar"] = peers["zbar"]
print(json.dumps(out))
PY
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); one thread per engine"
echo "peers: zxing-cpp $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("zxing-cpp"))'), pyzbar $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("pyzbar"))')"
"$VENV/bin/python" bench/barcode_report.py "$DATA/truth.json" "$RESULTS/all.json"
