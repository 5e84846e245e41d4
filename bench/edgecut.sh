#!/usr/bin/env bash
# EAN/UPC codes cut by the photo's edge (issue #36): Kamera (balanced, thorough) against zxing-cpp
# and ZBar on retail photos whose edge runs through one end of the code, from 0.6 of a module
# inside its guard bar to 3 modules out into its quiet zone (`EdgeCutScene`). Seeds 601 and 602
# were looked into while the change was made; 603 was made before it was measured.
# Usage: bench/edgecut.sh [SEED…] (default 601 602 603; 200 scenes each)
[[ $# -gt 0 ]] || set -- 601 602 603
exec bash "$(dirname "${BASH_SOURCE[0]}")/hard_codes.sh" edgecut "$@"
