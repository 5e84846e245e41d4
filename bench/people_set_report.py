"""Kamera's and MediaPipe's body poses on the harder people set (or hands on the hand set)
against its truth: for each kind of image (upright, turned, small, several), the share of the
truth's landmarks (those MediaPipe calls visible on the untouched photo) that a pipeline places
within 5 % of the subject's size (a body's torso, a hand's span), the subjects found, and the time.

Usage: people_set_report.py TRUTH.json KAMERA.jsonl MEDIAPIPE.jsonl
"""
import json
import sys
from collections import defaultdict

import numpy as np

document = json.load(open(sys.argv[1]))
truth = document["images"]
runs = {}
for name, path in (("Kamera", sys.argv[2]), ("MediaPipe", sys.argv[3])):
    runs[name] = {entry["file"]: entry for entry in (json.loads(line) for line in open(path) if line.strip())}


def score(person, bodies, used):
    """Landmarks close and landmarks scored for one truth subject against the nearest unused
    one found (by median distance over the truth's visible landmarks; found when under its size)."""
    points, visible = np.array(person["landmarks"]), np.array(person["visible"])
    best, best_median = None, None
    for index, body in enumerate(bodies):
        if index in used:
            continue
        median = float(np.median(np.linalg.norm(np.array(body)[visible] - points[visible], axis=1)))
        if best_median is None or median < best_median:
            best, best_median = index, median
    if best is None or best_median > person["size"]:
        return 0, int(visible.sum()), False
    used.add(best)
    distances = np.linalg.norm(np.array(bodies[best])[visible] - points[visible], axis=1)
    return int((distances <= 0.05 * person["size"]).sum()), int(visible.sum()), True


kinds = ["upright", "turned", "small", "several"]
table = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0, 0.0]))  # close, scored, found, people, ms
for image in truth:
    for name, entries in runs.items():
        entry = entries[image["file"]]
        used = set()
        cell = table[image["kind"]][name]
        for person in image["subjects"]:
            close, scored, found = score(person, entry["found"], used)
            cell[0] += close
            cell[1] += scored
            cell[2] += found
            cell[3] += 1
        cell[4] += entry["ms"]
print(f"{'kind':9} {'images':>6}  {'Kamera: joints within 5 %':>27} {'found':>7} {'ms':>7}   "
      f"{'MediaPipe: joints within 5 %':>30} {'found':>7} {'ms':>7}")
totals = {name: [0, 0, 0, 0, 0.0] for name in runs}
for kind in kinds:
    if kind not in table:
        continue
    count = sum(1 for image in truth if image["kind"] == kind)
    cells = []
    for name in runs:
        close, scored, found, people, ms = table[kind][name]
        totals[name] = [a + b for a, b in zip(totals[name], table[kind][name])]
        cells.append(f"{close:5}/{scored:<5} ({100 * close / scored:5.1f} %) {found:3}/{people:<3} {ms:7.0f}")
    print(f"{kind:9} {count:6}  {cells[0]:>27}   {cells[1]:>30}")
cells = []
for name in runs:
    close, scored, found, people, ms = totals[name]
    cells.append(f"{close:5}/{scored:<5} ({100 * close / scored:5.1f} %) {found:3}/{people:<3} {ms:7.0f}")
print(f"{'all':9} {len(truth):6}  {cells[0]:>27}   {cells[1]:>30}")
k, m = totals["Kamera"][4], totals["MediaPipe"][4]
print(f"time: Kamera {k:.0f} ms, MediaPipe {m:.0f} ms for the {len(truth)} images = {k / m:.2f}×")
if document.get("leftOut"):
    print("left out (MediaPipe finds nobody in the untouched photo, so no truth): " + ", ".join(document["leftOut"]))
