# Source this to build with plain `swift build` / `swift test`:  source scripts/env.sh
# It runs the (idempotent) setup and exports PKG_CONFIG_PATH for zxing-cpp.
eval "$(bash "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/setup.sh")"
