"""Prints the face benchmark: detection recall/false positives per tool against the pasted
ground truth, box/keypoint/landmark error against the same ground truth (normalized by the
inter-ocular distance), time per image with ratios to Kamera, and raw invoke times of the
same models in KameraNN and LiteRT."""
import json, os, sys
import numpy as np
from face_matching import match

directory, kamera_file, peers_file, invoke_file = sys.argv[1:5]
truth = {e["file"]: e for e in json.load(open(f"{directory}/truth.json"))}
kamera = json.load(open(kamera_file))
peers = json.load(open(peers_file))
tools = {"kamera (tiled, default)": [], "kamera (whole image)": [], "kamera (whole, unrefined)": [], "kamera landmarks": [],
         "kamera landmarks (fast)": []}
for e in kamera:
    tools["kamera (tiled, default)"].append({"file": e["file"], **e["tiled"]})
    tools["kamera (whole image)"].append({"file": e["file"], **e["whole"]})
    tools["kamera (whole, unrefined)"].append({"file": e["file"], **e["unrefined"]})
    tools["kamera landmarks"].append({"file": e["file"], **e["landmarks"]})
    tools["kamera landmarks (fast)"].append({"file": e["file"], **e["fast"]})
tools.update(peers["tools"])
by_file = {name: {r["file"]: r for r in rows} for name, rows in tools.items()}


