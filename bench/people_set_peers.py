"""MediaPipe Pose (static image mode, full model: the pipeline `mp.solutions.pose`) on the
harder people set: one JSON line per image with its time and the pose it finds (at most one:
the pipeline is single-person).

Usage: people_set_peers.py RUNS IMAGE...
"""
import json
import sys
import time

import cv2
import mediapipe as mp

runs, images = int(sys.argv[1]), sys.argv[2:]
pose = mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, enable_segmentation=False)
for path in images:
    rgb = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)
    h, w = rgb.shape[:2]
    found = pose.process(rgb)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        pose.process(rgb)
        times.append((time.perf_counter() - start) * 1000)
    bodies = [[[p.x * w, p.y * h] for p in found.pose_landmarks.landmark]] if found.pose_landmarks else []
    print(json.dumps({"file": path, "poseMs": sorted(times)[len(times) // 2], "bodies": bodies}))
