"""MediaPipe Pose (static image mode, full model: the pipeline `mp.solutions.pose`) on the
harder people set: one JSON line per image with its time ("ms") and the pose it finds ("found",
at most one: the pipeline is single-person); with --hands, MediaPipe Hands (static image mode,
full model, up to four hands) on the hand set, every hand's 21 joints.

Usage: people_set_peers.py [--hands] RUNS IMAGE...
"""
import json
import sys
import time

import cv2
import mediapipe as mp

hands_mode = sys.argv[1:2] == ["--hands"]
arguments = sys.argv[2:] if hands_mode else sys.argv[1:]
runs, images = int(arguments[0]), arguments[1:]
if hands_mode:
    pipeline = mp.solutions.hands.Hands(static_image_mode=True, max_num_hands=4, model_complexity=1)
else:
    pipeline = mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, enable_segmentation=False)
for path in images:
    rgb = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)
    h, w = rgb.shape[:2]
    result = pipeline.process(rgb)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        pipeline.process(rgb)
        times.append((time.perf_counter() - start) * 1000)
    if hands_mode:
        found = [[[p.x * w, p.y * h] for p in hand.landmark] for hand in (result.multi_hand_landmarks or [])]
    else:
        found = [[[p.x * w, p.y * h] for p in result.pose_landmarks.landmark]] if result.pose_landmarks else []
    print(json.dumps({"file": path, "ms": sorted(times)[len(times) // 2], "found": found}))
