#!/usr/bin/env bash
# Batch benchmark: `kamera detect` over many files (path list on stdin, JSON Lines out) with
# --jobs, against the same number of single-job processes each taking a --shard, and against
# the peers' Python loops (zxing-cpp for codes, MediaPipe full range for faces) run as that
# many processes; then peak memory for 100 files and for FILES files (default 10000), and
# for one 24-megapixel JPEG with every request. Decoding is part of the time here.
# Usage: bench/batch.sh [FILES]
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
pip_peers "zxing-cpp==$ZXING_VERSION" "pillow==11.3.0" "numpy==2.3.5"
face_peers
swift build -c release --product kamera >&2
swift build -c release --product kamera-bench >&2
CODES="${KAMERA_BENCH_DATA:-$KAMERA_CACHE/bench-barcodes}"
FACES="$KAMERA_CACHE/bench-faces"
.build/release/kamera-bench dataset "$CODES" --scenes 120 >&2
.build/release/kamera-bench face-dataset "$FACES" >&2
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# Four passes over each set so a run lasts long enough to time.
for pass in 1 2 3 4; do find "$CODES" -name '*.jpg' | sort; done > "$WORK/codes.txt"
for pass in 1 2 3 4; do find "$FACES" -name '*.jpg' -o -name '*.png' | sort; done > "$WORK/faces.txt"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "peers: zxing-cpp $("$VENV/bin/python" -c 'import zxingcpp; print(zxingcpp.__version__)' 2>/dev/null || echo "$ZXING_VERSION"), mediapipe $MEDIAPIPE_VERSION"
python3 bench/batch.py .build/release/kamera "$VENV/bin/python" "$FACE_VENV/bin/python" "$WORK/codes.txt" "$WORK/faces.txt" "${1:-10000}"

# One 24-megapixel photo (6000×4000, a real photo enlarged) with every request.
ffmpeg -loglevel error -y -i /usr/share/doc/opencv-doc/examples/data/messi5.jpg -vf scale=6000:4000 -q:v 3 "$WORK/24mp.jpg"
for options in "--barcodes" "--faces" "--faces --landmarks" "--text --recognize" "--barcodes --faces --landmarks --text --recognize"; do
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %M" -o "$WORK/time" .build/release/kamera detect $options "$WORK/24mp.jpg" --format jsonl >/dev/null
    read -r seconds kilobytes < "$WORK/time"
    printf "24 MP  %-52s %6.2f s %6d MB\n" "kamera detect $options" "$seconds" "$((kilobytes / 1024))"
done
