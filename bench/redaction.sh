#!/usr/bin/env bash
# Redaction benchmark, one run, same clips for both tools: `kamera redact` (faces, defaults)
# against deface 1.5.0 (CenterFace on ONNX Runtime, its defaults) on 720p clips of real faces
# crossing the frame, coming closer while turning, rolling, partly covered and far away, with
# every face's box known. Prints faces left uncovered, picture changed away from faces and
# frames per second (decode, detection and encoding included, wall clock), on a development
# set (seed 2026) and held-out sets made with other seeds before they were measured (seed 7
# was looked into in session 31; seed 31 was made in session 34 and seed 53 in session 39, each
# before the change it judged, and all three looked into in session 43; seeds 71 and 97 were made
# in session 43 before its change). Sets by name (all six when none is given), each made from its seed.
seed_of() { case "$1" in dev) echo 2026 ;; heldout) echo 7 ;; heldout2) echo 31 ;; heldout3) echo 53 ;; heldout4) echo 71 ;; heldout5) echo 97 ;; *) return 1 ;; esac }
SETS=("$@")
[ ${#SETS[@]} -gt 0 ] || SETS=(dev heldout heldout2 heldout3 heldout4 heldout5)
for name in "${SETS[@]}"; do
    seed_of "$name" >/dev/null || { echo "redaction.sh: no set named $name (dev, heldout, heldout2, heldout3, heldout4, heldout5)" >&2; exit 2; }
done
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
DEFACE_VENV="$KAMERA_CACHE/deface-venv"
if ! "$DEFACE_VENV/bin/deface" --help >/dev/null 2>&1; then
    python3 -m venv "$DEFACE_VENV"
    "$DEFACE_VENV/bin/pip" install --quiet --disable-pip-version-check "deface==1.5.0" "onnxruntime==$ONNXRUNTIME_VERSION" >&2
fi
# KAMERA_BENCH_BIN=DIR uses binaries built elsewhere (e.g. .build-test/release) instead.
BIN="${KAMERA_BENCH_BIN:-}"
if [ -z "$BIN" ]; then
    swift build -c release --product kamera >&2
    swift build -c release --product kamera-bench >&2
    BIN=.build/release
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2)"
for name in "${SETS[@]}"; do
    seed="$(seed_of "$name")"
    DATA="$KAMERA_CACHE/bench-redaction-$name"
    [ -f "$DATA/truth.json" ] || "$BIN/kamera-bench" redaction-dataset "$DATA" --seed "$seed" >&2
    TIMES="$(mktemp)"
    for tool in kamera deface; do
        start=$(date +%s.%N)
        for clip in "$DATA"/clip_?.mp4; do
            out="${clip%.mp4}.$tool.mp4"
            if [ "$tool" = kamera ]; then
                "$BIN/kamera" redact "$clip" -o "$out" -y 2>/dev/null
            else
                "$DEFACE_VENV/bin/deface" "$clip" -o "$out" --keep-audio >/dev/null 2>&1 \
                    || "$DEFACE_VENV/bin/deface" "$clip" -o "$out" >/dev/null 2>&1
            fi
        done
        echo "$tool $(echo "$(date +%s.%N) - $start" | bc)" >> "$TIMES"
    done
    "$DEFACE_VENV/bin/python" bench/redaction_report.py "$DATA" "$TIMES"
    rm -f "$TIMES"
done
