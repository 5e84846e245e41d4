#!/usr/bin/env python3
"""Times the peers on the barcode dataset: zxing-cpp (PyPI, newest) and ZBar (pyzbar).

Each image is loaded once (PIL, as stored: RGB or gray); each engine then decodes it
`--repeat` times and the median is kept, so file decoding is excluded for every engine
alike. Prints JSON: {engine: [{file, milliseconds, found: [{symbology, text}]}]}.
"""
import argparse
import json
import os
import statistics
import time

import numpy as np
import zxingcpp
from PIL import Image
from pyzbar import pyzbar


def timed(fn, repeat):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter_ns()
        result = fn()
        times.append((time.perf_counter_ns() - start) / 1e6)
    return statistics.median(times), result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    truths = json.load(open(os.path.join(args.directory, "truth.json")))
    out = {"zxing-cpp": [], "zbar": []}
    for truth in truths:
        image = Image.open(os.path.join(args.directory, truth["file"]))
        image.load()
        pixels = np.asarray(image)
        # zxing-cpp ignores EAN add-ons unless asked; it is asked where the set has them.
        add_ons = zxingcpp.EanAddOnSymbol.Read if truth["set"] == "addons" else zxingcpp.EanAddOnSymbol.Ignore
        ms, found = timed(lambda: zxingcpp.read_barcodes(pixels, ean_add_on_symbol=add_ons), args.repeat)
        out["zxing-cpp"].append({"file": truth["file"], "milliseconds": ms,
                                 "found": [{"symbology": str(b.format), "text": b.text} for b in found]})
        ms, found = timed(lambda: pyzbar.decode(image), args.repeat)
        out["zbar"].append({"file": truth["file"], "milliseconds": ms,
                            "found": [{"symbology": b.type, "text": b.data.decode("utf-8", "replace")} for b in found]})
    out["versions"] = {"zxing-cpp": zxingcpp.__version__ if hasattr(zxingcpp, "__version__") else "",
                       "zbar (pyzbar)": getattr(pyzbar, "__version__", "")}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
