"""kamera serve soaked: CONCURRENCY clients for SECONDS, a mix of every kind of work, the
server's memory sampled; then what must hold: flat memory after warm-up, no error but 503,
nothing lost (every 200 detect has its row, every finished recording its movie).

usage: soak.py PORT PID SECONDS CONCURRENCY PHOTO...   (bench/soak.sh runs it)
"""
import http.client
import json
import os
import random
import statistics
import struct
import socket
import sys
import threading
import time

# The raw WebSocket client the server's tests use.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "security"))
import websocket_client  # noqa: E402

PORT, PID, SECONDS, CONCURRENCY = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
PHOTOS = [open(path, "rb").read() for path in sys.argv[5:]]
WARM_UP = min(60.0, SECONDS / 5)

lock = threading.Lock()
latencies = {}      # kind -> [ms]
statuses = {}       # (kind, status) -> count
detected = set()    # names of photos answered 200
recordings = set()  # ids of recordings answered finished
rss = []            # (seconds since start, MB)
started = time.time()


def note(kind, status, milliseconds):
    with lock:
        latencies.setdefault(kind, []).append(milliseconds)
        statuses[(kind, status)] = statuses.get((kind, status), 0) + 1


def request(method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=120)
    connection.request(method, path, body=body)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data


def timed(kind, method, path, body=None):
    begin = time.time()
    try:
        status, data = request(method, path, body)
    except OSError as error:
        status, data = f"{type(error).__name__}", b""
    note(kind, status, (time.time() - begin) * 1000)
    return status, data


def live_session(rng):
    """A page's short session: options, ten frames one at a time, each answered."""
    begin = time.time()
    try:
        s, status = websocket_client.upgrade(PORT, "/v1/live", timeout=60)
        if b" 101 " not in status:
            note("live", "upgrade refused", 0)
            return
        s.sendall(websocket_client.frame(b'{"faces":true,"barcodes":true}', 1))
        buffer = b""
        for frame_id in range(10):
            s.sendall(websocket_client.frame(struct.pack("<I", frame_id) + rng.choice(PHOTOS), 2))
            while True:
                while len(buffer) < 4 or len(buffer) < 2 + (2 if buffer[1] == 126 else 0) + (buffer[1] if buffer[1] < 126 else struct.unpack(">H", buffer[2:4])[0]):
                    chunk = s.recv(1 << 16)
                    if not chunk:
                        raise ConnectionError("closed")
                    buffer += chunk
                length, offset = buffer[1] & 0x7F, 2
                if length == 126:
                    length, offset = struct.unpack(">H", buffer[2:4])[0], 4
                message = json.loads(buffer[offset:offset + length])
                buffer = buffer[offset + length:]
                if "error" in message:
                    note("live", message["error"]["code"], 0)
                if message.get("id") == frame_id or "error" in message:
                    break
        s.close()
        note("live", "ok", (time.time() - begin) * 1000)
    except (OSError, ConnectionError, ValueError) as error:
        note("live", type(error).__name__, (time.time() - begin) * 1000)


def worker(number):
    rng = random.Random(number)
    count = 0
    while time.time() - started < SECONDS:
        count += 1
        roll = rng.random()
        if roll < 0.55:
            name = f"soak-{number}-{count}"
            status, _ = timed("detect", "POST", f"/v1/detect?faces&barcodes&name={name}", rng.choice(PHOTOS))
            if status == 200:
                with lock:
                    detected.add(name)
        elif roll < 0.70:
            live_session(rng)
        elif roll < 0.80:
            timed("generate", "POST", "/v1/generate", json.dumps({"symbology": "qr", "payload": f"soak {count}"}).encode())
        elif roll < 0.95:
            timed("lists", "GET", rng.choice(["/v1/photos?limit=50", "/v1/codes", "/v1/recordings", "/v1/face-tracks?limit=50", "/healthz"]))
        else:
            status, _ = timed("record", "POST", "/v1/cameras/0/recording?maxSeconds=5")
            if status == 201:
                time.sleep(rng.uniform(0.5, 2))
                status, data = timed("record", "DELETE", "/v1/cameras/0/recording")
                if status == 200:
                    with lock:
                        recordings.add(json.loads(data)["recording"]["id"])


