#!/usr/bin/env bash
# The main job on built-in defaults: setup (idempotent), release build, then `kamera-demo`,
# which builds photo scenes with codes from Debian's sample media, detects and annotates them.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
eval "$(bash scripts/setup.sh)"
swift build -c release --product kamera-demo >&2
exec .build/release/kamera-demo "$@"
