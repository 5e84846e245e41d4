#!/usr/bin/env bash
# EAN/UPC add-ons (issue #36): Kamera (balanced, thorough) against zxing-cpp on retail scenes
# with add-ons — a tuning set (seed 501) and a held-out set made before measuring (seed 502),
# 96 scenes each (books, periodicals, UPC-A with 2 or 5 digits; turned, tilted, blurred, faint).
# Usage: bench/addons.sh
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
barcode_peers
swift build -c release --product kamera-bench >&2
RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)$(grep -q avx512f /proc/cpuinfo && echo ' (AVX-512)' || echo ' (AVX2)'); zxing-cpp $ZXING_VERSION from PyPI; one thread per engine"
for seed in 501 502; do
    DATA="$KAMERA_CACHE/bench-addons-$seed"
    [[ -f "$DATA/truth.json" ]] || .build/release/kamera-bench dataset "$DATA" --scenes 0 --add-on-scenes 96 --seed "$seed" >&2
    for effort in balanced thorough; do
        .build/release/kamera-bench barcodes "$DATA" --effort "$effort" > "$RESULTS/kamera-$effort.json"
    done
    "$VENV/bin/python" bench/barcode_peers.py "$DATA" > "$RESULTS/peers.json"
    "$VENV/bin/python" -c "import json, sys; json.dump(json.load(open(sys.argv[1]))['zxing-cpp'], open(sys.argv[2], 'w'))" \
        "$RESULTS/peers.json" "$RESULTS/zxing.json"
    echo; echo "== seed $seed ($([[ $seed == 501 ]] && echo tuning || echo held-out)) =="
    "$VENV/bin/python" bench/addon_report.py "$DATA/truth.json" "kamera (balanced)=$RESULTS/kamera-balanced.json" \
        "kamera (thorough)=$RESULTS/kamera-thorough.json" "zxing-cpp=$RESULTS/zxing.json"
done
