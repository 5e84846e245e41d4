"""Fuzzes every route and socket message of a real `kamera serve` for a bounded time.

Usage: python3 fuzz_server.py KAMERA_BINARY CAMERA_MOVIE SEED_IMAGE [SECONDS] [RANDOM_SEED]

Each case mutates a valid request — method, path, query keys and values (huge, negative, NaN,
unicode, repeated), body (a real image cut, flipped or grown; JSON orders with wrong types) —
or a valid live-socket message (options, recording commands, frames), and checks what a
client may rely on: an HTTP answer below 500 (or 503/504/507, which are load and disk, not
bugs), every error as the documented JSON with a documented code, every socket message as
JSON, and the server alive and healthy at the end. A failing case is printed with its seed.
"""

import http.client
import json
import os
import random
import socket
import struct
import sys
import tempfile
import time
import urllib.parse

import kamera_server
import websocket_client

KAMERA, MOVIE, IMAGE = sys.argv[1], sys.argv[2], sys.argv[3]
SECONDS = float(sys.argv[4]) if len(sys.argv) > 4 else 60
SEED = int(sys.argv[5]) if len(sys.argv) > 5 else int(time.time())

ROUTES = [
    ("POST", "/v1/detect"), ("POST", "/v1/generate"), ("GET", "/v1/cameras"), ("POST", "/v1/cameras/0/recording"),
    ("DELETE", "/v1/cameras/0/recording"), ("GET", "/v1/cameras/0/controls"), ("PUT", "/v1/cameras/0/controls"), ("POST", "/v1/cameras/0/photo"), ("GET", "/v1/stills"), ("GET", "/v1/stills/X/image"),
    ("GET", "/v1/stills/X/thumbnail"), ("DELETE", "/v1/stills/X"), ("GET", "/v1/recordings"), ("GET", "/v1/recordings/X/movie"),
    ("GET", "/v1/recordings/X/thumbnail"), ("DELETE", "/v1/recordings/X"), ("GET", "/v1/codes"), ("GET", "/v1/photos"),
    ("GET", "/v1/face-tracks"), ("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/metrics"), ("GET", "/openapi.json"), ("GET", "/login"), ("GET", "/"),
    ("GET", "/app.js"), ("GET", "/style.css"), ("GET", "/favicon.svg"),
]
KEYS = [
    "barcodes", "symbologies", "effort", "faces", "landmarks", "faceMode", "minFaceSize", "minConfidence", "maxFaces", "text",
    "recognize", "languages", "rectangles", "maxRectangles", "regionOfInterest", "name", "limit", "offset", "maxSeconds",
    "maxMegabytes", "token", "record", "bogus", "", "faces[]", "%00",
]
VALUES = [
    "", "0", "1", "-1", "true", "false", "yes", "maybe", "1e13", "-1e308", "1e999", "nan", "inf", "-0", "0.5", "2",
    "99999999999999999999999", "qr,ean13", "qr,,", "all", "fast", "thorough", "tiled", "short", "eng", "eng,deu", "../../etc",
    "0,0,1,1", "0,0,2,1", "0,0,0.5", "x" * 5000, "é漢字", "%ff%fe", "\u0000", "start", "stop",
]
LIVE_KEYS = [k for k in KEYS if k not in ("name", "limit", "offset", "token")] + ["codes"]
JSON_VALUES = [True, False, None, 0, 1, -1, 1e13, -1e308, 1.5, "", "x", "qr", "fast", "start", "stop", [], ["qr"], [1, 2, 3, 4],
               [0, 0, 0.5, 0.5], {}, {"a": 1}, "x" * 70000, 2 ** 70]


class Server:
    def __init__(self):
        self.data = tempfile.mkdtemp(prefix="kamera-fuzz-")
        self.log = open(os.path.join(self.data, "serve.log"), "w")
        self.process, self.port = kamera_server.start(
            KAMERA, ["--data", self.data, "--camera", MOVIE, "--header-timeout", "3", "--body-timeout", "3", "--max-record-seconds", "3"],
            self.log)


