#!/usr/bin/env bash
# Geometry benchmark: Kamera's document, rectangle and registration requests against OpenCV's
# usual approaches (contour document finder, the squares sample, findTransformECC, ORB +
# RANSAC) on the same synthetic scenes over real photos, in one run, with ratios.
source "$(dirname "${BASH_SOURCE[0]}")/peers.sh"
# OpenCV's wheel pins its own numpy; it gets its own environment.
VENV="$KAMERA_CACHE/geometry-bench-venv"
pip_peers "opencv-contrib-python-headless==4.12.0.88" "numpy==2.2.6"
swift build -c release --product kamera-bench >&2
DATA="${KAMERA_BENCH_DATA:-$KAMERA_CACHE/bench-geometry}"
[[ -f "$DATA/pairs.json" ]] || .build/release/kamera-bench geometry-dataset "$DATA" >&2
RESULTS="$(mktemp -d)"
trap 'rm -rf "$RESULTS"' EXIT
.build/release/kamera-bench geometry "$DATA" > "$RESULTS/kamera.json"
"$VENV/bin/python" bench/geometry_peers.py "$DATA" > "$RESULTS/peers.json"
echo "machine: $(nproc) cores; peers: OpenCV $("$VENV/bin/python" -c "import cv2; print(cv2.__version__)") from Python; Kamera: Debian's OpenCV $(pkg-config --modversion opencv4) (default threads on both sides)"
"$VENV/bin/python" bench/geometry_report.py "$DATA" "$RESULTS/kamera.json" "$RESULTS/peers.json"
# Scenes only for checking: DIRECTORY FIRST_INDEX TITLE [KINDS [SCENES]] (96 scenes with an
# object of the kinds in turn, page,card,screen,sign by default, a sixth as many without, no
# registration pairs, seeds 1000 + FIRST_INDEX on).
check_set() {
    [[ -f "$1/pairs.json" ]] ||
        .build/release/kamera-bench geometry-dataset "$1" --first-index "$2" --scenes "${5:-96}" --pairs 0 \
            --kinds "${4:-page,card,screen,sign}" >&2
    .build/release/kamera-bench geometry "$1" > "$RESULTS/kamera-$2.json"
    "$VENV/bin/python" bench/geometry_peers.py "$1" > "$RESULTS/peers-$2.json"
    echo
    echo "$3"
    "$VENV/bin/python" bench/geometry_report.py "$1" "$RESULTS/kamera-$2.json" "$RESULTS/peers-$2.json"
}
# The scenes above have guided the detector's tuning; 96 more from the same generator show
# whether it generalises. Their misses have since been studied too, and so have the next 96's
# (the fresh set) and the fourth set's (seeds 1240 on), so a fifth set shows the same on
# scenes nobody has studied.
check_set "${KAMERA_BENCH_HELDOUT:-$KAMERA_CACHE/bench-geometry-heldout}" 48 \
    "Held-out scenes (seeds 1048 on; no tuning ran on them, but their misses were studied)"
check_set "${KAMERA_BENCH_FRESH:-$KAMERA_CACHE/bench-geometry-fresh}" 144 \
    "Fresh scenes (seeds 1144 on; no tuning ran on them, but their misses were studied)"
check_set "${KAMERA_BENCH_UNSEEN:-$KAMERA_CACHE/bench-geometry-unseen}" 240 \
    "Fourth set (seeds 1240 on; its misses studied and its score used in tuning in session 19)"
NEVER_STUDIED=("${KAMERA_BENCH_NEW:-$KAMERA_CACHE/bench-geometry-new}" 796)
check_set "${NEVER_STUDIED[0]}" 796 "New scenes (seeds 1796 on, never studied)"
# 288 more made in session 20 before any change of that session was measured on them; only
# their scores have been looked at (and, in session 49, one scene's candidates: 2044, a page
# an earlier form of that session's change lost).
for first in 1000 1096 1192; do
    NEVER_STUDIED+=("$KAMERA_CACHE/bench-geometry-$((first + 1000))" "$first")
    check_set "$KAMERA_CACHE/bench-geometry-$((first + 1000))" "$first" \
        "Never-studied scenes (seeds $((first + 1000)) on)"
done
# Issue #36's screens: what a screen shows has its own strong borders (a window with a title
# bar, a photo on a mat inside a rule) round which the thin bezel is the weaker edge. 48 to
# tune on, and 96 (half such screens, a quarter plain screens, a quarter cards) made at the
# same time and measured only when the change was done.
check_set "$KAMERA_CACHE/bench-geometry-screens-tune" 3000 \
    "Framed screens, tuning set (seeds 4000 on)" framedScreen 48
