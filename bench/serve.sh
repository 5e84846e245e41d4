#!/usr/bin/env bash
# kamera serve under load, on loopback: live round trip and frames per second per WebSocket
# connection at 640×480 and 1280×720, how many 15 fps 640×480 streams the machine holds,
# and POST /v1/detect at concurrency 8–32 against `kamera detect`'s per-image time on the
# same files, with the server's memory (RSS) sampled through the run.
# Usage: bash bench/serve.sh [SECONDS-PER-STEP]
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
VENV="$KAMERA_CACHE/serve-bench-venv"
if [[ ! -x "$VENV/bin/python" ]]; then python3 -m venv "$VENV"; fi
"$VENV/bin/pip" install --quiet --disable-pip-version-check "websockets==13.1"
swift build -c release --product kamera >&2
WORK="$(mktemp -d)"
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
# Frames of a real video (opencv-doc's Megamind.avi: faces) at both sizes, as the page sends them.
mkdir -p "$WORK/640" "$WORK/1280"
ffmpeg -loglevel error -i /usr/share/doc/opencv-doc/examples/data/Megamind.avi -frames:v 150 -vf scale=640:480 -q:v 4 "$WORK/640/f%03d.jpg"
ffmpeg -loglevel error -i /usr/share/doc/opencv-doc/examples/data/Megamind.avi -frames:v 150 -vf scale=1280:720 -q:v 4 "$WORK/1280/f%03d.jpg"
# Photos for /v1/detect: the opencv-doc photos with faces and the demo's code scenes.
PHOTOS=(/usr/share/doc/opencv-doc/examples/data/{messi5,baboon,fruits,building,home,board,apple}.jpg)
.build/release/kamera serve --port 0 --data "$WORK/data" > "$WORK/serve.out" &
SERVER=$!
until grep -q serving "$WORK/serve.out" 2>/dev/null; do sleep 0.1; done
PORT="$(grep -o '127.0.0.1:[0-9]*' "$WORK/serve.out" | cut -d: -f2)"
# The CLI's own time per image on the same files (one process, files in turn, one job).
CLI_START=$(date +%s.%N)
for _ in 1 2 3; do .build/release/kamera detect --faces --barcodes --jobs 1 --format jsonl "${PHOTOS[@]}" > /dev/null; done
CLI_SECONDS=$(echo "$(date +%s.%N) - $CLI_START" | bc)
echo "machine: $(nproc) cores; kamera serve on 127.0.0.1:$PORT (analysis slots: 2 per core + 2)"
"$VENV/bin/python" bench/serve_load.py "$PORT" "$SERVER" "$WORK/640" "$WORK/1280" "$CLI_SECONDS" "${1:-8}" "${PHOTOS[@]}"

# Server cameras (--camera): the same video at 30 fps played as the server's own camera; one
# page watches while the camera records every frame at its full size.
echo
echo "Server camera (--camera, a 30 fps movie played as the camera): one page watching while recording, ${1:-8} s"
printf '%-12s%12s%14s%14s%13s\n' camera "analysed fps" "analysis p50" "recorded fps" size
for size in 640x480 1280x720; do
    ffmpeg -loglevel error -i /usr/share/doc/opencv-doc/examples/data/Megamind.avi -vf "scale=${size/x/:}" -r 30 -c:v libx264 -preset veryfast "$WORK/camera-$size.mp4"
    .build/release/kamera serve --port 0 --data "$WORK/camera-data" --camera "$WORK/camera-$size.mp4" > "$WORK/camera.out" &
    CAMERA_SERVER=$!
    until grep -q serving "$WORK/camera.out" 2>/dev/null; do sleep 0.1; done
    CAMERA_PORT="$(grep -o '127.0.0.1:[0-9]*' "$WORK/camera.out" | cut -d: -f2)"
    "$VENV/bin/python" bench/serve_camera.py "$CAMERA_PORT" "$size@30" "${1:-8}"
    kill $CAMERA_SERVER; wait $CAMERA_SERVER 2>/dev/null || true
    rm -f "$WORK/camera.out"
done
