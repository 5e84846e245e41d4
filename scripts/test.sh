#!/usr/bin/env bash
# The whole test suite, as a new user or CI runs it: setup (idempotent), then every test.
# Release mode: the pixel work in the tests is 10–50× faster optimised.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
eval "$(bash scripts/setup.sh)"
# LiteRT (ai-edge-litert) and ONNX Runtime, pinned, in their own venv: the model tests run
# them on the same inputs as KameraNN and compare outputs (no recorded blobs); `onnx` builds
# the one-operator models of the ONNX operator tests.
source scripts/versions.sh
LITERT_VENV="$KAMERA_CACHE/litert-venv"
if ! "$LITERT_VENV/bin/python" -c "import ai_edge_litert, numpy, onnxruntime, onnx" 2>/dev/null; then
    python3 -m venv "$LITERT_VENV"
    "$LITERT_VENV/bin/pip" install --quiet --disable-pip-version-check "ai-edge-litert==$LITERT_VERSION" "numpy==2.4.6" \
        "onnxruntime==$ONNXRUNTIME_VERSION" "onnx==$ONNX_VERSION" >&2
fi
export KAMERA_LITERT_PYTHON="$LITERT_VENV/bin/python"
# MediaPipe itself (the pinned wheel the models come from), for the one model plain LiteRT
# cannot run: the attention face mesh, whose custom operators only MediaPipe's graph has.
MEDIAPIPE_VENV="$KAMERA_CACHE/mediapipe-venv"
if ! "$MEDIAPIPE_VENV/bin/python" -c "import mediapipe" 2>/dev/null; then
    python3 -m venv "$MEDIAPIPE_VENV"
    "$MEDIAPIPE_VENV/bin/pip" install --quiet --disable-pip-version-check --find-links "$KAMERA_CACHE/downloads" \
        "mediapipe==$MEDIAPIPE_VERSION" >&2
fi
export KAMERA_MEDIAPIPE_PYTHON="$MEDIAPIPE_VENV/bin/python"
# Style: the checked-in .swift-format, before spending minutes on the build.
swift format lint --strict --recursive Sources Tests bench Package.swift Examples/PortedFromiOS/Package.swift \
    Examples/PortedFromiOS/Sources/PortedFromiOS/main.swift
# The tuned geometry C++ stays in stages: no function over 80 lines.
python3 scripts/function-length.py 80 Sources/CGeometry/*.cpp
# Its own build folder: -enable-testing objects must not mix with the demo's release build
# in .build (a mixed incremental build crashed on a changed struct layout).
# One build of everything (the tests run the `kamera` executable), then the tests without
# rebuilding: building the product and then `swift test` with separate plans recompiled every
# module twice per run; this way a second run only compiles what changed.
swift build -c release -Xswiftc -enable-testing --scratch-path .build-test --build-tests
TEST=(swift test -c release -Xswiftc -enable-testing --scratch-path .build-test --skip-build)
if [ $# -eq 0 ]; then
    # Cost tiers (Tests/KameraTestTiers): each suite names its own. First the unit tier, no
    # models, downloads or network (codecs, geometry, kernels, trackers, records, codes on
    # Debian's photos); then the face and text models against LiteRT, video, and the `kamera`
    # executable and server end to end.
    KAMERA_TEST_TIERS=unit "${TEST[@]}"
    KAMERA_TEST_TIERS=models,media "${TEST[@]}"
    # The executable and the servers apart from the model and video suites, and the server's
    # cameras (real time) alone: on two slower AVX2 cores, everything at once starved them
    # (a detect request past its 30 s timeout, an event clip short of its last face frames).
    KAMERA_TEST_TIERS=endToEnd "${TEST[@]}" --skip ServerCameraTests
    KAMERA_TEST_TIERS=endToEnd "${TEST[@]}" --filter ServerCameraTests
else
    "${TEST[@]}" "$@"
fi
# Kamera as other packages use it, and its documentation (only for the whole suite, not a
# --filter run).
if [ $# -eq 0 ]; then
    bash scripts/consumer.sh
    bash scripts/docs.sh
    # The web page in headless Chromium against a real `kamera serve` (screenshots in
    # .build-test/browser).
    bash scripts/browser-test.sh "$ROOT/.build-test/release/kamera"
    # The server attacked as an attacker and an operator would (issue #32).
    bash scripts/security-test.sh "$ROOT/.build-test/release/kamera"
    # Scale-out on real engines: the README's Slurm array and parallel line, a fleet behind nginx.
    bash scripts/scale-test.sh "$ROOT/.build-test/release/kamera"
fi
