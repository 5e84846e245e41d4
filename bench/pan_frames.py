"""Frames of a camera panning across real photos, for the live people benchmark: each photo
scaled to 720×540 and a 640×480 window moved 80 pixels across it and back over FRAMES frames
(a slow pan, the people moving a pixel or three a frame).

Usage: pan_frames.py OUT_DIR FRAMES PHOTO...   (prints the frames' paths, in order)
"""
import os
import sys

import cv2

out, count, photos = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
os.makedirs(out, exist_ok=True)
for n, photo in enumerate(photos):
    scaled = cv2.resize(cv2.imread(photo), (720, 540), interpolation=cv2.INTER_AREA)
    for i in range(count):
        x = round(80 * (1 - abs(2 * i / (count - 1) - 1)))
        path = os.path.join(out, f"pan_{n}_{i:03}.png")
        cv2.imwrite(path, scaled[30:510, x:x + 640])
        print(path)
