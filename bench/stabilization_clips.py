"""Shaken clips with a known camera path, for the stabilization bench (issue #37).

A window 5/6 of the source's size is moved over a real video (a fixed camera) along a slow
pan plus hand shake — correlated random shifts and roll, seeded — and each window is written
as a frame. `truth.json` keeps, per frame, the window's centre and roll in the source, so the
bench can find exactly where any stabilizer's output frame sits in the source.

Usage: stabilization_clips.py SOURCE SEED OUT_DIR NAME
"""
import json
import math
import subprocess
import sys

import cv2
import numpy as np


def shake(count, rate, rng, margin):
    """Pan plus shake (x, y in pixels, roll in degrees) for `count` frames at `rate` fps."""
    t = np.arange(count) / rate
    pan_x = 0.3 * margin[0] * np.sin(2 * math.pi * t / 9.0 + rng.uniform(0, 6.28))
    pan_y = 0.2 * margin[1] * np.sin(2 * math.pi * t / 13.0 + rng.uniform(0, 6.28))
    # Hand shake: AR(1) noise whose memory is ~0.1 s whatever the frame rate.
    keep = math.exp(-1.0 / (0.1 * rate))
    parts = []
    for scale in (0.22 * margin[0], 0.22 * margin[1], 0.6):
        noise = rng.normal(0, 1, count)
        out = np.zeros(count)
        for i in range(count):
            out[i] = (keep * out[i - 1] if i else 0) + noise[i]
        parts.append(out / (out.std() + 1e-9) * scale)
    x = np.clip(pan_x + parts[0], -0.8 * margin[0], 0.8 * margin[0])
    y = np.clip(pan_y + parts[1], -0.8 * margin[1], 0.8 * margin[1])
    roll = np.clip(parts[2], -1.5, 1.5)
    return x, y, roll


def main():
    source, seed, out_dir, name = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    capture = cv2.VideoCapture(source)
    rate = capture.get(cv2.CAP_PROP_FPS) or 25.0
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(frame)
    height, width = frames[0].shape[:2]
    out_w, out_h = (width * 5 // 6) & ~1, (height * 5 // 6) & ~1
    margin = ((width - out_w) / 2, (height - out_h) / 2)
    rng = np.random.default_rng(seed)
    xs, ys, rolls = shake(len(frames), rate, rng, margin)
    path = f"{out_dir}/{name}.mp4"
    encoder = subprocess.Popen(
        ["ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgr24", "-s", f"{out_w}x{out_h}",
         "-r", str(rate), "-i", "-", "-c:v", "libx264", "-crf", "12", "-preset", "fast", "-pix_fmt", "yuv420p", path],
        stdin=subprocess.PIPE)
    poses = []
    for frame, x, y, roll in zip(frames, xs, ys, rolls):
        cx, cy = width / 2 + x, height / 2 + y
        a = math.radians(roll)
        rotation = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        offset = np.array([cx, cy]) - rotation @ np.array([out_w / 2, out_h / 2])
        window_to_source = np.hstack([rotation, offset[:, None]])
        window = cv2.warpAffine(frame, window_to_source, (out_w, out_h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
        encoder.stdin.write(window.tobytes())
        poses.append({"cx": cx, "cy": cy, "roll": roll})
    encoder.stdin.close()
    encoder.wait()
    with open(f"{out_dir}/{name}.json", "w") as f:
        json.dump({"source": source, "seed": seed, "rate": rate, "width": out_w, "height": out_h,
                   "source_width": width, "source_height": height, "poses": poses}, f)


main()
