"""The scene-text benchmark's peers on the same PNGs as `kamera-bench scene-text`: PP-OCRv4
through RapidOCR (its own pipeline and settings, ONNX Runtime on one thread) and the
Tesseract CLI with sparse-text page segmentation (`--psm 11`, the mode for text scattered
over a photo). Prints one JSON line per photo: the lines each read and its time (file
decoded, warm).

Usage: scene_text_peers.py TRUTH.json [TESSERACT_LANGUAGE]   (default eng; chi_sim for Chinese)
"""
import json
import subprocess
import sys
import time

import cv2
from rapidocr_onnxruntime import RapidOCR

truth = json.load(open(sys.argv[1]))
language = sys.argv[2] if len(sys.argv) > 2 else "eng"
engine = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)
files = sorted(truth)
images = {f: cv2.imread(f) for f in files}
engine(images[files[0]])  # warm-up


def tesseract(path):
    out = subprocess.run(["tesseract", path, "-", "--psm", "11", "-l", language], capture_output=True, text=True, check=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


tesseract(files[0])
for f in files:
    start = time.perf_counter()
    result, _ = engine(images[f])
    rapid_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    tess = tesseract(f)
    tess_ms = (time.perf_counter() - start) * 1000
    print(json.dumps({"file": f, "rapidocr": [r[1] for r in (result or [])], "rapidocrMs": rapid_ms,
                      "tesseractCLI": tess, "tesseractCLIMs": tess_ms}))