def sample_memory(stop):
    while not stop.is_set():
        with open(f"/proc/{PID}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    rss.append((time.time() - started, int(line.split()[1]) / 1024))
        stop.wait(2)


def main():
    stop = threading.Event()
    sampler = threading.Thread(target=sample_memory, args=(stop,))
    sampler.start()
    workers = [threading.Thread(target=worker, args=(n,)) for n in range(CONCURRENCY)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    stop.set()
    sampler.join()

    print(f"{CONCURRENCY} clients for {SECONDS:.0f} s; warm-up {WARM_UP:.0f} s")
    print(f"{'kind':10}{'done':>8}{'p50 ms':>10}{'p99 ms':>10}   statuses")
    errors = 0
    for kind in sorted(latencies):
        values = sorted(latencies[kind])
        p50 = statistics.median(values)
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        kinds = {status: count for (k, status), count in statuses.items() if k == kind}
        print(f"{kind:10}{len(values):8d}{p50:10.0f}{p99:10.0f}   {kinds}")
        acceptable = {"detect": {200, 503}, "generate": {200, 503}, "lists": {200}, "record": {200, 201, 409, 400, 503},
                      "live": {"ok", "busy"}}[kind]
        errors += sum(count for status, count in kinds.items() if status not in acceptable)
    after = [mb for t, mb in rss if t >= WARM_UP]
    settled = max((mb for t, mb in rss if WARM_UP <= t < WARM_UP + 60), default=0)
    final = max((mb for t, mb in rss if t >= SECONDS - 120), default=0)
    growth = final / settled if settled else 0
    # Means over the same windows: memory swings with what is in flight, and a peak ratio
    # says more about where the last swing fell than about growth.
    def mean(values):
        values = list(values)
        return sum(values) / len(values) if values else 0
    settled_mean = mean(mb for t, mb in rss if WARM_UP <= t < WARM_UP + 60)
    final_mean = mean(mb for t, mb in rss if t >= SECONDS - 120)
    mean_growth = final_mean / settled_mean if settled_mean else 0
    trace = [f"{t:.0f}s {mb:.0f}" for t, mb in rss[:: max(1, int(30 / 2))]]
    print("RSS MB every 30 s: " + ", ".join(trace))
    print(f"RSS MB: start {rss[0][1]:.0f}, after warm-up {settled:.0f}, last two minutes {final:.0f} "
          f"(×{growth:.2f}), peak {max(mb for _, mb in rss):.0f}; samples after warm-up {len(after)}")
    print(f"RSS MB means: the minute after warm-up {settled_mean:.0f}, the last two minutes {final_mean:.0f} (×{mean_growth:.2f})")

    _, data = request("GET", "/v1/photos?limit=100000")
    stored = {photo["name"] for photo in json.loads(data)["photos"]}
    lost_photos = detected - stored
    missing_movies = 0
    for identifier in recordings:
        status, movie = request("GET", f"/v1/recordings/{identifier}/movie")
        if status != 200 or not movie:
            missing_movies += 1
    print(f"nothing lost: {len(detected)} photos answered 200, {len(lost_photos)} without their row; "
          f"{len(recordings)} recordings finished, {missing_movies} without their movie")
    print(f"errors other than 503: {errors}")
    held = errors == 0 and not lost_photos and missing_movies == 0 and mean_growth <= 1.2
    print("soak: " + ("held" if held else "NOT held") + " (flat memory: mean ≤ 1.2× after warm-up; no error but 503; nothing lost)"
          + ("" if growth <= 1.2 else f" — the peak ratio, ×{growth:.2f}, is over 1.2"))
    sys.exit(0 if held else 1)


if __name__ == "__main__":
    main()
