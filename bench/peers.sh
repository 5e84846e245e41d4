# Sourced by the benchmark scripts: project setup, then helpers to install the pinned peers.
# Peers live in a virtual environment inside Kamera's cache; Debian packages via apt.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
eval "$(bash scripts/setup.sh)"
source scripts/versions.sh
VENV="$KAMERA_CACHE/bench-venv"

# pip_peers PACKAGE==VERSION…: install into the benchmark environment.
pip_peers() {
    if [[ ! -x "$VENV/bin/python" ]]; then python3 -m venv "$VENV"; fi
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "$@"
}

# apt_peer PACKAGE CHECK-COMMAND…: install a Debian package unless CHECK-COMMAND succeeds.
apt_peer() {
    local package="$1"; shift
    if ! "$@" >/dev/null 2>&1; then
        local sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >&2
    fi
}

# The barcode peers, shared by barcodes.sh, addons.sh and hard_codes.sh: zxing-cpp and ZBar (pyzbar
# over Debian's libzbar0) in the benchmark environment.
barcode_peers() {
    pip_peers "zxing-cpp==$ZXING_VERSION" "pyzbar==0.1.9" "pillow==11.3.0" "numpy==2.3.5"
    apt_peer libzbar0 sh -c "ldconfig -p | grep -q libzbar.so.0"
}

# The face peers' environment, shared by faces.sh, faces_public.sh, live.sh and batch.sh:
# MediaPipe 0.10.21 needs numpy < 2, so it gets its own, with dlib's HOG detector and LiteRT.
FACE_VENV="$KAMERA_CACHE/face-bench-venv"
face_peers() {
    if ! "$FACE_VENV/bin/python" -c "import mediapipe, dlib, ai_edge_litert" 2>/dev/null; then
        python3 -m venv "$FACE_VENV"
        "$FACE_VENV/bin/pip" install --quiet --disable-pip-version-check \
            "mediapipe==$MEDIAPIPE_VERSION" "dlib-bin==20.0.1.post1" "ai-edge-litert==$LITERT_VERSION" >&2
    fi
}
