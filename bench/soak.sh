#!/usr/bin/env bash
# kamera serve soaked (issue #32): 16 clients for 10 minutes by default — photos through
# /v1/detect (faces and codes), live WebSocket sessions, code generation, the stored lists,
# and recordings from a server camera — with the server's RSS sampled every 2 s. It prints
# latencies (p50, p99) and statuses per kind of work, memory after warm-up against the last
# two minutes, and whether anything answered 200 was lost.
# Usage: bash bench/soak.sh [SECONDS] [CONCURRENCY]
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
# KAMERA=path/to/kamera runs an existing build instead of building .build/release.
if [[ -z "${KAMERA:-}" ]]; then swift build -c release --product kamera >&2; fi
KAMERA="${KAMERA:-.build/release/kamera}"
WORK="$(mktemp -d)"
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
DATA=/usr/share/doc/opencv-doc/examples/data
"$KAMERA" serve --port 0 --data "$WORK/data" --camera "$DATA/Megamind.avi" > "$WORK/serve.out" 2> "$WORK/serve.err" &
SERVER=$!
until grep -q serving "$WORK/serve.out" 2>/dev/null; do sleep 0.1; done
PORT="$(grep -o '127.0.0.1:[0-9]*' "$WORK/serve.out" | head -1 | cut -d: -f2)"
echo "machine: $(nproc) cores, $(grep -o -m1 'avx512[a-z]*\|avx2' /proc/cpuinfo | head -1) ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
python3 bench/soak.py "$PORT" "$SERVER" "${1:-600}" "${2:-16}" "$DATA"/{messi5,baboon,fruits,building,home,board,apple}.jpg
