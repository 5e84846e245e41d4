#!/usr/bin/env bash
# EAN/UPC codes cut by the photo's edge (issue #36): Kamera (balanced, thorough) against zxing-cpp
# and ZBar on retail photos whose edge runs through one end of the code, from 0.6 of a module
# inside its guard bar to 3 modules out into its quiet zone (`EdgeCutScene`). Seeds 601 and 602
# were looked into while the change was made; 603 was made before it was measured.
# Usage: bench/edgecut.sh [SEED…] (default 601 602 603; 200 scenes each)
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
barcode_peers
swift build -c release --product kamera-bench >&2
RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)$(grep -q avx512f /proc/cpuinfo && echo ' (AVX-512)' || echo ' (AVX2)'); zxing-cpp $ZXING_VERSION from PyPI; one thread per engine"
SEEDS=("$@")
[[ ${#SEEDS[@]} -gt 0 ]] || SEEDS=(601 602 603)
for seed in "${SEEDS[@]}"; do
    DATA="$KAMERA_CACHE/bench-edgecut-$seed"
    [[ -f "$DATA/truth.json" ]] || .build/release/kamera-bench dataset "$DATA" --scenes 0 --add-on-scenes 0 --retail-scenes 0 \
        --edge-cut-scenes 200 --seed "$seed" >&2
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
    echo; echo "== seed $seed =="
    "$VENV/bin/python" bench/barcode_report.py "$DATA/truth.json" "$RESULTS/all.json" | grep -E "engine|edgecut"
done
