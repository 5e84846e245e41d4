"""Compares redacted clips with their inputs against the faces' truth (redaction-dataset):
how often a visible face was left uncovered, how much of the picture away from faces was
changed, and each tool's frames per second (timed by bench/redaction.sh).
REDACTION_DETAIL=1 also lists each uncovered face (clip, frame, which of the clip's faces, its
box) and each clip's share changed away, for the sets being studied, never the held-out ones.

A face counts as visible on a frame when at least a quarter of its inner box (the central
70 %: eyes, nose, mouth) is inside the frame and not behind the covering object; it counts as
covered when those visible pixels changed by at least 12 levels on average (a blur or fill of
a face changes them by 30–80; re-encoding alone by 1–3)."""
import json
import os
import subprocess
import sys

import numpy as np


def frames(path, width, height):
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
        check=True, capture_output=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, height, width, 3).astype(np.int16)


def visible_mask(face, occluders, width, height):
    mask = np.zeros((height, width), bool)
    x0, y0 = face["x"] + 0.15 * face["width"], face["y"] + 0.15 * face["height"]
    x1, y1 = face["x"] + 0.85 * face["width"], face["y"] + 0.85 * face["height"]
    inner = (x1 - x0) * (y1 - y0)
    cx0, cy0, cx1, cy1 = (int(max(0, round(v))) for v in (x0, y0, min(width, x1), min(height, y1)))
    if cx1 <= cx0 or cy1 <= cy0:
        return mask, 0.0
    mask[cy0:cy1, cx0:cx1] = True
    for o in occluders:
        ox0, oy0 = int(max(0, o["x"])), int(max(0, o["y"]))
        ox1, oy1 = int(min(width, o["x"] + o["width"])), int(min(height, o["y"] + o["height"]))
        if ox1 > ox0 and oy1 > oy0:
            mask[oy0:oy1, ox0:ox1] = False
    return mask, mask.sum() / inner


DETAIL = os.environ.get("REDACTION_DETAIL") == "1"
FACE_ROLES = ["crossing", "approaching", "far"]


def score(truth, directory, suffix):
    uncovered = visible = bad_frames = total_frames = 0
    away_changed = away_total = 0
    for clip in truth:
        width, height = clip["width"], clip["height"]
        source = frames(f"{directory}/{clip['file']}", width, height)
        output = frames(f"{directory}/{clip['file'][:-4]}.{suffix}.mp4", width, height)
        count = min(len(source), len(output), len(clip["frames"]))
        if len(output) != len(source):
            print(f"  note: {suffix} wrote {len(output)} frames of {len(source)} for {clip['file']}", file=sys.stderr)
        clip_away_changed = clip_away_total = 0
        for i in range(count):
            difference = np.abs(output[i] - source[i]).mean(axis=2)
            truth_frame = clip["frames"][i]
            frame_bad = False
            near = np.zeros((height, width), bool)
            for index, face in enumerate(truth_frame["faces"]):
                mask, share = visible_mask(face, truth_frame["occluders"], width, height)
                x0, y0 = int(max(0, face["x"] - 0.4 * face["width"])), int(max(0, face["y"] - 0.5 * face["height"]))
                x1 = int(min(width, face["x"] + 1.4 * face["width"]))
                y1 = int(min(height, face["y"] + 1.6 * face["height"]))
                if x1 > x0 and y1 > y0:
                    near[y0:y1, x0:x1] = True
                if share < 0.25:
                    continue
                visible += 1
                if difference[mask].mean() < 12:
                    uncovered += 1
                    frame_bad = True
                    if DETAIL and suffix == "kamera":
                        role = FACE_ROLES[index] if index < len(FACE_ROLES) else str(index)
                        print(f"  uncovered: {clip['file']} frame {i} {role} face"
                              f" [{face['x']:.0f}, {face['y']:.0f}, {face['width']:.0f}, {face['height']:.0f}]"
                              f" visible {share:.2f} changed {difference[mask].mean():.1f}", file=sys.stderr)
            for o in truth_frame["occluders"]:
                near[int(max(0, o["y"])):int(max(0, o["y"] + o["height"])), int(max(0, o["x"])):int(max(0, o["x"] + o["width"]))] = True
            away = ~near
            away_total += away.sum()
            away_changed += (difference[away] > 10).sum()
            clip_away_total += away.sum()
            clip_away_changed += (difference[away] > 10).sum()
            bad_frames += frame_bad
            total_frames += 1
        if DETAIL:
            print(f"  {suffix} {clip['file']}: changed away {100 * clip_away_changed / max(1, clip_away_total):.2f} %",
                  file=sys.stderr)
    return {
        "visible": visible, "uncovered": uncovered, "frames": total_frames, "badFrames": bad_frames,
        "awayChanged": away_changed / max(1, away_total),
    }


def main():
    directory, times_path = sys.argv[1], sys.argv[2]
    truth = json.load(open(f"{directory}/truth.json"))
    times = dict(line.split() for line in open(times_path) if line.strip())
    frame_count = sum(len(c["frames"]) for c in truth)
    rows = []
    for tool, suffix in [("kamera redact", "kamera"), ("deface 1.5.0", "deface")]:
        s = score(truth, directory, suffix)
        fps = frame_count / float(times[suffix])
        rows.append((tool, s, fps))
    print(f"{directory}: {len(truth)} clips, {frame_count} frames of 1280×720")
    print(f"{'tool':16} {'faces uncovered':>22} {'frames with one':>18} {'changed away from faces':>24} {'fps':>7}")
    for tool, s, fps in rows:
        print(
            f"{tool:16} {s['uncovered']:>6}/{s['visible']:<6} ({100 * s['uncovered'] / max(1, s['visible']):5.2f} %)"
            f" {s['badFrames']:>6} ({100 * s['badFrames'] / max(1, s['frames']):5.2f} %)"
            f" {100 * s['awayChanged']:>22.2f} % {fps:>7.1f}")
    print(f"speed: kamera {rows[0][2] / rows[1][2]:.2f}× deface's frames per second")


main()
