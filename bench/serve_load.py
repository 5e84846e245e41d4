"""Load on kamera serve over loopback (bench/serve.sh runs it): live WebSocket connections
in closed loop and paced at 15 fps, then POST /v1/detect at several concurrencies, with the
server's RSS sampled from /proc throughout.

usage: serve_load.py PORT PID FRAMES640 FRAMES1280 CLI_SECONDS STEP_SECONDS PHOTO...
"""
import asyncio
import glob
import json
import statistics
import struct
import sys
import threading
import time
import http.client
from concurrent.futures import ThreadPoolExecutor

import websockets

PORT, PID = int(sys.argv[1]), int(sys.argv[2])
FRAMES = {"640x480": sorted(glob.glob(sys.argv[3] + "/*.jpg")), "1280x720": sorted(glob.glob(sys.argv[4] + "/*.jpg"))}
CLI_SECONDS, STEP = float(sys.argv[5]), float(sys.argv[6])
PHOTOS = sys.argv[7:]
rss_samples = []


def rss_mb():
    with open(f"/proc/{PID}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def sample_rss(stop):
    while not stop.is_set():
        rss_samples.append((time.time(), rss_mb()))
        time.sleep(0.25)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))] if values else float("nan")


async def live_connection(frames, seconds, fps=None):
    """One page: closed loop (a new frame as soon as fewer than two are in flight) or a
    camera at `fps` (a frame every 1/fps s, sent only when fewer than two are in flight, as
    the page does). Returns round trips (ms) and analysed frames per second."""
    data = [open(f, "rb").read() for f in frames]
    sent, rtts = {}, []
    async with websockets.connect(f"ws://127.0.0.1:{PORT}/v1/live", max_size=None) as ws:
        await ws.send(json.dumps({"faces": True, "landmarks": False, "codes": True, "text": False}))
        start = time.time()
        next_frame = start
        frame_id = 0
        answered = 0
        while time.time() - start < seconds:
            ready = fps is None or time.time() >= next_frame
            if ready and len(sent) < 2:
                frame_id += 1
                sent[frame_id] = time.time()
                await ws.send(struct.pack("<I", frame_id) + data[frame_id % len(data)])
            if fps is not None and ready:
                next_frame += 1 / fps
            if fps is None and len(sent) < 2:
                continue
            wait = 1.0 if fps is None else max(0.0005, next_frame - time.time())
            try:
                message = await asyncio.wait_for(ws.recv(), timeout=wait)
            except asyncio.TimeoutError:
                continue
            result = json.loads(message)
            rid = result.get("id")
            if result.get("skipped"):
                sent.pop(rid, None)
                continue
            if rid in sent:
                rtts.append((time.time() - sent[rid]) * 1000)
                answered += 1
                for old in [k for k in sent if k <= rid]:
                    del sent[old]
        elapsed = time.time() - start
    return rtts, answered / elapsed


async def live_step(size, connections, seconds, fps=None):
    results = await asyncio.wait_for(
        asyncio.gather(*[live_connection(FRAMES[size], seconds, fps) for _ in range(connections)]), seconds + 60)
    rtts = [r for rt, _ in results for r in rt]
    rates = [rate for _, rate in results]
    return rtts, rates


def detect_once(photo_bytes, name):
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=120)
    began = time.time()
    connection.request("POST", f"/v1/detect?faces&barcodes&name={name}", body=photo_bytes)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, (time.time() - began) * 1000


def detect_step(concurrency, seconds):
    photos = [(open(p, "rb").read(), p.rsplit("/", 1)[-1]) for p in PHOTOS]
    statuses, latencies = [], []
    stop_at = time.time() + seconds
    def worker(index):
        i = index
        while time.time() < stop_at:
            status, ms = detect_once(*photos[i % len(photos)])
            statuses.append(status)
            if status == 200:
                latencies.append(ms)
                i += concurrency
            elif status == 503:
                # As a well-behaved client does: wait Retry-After (1 s) and try again.
                time.sleep(1)
    began = time.time()
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(worker, range(concurrency)))
    elapsed = time.time() - began
    return statuses, latencies, elapsed


def main():
    stop = threading.Event()
    threading.Thread(target=sample_rss, args=(stop,), daemon=True).start()
    print(f"\nLive, one connection, closed loop (faces + codes), {STEP:.0f} s each")
    print(f"{'frames':<10}{'fps':>8}{'p50 ms':>9}{'p99 ms':>9}")
    for size in ["640x480", "1280x720"]:
        rtts, rates = asyncio.run(live_step(size, 1, STEP))
        print(f"{size:<10}{rates[0]:>8.1f}{pct(rtts, 50):>9.1f}{pct(rtts, 99):>9.1f}", flush=True)
    print(f"\nLive, 640x480 paced at 15 fps per connection (a stream is held when it gets >= 14 fps)")
    print(f"{'streams':<10}{'min fps':>8}{'mean fps':>9}{'p50 ms':>9}{'p99 ms':>9}")
    held = 0
    for connections in [1, 2, 3, 4, 5, 6, 8]:
        rtts, rates = asyncio.run(live_step("640x480", connections, STEP, fps=15))
        print(f"{connections:<10}{min(rates):>8.1f}{statistics.mean(rates):>9.1f}{pct(rtts, 50):>9.1f}{pct(rtts, 99):>9.1f}", flush=True)
        if min(rates) >= 14:
            held = connections
        else:
            break
    print(f"streams held at 15 fps: {held}")
    print(f"\nPOST /v1/detect?faces&barcodes, {len(PHOTOS)} opencv-doc photos in turn, {STEP:.0f} s each")
    print(f"{'concurrency':<12}{'req/s':>8}{'p50 ms':>9}{'p99 ms':>9}{'503':>6}{'errors':>8}{'RSS MB':>8}")
    errors_total = 0
    best = 0
    # 32 twice: the server's memory after the second is what it settles at under load.
    for concurrency in [1, 8, 16, 32, 32]:
        statuses, latencies, elapsed = detect_step(concurrency, STEP)
        ok = statuses.count(200)
        busy = statuses.count(503)
        errors = len(statuses) - ok - busy
        errors_total += errors
        best = max(best, ok / elapsed)
        print(f"{concurrency:<12}{ok / elapsed:>8.1f}{pct(latencies, 50):>9.1f}{pct(latencies, 99):>9.1f}{busy:>6}{errors:>8}{rss_mb():>8.0f}", flush=True)
    cli_rate = 3 * len(PHOTOS) / CLI_SECONDS
    print(f"kamera detect --faces --barcodes --jobs 1 on the same files: {cli_rate:.1f} images/s (process start included)")
    print(f"server's best against the CLI: {best / cli_rate:.2f}x")
    stop.set()
    values = [v for _, v in rss_samples]
    quarter = max(1, len(values) // 4)
    print(f"\nserver RSS: start {values[0]:.0f} MB, peak {max(values):.0f} MB, "
          f"first-quarter mean {statistics.mean(values[:quarter]):.0f} MB, last-quarter mean {statistics.mean(values[-quarter:]):.0f} MB")
    print(f"errors other than 503: {errors_total}")
    if errors_total:
        sys.exit(1)


if __name__ == "__main__":
    main()
