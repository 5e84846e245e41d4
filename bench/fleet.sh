#!/usr/bin/env bash
# A fleet of `kamera serve` behind nginx against one instance direct (issue #38): photos a
# second on /v1/detect?faces, 4 clients (below the default 6 analysis slots, so none is told to
# retry), same photo and run. Usage: bench/fleet.sh [SECONDS]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
eval "$(bash scripts/setup.sh)"
swift build -c release --product kamera >&2
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
    "$(grep -qw avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2); nginx $(nginx -v 2>&1 | cut -d/ -f2)"
python3 bench/fleet.py .build/release/kamera /usr/share/doc/opencv-doc/examples/data/messi5.jpg "${1:-20}"
