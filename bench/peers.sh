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
