"""Side by side: Kamera's people requests and MediaPipe's pipelines on the same photos, and
raw invokes of the same models in KameraNN and LiteRT; prints times with ratios and how well
the two agree.

Usage: people_report.py KAMERA.jsonl PEERS.json KAMERA_INVOKES.jsonl
"""
import json
import sys

import numpy as np

kamera = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
peers = json.load(open(sys.argv[2]))
invokes = [json.loads(line) for line in open(sys.argv[3]) if line.strip()]


def pgm(path):
    with open(path, "rb") as f:
        data = f.read()
    parts = data.split(maxsplit=4)
    width, height = int(parts[1]), int(parts[2])
    return np.frombuffer(parts[4][: width * height], dtype=np.uint8).reshape(height, width)


print("Per photo, end to end (median ms; Kamera / MediaPipe):")
print(f"{'photo':22} {'body pose':>22} {'hands':>22} {'person mask':>22}  keypoints (visible)  mask IoU")
totals = {"pose": [0, 0], "hands": [0, 0], "mask": [0, 0]}
agreements, visible_agreements, ious = [], [], []
for ours, theirs in zip(kamera, peers["photos"]):
    name = ours["file"].split("/")[-1]
    cells = []
    for key, field in (("pose", "poseMs"), ("hands", "handsMs"), ("mask", "maskMs")):
        totals[key][0] += ours[field]
        totals[key][1] += theirs[field]
        cells.append(f"{ours[field]:6.1f} / {theirs[field]:6.1f} {ours[field] / theirs[field]:5.2f}×")
    # Keypoints within 5 % of the torso (MediaPipe's shoulders' middle to hips' middle).
    agreement = "-"
    if ours["landmarks"] and theirs["landmarks"]:
        a, b = np.array(ours["landmarks"]), np.array(theirs["landmarks"])
        torso = np.linalg.norm((b[11] + b[12]) / 2 - (b[23] + b[24]) / 2)
        close = np.linalg.norm(a - b, axis=1) <= 0.05 * torso
        share = float(np.mean(close))
        # The points MediaPipe itself calls visible: the others (legs out of the frame) are guesses.
        seen = np.array(theirs["visibility"]) >= 0.5
        seen_share = float(np.mean(close[seen])) if seen.any() else share
        agreements.append(share)
        visible_agreements.append(seen_share)
        agreement = f"{100 * share:.0f} % ({100 * seen_share:.0f} %)"
    elif ours["landmarks"] or theirs["landmarks"]:
        agreement = "only " + ("Kamera" if ours["landmarks"] else "MediaPipe")
    m, n = pgm(ours["mask"]) >= 128, pgm(theirs["mask"]) >= 128
    union = np.logical_or(m, n).sum()
    iou = float(np.logical_and(m, n).sum() / union) if union else 1.0
    ious.append(iou)
    print(f"{name:22} {cells[0]:>22} {cells[1]:>22} {cells[2]:>22}  {agreement:>19}  {iou:8.3f}")
print(
    "all photos:            "
    + "  ".join(f"{key} {t[0]:.0f} / {t[1]:.0f} ms = {t[0] / t[1]:.2f}×" for key, t in totals.items()))
# Hands both ways: Kamera's default also follows body poses to hands too small for the palm
# detector; with the palm detector alone it runs MediaPipe Hands' pipeline.
found = sum(len(o["wrists"]) for o in kamera)
palm_found = sum(o.get("palmsOnlyHands", 0) for o in kamera)
theirs_found = sum(len(t["wrists"]) for t in peers["photos"])
if all("palmsOnlyMs" in o for o in kamera):
    palm_ms = sum(o["palmsOnlyMs"] for o in kamera)
    print(
        f"hands found: Kamera {found}, with the palm detector alone {palm_found} "
        f"({palm_ms:.0f} ms = {palm_ms / totals['hands'][1]:.2f}× MediaPipe's time), MediaPipe Hands {theirs_found}")
if all("holisticMs" in t for t in peers["photos"]):
    # Holistic may read one hand twice (its left and right regions on two hands holding a
    # ball): hands count once when their joints lie within a fifth of the hand's span.
    def distinct(hands):
        kept = []
        for hand in map(np.array, hands):
            span = max(np.ptp(hand[:, 0]), np.ptp(hand[:, 1]), 1)
            if all(np.mean(np.linalg.norm(hand - other, axis=1)) >= 0.2 * span for other in kept):
                kept.append(hand)
        return len(kept)
    holistic_ms = sum(t["holisticMs"] for t in peers["photos"])
    holistic_found = sum(distinct(t["holisticHands"]) for t in peers["photos"])
    print(
        f"hands from the body: Kamera {found} in {totals['hands'][0]:.0f} ms, MediaPipe Holistic {holistic_found} "
        f"in {holistic_ms:.0f} ms (pose, face mesh and hands) = {totals['hands'][0] / holistic_ms:.2f}× its time")
if agreements:
    print(
        f"pose keypoints within 5 % of the torso: {100 * np.mean(agreements):.1f} % of all 33, "
        f"{100 * np.mean(visible_agreements):.1f} % of those MediaPipe sees (mean over {len(agreements)} photos)")
print(f"person mask IoU (general model, image size, ≥ 0.5): mean {np.mean(ious):.3f}, lowest {min(ious):.3f}")
if invokes:
    print()
    print("Raw invokes, one thread, input in place (median ms; KameraNN / LiteRT):")
for entry in invokes:
    # "X.tflite without its mask": KameraNN computing only the outputs Kamera reads, beside
    # LiteRT's whole model (LiteRT computes every output).
    theirs = peers["invokes"].get(entry["model"].split(" ")[0])
    if theirs:
        print(f"  {entry['model']:44} {entry['median_ms']:7.2f} / {theirs:7.2f} = {entry['median_ms'] / theirs:.2f}×")
