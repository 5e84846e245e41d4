"""MediaPipe's own pipelines (mp.solutions: Pose full, Hands full, Selfie segmentation
general, Holistic) on the same photos as `kamera-bench people`, and raw LiteRT invokes of the same
.tflite files as `kamera-bench models`. Prints one JSON object.

Usage: people_peers.py MODELS_DIR MASK_DIR RUNS PHOTO...
"""
import glob
import json
import os
import sys
import time

import cv2
import mediapipe as mp
import numpy as np

models_dir, mask_dir, runs, photos = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
os.makedirs(mask_dir, exist_ok=True)


def timed(function):
    result = function()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = function()
        times.append((time.perf_counter() - start) * 1000)
    return result, sorted(times)[len(times) // 2]


pose = mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, enable_segmentation=False)
hands = mp.solutions.hands.Hands(static_image_mode=True, max_num_hands=2, model_complexity=1)
selfie = mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=0)
# Hands from the body, as Kamera's default finds hands too small for the palm detector:
# MediaPipe's Holistic pipeline (pose, then each hand from the pose's wrist; it runs the face
# mesh as well, which cannot be turned off).
holistic = mp.solutions.holistic.Holistic(static_image_mode=True, model_complexity=1)
results = []
for path in photos:
    rgb = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)
    h, w = rgb.shape[:2]
    found, pose_ms = timed(lambda: pose.process(rgb))
    landmarks = [[p.x * w, p.y * h] for p in found.pose_landmarks.landmark] if found.pose_landmarks else []
    visibility = [p.visibility for p in found.pose_landmarks.landmark] if found.pose_landmarks else []
    found_hands, hands_ms = timed(lambda: hands.process(rgb))
    wrists = [[m.landmark[0].x * w, m.landmark[0].y * h] for m in (found_hands.multi_hand_landmarks or [])]
    whole, holistic_ms = timed(lambda: holistic.process(rgb))
    holistic_hands = [[[p.x * w, p.y * h] for p in m.landmark]
                      for m in (whole.left_hand_landmarks, whole.right_hand_landmarks) if m is not None]
    segmented, mask_ms = timed(lambda: selfie.process(rgb))
    mask_path = os.path.join(mask_dir, os.path.splitext(os.path.basename(path))[0] + ".pgm")
    cv2.imwrite(mask_path, (np.clip(segmented.segmentation_mask, 0, 1) * 255).round().astype(np.uint8))
    results.append({"file": path, "poseMs": pose_ms, "handsMs": hands_ms, "maskMs": mask_ms, "landmarks": landmarks,
                    "visibility": visibility, "wrists": wrists, "mask": mask_path,
                    "holisticMs": holistic_ms, "holisticHands": holistic_hands})

# Raw invokes, one thread, input in place: the same files KameraNN runs.
from ai_edge_litert.interpreter import Interpreter  # noqa: E402

invokes = {}
for path in sorted(glob.glob(os.path.join(models_dir, "*.tflite"))):
    # The attention face mesh needs MediaPipe's custom operators, which plain LiteRT lacks.
    if os.path.basename(path) == "face_landmark_with_attention.tflite":
        continue
    interpreter = Interpreter(model_path=path, num_threads=1)
    interpreter.allocate_tensors()
    detail = interpreter.get_input_details()[0]
    interpreter.set_tensor(detail["index"], (np.arange(np.prod(detail["shape"])) % 255 / 255).astype(np.float32).reshape(detail["shape"]))
    for _ in range(20):
        interpreter.invoke()
    times = []
    for _ in range(100):
        start = time.perf_counter()
        interpreter.invoke()
        times.append((time.perf_counter() - start) * 1000)
    invokes[os.path.basename(path)] = sorted(times)[50]
print(json.dumps({"photos": results, "invokes": invokes}))
