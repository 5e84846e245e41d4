"""Makes the harder people set: real photos of people turned, made small in a larger scene, and
put side by side, with each person's 33 body landmarks as truth; with --hands, the hand set:
real photos of hands turned and side by side, with each hand's 21 joints as truth.

The truth is MediaPipe's own reading of the untouched photo (Pose or Hands, static image mode,
full models) carried through the exact same geometric change as the pixels: where MediaPipe's
pipeline reads the easy photo, that is where the joints are in the hard one. Only the body
landmarks MediaPipe calls visible (≥ 0.5) on the easy photo are scored (every joint of a hand).
Each subject's size, the scale its joints are scored on, is the torso for a body (shoulders'
middle to hips' middle) and the span for a hand (its two joints farthest apart). Written before
either pipeline was run on the hard images. (No small kind for hands: a hand a quarter of a
close-up's size in a street scene has no body in view to be found by.)

Usage: people_set.py [--hands] OUT_DIR BACKGROUND PHOTO...
Writes OUT_DIR/*.png and OUT_DIR/truth.json ({"images": [{"file", "kind", "subjects": [{"landmarks",
"visible", "size"}]}], "leftOut": photos where MediaPipe finds nobody, so without truth}).
"""
import json
import math
import os
import sys

import cv2
import mediapipe as mp
import numpy as np

hands_mode = sys.argv[1:2] == ["--hands"]
arguments = sys.argv[2:] if hands_mode else sys.argv[1:]
out_dir, background_path, photos = arguments[0], arguments[1], arguments[2:]
os.makedirs(out_dir, exist_ok=True)
if hands_mode:
    pipeline = mp.solutions.hands.Hands(static_image_mode=True, max_num_hands=4, model_complexity=1)
else:
    pipeline = mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, enable_segmentation=False)


def read_truth(bgr):
    """MediaPipe's subjects on an easy photo: landmarks (pixels, stacked: one block of 33 or 21
    rows a subject) and which are scored, or None when it finds nobody."""
    found = pipeline.process(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
    h, w = bgr.shape[:2]
    if hands_mode:
        if not found.multi_hand_landmarks:
            return None
        points = np.array([[p.x * w, p.y * h] for hand in found.multi_hand_landmarks for p in hand.landmark])
        return points, np.ones(len(points), dtype=bool)
    if not found.pose_landmarks:
        return None
    points = np.array([[p.x * w, p.y * h] for p in found.pose_landmarks.landmark])
    visible = np.array([p.visibility >= 0.5 for p in found.pose_landmarks.landmark])
    return points, visible


def subjects(points, visible):
    """The truth's records for the subjects stacked in `points`."""
    count = 21 if hands_mode else 33
    records = []
    for start in range(0, len(points), count):
        p, v = points[start:start + count], visible[start:start + count]
        if hands_mode:
            size = float(max(np.linalg.norm(a - b) for a in p for b in p))
        else:
            size = float(np.linalg.norm((p[11] + p[12]) / 2 - (p[23] + p[24]) / 2))
        records.append({"landmarks": p.tolist(), "visible": v.tolist(), "size": size})
    return records


images = []
left_out = []


def save(name, kind, bgr, found):
    path = os.path.join(out_dir, name + ".png")
    cv2.imwrite(path, bgr)
    images.append({"file": path, "kind": kind, "subjects": found})


def turned(bgr, points, degrees):
    """The photo turned `degrees` clockwise about its centre on a canvas that holds all of it
    (black outside), and the points moved with it: OpenCV's affine map, pixel centres at
    integers, the same as MediaPipe's landmark pixels (x·width)."""
    h, w = bgr.shape[:2]
    angle = math.radians(degrees)
    c, s = abs(math.cos(angle)), abs(math.sin(angle))
    new_w, new_h = int(round(w * c + h * s)), int(round(w * s + h * c))
    matrix = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), -degrees, 1.0)
    matrix[0, 2] += (new_w - w) / 2
    matrix[1, 2] += (new_h - h) / 2
    image = cv2.warpAffine(bgr, matrix, (new_w, new_h), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0))
    moved = points @ matrix[:, :2].T + matrix[:, 2]
    return image, moved


background = cv2.imread(background_path)
loaded = []  # (name, photo, truth) of the photos with someone MediaPipe reads
for path in photos:
    bgr = cv2.imread(path)
    read = read_truth(bgr)
    name = os.path.splitext(os.path.basename(path))[0]
    if read is None:
        left_out.append(os.path.basename(path))
        continue
    loaded.append((name, bgr, read))
    points, visible = read
    save(f"{name}_upright", "upright", bgr, subjects(points, visible))
    # Quarter turns are exact (no resampling); 30° and 150° resample once.
    for degrees in (90, 180, 270):
        image = np.ascontiguousarray(np.rot90(bgr, k=-degrees // 90))
        _, moved = turned(bgr, points, degrees)
        save(f"{name}_turned{degrees}", "turned", image, subjects(moved, visible))
    for degrees in (30, 150):
        image, moved = turned(bgr, points, degrees)
        save(f"{name}_turned{degrees}", "turned", image, subjects(moved, visible))
    if hands_mode:
        continue
    # Small: the photo shrunk to a quarter of its size (area averaging) and set into a
    # 1280×960 street scene, off centre.
    h, w = bgr.shape[:2]
    scene = cv2.resize(background, (1280, 960), interpolation=cv2.INTER_AREA)
    small = cv2.resize(bgr, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    sx, sy = (w // 4) / w, (h // 4) / h
    x0, y0 = 1280 * 3 // 5, 960 // 2
    scene[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
    # Pixel centres at integers: a point p of the photo lands at (p + ½)·scale − ½ + offset.
    moved = (points + 0.5) * [sx, sy] - 0.5 + [x0, y0]
    save(f"{name}_small", "small", scene, subjects(moved, visible))

# Several people: each pair of photos side by side on one canvas (the shorter one padded below).
for (name_a, a, (pa, va)), (name_b, b, (pb, vb)) in zip(loaded, loaded[1:] + loaded[:1]):
    height = max(a.shape[0], b.shape[0])
    canvas = np.zeros((height, a.shape[1] + b.shape[1], 3), dtype=np.uint8)
    canvas[: a.shape[0], : a.shape[1]] = a
    canvas[: b.shape[0], a.shape[1]:] = b
    save(f"pair_{name_a}_{name_b}", "several", canvas, subjects(pa, va) + subjects(pb + [a.shape[1], 0], vb))

with open(os.path.join(out_dir, "truth.json"), "w") as f:
    json.dump({"images": images, "leftOut": left_out}, f)
for image in images:
    print(image["file"])
