#!/usr/bin/env bash
# Video benchmark: Kamera against the ffmpeg CLI (same libx264, same preset) in one run.
#  - record the test pattern at 1080p30 and 720p30 for SECONDS (default 10) as fragmented H.264;
#  - re-record the same real video (opencv-doc's vtest.avi, 768×576, 795 frames);
#  - decode every frame of it; take a 100-pixel-wide thumbnail at 40 s.
# Prints wall time (median of 3), frames per second and the ratio Kamera/ffmpeg.
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
apt_peer bc command -v bc
swift build -c release --product kamera >&2
swift build -c release --product kamera-bench >&2
SECONDS_TO_RECORD="${1:-10}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
VIDEO=/usr/share/doc/opencv-doc/examples/data/vtest.avi
FRAG="frag_keyframe+empty_moov+default_base_moof"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() {  # prints the median wall time of 3 runs of "$@"
    for _ in 1 2 3; do
        local start end
        start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N)
        echo "$end - $start" | bc -l
    done | median
}
row() {  # name frames kamera_seconds ffmpeg_seconds
    printf "%-34s %8s %10.2f %10.1f %10.2f %10.1f %8.2fx\n" "$1" "$2" "$3" "$(echo "$2 / $3" | bc -l)" "$4" "$(echo "$2 / $4" | bc -l)" "$(echo "$3 / $4" | bc -l)"
}

echo "machine: $(nproc) cores; $(ffmpeg -version | head -1 | cut -d' ' -f1-3); x264 preset veryfast, zerolatency, 1 s fragments"
printf "%-34s %8s %10s %10s %10s %10s %9s\n" "task" "frames" "kamera s" "kamera fps" "ffmpeg s" "ffmpeg fps" "time k/f"
for size in 1920x1080 1280x720; do
    frames=$((SECONDS_TO_RECORD * 30))
    k=$(timed .build/release/kamera record --test-pattern --size "$size" --fps 30 --duration "$SECONDS_TO_RECORD" -o "$OUT/k.mov")
    f=$(timed ffmpeg -y -f lavfi -i "testsrc2=size=$size:rate=30" -t "$SECONDS_TO_RECORD" -c:v libx264 -preset veryfast -tune zerolatency \
        -crf 23 -g 30 -bf 0 -pix_fmt yuv420p -movflags "$FRAG" -frag_duration 1000000 "$OUT/f.mov")
    row "record test pattern $size@30" "$frames" "$k" "$f"
done
k=$(timed .build/release/kamera record "$VIDEO" -o "$OUT/k2.mov")
f=$(timed ffmpeg -y -i "$VIDEO" -an -c:v libx264 -preset veryfast -tune zerolatency -crf 23 -g 10 -bf 0 -pix_fmt yuv420p \
    -movflags "$FRAG" -frag_duration 1000000 "$OUT/f2.mov")
row "re-record vtest.avi (768x576)" 795 "$k" "$f"
k=$(timed .build/release/kamera-bench video-read "$VIDEO")
f=$(timed ffmpeg -i "$VIDEO" -an -pix_fmt rgb24 -f null -)
row "decode all frames to RGB" 795 "$k" "$f"
k=$(timed .build/release/kamera thumbnail "$VIDEO" --at 40 --max-size 100x0 -o "$OUT/k.png")
f=$(timed ffmpeg -y -ss 40 -i "$VIDEO" -frames:v 1 -vf scale=100:-1 "$OUT/f.png")
row "thumbnail at 40 s, 100 px wide" 1 "$k" "$f"
echo "real time: recording must reach 30 fps (kamera fps column) to keep up with a 30 fps camera"
