#!/usr/bin/env bash
# Scene text (issue #39): signs of two or three lines pasted in perspective on photos of
# people and rooms (KameraTestMedia's SignScene, made before measuring), read by Kamera's two
# engines and by RapidOCR 1.4.4 (PP-OCRv4 on ONNX Runtime, one thread) and the Tesseract CLI
# (--psm 11), the same PNG files for all. Seeds 0–11 were looked at while building; seeds
# 1000–1023 are held out and reported separately.
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
SCENE_VENV="$KAMERA_CACHE/scene-text-bench-venv"
if ! "$SCENE_VENV/bin/python" -c "import rapidocr_onnxruntime" 2>/dev/null; then
    python3 -m venv "$SCENE_VENV"
    "$SCENE_VENV/bin/pip" install --quiet --disable-pip-version-check "rapidocr-onnxruntime==$RAPIDOCR_VERSION" >&2
fi
apt_peer tesseract-ocr command -v tesseract
apt_peer tesseract-ocr-chi-sim test -f /usr/share/tesseract-ocr/5/tessdata/chi_sim.traineddata
swift build -c release --product kamera-bench >&2
RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(grep -qw avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2); RapidOCR $RAPIDOCR_VERSION; $(tesseract --version 2>&1 | head -1)"
# Chinese signs (WenQuanYi Micro Hei, read as zh-Hans; Tesseract with chi_sim) are compared
# without spaces: Chinese is written without them.
for set in "tuning english 0 12" "held-out english 1000 24" "chinese-tuning chinese 0 12" "chinese-held-out chinese 2000 24"; do
    read -r name language seed count <<<"$set"
    .build/release/kamera-bench scene-text --out "$RESULTS/$name" --seed "$seed" --count "$count" --language "$language" \
        > "$RESULTS/$name.jsonl"
    tesseract_language=eng
    flags=()
    if [ "$language" = chinese ]; then tesseract_language=chi_sim; flags=(--ignore-spaces); fi
    "$SCENE_VENV/bin/python" bench/scene_text_peers.py "$RESULTS/$name/truth.json" "$tesseract_language" > "$RESULTS/$name-peers.jsonl"
    echo
    echo "$name set ($language, seeds $seed…):"
    python3 bench/scene_text_report.py "$RESULTS/$name.jsonl" "$RESULTS/$name-peers.jsonl" "${flags[@]}"
done