check_set "$KAMERA_CACHE/bench-geometry-screens-heldout" 3100 \
    "Framed screens, held out (seeds 4100 on; its misses since looked at)" framedScreen,screen,framedScreen,card
# The same kinds, made in session 44 before its change (the bezel's first edge outside, the
# second band, the side hidden under the picture's border) and scored when it was done; its
# misses were then looked into.
check_set "$KAMERA_CACHE/bench-geometry-screens-heldout2" 3200 \
    "Framed screens, held out 2 (seeds 4200 on, made in session 44; its misses since looked at)" framedScreen,screen,framedScreen,card
# Made in session 44 before its last change (a screen not dropped as the extension of a hybrid
# quad) and scored only by totals.
check_set "$KAMERA_CACHE/bench-geometry-screens-heldout3" 3300 \
    "Framed screens, held out 3 (seeds 4300 on, made in session 44)" framedScreen,screen,framedScreen,card
# Made in session 45 before any document change and scored once, by totals (82 of 96: framed
# screens 38 of 48, plain screens 24 of 24, cards 20 of 24); its misses were looked into in
# session 48, so it is a tuning set now.
check_set "$KAMERA_CACHE/bench-geometry-screens-heldout4" 3400 \
    "Framed screens, held out 4 (seeds 4400 on, made in session 45; its misses looked at in session 48)" framedScreen,screen,framedScreen,card
# Made in session 48 before anything was tried, scored once by totals when its change (a side
# may stay) was done: 85 -> 86 of 96. Its misses were looked into in session 49, so it is a
# tuning set now.
check_set "$KAMERA_CACHE/bench-geometry-screens-heldout5" 3500 \
    "Framed screens, held out 5 (seeds 4500 on, made in session 48; its misses looked at in session 49)" framedScreen,screen,framedScreen,card
# Made in session 49 before anything was tried, scored once by totals when its change (a
# document's edges reach its corners) was done: 84 -> 86 of 96. Its misses were not looked at;
# the next change needs a set of its own (seeds 4700 on) all the same. Session 51 scored it
# again by totals only (86 -> 90 of 96 with one side moved alone, 91 with a band's flatness
# scaled by its contrast).
check_set "$KAMERA_CACHE/bench-geometry-screens-heldout6" 3600 \
    "Framed screens, held out 6 (seeds 4600 on, made in session 49)" framedScreen,screen,framedScreen,card
# Made in session 51 before anything was tried, scored once by totals when its change (one side
# moved out alone) was done: 88 -> 91 of 96 (91 too after the second). Its misses were not
# looked at.
check_set "$KAMERA_CACHE/bench-geometry-screens-heldout7" 3700 \
    "Framed screens, held out 7 (seeds 4700 on, made in session 51)" framedScreen,screen,framedScreen,card
# Made in session 51 after that change was committed, for the next one; scored once by totals
# with it (86 -> 87 of 96). Its misses were not looked at.
check_set "$KAMERA_CACHE/bench-geometry-screens-heldout8" 3800 \
    "Framed screens, held out 8 (seeds 4800 on, made in session 51)" framedScreen,screen,framedScreen,card
# Made in session 51 before its second change (a band's flatness scaled by its contrast) was
# measured, scored once by totals with it: 91 of 96 (89 at the session's start). Not looked at.
check_set "$KAMERA_CACHE/bench-geometry-screens-heldout9" 3900 \
    "Framed screens, held out 9 (seeds 4900 on, made in session 51)" framedScreen,screen,framedScreen,card
# The goal (corners within 1 % on at least 95 % of scenes nobody has tuned on), over every
# set whose misses were never studied.
echo
"$VENV/bin/python" - "$RESULTS" "${NEVER_STUDIED[@]}" <<'PY'
import json, math, sys
sys.path.insert(0, "bench")
from geometry_report import corner_error
results, sets = sys.argv[1], sys.argv[2:]
hits = total = 0
for directory, first in zip(sets[::2], sets[1::2]):
    scenes = json.load(open(f"{directory}/scenes.json"))
    found = json.load(open(f"{results}/kamera-{first}.json"))["scenes"]
    for scene, result in zip(scenes, found):
        if not scene.get("corners"):
            continue
        total += 1
        truth, document = scene["corners"], result.get("document")
        hits += bool(document) and corner_error(truth, document) <= 0.01 * math.dist(truth[0], truth[2])
print(f"Never-studied scenes, documents within 1 %: {hits}/{total} ({100 * hits / total:.1f} %; goal 95 %)")
PY
