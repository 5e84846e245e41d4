#!/usr/bin/env bash
# Stabilization (issue #37): `kamera stabilize` against FFmpeg's deshake and vid.stab
# (vidstabdetect + vidstabtransform, Debian's FFmpeg) on shaken real footage: a window moved
# over opencv-doc's fixed-camera videos along a known pan plus hand shake
# (bench/stabilization_clips.py). Every output frame is located in the unshaken footage
# (bench/stabilization_measure.py): residual jitter, picture lost (zoom and filled borders),
# and each command's speed. Tuning clip: vtest.avi seed 1. Held out (made before measuring,
# never tuned on): vtest.avi seed 2, Megamind.avi seed 3, tree.avi seed 4.
# Usage: bench/stabilization.sh [tuning|held-out|both|speed]  (speed: the commands' times alone,
# with nothing measured alongside, on all four clips)
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
VENV="$KAMERA_CACHE/geometry-bench-venv"
pip_peers "opencv-contrib-python-headless==4.12.0.88" "numpy==2.2.6"
swift build -c release --product kamera >&2
SETS="${1:-both}"
DATA=/usr/share/doc/opencv-doc/examples/data
WORK="$KAMERA_CACHE/bench-stabilization"
mkdir -p "$WORK"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)$(grep -q avx512f /proc/cpuinfo && echo ' (AVX-512)' || echo ' (AVX2)'); peers: $(ffmpeg -version | head -1 | cut -d' ' -f1-3) (deshake, vid.stab defaults)"

clip() { # NAME SOURCE SEED
    [[ -f "$WORK/$1.json" ]] || "$VENV/bin/python" bench/stabilization_clips.py "$DATA/$2" "$3" "$WORK" "$1"
}

# seconds COMMAND…: wall time of a command, printed to stdout.
seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N); awk "BEGIN { print $end - $start }"; }

run() { # NAME
    local name="$1" in="$WORK/$1.mp4"
    local frames; frames=$("$VENV/bin/python" -c "import json; print(len(json.load(open('$WORK/$name.json'))['poses']))")
    local encode=(-c:v libx264 -crf 23 -preset veryfast)
    local t_kamera t_small t_deshake t_vidstab
    t_kamera=$(seconds .build/release/kamera stabilize "$in" -o "$WORK/$name.kamera.mp4" -y)
    t_small=$(seconds .build/release/kamera stabilize "$in" --max-crop 0 -o "$WORK/$name.kamera-0.mp4" -y)
    t_deshake=$(seconds ffmpeg -loglevel error -y -i "$in" -vf deshake "${encode[@]}" "$WORK/$name.deshake.mp4")
    t_vidstab=$(seconds bash -c "ffmpeg -loglevel error -y -i '$in' -vf vidstabdetect=result='$WORK/$name.trf' -f null - && \
        ffmpeg -loglevel error -y -i '$in' -vf vidstabtransform=input='$WORK/$name.trf' ${encode[*]} '$WORK/$name.vidstab.mp4'")
    echo "== $name ($frames frames) =="
    printf "%-26s %9s %9s %8s %8s %8s\n" method "jitter px" "roll deg" "lost" "lost max" "fps"
    for entry in "shaken input:$in:" "kamera (standard):$WORK/$name.kamera.mp4:$t_kamera" \
        "kamera --max-crop 0:$WORK/$name.kamera-0.mp4:$t_small" "ffmpeg deshake:$WORK/$name.deshake.mp4:$t_deshake" \
        "vid.stab:$WORK/$name.vidstab.mp4:$t_vidstab"; do
        IFS=: read -r label path time <<<"$entry"
        "$VENV/bin/python" bench/stabilization_measure.py "$WORK/$name.json" "$path" |
            "$VENV/bin/python" -c "
import json, sys
r = json.load(sys.stdin); t = '$time'
fps = f'{$frames / float(t):.0f}' if t else '-'
print(f\"{'$label':<26} {r['jitter_px']:9.3f} {r['roll_jitter_deg']:9.4f} {100 * r['lost_mean']:7.1f}% {100 * r['lost_max']:7.1f}% {fps:>8}\")"
    done
    echo
}

if [[ "$SETS" == speed ]]; then
    clip vtest_1 vtest.avi 1; clip vtest_2 vtest.avi 2; clip megamind_3 Megamind.avi 3; clip tree_4 tree.avi 4
    printf "%-12s %7s %12s %12s %12s %14s\n" clip frames "kamera fps" "deshake fps" "vid.stab fps" "kamera/vid.stab"
    for name in vtest_1 vtest_2 megamind_3 tree_4; do
        in="$WORK/$name.mp4"
        frames=$("$VENV/bin/python" -c "import json; print(len(json.load(open('$WORK/$name.json'))['poses']))")
        t_k=$(seconds .build/release/kamera stabilize "$in" -o "$WORK/$name.kamera.mp4" -y)
        t_d=$(seconds ffmpeg -loglevel error -y -i "$in" -vf deshake -c:v libx264 -crf 23 -preset veryfast "$WORK/$name.deshake.mp4")
        t_v=$(seconds bash -c "ffmpeg -loglevel error -y -i '$in' -vf vidstabdetect=result='$WORK/$name.trf' -f null - && \
            ffmpeg -loglevel error -y -i '$in' -vf vidstabtransform=input='$WORK/$name.trf' -c:v libx264 -crf 23 -preset veryfast '$WORK/$name.vidstab.mp4'")
        awk -v n="$name" -v f="$frames" -v k="$t_k" -v d="$t_d" -v v="$t_v" \
            'BEGIN { printf "%-12s %7d %12.0f %12.0f %12.0f %13.2fx\n", n, f, f / k, f / d, f / v, v / k }'
    done
    echo "whole commands, decoding and H.264 encoding included (all three: libx264 veryfast, crf 23)"
    exit 0
fi
if [[ "$SETS" == tuning || "$SETS" == both ]]; then
    clip vtest_1 vtest.avi 1
    run vtest_1
fi
if [[ "$SETS" == held-out || "$SETS" == both ]]; then
    clip vtest_2 vtest.avi 2
    clip megamind_3 Megamind.avi 3
    clip tree_4 tree.avi 4
    for name in vtest_2 megamind_3 tree_4; do run "$name"; done
fi
echo "jitter: frame-to-frame movement of the picture's centre (and roll) left after removing its slow part (0.5 s), RMS,"
echo "in source pixels; lost: share of the shaken frame's picture not shown as current content (zoom, filled borders);"
echo "fps: the whole command, decoding and H.264 encoding included (vid.stab: both passes)."
