"""The live people benchmark's table: frames a second for Kamera and MediaPipe following a
body and blurring the background, the ratios, and how often the followed landmarks agree
(within 5 % of the torso, landmarks MediaPipe sees with visibility ≥ 0.5, frames where both
follow a body).

Usage: people_live_report.py KAMERA.json PEER.json
"""
import json
import math
import sys

ours, peer = (json.load(open(p)) for p in sys.argv[1:3])
print(f"{ours['frames']} frames of {ours['width']}×{ours['height']}, one stream")
print(f"{'':28} {'Kamera fps':>10} {'MediaPipe fps':>13} {'speed ×':>8}")
for key, label in [("bodyFps", "body pose, followed"), ("blurFps", f"background blur (r {ours['blurRadius']:.0f} px)")]:
    print(f"{label:28} {ours[key]:10.1f} {peer[key]:13.1f} {ours[key] / peer[key]:8.2f}")
close = total = both = 0
for a, b, seen in zip(ours["landmarks"], peer["landmarks"], peer["visibility"]):
    if not a or not b:
        continue
    both += 1
    torso = math.dist([(b[11][0] + b[12][0]) / 2, (b[11][1] + b[12][1]) / 2], [(b[23][0] + b[24][0]) / 2, (b[23][1] + b[24][1]) / 2])
    for i in range(33):
        if seen[i] >= 0.5:
            total += 1
            close += math.dist(a[i], b[i]) <= 0.05 * torso
followed = sum(1 for a in ours["landmarks"] if a)
print(f"bodies followed: Kamera {followed}, MediaPipe {sum(1 for b in peer['landmarks'] if b)} of {ours['frames']} frames;"
      f" agreement {100 * close / max(total, 1):.0f} % of {total} visible landmarks within 5 % of the torso ({both} frames)")
