"""EAN/UPC codes with add-ons, engine by engine: read whole (number and add-on), number only,
missed, and payloads that are no code's (wrong). Usage: addon_report.py TRUTH.json NAME=RESULTS.json…"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
from barcode_report import accepted, partial  # noqa: E402


def main(truth_path, runs):
    truths = [t for t in json.load(open(truth_path)) if t["set"] == "addons"]
    print(f"{'':22}{'codes':>6}{'whole':>7}{'number only':>13}{'missed':>8}{'wrong':>7}{'mean ms':>9}")
    for run in runs:
        name, path = run.split("=", 1)
        results = {r["file"]: r for r in json.load(open(path))}
        whole = number_only = missed = wrong = total = 0
        for t in truths:
            result = results[t["file"]]
            texts = {f["text"] for f in result["found"]}
            forms = set()
            for code in t["codes"]:
                total += 1
                forms |= accepted(code) | partial(code)
                if accepted(code) & texts:
                    whole += 1
                elif partial(code) & texts:
                    number_only += 1
                else:
                    missed += 1
            wrong += sum(1 for text in texts if text not in forms)
        ms = statistics.mean(results[t["file"]]["milliseconds"] for t in truths)
        print(f"{name:22}{total:>6}{whole:>7}{number_only:>13}{missed:>8}{wrong:>7}{ms:>9.1f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
