#!/usr/bin/env bash
# Small QR codes on curled or folded paper (issue #36): Kamera (balanced, thorough) against
# zxing-cpp and ZBar on 320 × 240 photos of a QR code (version 2–7) whose paper is bent around a
# cylinder or along a crease, turned, leaning and lit from one side (`CurledPaperScene`).
# Usage: bench/curled.sh [SEED…] (default 801 802 803; 200 scenes each)
[[ $# -gt 0 ]] || set -- 801 802 803
exec bash "$(dirname "${BASH_SOURCE[0]}")/hard_codes.sh" curled "$@"
