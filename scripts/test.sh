#!/usr/bin/env bash
# The whole test suite, as a new user or CI runs it: setup (idempotent), then every test.
# Release mode: the pixel work in the tests is 10–50× faster optimised.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
eval "$(bash scripts/setup.sh)"
# Its own build folder: -enable-testing objects must not mix with the demo's release build
# in .build (a mixed incremental build crashed on a changed struct layout).
swift build -c release -Xswiftc -enable-testing --scratch-path .build-test --product kamera
swift test -c release -Xswiftc -enable-testing --scratch-path .build-test "$@"
