#!/usr/bin/env bash
# Builds Kamera's DocC documentation, .build-docs/Kamera.doccarchive: the articles of
# Sources/Kamera/Kamera.docc and every public symbol (the `Kamera` module re-exports all the
# others, so its symbol graph holds them). Warnings — a broken link, a reference to a symbol
# that is gone — fail the build. Browse with `docc preview Sources/Kamera/Kamera.docc
# --additional-symbol-graph-dir .build-docs/graphs`, or serve the archive (built for static
# hosting).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
eval "$(bash scripts/setup.sh)"
OUT=.build-docs
# The symbol graphs are written while the modules compile (so they stay between runs: an
# incremental build rewrites only those of modules it recompiles).
mkdir -p "$OUT/symbol-graphs"
swift build --scratch-path "$OUT/build" --target Kamera \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$ROOT/$OUT/symbol-graphs" >&2
rm -rf "$OUT/graphs" "$OUT/Kamera.doccarchive"
mkdir -p "$OUT/graphs"
cp "$OUT/symbol-graphs"/Kamera.symbols.json "$OUT/symbol-graphs"/Kamera@*.symbols.json "$OUT/graphs/"
DOCC="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
"$DOCC" convert Sources/Kamera/Kamera.docc --additional-symbol-graph-dir "$OUT/graphs" \
    --fallback-display-name Kamera --fallback-bundle-identifier org.kamera.Kamera \
    --transform-for-static-hosting --warnings-as-errors --output-path "$OUT/Kamera.doccarchive" >&2
echo "documentation: $OUT/Kamera.doccarchive ($(find "$OUT/Kamera.doccarchive/data" -name '*.json' | wc -l) pages)"
