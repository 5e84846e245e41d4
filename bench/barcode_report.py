#!/usr/bin/env python3
"""Scores every engine against the dataset's ground truth and prints one table.

A code counts as found when an engine reports its payload text. Engines spell some
payloads differently, so these equivalent forms are accepted for every engine alike:
UPC-A as 13-digit EAN-13 (leading 0), UPC-E expanded to its 13-digit GTIN, and GS1
payloads with or without parentheses around application identifiers. A code with an EAN
add-on counts as found only with its add-on; its main number alone is a partial read (neither
found nor false), as is the add-on read alone.
"""
import json
import statistics
import sys


def upce_to_gtin13(upce):
    d = upce[1:7]
    last = d[5]
    if last in "012":
        body = d[0:2] + last + "0000" + d[2:5]
    elif last == "3":
        body = d[0:3] + "00000" + d[3:5]
    elif last == "4":
        body = d[0:4] + "00000" + d[4]
    else:
        body = d[0:5] + "0000" + last
    return "0" + upce[0] + body + upce[7]


def accepted(code):
    add_on = code.get("addOn")
    if add_on:
        main = dict(code, text=code["text"][: -len(add_on)], addOn=None)
        return {form + separator + add_on for form in plain(main) for separator in ["", " ", "+"]}
    return plain(code)


def partial(code):
    """An add-on code's main number alone, or the add-on alone (a read that missed a part)."""
    add_on = code.get("addOn")
    return accepted(dict(code, text=code["text"][: -len(add_on)], addOn=None)) | {add_on} if add_on else set()


def plain(code):
    text = code["text"]
    forms = {text, text.replace("(", "").replace(")", "")}
    if code["symbology"] == "upca":
        forms.add("0" + text)
    if code["symbology"] == "upce" and len(text) == 8:
        forms.add(upce_to_gtin13(text))
        forms.add(upce_to_gtin13(text)[1:])
    if code["symbology"] == "codabar" and len(text) > 2:
        forms.add(text[1:-1])  # ZBar drops the start/stop characters
    return forms


def score(truths, results):
    by_file = {r["file"]: r for r in results}
    rows = {}
    for truth in truths:
        row = rows.setdefault(truth["set"], {"codes": 0, "found": 0, "false": 0, "images": 0, "ms": []})
        result = by_file[truth["file"]]
        texts = [f["text"] for f in result["found"]]
        normalized = {t.replace("(", "").replace(")", "") for t in texts} | set(texts)
        matched = 0
        for code in truth["codes"]:
            if accepted(code) & normalized:
                matched += 1
        truth_forms = set().union(*[accepted(c) | partial(c) for c in truth["codes"]]) if truth["codes"] else set()
        row["codes"] += len(truth["codes"])
        row["found"] += matched
        row["false"] += sum(1 for t in texts if t not in truth_forms and t.replace("(", "").replace(")", "") not in truth_forms)
        row["images"] += 1
        row["ms"].append(result["milliseconds"])
    return rows


def main():
    truths = json.load(open(sys.argv[1]))
    engines = json.load(open(sys.argv[2]))
    sets = ["clean", "scenes", "addons", "retail", "edgecut", "motion", "curled", "negatives"]
    scored = {name: score(truths, results) for name, results in engines.items()}
    reference = "zxing-cpp"
    print(f"{'engine':<22} {'set':<10} {'images':>6} {'codes':>6} {'found':>6} {'rate':>7} {'false+':>6} "
          f"{'mean ms':>8} {'median ms':>9} {'time vs zxing-cpp':>17}")
    for name, rows in scored.items():
        for s in sets + ["all"]:
            if s == "all":
                parts = [rows[x] for x in sets if x in rows]
                row = {"codes": sum(p["codes"] for p in parts), "found": sum(p["found"] for p in parts),
                       "false": sum(p["false"] for p in parts), "images": sum(p["images"] for p in parts),
                       "ms": [m for p in parts for m in p["ms"]]}
                ref_ms = [m for x in sets if x in scored[reference] for m in scored[reference][x]["ms"]]
            else:
                if s not in rows:
                    continue
                row = rows[s]
                ref_ms = scored[reference][s]["ms"]
            rate = row["found"] / row["codes"] * 100 if row["codes"] else float("nan")
            mean = statistics.mean(row["ms"])
            ratio = mean / statistics.mean(ref_ms)
            print(f"{name:<22} {s:<10} {row['images']:>6} {row['codes']:>6} {row['found']:>6} {rate:>6.1f}% {row['false']:>6} "
                  f"{mean:>8.2f} {statistics.median(row['ms']):>9.2f} {ratio:>16.2f}x")


if __name__ == "__main__":
    main()