def apply(m, p):
    x, y = p
    w = m[6] * x + m[7] * y + m[8]
    return np.array([(m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w])


# Ground-truth points on the upright head: the mean of Kamera's and MediaPipe's own results
# there, so neither tool is the reference; pasted copies map them through the known transform.
head_k = by_file["kamera (whole image)"]["head.png"]["faces"][0]
head_k_mesh = by_file["kamera landmarks"]["head.png"]["faces"][0]["mesh"]
head_mp = by_file["mediapipe full"]["head.png"]["faces"][0]
head_mesh_mp = by_file["mediapipe face mesh"]["head.png"]["faces"][0]["mesh"]
head_keypoints = (np.array(head_k["keypoints"]) + np.array(head_mp["keypoints"])) / 2
head_mesh = (np.array(head_k_mesh) + np.array(head_mesh_mp)) / 2


def detection_table():
    print("\n## Detection (pasted faces with known positions; real photos; negatives)")
    print(f"{'tool':28} {'scenes':>12} {'small 20-40px':>14} {'real photos':>11} {'false pos':>9}")
    for name in tools:
        if name == "kamera landmarks":  # the whole-image detection's faces
            continue
        found = {"scene": [0, 0], "small": [0, 0]}
        false_pos, real = 0, 0
        for file, entry in truth.items():
            row = by_file[name].get(file)
            if row is None:
                continue
            if entry["kind"] == "real":
                real += len(row["faces"]) == 1
                continue
            pairs, extra = match(row["faces"], entry.get("faces") or [])
            false_pos += extra
            if entry["kind"] in found:
                found[entry["kind"]][0] += len(pairs)
                found[entry["kind"]][1] += len(entry["faces"])
        s, m = found["scene"], found["small"]
        print(f"{name:28} {s[0]:>4}/{s[1]:<3} {100*s[0]/max(s[1],1):4.0f}% {m[0]:>4}/{m[1]:<3} {100*m[0]/max(m[1],1):4.0f}%"
              f" {real:>7}/3 {false_pos:>9}")


def face_errors(name):
    """Errors per matched pasted face, keyed by (file, face index)."""
    errors = {}
    for file, entry in truth.items():
        if entry["kind"] not in ("scene", "small"):
            continue
        for g, f in match(by_file[name][file]["faces"], entry["faces"])[0]:
            m = g["transform"]
            gt_kp = np.array([apply(m, p) for p in head_keypoints])
            iod = np.linalg.norm(gt_kp[0] - gt_kp[1])
            b = f["box"]
            e = {"centre": np.hypot(b[0] + b[2] / 2 - g["cx"], b[1] + b[3] / 2 - g["cy"]) / iod}
            if f.get("keypoints"):
                e["keypoints"] = np.mean(np.linalg.norm(np.array(f["keypoints"])[:4] - gt_kp[:4], axis=1)) / iod
            if f.get("mesh") and entry["kind"] == "scene":
                gt_mesh = np.array([apply(m, p) for p in head_mesh])
                e["mesh"] = np.mean(np.linalg.norm(np.array(f["mesh"]) - gt_mesh, axis=1)) / iod
            errors[(file, entry["faces"].index(g))] = e
    return errors


def accuracy_table():
    print("\n## Accuracy on matched pasted faces (error / inter-ocular distance; lower is better)")
    print(f"{'tool':28} {'faces':>5} {'centre':>8} {'6 keypoints':>12} {'468-pt mesh':>12}")
    for name in ["kamera (tiled, default)", "kamera (whole image)", "kamera (whole, unrefined)", "kamera landmarks",
                 "kamera landmarks (fast)", "mediapipe short", "mediapipe full", "mediapipe face mesh", "dlib hog",
                 "opencv haar"]:
        errors = face_errors(name).values()
        fmt = lambda key: (f"{np.mean([e[key] for e in errors if key in e]):12.3f}"
                           if any(key in e for e in errors) else f"{'-':>12}")
        centre = np.mean([e["centre"] for e in errors]) if errors else float("nan")
        print(f"{name:28} {len(errors):>5} {centre:8.3f} {fmt('keypoints')} {fmt('mesh')}")
    # Agreement: Kamera's boxes against MediaPipe's on the same faces.
    ious = []
    for file in truth:
        for kf in by_file["kamera (whole image)"][file]["faces"]:
            best = 0
            for mf in by_file["mediapipe full"][file]["faces"]:
                a, b = kf["box"], mf["box"]
                ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
                iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
                inter = ix * iy
                best = max(best, inter / (a[2] * a[3] + b[2] * b[3] - inter))
            if best > 0:
                ious.append(best)
    print(f"\nbox IoU, Kamera (whole image) vs MediaPipe full range on the same faces: mean {np.mean(ious):.3f} over {len(ious)} faces")


def paired_table():
    # A tool that finds more faces also finds harder ones, which raises its mean error; on
    # the faces both tools found, the errors compare like with like.
    print("\n## Same faces: errors on the pasted faces both tools of a pair found")
    print(f"{'kamera':28} {'peer':22} {'faces':>5} {'centre':>14} {'6 keypoints':>14} {'468-pt mesh':>14}")
    for ours, peer in [("kamera (whole image)", "mediapipe full"), ("kamera (whole, unrefined)", "mediapipe full"),
                       ("kamera landmarks (fast)", "mediapipe face mesh")]:
        a, b = face_errors(ours), face_errors(peer)
        common = sorted(set(a) & set(b))
        cells = []
        for key in ("centre", "keypoints", "mesh"):
            both = [k for k in common if key in a[k] and key in b[k]]
            cells.append(f"{np.mean([a[k][key] for k in both]):6.3f}/{np.mean([b[k][key] for k in both]):<6.3f}"
                         if both else f"{'-':>13}")
        print(f"{ours:28} {peer:22} {len(common):>5} {cells[0]:>14} {cells[1]:>14} {cells[2]:>14}")


def timing_table():
    print("\n## Time per image (ms, median of runs; one thread where the library allows)")
    base = np.mean([r["ms"] for r in tools["kamera (whole image)"] if r["file"] != "head.png"])
    print(f"{'tool':28} {'mean ms':>9} {'vs kamera (whole)':>18}")
    for name, rows in tools.items():
        ms = np.mean([r["ms"] for r in rows if r["file"] != "head.png"])
        print(f"{name:28} {ms:9.2f} {ms / base:17.2f}x")
    print(f"\nOne thread, ratio to the MediaPipe peer doing the same job")
    for label, peer in [("kamera (whole image)", "mediapipe full"), ("kamera (whole, unrefined)", "mediapipe full"),
                        ("kamera landmarks (fast)", "mediapipe face mesh")]:
        ours = np.mean([r["ms"] for r in tools[label] if r["file"] != "head.png"])
        theirs = np.mean([r["ms"] for r in tools[peer] if r["file"] != "head.png"])
        print(f"{label:28} {ours:9.2f} {ours / theirs:6.2f}x {peer}")
    # The same requests with their default threads (what `kamera detect` and library callers
    # get; MediaPipe's graph threads cannot be pinned either), against the matching peer.
    full = np.mean([r["ms"] for r in tools["mediapipe full"] if r["file"] != "head.png"])
    mesh = np.mean([r["ms"] for r in tools["mediapipe face mesh"] if r["file"] != "head.png"])
    cores = [e for e in kamera if e["file"] != "head.png" and "allCores" in e]
    if cores:
        print(f"\nKamera with default threads ({os.cpu_count()} cores), mean ms and ratio to the MediaPipe peer doing the same job")
        for key, label, peer, peer_ms in [("whole", "kamera (whole image)", "mediapipe full", full),
                                          ("fast", "kamera landmarks (fast)", "mediapipe face mesh", mesh),
                                          ("tiled", "kamera (tiled, default)", None, None)]:
            ms = np.mean([e["allCores"][key] for e in cores])
            ratio = f"{ms / peer_ms:6.2f}x {peer}" if peer else ""
            print(f"{label:28} {ms:9.2f} {ratio}")
        big = [e["allCores"]["tiled"] for e in cores if truth.get(e["file"], {}).get("kind") == "scene"]
        if big:
            print(f"tiled default on the 1280x960 scenes (1.2 MP): mean {np.mean(big):.1f} ms")
    k = np.mean([r["ms"] for r in tools["kamera landmarks"] if r["file"] != "head.png"])
    m = np.mean([r["ms"] for r in tools["mediapipe face mesh"] if r["file"] != "head.png"])
    f = np.mean([r["ms"] for r in tools["kamera landmarks (fast)"] if r["file"] != "head.png"])
    print(f"landmarks end to end: kamera {k:.2f} ms, kamera fast {f:.2f} ms, mediapipe face mesh {m:.2f} ms"
          f" -> mediapipe/kamera = {m / k:.2f}x, mediapipe/kamera fast = {m / f:.2f}x")


def invoke_table():
    print("\n## Raw model invoke (ms, median of 200, one thread, same .tflite files)")
    ours = {json.loads(line)["model"]: json.loads(line)["median_ms"] for line in open(invoke_file) if line.strip()}
    print(f"{'model':36} {'KameraNN':>9} {'LiteRT':>9} {'LiteRT/KameraNN':>16}")
    for model, litert in peers["invoke"].items():
        if model in ours:
            print(f"{model:36} {ours[model]:9.3f} {litert:9.3f} {litert / ours[model]:15.2f}x")


detection_table()
accuracy_table()
paired_table()
timing_table()
invoke_table()
