#!/usr/bin/env bash
# Live-scanning benchmark: LiveScanner's frames per second on 640×480 and 1280×720 movies with
# three moving faces and two codes (faces + codes, and faces only), against MediaPipe's
# streaming face detector on the same decoded frames, in one run. Decoding is not timed.
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
face_peers
swift build -c release --product kamera-bench >&2
DATA="${KAMERA_BENCH_DATA:-$KAMERA_CACHE/bench-live}"
.build/release/kamera-bench live-dataset "$DATA" >&2
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
printf "%-22s %-26s %8s %8s %8s\n" "movie" "tool" "fps" "faces/f" "codes/f"
for movie in "$DATA"/live_640x480.mp4 "$DATA"/live_1280x720.mp4; do
    both="$(.build/release/kamera-bench live "$movie")"
    faces="$(.build/release/kamera-bench live "$movie" --faces-only)"
    peers="$("$FACE_VENV/bin/python" bench/live_peer.py "$movie" 2>/dev/null)"
    python3 - "$both" "$faces" "$peers" <<'PY'
import json, sys
both, faces = json.loads(sys.argv[1]), json.loads(sys.argv[2])
peers = [json.loads(line) for line in sys.argv[3].splitlines() if line.strip()]
row = lambda movie, tool, r: print(f"{movie:22} {tool:26} {r['fps']:8.1f} {r['faces_per_frame']:8.2f} {r.get('codes_per_frame', 0):8.2f}")
row(both["file"], "kamera faces+codes", both)
row(faces["file"], "kamera faces", faces)
for p in peers:
    row(p["file"], f"mediapipe {p['model']} (faces)", p)
for p in peers:
    print(f"{'':22} frame rate kamera faces+codes / mediapipe {p['model']} = {both['fps'] / p['fps']:.2f}x, "
          f"kamera faces / mediapipe {p['model']} = {faces['fps'] / p['fps']:.2f}x")
PY
done
# Text on a stream: the same scene with a sign, fed at the movie's 30 fps; faces and codes must
# keep the rate while PP-OCRv4 reads the sign at its own pace on a thread of its own.
text="$(.build/release/kamera-bench live "$DATA/live_text_640x480.mp4" --text --paced --passes 3)"
python3 - "$text" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
print(f"{r['file']:22} faces+codes with text: {r['fps']:.1f} fps (fed at 30), text read {r['text_fps']:.1f} times/s: {r['text']}")
PY
