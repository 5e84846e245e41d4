"""The scene-text benchmark's table: character error rate per engine over all photos (the
lines read joined in reading order against the sign's lines; stray lines count as
insertions) and the mean time per photo, with Kamera's scene engine's time as a ratio.

Usage: scene_text_report.py KAMERA.jsonl PEERS.jsonl [--ignore-spaces]

With --ignore-spaces (Chinese, written without them) spaces are dropped from both the
reading and the truth before comparing.
"""
import json
import sys


def distance(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


IGNORE_SPACES = "--ignore-spaces" in sys.argv[3:]


def joined(lines):
    return ("" if IGNORE_SPACES else " ").join(" ".join(lines).split())


ours = {r["file"]: r for r in map(json.loads, open(sys.argv[1]))}
peers = {r["file"]: r for r in map(json.loads, open(sys.argv[2]))}
engines = [("Kamera scene (PP-OCRv4 on KameraNN)", "scene", ours), ("Kamera tesseract", "tesseract", ours),
           ("RapidOCR (PP-OCRv4, ONNX Runtime)", "rapidocr", peers), ("Tesseract CLI --psm 11", "tesseractCLI", peers)]
print(f"{len(ours)} photos")
print(f"{'engine':40} {'CER':>7} {'no text found':>14} {'ms/photo':>9} {'time ×':>7}")
base = sum(r["rapidocrMs"] for r in peers.values()) / len(peers)
for label, key, table in engines:
    errors = total = empty = 0
    for f, r in table.items():
        truth = joined(ours[f]["truth"])
        errors += distance(joined(r[key]), truth)
        total += len(truth)
        empty += not r[key]
    ms = sum(r[key + "Ms"] for r in table.values()) / len(table)
    print(f"{label:40} {100 * errors / total:6.1f}% {empty:14d} {ms:9.0f} {ms / base:7.2f}")
