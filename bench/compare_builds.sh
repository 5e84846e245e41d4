#!/usr/bin/env bash
# Detection speed of two builds of `kamera` on the same inputs, for a refactor that must not
# change it: each workload runs REPS times per build, the builds interleaved so load and
# frequency changes hit both alike; prints median wall times and the ratio NEW/OLD.
#   bash bench/compare_builds.sh OLD_KAMERA NEW_KAMERA [REPS]
# Inputs: the demo's code scenes (kamera-demo -o), Debian's photos and page scan, the face
# photos scripts/media.sh keeps.
set -euo pipefail
OLD="$1" NEW="$2" REPS="${3:-5}"
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/versions.sh"
DATA=/usr/share/doc/opencv-doc/examples/data
SCENES="$(mktemp -d)"
trap 'rm -rf "$SCENES"' EXIT
"$(dirname "$NEW")/kamera-demo" -o "$SCENES" >/dev/null
WORKLOADS=(
    "codes, thorough (3 demo scenes)|detect --barcodes --effort thorough $SCENES/scene1.jpg $SCENES/scene2.jpg $SCENES/scene3.jpg"
    "codes, balanced (3 demo scenes)|detect --barcodes $SCENES/scene1.jpg $SCENES/scene2.jpg $SCENES/scene3.jpg"
    "faces + landmarks (3 photos)|detect --faces --landmarks $DATA/messi5.jpg $KAMERA_CACHE/media/astronaut.png $KAMERA_CACHE/media/camera.png"
    "text, recognized (page scan)|detect --text --recognize $DATA/imageTextR.png"
    "rectangles (3 photos)|detect --rectangles $DATA/messi5.jpg $DATA/building.jpg $DATA/fruits.jpg"
)
seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(grep -qw avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2)"
printf '%-34s %10s %10s %8s\n' workload "old (s)" "new (s)" new/old
for workload in "${WORKLOADS[@]}"; do
    name="${workload%%|*}" args="${workload#*|}"
    old=() new=()
    for _ in $(seq "$REPS"); do
        # shellcheck disable=SC2086
        old+=("$(seconds "$OLD" $args)")
        # shellcheck disable=SC2086
        new+=("$(seconds "$NEW" $args)")
    done
    o=$(printf '%s\n' "${old[@]}" | median) n=$(printf '%s\n' "${new[@]}" | median)
    printf '%-34s %10.3f %10.3f %7.2f×\n' "$name" "$o" "$n" "$(awk -v n="$n" -v o="$o" 'BEGIN { print n / o }')"
done
