"""Prints the tiled default's recall, false faces and time on the held-out face set (seed 11:
24 scenes and 24 small-face photos that no setting of the scan was chosen on — the bench
set and a seed-7 set were), so the bench set's figures can be checked on fresh scenes."""
import json, sys
import numpy as np
from face_matching import match

directory, kamera_file = sys.argv[1:3]
truth = {e["file"]: e for e in json.load(open(f"{directory}/truth.json"))}
rows = json.load(open(kamera_file))


found = {"scene": [0, 0], "small": [0, 0]}
false_faces = 0
times = {"scene": [], "small": []}
for row in rows:
    entry = truth.get(row["file"])
    if entry is None or entry["kind"] == "real":
        continue
    pairs, extra = match(row["tiled"]["faces"], entry.get("faces") or [])
    false_faces += extra
    if entry["kind"] in found:
        found[entry["kind"]][0] += len(pairs)
        found[entry["kind"]][1] += len(entry["faces"])
        times[entry["kind"]].append((row["tiled"]["ms"], row["allCores"]["tiled"]))
print("\n## Held-out faces (seed 11): the tiled default on scenes no setting was chosen on")
s, m = found["scene"], found["small"]
print(f"scenes {s[0]}/{s[1]}, small 20-40 px {m[0]}/{m[1]} ({100 * m[0] / max(m[1], 1):.0f}%), false faces {false_faces}")
for kind, label in [("scene", "1280x960 scenes"), ("small", "2000x1400 photos")]:
    one, every = zip(*times[kind])
    print(f"{label}: {np.mean(one):.1f} ms one thread, {np.mean(every):.1f} ms all cores (mean)")
