"""Tracking as a user runs it: `kamera track` (both levels) against OpenCV's KCF and CSRT run
the same way (bench/tracking_cli_peer.py: one process per video, decoding included, JSON
lines out), on the same sequences, in one run. Frames per second are frames over the whole
process's wall time; for the peers also over their frame loop alone (without Python's and
OpenCV's start-up), which is the figure the peers are usually quoted at.

Usage: tracking_cli.py KAMERA PEER-PYTHON DATASET-DIRECTORY"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from tracking_report import score  # noqa: E402

LOST_BELOW = 0.45
PEER = os.path.join(os.path.dirname(__file__), "tracking_cli_peer.py")


def read_events(path, frames):
    boxes, confidences = [None] * frames, [0.0] * frames
    for line in open(path):
        record = json.loads(line)
        index = record["frame"]
        if index >= frames or "pixelBox" not in record:
            continue
        b = record["pixelBox"]
        boxes[index] = [b["x"], b["y"], b["width"], b["height"]]
        # Kamera reports a confidence; a peer only found or not.
        confidences[index] = record.get("confidence", 0.0 if record["lost"] else 1.0)
    return boxes, confidences


def run(command, events, frames):
    started = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    wall = time.perf_counter() - started
    loop = None
    for line in done.stderr.splitlines():
        if line.startswith("{"):
            loop = json.loads(line).get("loopSeconds")
    boxes, confidences = read_events(events, frames)
    return {"boxes": boxes, "confidences": confidences, "wall": wall, "loop": loop}


def main(kamera, python, directory):
    sequences = json.load(open(os.path.join(directory, "sequences.json")))
    trackers = {
        "kamera track (accurate)": lambda f, b, e: [kamera, "track", f, "--box", b, "--events", e, "-y"],
        "kamera track --level fast": lambda f, b, e: [kamera, "track", f, "--box", b, "--level", "fast", "--events", e, "-y"],
        "OpenCV KCF (Python)": lambda f, b, e: [python, PEER, "KCF", f, b, e],
        "OpenCV CSRT (Python)": lambda f, b, e: [python, PEER, "CSRT", f, b, e],
    }
    runs = {name: [] for name in trackers}
    with tempfile.TemporaryDirectory() as scratch:
        events = os.path.join(scratch, "events.jsonl")
        # Sequence by sequence, the trackers in turn, so a slower moment of the machine falls on all.
        for s in sequences:
            path = os.path.join(directory, s["file"])
            box = ",".join(f"{v:.1f}" for v in s["boxes"][0])
            for name, command in trackers.items():
                runs[name].append(run(command(path, box, events), events, len(s["boxes"])))
    frames = sum(len(s["boxes"]) for s in sequences)
    print(f"{len(sequences)} sequences, {frames} frames; success: IoU > 0.5 on frames where ≥ 30 % of the target is "
          f"visible (a box reported lost is a miss)")
    print(f"{'':28}{'success':>9}{'fps (process)':>15}{'fps (loop)':>12}")
    table = {}
    for name, results in runs.items():
        rows = score(sequences, results, LOST_BELOW)
        hits = sum(r["hits"] for r in rows.values())
        total = sum(r["frames"] for r in rows.values())
        wall = sum(r["wall"] for r in results)
        loops = [r["loop"] for r in results]
        loop = f"{frames / sum(loops):>12.1f}" if all(v is not None for v in loops) else f"{'—':>12}"
        print(f"{name:28}{hits / total:>9.1%}{frames / wall:>15.1f}{loop}")
        table[name] = (hits / total, frames / wall, frames / sum(loops) if all(v is not None for v in loops) else None)
    accurate, fast = table["kamera track (accurate)"], table["kamera track --level fast"]
    kcf, csrt = table["OpenCV KCF (Python)"], table["OpenCV CSRT (Python)"]
    print(f"\nkamera track (accurate), whole process, against KCF's frame loop alone: {accurate[1] / kcf[2]:.2f}× the frames "
          f"per second, {accurate[0] / csrt[0]:.2f}× CSRT's success")
    print(f"kamera track --level fast, whole process, against KCF's frame loop alone: {fast[1] / kcf[2]:.2f}× the frames "
          f"per second, {fast[0] / csrt[0]:.2f}× CSRT's success")


if __name__ == "__main__":
    main(*sys.argv[1:4])
