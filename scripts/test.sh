#!/usr/bin/env bash
# The whole test suite, as a new user or CI runs it: setup (idempotent), then every test.
# Release mode: the pixel work in the tests is 10–50× faster optimised.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
eval "$(bash scripts/setup.sh)"
swift build -c release -Xswiftc -enable-testing --product kamera
swift test -c release -Xswiftc -enable-testing "$@"
