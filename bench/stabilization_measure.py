"""Where each frame of a stabilized clip sits in the original footage, and what that says
about the stabilizer: residual jitter and the picture lost (issue #37's bench).

Every output frame k is located in source frame k (the unshaken footage the clip was cut
from) — ORB features and a RANSAC similarity for a start, then ECC (affine) to a fraction of
a pixel — which gives the output centre's position, roll and scale in source pixels, with no
help from the stabilizer's own numbers.

- jitter: frame-to-frame movement of the output centre with its slow part (a Gaussian of
  0.5 s over the per-frame steps) removed, RMS in source pixels; roll likewise in degrees.
  The clip's fixed camera moved only by the known pan and shake, so what a steady picture
  keeps is the slow part.
- lost: the share of the shaken clip's picture not shown as real content: 1 − s²·(1 − b),
  s the output's scale (source pixels per output pixel: a zoom shows less) and b the share
  of output pixels that fall outside the shaken frame (a border filled in by the filter).

Usage: stabilization_measure.py CLIP.json OUTPUT.mp4 → one JSON line on stdout.
"""
import json
import math
import sys

import cv2
import numpy as np


def frames(path, gray=True):
    capture = cv2.VideoCapture(path)
    while True:
        ok, frame = capture.read()
        if not ok:
            return
        yield cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if gray else frame


def locate(output, source, start):
    """The 2×3 affine taking output pixels to source pixels, refined from `start`."""
    warp = start.astype(np.float32).copy()
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-5)
    # Coarse then fine: halve both, scale the shift, refine, restore.
    for factor in (0.5, 1.0):
        t = cv2.resize(output, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA) if factor < 1 else output
        s = cv2.resize(source, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA) if factor < 1 else source
        scaled = warp.copy()
        scaled[:, 2] *= factor
        try:
            score, scaled = cv2.findTransformECC(t, s, scaled, cv2.MOTION_AFFINE, criteria, None, 5)
        except cv2.error:
            return warp, 0.0
        warp = scaled.copy()
        warp[:, 2] /= factor
    return warp, score


def feature_start(output, source, orb, matcher):
    a_points, a_desc = orb.detectAndCompute(output, None)
    b_points, b_desc = orb.detectAndCompute(source, None)
    if a_desc is None or b_desc is None:
        return None
    matches = matcher.match(a_desc, b_desc)
    if len(matches) < 12:
        return None
    src = np.float32([a_points[m.queryIdx].pt for m in matches])
    dst = np.float32([b_points[m.trainIdx].pt for m in matches])
    fit, inliers = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=2.0)
    if fit is None or inliers.sum() < 12:
        return None
    return fit


def smooth(values, sigma):
    radius = int(3 * sigma) + 1
    kernel = np.exp(-np.arange(-radius, radius + 1) ** 2 / (2 * sigma * sigma))
    padded = np.pad(values, radius, mode="edge")
    return np.convolve(padded, kernel / kernel.sum(), mode="valid")


def main():
    clip_path, output_path = sys.argv[1], sys.argv[2]
    clip = json.load(open(clip_path))
    width, height = clip["width"], clip["height"]
    orb = cv2.ORB_create(1500)
    matcher = cv2.BFMatcher(cv2.NORM_HAMMING, crossCheck=True)
    centres, rolls, scales, borders, scores = [], [], [], [], []
    warp = None
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else None
    for index, (output, source) in enumerate(zip(frames(output_path), frames(clip["source"]))):
        if limit is not None and index >= limit:
            break
        pose = clip["poses"][index]
        out_h, out_w = output.shape[:2]
        # From the last frame's answer when it still holds (most frames), else from features,
        # else from where the shaken window was.
        score = 0.0
        if warp is not None:
            warp, score = locate(output, source, warp)
        if score < 0.8:
            fit = feature_start(output, source, orb, matcher)
            if fit is None:
                a = math.radians(pose["roll"])
                r = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
                fit = np.hstack([r, (np.array([pose["cx"], pose["cy"]]) - r @ np.array([out_w / 2, out_h / 2]))[:, None]])
            warp, score = locate(output, source, fit)
        scores.append(score)
        centre = warp @ np.array([out_w / 2, out_h / 2, 1.0])
        centres.append(centre)
        rolls.append(math.degrees(math.atan2(warp[1, 0], warp[0, 0])))
        # Source pixels per output pixel, against the shaken frame's own (which is 1 at its size).
        scales.append(math.sqrt(abs(np.linalg.det(warp[:, :2]))) * out_w / width)
        # Output pixels (on a grid) whose source point lies outside the shaken window k.
        a = math.radians(pose["roll"])
        grid = np.stack(np.meshgrid(np.linspace(0, out_w - 1, 48), np.linspace(0, out_h - 1, 36)), -1).reshape(-1, 2)
        in_source = grid @ warp[:, :2].T + warp[:, 2]
        local = in_source - np.array([pose["cx"], pose["cy"]])
        back = local @ np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]]).T
        outside = (np.abs(back[:, 0]) > width / 2 + 0.5) | (np.abs(back[:, 1]) > height / 2 + 0.5)
        borders.append(float(outside.mean()))
    centres = np.array(centres)
    if len(sys.argv) > 4:
        np.save(sys.argv[4], np.column_stack([centres, rolls, scales, borders]))
    rate = clip["rate"]
    steps = np.diff(centres, axis=0)
    slow = np.stack([smooth(steps[:, 0], 0.5 * rate), smooth(steps[:, 1], 0.5 * rate)], -1)
    jitter = float(np.sqrt(np.mean(np.sum((steps - slow) ** 2, axis=1))))
    roll_steps = np.diff(np.array(rolls))
    roll_jitter = float(np.sqrt(np.mean((roll_steps - smooth(roll_steps, 0.5 * rate)) ** 2)))
    lost = [1 - min(1.0, s) ** 2 * (1 - b) for s, b in zip(scales, borders)]
    print(json.dumps({
        "frames": len(centres), "jitter_px": jitter, "roll_jitter_deg": roll_jitter,
        "lost_mean": float(np.mean(lost)), "lost_max": float(np.max(lost)),
        "border_mean": float(np.mean(borders)), "scale_mean": float(np.mean(scales)),
        "located": float(np.mean(np.array(scores) > 0.7)),
    }))


main()
