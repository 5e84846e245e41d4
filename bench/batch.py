"""Runs batch commands side by side and prints images per second, results found and peak
memory (RSS of the largest process, from wait4) with ratios to Kamera's --jobs run.

Usage: batch.py KAMERA PYTHON_CODES PYTHON_FACES CODES_LIST FACES_LIST [FILES_FOR_MEMORY]"""
import json, os, subprocess, sys, tempfile, time

kamera, py_codes, py_faces, codes_list, faces_list = sys.argv[1:6]
memory_files = int(sys.argv[6]) if len(sys.argv) > 6 else 10000
here = os.path.dirname(os.path.abspath(__file__))
jobs = os.cpu_count() or 2


def run(commands):
    """Starts every command at once (stdin: a file or None), waits for all; returns wall
    seconds, each stdout and the largest peak RSS in MB."""
    start = time.perf_counter()
    running = []
    for argv, stdin in commands:
        out = tempfile.TemporaryFile()
        handle = open(stdin, "rb") if stdin else subprocess.DEVNULL
        running.append((subprocess.Popen(argv, stdin=handle, stdout=out, stderr=subprocess.PIPE), out))
    peak, outputs = 0, []
    for process, out in running:
        _, status, usage = os.wait4(process.pid, 0)
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            sys.exit(f"{process.args} failed: {process.stderr.read().decode()}")
        peak = max(peak, usage.ru_maxrss / 1024)
        out.seek(0)
        outputs.append(out.read().decode())
    return time.perf_counter() - start, outputs, peak


def kamera_found(outputs, key):
    return sum(len(json.loads(line).get(key, [])) for out in outputs for line in out.splitlines() if line.strip())


def split(listing, parts):
    paths = open(listing).read().splitlines()
    files = []
    for index in range(parts):
        handle = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        handle.write("\n".join(paths[index::parts]) + "\n")
        handle.close()
        files.append(handle.name)
    return files, len(paths)


print(f"{'set':6} {'run':44} {'files':>6} {'found':>6} {'images/s':>9} {'peak MB':>8} {'vs kamera --jobs':>17}")
for name, listing, options, key, peer, python in [
    ("codes", codes_list, ["--barcodes"], "barcodes", "zxing", py_codes),
    ("faces", faces_list, ["--faces", "--min-face-size", "40"], "faces", "mediapipe", py_faces),
]:
    halves, count = split(listing, jobs)
    detect = [kamera, "detect", *options, "--format", "jsonl"]
    rows = []
    seconds, outputs, peak = run([(detect + ["--jobs", str(jobs), "-"], listing)])
    rows.append((f"kamera detect --jobs {jobs}", seconds, kamera_found(outputs, key), peak))
    seconds, outputs, peak = run([(detect + ["--jobs", "1", "--shard", f"{i}/{jobs}", "-"], listing) for i in range(jobs)])
    rows.append((f"{jobs} x kamera detect --jobs 1 --shard i/{jobs}", seconds, kamera_found(outputs, key), peak))
    seconds, outputs, peak = run([(detect + ["--jobs", "1", "-"], listing)])
    rows.append(("kamera detect --jobs 1", seconds, kamera_found(outputs, key), peak))
    seconds, outputs, peak = run([([python, os.path.join(here, "batch_peer.py"), peer, half], None) for half in halves])
    rows.append((f"{jobs} x python {peer} loop", seconds, sum(json.loads(o)["found"] for o in outputs), peak))
    seconds, outputs, peak = run([([python, os.path.join(here, "batch_peer.py"), peer, listing], None)])
    rows.append((f"python {peer} loop", seconds, json.loads(outputs[0])["found"], peak))
    base = count / rows[0][1]
    for label, seconds, found, peak in rows:
        rate = count / seconds
        print(f"{name:6} {label:44} {count:6} {found:6} {rate:9.1f} {peak:8.0f} {rate / base:16.2f}x")
    for half in halves:
        os.unlink(half)

# Memory stays flat with the number of files: the same run on 100 and on many files.
paths = open(codes_list).read().splitlines()
print()
print(f"{'memory':6} {'run':44} {'files':>6} {'seconds':>9} {'peak MB':>8}")
for count in [100, memory_files]:
    listing = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    listing.write("\n".join((paths * (count // len(paths) + 1))[:count]) + "\n")
    listing.close()
    seconds, _, peak = run([([kamera, "detect", "--barcodes", "--format", "jsonl", "--jobs", str(jobs), "-"], listing.name)])
    os.unlink(listing.name)
    print(f"{'codes':6} {f'kamera detect --jobs {jobs} (jsonl)':44} {count:6} {seconds:9.1f} {peak:8.0f}")
