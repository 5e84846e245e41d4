"""MediaPipe's streaming pipelines on the same frames as `kamera-bench people-live`: Pose
(full, static_image_mode=False: it follows the body from frame to frame) and the background
blur of MediaPipe's own selfie-segmentation example (landscape model, cv2.GaussianBlur,
np.where on the mask). Prints one JSON object: frames a second for each and Pose's 33
landmarks per frame, in pixels, with their visibility.

Usage: people_live_peers.py BLUR_RADIUS FRAME...
"""
import json
import sys
import time

import cv2
import mediapipe as mp
import numpy as np

radius, paths = float(sys.argv[1]), sys.argv[2:]
frames = [cv2.cvtColor(cv2.imread(p), cv2.COLOR_BGR2RGB) for p in paths]
h, w = frames[0].shape[:2]


def stream(make, each):
    warm = make()
    for _ in range(3):
        each(warm, frames[0])
    worker = make()
    start = time.perf_counter()
    out = [each(worker, f) for f in frames]
    return len(frames) / (time.perf_counter() - start), out


def pose_frame(pose, frame):
    found = pose.process(frame)
    if not found.pose_landmarks:
        return [], []
    return [[p.x * w, p.y * h] for p in found.pose_landmarks.landmark], [p.visibility for p in found.pose_landmarks.landmark]


# A Gaussian of about the same strength as Kamera's blur radius (its σ is about half the radius).
kernel = int(2 * round(1.5 * radius) + 1)


def blur_frame(selfie, frame):
    mask = selfie.process(frame).segmentation_mask
    condition = np.stack((mask,) * 3, axis=-1) > 0.1
    return np.where(condition, frame, cv2.GaussianBlur(frame, (kernel, kernel), 0))


pose_fps, poses = stream(lambda: mp.solutions.pose.Pose(static_image_mode=False, model_complexity=1), pose_frame)
blur_fps, _ = stream(lambda: mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=1), blur_frame)
print(json.dumps({"bodyFps": pose_fps, "blurFps": blur_fps, "landmarks": [p[0] for p in poses], "visibility": [p[1] for p in poses]}))
