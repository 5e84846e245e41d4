#!/usr/bin/env bash
# Process start-up as a shell loop pays it: `kamera --version`, and one photo read for codes
# by `kamera detect` against zxing-cpp's Python binding doing the same in a fresh interpreter
# (the way a per-file script or a peer's CLI runs), median of 20 runs each, in one run.
# Usage: bench/startup.sh
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
pip_peers "zxing-cpp==$ZXING_VERSION" "pillow==11.3.0" "numpy==2.3.5"
swift build -c release --product kamera >&2
PHOTO=/usr/share/doc/opencv-doc/examples/data/building.jpg
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
    "$(grep -qw avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2)"
python3 - "$VENV/bin/python" "$PHOTO" <<'PY'
import statistics, subprocess, sys, time
python, photo = sys.argv[1:3]
def median_ms(command, runs=20):
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)
version = median_ms([".build/release/kamera", "--version"])
kamera = median_ms([".build/release/kamera", "detect", "--barcodes", photo])
peer = median_ms([python, "-c", "import sys, zxingcpp, PIL.Image; zxingcpp.read_barcodes(PIL.Image.open(sys.argv[1]))", photo])
print(f"kamera --version                          {version:7.1f} ms")
print(f"kamera detect --barcodes (one photo)      {kamera:7.1f} ms")
print(f"zxing-cpp in a fresh Python (same photo)  {peer:7.1f} ms   kamera {peer / kamera:.2f}x faster")
PY
