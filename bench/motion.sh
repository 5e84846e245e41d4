#!/usr/bin/env bash
# Close-up EAN/UPC photos taken in motion (issue #36): Kamera (balanced, thorough) against zxing-cpp
# and ZBar on retail codes over half to nearly all of the photo, seen from one end, smeared over
# 0.3–1.6 modules, with print 1–4 modules past a guard bar (`MotionBlurScene`).
# Usage: bench/motion.sh [SEED…] (default 701 702 703; 200 scenes each)
[[ $# -gt 0 ]] || set -- 701 702 703
exec bash "$(dirname "${BASH_SOURCE[0]}")/hard_codes.sh" motion "$@"
