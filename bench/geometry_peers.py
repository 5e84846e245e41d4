"""OpenCV peers for the geometry benchmark, timed on decoded pixels like Kamera:
- rectangles: the `squares` approach of OpenCV's samples (Canny and thresholds per channel,
  contours, 4-vertex convex polygons with near-right angles);
- documents: the usual contour document finder (blur, Canny, dilate, largest 4-vertex polygon);
- registration: findTransformECC from the identity (translation or homography), and ORB +
  RANSAC findHomography.
Both sides use OpenCV's default threads. Prints JSON for geometry_report.py."""
import json
import sys
import time

import cv2
import numpy as np


def angle_cos(p0, p1, p2):
    d1, d2 = (p0 - p1).astype(float), (p2 - p1).astype(float)
    return abs(np.dot(d1, d2) / np.sqrt(np.dot(d1, d1) * np.dot(d2, d2) + 1e-12))


def squares(image):
    """The squares sample's method: every channel, Canny plus 25 thresholds, 4-gons."""
    found = []
    image = cv2.GaussianBlur(image, (5, 5), 0)
    for gray in cv2.split(image):
        for thrs in range(0, 255, 26):
            if thrs == 0:
                binary = cv2.dilate(cv2.Canny(gray, 0, 50, apertureSize=5), None)
            else:
                _, binary = cv2.threshold(gray, thrs, 255, cv2.THRESH_BINARY)
            contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
            for cnt in contours:
                length = cv2.arcLength(cnt, True)
                cnt = cv2.approxPolyDP(cnt, 0.02 * length, True)
                if len(cnt) == 4 and cv2.contourArea(cnt) > 1000 and cv2.isContourConvex(cnt):
                    cnt = cnt.reshape(-1, 2)
                    if max(angle_cos(cnt[i], cnt[(i + 1) % 4], cnt[(i + 2) % 4]) for i in range(4)) < 0.5:
                        found.append(cnt.astype(float).tolist())
    return found


def document(image):
    """Largest 4-vertex polygon among the biggest contours of a Canny edge map."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(gray, 75, 200), None)
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    for c in sorted(contours, key=cv2.contourArea, reverse=True)[:5]:
        approx = cv2.approxPolyDP(c, 0.02 * cv2.arcLength(c, True), True)
        if len(approx) == 4 and cv2.contourArea(approx) > 0.05 * gray.size:
            return approx.reshape(-1, 2).astype(float).tolist()
    return None


def ecc(reference, moving, homographic):
    """findTransformECC from the identity; its warp maps reference pixels to moving's."""
    motion = cv2.MOTION_HOMOGRAPHY if homographic else cv2.MOTION_TRANSLATION
    warp = np.eye(3, dtype=np.float32) if homographic else np.eye(2, 3, dtype=np.float32)
    try:
        cv2.findTransformECC(reference, moving, warp, motion,
                             (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-6), None, 5)
    except cv2.error:
        pass
    if not homographic:
        warp = np.vstack([warp, [0, 0, 1]])
    return to_continuous(np.linalg.inv(warp.astype(float)))


def orb_ransac(reference, moving):
    orb = cv2.ORB_create(3000)
    ka, da = orb.detectAndCompute(reference, None)
    kb, db = orb.detectAndCompute(moving, None)
    if da is None or db is None:
        return np.eye(3)
    matches = cv2.BFMatcher(cv2.NORM_HAMMING).knnMatch(db, da, k=2)
    good = [m[0] for m in matches if len(m) == 2 and m[0].distance < 0.8 * m[1].distance]
    if len(good) < 4:
        return np.eye(3)
    src = np.float32([kb[m.queryIdx].pt for m in good])
    dst = np.float32([ka[m.trainIdx].pt for m in good])
    h, _ = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
    return np.eye(3) if h is None else to_continuous(h)


def to_continuous(h):
    """Index coordinates (centres at integers) to Kamera's continuous ones (centres at +0.5)."""
    t = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    h = t @ h @ np.linalg.inv(t)
    return h / h[2, 2]


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return result, (time.perf_counter() - start) * 1000


def main(directory):
    scenes = json.load(open(f"{directory}/scenes.json"))
    pairs = json.load(open(f"{directory}/pairs.json"))
    out = {"squares": [], "document": [], "ecc": [], "orb": []}
    for scene in scenes:
        image = cv2.imread(f"{directory}/{scene['file']}")
        found, ms = timed(squares, image)
        # Pixel centres: OpenCV's contour points are indices.
        out["squares"].append({"file": scene["file"], "rectangles": [[[x + 0.5, y + 0.5] for x, y in q] for q in found],
                               "milliseconds": ms})
        doc, ms = timed(document, image)
        out["document"].append({"file": scene["file"],
                                "document": None if doc is None else [[x + 0.5, y + 0.5] for x, y in doc],
                                "milliseconds": ms})
    for pair in pairs:
        a = cv2.imread(f"{directory}/{pair['reference']}", cv2.IMREAD_GRAYSCALE)
        b = cv2.imread(f"{directory}/{pair['moving']}", cv2.IMREAD_GRAYSCALE)
        h, ms = timed(ecc, a, b, pair["homographic"])
        out["ecc"].append({"reference": pair["reference"], "transform": h.flatten().tolist(), "milliseconds": ms})
        if pair["homographic"]:
            h, ms = timed(orb_ransac, a, b)
            out["orb"].append({"reference": pair["reference"], "transform": h.flatten().tolist(), "milliseconds": ms})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
