#!/usr/bin/env python3
"""Text benchmark: runs pytesseract (the Tesseract CLI, same eng model) on the pages,
then prints character error rate and time per page for every engine, per condition."""
import json
import os
import statistics
import sys
import time

import pytesseract
from PIL import Image


def cer(reference, hypothesis, language="eng"):
    # Chinese is written without spaces: they are dropped before comparing.
    gap = "" if language.startswith("chi") else " "
    r, h = gap.join(reference.split()), gap.join(hypothesis.split())
    previous = list(range(len(h) + 1))
    for i in range(1, len(r) + 1):
        current = [i] + [0] * len(h)
        for j in range(1, len(h) + 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (r[i - 1] != h[j - 1]))
        previous = current
    return previous[len(h)] / max(1, len(r))


def main():
    directory, kamera_files = sys.argv[1], sys.argv[2:]
    pages = json.load(open(os.path.join(directory, "truth.json")))
    engines = {}
    for path in kamera_files:
        name = os.path.basename(path).replace(".json", "")
        engines[name] = {r["file"]: r for r in json.load(open(path))}
    tesseract = {}
    for page in pages:
        start = time.perf_counter()
        text = pytesseract.image_to_string(Image.open(os.path.join(directory, page["file"])), lang=page.get("language") or "eng")
        tesseract[page["file"]] = {"milliseconds": (time.perf_counter() - start) * 1000, "text": text}
    engines["tesseract CLI (pytesseract)"] = tesseract
    conditions = list(dict.fromkeys(p["condition"] for p in pages))
    header = f"{'condition':<16}" + "".join(f"{name[:28]:>30}" for name in engines)
    print("character error rate (lower is better)")
    print(header)
    for condition in conditions + ["all"]:
        subset = [p for p in pages if condition in ("all", p["condition"])]
        row = f"{condition:<16}"
        for results in engines.values():
            row += f"{statistics.mean(cer(p['text'], results[p['file']]['text'], p.get('language') or 'eng') for p in subset) * 100:>29.1f}%"
        print(row)
    print("\nmean time per page, ms (file to text)")
    print(header)
    row = f"{'all':<16}"
    for results in engines.values():
        row += f"{statistics.mean(r['milliseconds'] for r in results.values()):>30.0f}"
    print(row)


if __name__ == "__main__":
    main()