def mutate_bytes(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.randint(0, 5)
        if choice == 0 and data:
            del data[rng.randrange(len(data)):]
        elif choice == 1 and data:
            for _ in range(rng.randint(1, 20)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif choice == 2:
            data += os.urandom(rng.randint(1, 1000))
        elif choice == 3 and len(data) > 8:
            start = rng.randrange(len(data) - 4)
            data[start:start + 4] = struct.pack(">I", rng.choice([0, 0xFFFFFFFF, 0x7FFFFFFF, 65536]))
        elif choice == 4:
            data = bytearray(rng.choice([b"", b"{}", b"null", b"GIF89a", b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff"])) + data[:100]
    return bytes(data)


def encoded(text):
    """Printable ASCII as it is (raw % sequences included), anything else percent-encoded."""
    return text if all(33 <= ord(c) < 127 for c in text) else urllib.parse.quote(text, safe="")


def random_query(rng):
    pairs = []
    for _ in range(rng.randint(0, 5)):
        key = encoded(rng.choice(KEYS))
        value = encoded(rng.choice(VALUES))
        pairs.append(key if rng.random() < 0.2 else f"{key}={value}")
    return ("?" + "&".join(pairs)) if pairs else ""


def random_order(rng):
    order = {"symbology": rng.choice(["qr", "ean13", "aztec", "pdf417", "code128", "nope", 5]),
             "payload": rng.choice(["hello", "", "4006381333931", "x" * 5000, "ff00", 7, None])}
    for key in rng.sample(["hex", "moduleSize", "ecc", "quietZone", "barHeight", "extra"], rng.randint(0, 3)):
        order[key] = rng.choice(JSON_VALUES[:16])
    return json.dumps(order).encode()


def random_message(rng):
    if rng.random() < 0.3:
        message = {"record": rng.choice(["start", "stop", "pause", 1])}
        for key in rng.sample(["maxSeconds", "maxMegabytes", "bogus"], rng.randint(0, 2)):
            message[key] = rng.choice(JSON_VALUES[:16])
    else:
        message = {key: rng.choice(JSON_VALUES) for key in rng.sample(LIVE_KEYS, rng.randint(0, 4))}
    text = json.dumps(message)
    if rng.random() < 0.1:
        text = text[: rng.randrange(len(text) + 1)]
    return text


def read_messages(s, limit_seconds):
    """Text messages from the server within `limit_seconds` (a camera never goes quiet)."""
    messages, buffer = [], b""
    deadline = time.time() + limit_seconds
    try:
        while time.time() < deadline:
            s.settimeout(max(0.01, deadline - time.time()))
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            buffer += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    while len(buffer) >= 2:
        opcode, length, offset = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
        if length == 126:
            length, offset = struct.unpack(">H", buffer[2:4])[0], 4
        elif length == 127:
            length, offset = struct.unpack(">Q", buffer[2:10])[0], 10
        if len(buffer) < offset + length:
            break
        if opcode == 1:
            messages.append(buffer[offset:offset + length].decode())
        buffer = buffer[offset + length:]
    return messages


def main():
    rng = random.Random(SEED)
    with open(IMAGE, "rb") as file:
        image = file.read()
    server = Server()
    codes = None
    failures, cases, started = [], 0, time.time()

    def fail(what):
        failures.append(what)
        print("FAIL", what, flush=True)

    def check_error_body(body, what):
        try:
            error = json.loads(body)["error"]
            if error["code"] not in codes or not error["message"]:
                fail(f"{what}: undocumented error {error}")
        except (ValueError, KeyError, TypeError):
            fail(f"{what}: error body is not the documented JSON: {body[:200]!r}")

    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request("GET", "/openapi.json")
    document = json.loads(connection.getresponse().read())
    codes = set(document["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"])

    while time.time() - started < SECONDS:
        cases += 1
        case_seed = rng.randrange(1 << 30)
        case = random.Random(case_seed)
        kind = case.random()
        if kind < 0.6:
            method, path = case.choice(ROUTES)
            if case.random() < 0.1:
                method = case.choice(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"])
            if case.random() < 0.1:
                path = path.replace("0", case.choice(["1", "-1", "99999999999999999999", "%2e%2e", "x"]))
            body = None
            if method in ("POST", "PUT", "PATCH"):
                body = random_order(case) if path == "/v1/generate" else mutate_bytes(case, image) if case.random() < 0.8 else image
            headers = {}
            if case.random() < 0.2:
                headers["Origin"] = case.choice(["http://evil.example", "null", f"http://127.0.0.1:{server.port}"])
            uri = path + random_query(case)
            what = f"seed {case_seed}: {method} {uri[:120]}"
            try:
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
                connection.request(method, uri, body=body, headers=headers)
                response = connection.getresponse()
                data = response.read()
                connection.close()
            except (OSError, http.client.HTTPException) as error:
                fail(f"{what}: no answer ({error})")
                continue
            if response.status >= 500 and response.status not in (503, 504, 507):
                fail(f"{what}: {response.status} {data[:200]!r}")
            if response.status >= 400 and response.status != 404 and response.getheader("Content-Type", "").startswith("application/json"):
                check_error_body(data, what)
        else:
            path = case.choice(["/v1/live", "/v1/cameras/0/live"])
            what = f"seed {case_seed}: socket {path}"
            try:
                s, status = websocket_client.upgrade(server.port, path)
                if b" 101 " not in status:
                    fail(f"{what}: upgrade refused {status!r}")
                    continue
                for _ in range(case.randint(1, 6)):
                    roll = case.random()
                    if roll < 0.5:
                        s.sendall(websocket_client.frame(random_message(case).encode()))
                    elif roll < 0.9:
                        picture = mutate_bytes(case, image) if case.random() < 0.7 else image
                        s.sendall(websocket_client.frame(struct.pack("<I", case.randrange(1 << 32)) + picture, opcode=2))
                    else:
                        s.sendall(case.choice([websocket_client.frame(b"x", opcode=9), websocket_client.frame(b"\x03\xe8", opcode=8), os.urandom(20)]))
                for message in read_messages(s, 0.7):
                    try:
                        parsed = json.loads(message)
                    except ValueError:
                        fail(f"{what}: a message that is not JSON: {message[:200]}")
                        continue
                    if "error" in parsed and parsed["error"].get("code") not in codes:
                        fail(f"{what}: undocumented error {parsed['error']}")
                s.close()
            except OSError as error:
                if server.process.poll() is not None:
                    fail(f"{what}: the server died ({error})")
        if os.environ.get("FUZZ_VERBOSE"):
            print(f"{time.time() - started:6.1f} s  {what}", flush=True)
        if server.process.poll() is not None:
            fail(f"seed {case_seed}: the server died, exit {server.process.returncode}")
            break
    alive = server.process.poll() is None
    if alive:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        connection.request("GET", "/healthz")
        healthy = connection.getresponse().status == 200
        server.process.terminate()
        server.process.wait(timeout=20)
    else:
        healthy = False
    print(f"fuzz: {cases} cases in {time.time() - started:.0f} s (seed {SEED}), {len(failures)} failures, "
          f"server {'alive and healthy' if healthy else 'NOT healthy'}")
    sys.exit(0 if not failures and healthy else 1)


if __name__ == "__main__":
    main()
