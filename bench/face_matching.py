"""Matching detections to pasted faces, shared by the face reports."""
import numpy as np


def match(faces, gt):
    """Greedy one-to-one: a detection matches a face whose centre is within 0.35 side."""
    used, pairs = set(), []
    for g in gt:
        best, dist = None, 1e9
        for i, f in enumerate(faces):
            b = f["box"]
            d = np.hypot(b[0] + b[2] / 2 - g["cx"], b[1] + b[3] / 2 - g["cy"])
            if i not in used and d < 0.35 * g["side"] and d < dist:
                best, dist = i, d
        if best is not None:
            used.add(best)
            pairs.append((g, faces[best]))
    return pairs, len(faces) - len(used)
