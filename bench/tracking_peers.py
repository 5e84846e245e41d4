"""OpenCV's trackers (CSRT, KCF, MOSSE from opencv-contrib) on the tracking benchmark's
sequences: each starts from the first frame's true box; prints per-frame boxes and times as JSON."""
import json
import sys
import time

import cv2


def trackers():
    return {
        "CSRT": cv2.TrackerCSRT_create,
        "KCF": cv2.TrackerKCF_create,
        "MOSSE": cv2.legacy.TrackerMOSSE_create,
    }


def run(path, first_box, make):
    capture = cv2.VideoCapture(path)
    ok, frame = capture.read()
    tracker = make()
    tracker.init(frame, tuple(int(round(v)) for v in first_box))
    boxes, seconds = [list(first_box)], 0.0
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        start = time.perf_counter()
        found, box = tracker.update(frame)
        seconds += time.perf_counter() - start
        boxes.append([float(v) for v in box] if found else None)
    return {"boxes": boxes, "milliseconds": 1000 * seconds / max(1, len(boxes) - 1)}


def main(directory):
    sequences = json.load(open(f"{directory}/sequences.json"))
    results = {}
    for name, make in trackers().items():
        results[name] = [run(f"{directory}/{s['file']}", s["boxes"][0], make) for s in sequences]
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
