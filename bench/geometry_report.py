"""Side-by-side table for the geometry benchmark: Kamera against OpenCV's approaches on the
same scenes and pairs (kamera-bench geometry JSON and geometry_peers.py JSON)."""
import json
import math
import statistics
import sys


def corner_error(truth, found):
    """Largest corner distance under the best matching of corner order (any start, either turn)."""
    best = math.inf
    for start in range(4):
        for turn in (1, -1):
            order = [found[(start + turn * i) % 4] for i in range(4)]
            best = min(best, max(math.dist(p, q) for p, q in zip(truth, order)))
    return best


def apply(h, p):
    w = h[6] * p[0] + h[7] * p[1] + h[8]
    return ((h[0] * p[0] + h[1] * p[1] + h[2]) / w, (h[3] * p[0] + h[4] * p[1] + h[5]) / w)


def main(directory, kamera_path, peers_path):
    scenes = json.load(open(f"{directory}/scenes.json"))
    pairs = json.load(open(f"{directory}/pairs.json"))
    kamera = json.load(open(kamera_path))
    peers = json.load(open(peers_path))
    positives = [i for i, s in enumerate(scenes) if s.get("corners")]
    negatives = [i for i, s in enumerate(scenes) if not s.get("corners")]
    print(f"{len(positives)} scenes with a document, card, screen or sign over real photos "
          f"({sum(scenes[i]['lowContrast'] for i in positives)} low contrast, "
          f"{sum(scenes[i]['cutByFrame'] for i in positives)} cut by the frame), {len(negatives)} with none")

    def doc_row(name, results, key, ms_key):
        hits, errors, false = 0, [], 0
        for i in positives:
            truth = scenes[i]["corners"]
            found = results[i].get(key)
            if found:
                e = corner_error(truth, found)
                diagonal = math.dist(truth[0], truth[2])
                if e <= 0.01 * diagonal:
                    hits += 1
                    errors.append(e)
        false = sum(1 for i in negatives if results[i].get(key))
        times = [results[i][ms_key] for i in range(len(scenes))]
        return name, hits, errors, false, statistics.median(times)

    print("\nDocuments: corners within 1 % of the diagonal")
    print(f"{'':28}{'within 1 %':>12}{'mean error px':>15}{'on empty scenes':>17}{'median ms':>11}")
    rows = [doc_row("Kamera document request", kamera["scenes"], "document", "documentMilliseconds"),
            doc_row("OpenCV contour finder", peers["document"], "document", "milliseconds")]
    for name, hits, errors, false, ms in rows:
        mean = f"{statistics.mean(errors):.2f}" if errors else "-"
        print(f"{name:28}{hits:>5}/{len(positives):<6}{mean:>15}{false:>17}{ms:>11.1f}")
    print(f"ratio (Kamera/OpenCV time): {rows[0][4] / rows[1][4]:.2f}×")

    def rect_row(name, results, ms_key):
        hits, others, on_empty = 0, 0, 0
        for i in positives:
            truth = scenes[i]["corners"]
            diagonal = math.dist(truth[0], truth[2])
            quads = results[i]["rectangles"]
            matched = [q for q in quads if corner_error(truth, q) <= 0.02 * diagonal]
            hits += bool(matched)
            others += len(quads) - len(matched)
        on_empty = sum(len(results[i]["rectangles"]) for i in negatives)
        times = [results[i][ms_key] for i in range(len(scenes))]
        return name, hits, others, on_empty, statistics.median(times)

    print("\nRectangles (all reported): the pasted object within 2 % of its diagonal")
    print(f"{'':28}{'found':>12}{'other quads':>15}{'on empty scenes':>17}{'median ms':>11}")
    rows = [rect_row("Kamera rectangles (max 0)", kamera["scenes"], "rectangleMilliseconds"),
            rect_row("OpenCV squares sample", peers["squares"], "milliseconds")]
    for name, hits, others, on_empty, ms in rows:
        print(f"{name:28}{hits:>5}/{len(positives):<6}{others:>15}{on_empty:>17}{ms:>11.1f}")
    print(f"ratio (Kamera/OpenCV time): {rows[0][4] / rows[1][4]:.2f}×")

    if not pairs:
        return
    print("\nRegistration: largest corner error of the recovered warp (800×600 views)")
    print(f"{'':28}{'≤ 1 px':>10}{'median px':>11}{'worst px':>10}{'median ms':>11}")
    for homographic in (False, True):
        chosen = [i for i, p in enumerate(pairs) if p["homographic"] == homographic]
        label = "homography (±30°, 30 % out)" if homographic else "translation (30 % out)"
        print(label)
        corners = [(0, 0), (800, 0), (800, 600), (0, 600)]

        def row(name, results, index_of):
            errors, times = [], []
            for i in chosen:
                r = results[index_of(i)]
                truth = pairs[i]["truth"]
                errors.append(max(math.dist(apply(truth, c), apply(r["transform"], c)) for c in corners))
                times.append(r["milliseconds"])
            ok = sum(e <= 1 for e in errors)
            print(f"  {name:26}{ok:>4}/{len(chosen):<5}{statistics.median(errors):>11.2f}{max(errors):>10.1f}"
                  f"{statistics.median(times):>11.1f}")
            return statistics.median(times)

        k = row("Kamera", kamera["pairs"], lambda i: i)
        e = row("OpenCV findTransformECC", peers["ecc"], lambda i: i)
        if homographic:
            orb_index = {p["reference"]: j for j, p in enumerate(peers["orb"])}
            row("OpenCV ORB + RANSAC", peers["orb"], lambda i: orb_index[pairs[i]["reference"]])
        print(f"  ratio (Kamera/ECC time): {k / e:.2f}×")


if __name__ == "__main__":
    main(*sys.argv[1:4])
