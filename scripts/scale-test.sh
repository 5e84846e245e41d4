#!/usr/bin/env bash
# Scale-out tested on real engines (issue #38): the README's Slurm array and GNU parallel line
# on a one-node Slurm cluster started here, and a fleet of two `kamera serve` behind nginx
# (spread, one killed and restarted, graceful drain, metrics). Debian's packages (setup.sh
# installs them); Python's standard library. Usage: scripts/scale-test.sh [KAMERA_BINARY]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
KAMERA="${1:-$ROOT/.build-test/release/kamera}"
BENCH="$(dirname "$KAMERA")/kamera-bench"
# The corpus: composed code and face scenes on real photos, and Debian's photos as they are
# (several hundred files); made once, then reused.
CORPUS="${KAMERA_CACHE:-$HOME/.cache/kamera}/scale-corpus"
if [[ ! -f "$CORPUS/.complete" ]]; then
    rm -rf "$CORPUS"
    mkdir -p "$CORPUS/debian"
    "$BENCH" dataset "$CORPUS/codes" --scenes 120 >/dev/null
    "$BENCH" face-dataset "$CORPUS/faces" >/dev/null
    cp /usr/share/doc/opencv-doc/examples/data/*.jpg /usr/share/doc/opencv-doc/examples/data/*.png "$CORPUS/debian/"
    touch "$CORPUS/.complete"
fi
missing=()
for command in slurmctld slurmd sbatch munged parallel nginx; do
    command -v "$command" >/dev/null || missing+=("$command")
done
if ((${#missing[@]} > 0)); then
    echo "scale-test: SKIPPED — not installed: ${missing[*]} (bash scripts/setup.sh installs them from Debian)" >&2
    exit 0
fi
timeout 900 python3 Tests/scale/test_slurm.py "$KAMERA" "$CORPUS" README.md
timeout 600 python3 Tests/scale/test_fleet.py "$KAMERA" "$CORPUS"
