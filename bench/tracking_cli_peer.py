"""OpenCV's KCF or CSRT tracker as a command like `kamera track`: a video, a box on its first
frame, one JSON line per frame to a file. Prints, on standard error, the seconds its frame loop
took (decoding included), so the report can show the loop alone as well as the whole process.

Usage: tracking_cli_peer.py KCF|CSRT VIDEO x,y,width,height EVENTS"""
import json
import sys
import time

import cv2


def main(name, path, box, events):
    make = {"KCF": cv2.TrackerKCF_create, "CSRT": cv2.TrackerCSRT_create}[name]
    started = time.perf_counter()
    capture = cv2.VideoCapture(path)
    ok, frame = capture.read()
    if not ok:
        sys.exit(f"cannot read {path}")
    first = [float(v) for v in box.split(",")]
    tracker = make()
    tracker.init(frame, tuple(int(round(v)) for v in first))
    with open(events, "w") as out:
        box_record = dict(zip(("x", "y", "width", "height"), first))
        out.write(json.dumps({"frame": 0, "pixelBox": box_record, "lost": False}) + "\n")
        index = 0
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            index += 1
            found, found_box = tracker.update(frame)
            record = {"frame": index, "lost": not found}
            if found:
                record["pixelBox"] = dict(zip(("x", "y", "width", "height"), (float(v) for v in found_box)))
            out.write(json.dumps(record) + "\n")
    print(json.dumps({"loopSeconds": time.perf_counter() - started}), file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:5])
