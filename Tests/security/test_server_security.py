"""`kamera serve` attacked as issue #32 attacked it, on loopback, each attack bounded in time.

Usage: python3 test_server_security.py KAMERA_BINARY CAMERA_MOVIE QR_PNG

Starts real servers (a looped movie as the server camera), runs every attack, and asserts the
fix: no crash, a clear typed status, bounded memory, nothing lost. Python's standard library
only. Exit status 0 when every check passes; each failure is printed.
"""

import http.client
import json
import os
import random
import resource
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

import kamera_server
import websocket_client

KAMERA, MOVIE, QR = sys.argv[1], sys.argv[2], sys.argv[3]
FAILURES = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        FAILURES.append(what)


class Server:
    """A `kamera serve` on a free loopback port, its stdout and stderr kept."""

    def __init__(self, *arguments, data=None, fd_limit=None):
        self.data = data or tempfile.mkdtemp(prefix="kamera-security-")
        self.log = tempfile.NamedTemporaryFile(prefix="kamera-serve-", suffix=".log", delete=False)
        limit = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))) if fd_limit else None
        self.process, self.port = kamera_server.start(KAMERA, ["--data", self.data, *arguments], self.log, limit)
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def alive(self):
        return self.process.poll() is None

    def request(self, method, path, body=None, headers=None, timeout=30):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, data, response.headers

    def raw(self, data, timeout=10, wait_close=True):
        """Sends bytes; returns (first response line or b"", whether the server closed)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            try:
                s.sendall(data)
            except OSError:
                pass
            received = b""
            closed = False
            deadline = time.time() + timeout
            while time.time() < deadline:
                try:
                    chunk = s.recv(65536)
                except socket.timeout:
                    break
                except ConnectionResetError:
                    closed = True
                    break
                if not chunk:
                    closed = True
                    break
                received += chunk
                if not wait_close and b"\r\n\r\n" in received:
                    break
            return received.split(b"\r\n")[0], closed, received

    def upgrade(self, path, headers=""):
        return websocket_client.upgrade(self.port, path, headers)

    def rss_peak_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0

    def stop(self):
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def stderr(self):
        return open(self.log.name).read()


def ws_frame(text, masked=True):
    return websocket_client.frame(text.encode(), masked=masked)


def ws_read_text(s, timeout=10):
    """The next text frame's payload from the server (unmasked), or None when closed."""
    s.settimeout(timeout)
    def exactly(n):
        data = b""
        while len(data) < n:
            chunk = s.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data
    try:
        while True:
            first, second = exactly(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", exactly(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", exactly(8))[0]
            payload = exactly(length)
            opcode = first & 0x0F
            if opcode == 1:
                return payload.decode()
            if opcode == 8:
                return None
    except (EOFError, ConnectionResetError, socket.timeout):
        return None


def png(width, height):
    """A gray PNG of width × height (compresses to almost nothing: a decompression-bomb shape)."""
    row = b"\x00" + b"\x80" * width
    raw = zlib.compress(row * height, 9)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


def numbers_do_not_crash(server):
    status, _, _ = server.request("POST", "/v1/cameras/0/recording?maxMegabytes=1e13")
    check(status == 201, f"1e13 megabytes is clamped to the server's limit (201, got {status})")
    status, body, _ = server.request("DELETE", "/v1/cameras/0/recording")
    check(status in (200, 400), f"the recording stops ({status})")
    for query in ["maxMegabytes=nan", "maxSeconds=-1", "maxSeconds=inf", "maxMegabytes=abc", "maxSecond=3"]:
        status, body, _ = server.request("POST", f"/v1/cameras/0/recording?{query}")
        check(status == 400 and b"invalidArgument" in body, f"?{query} is 400 invalidArgument ({status})")
    s, line = server.upgrade("/v1/live")
    s.sendall(ws_frame('{"record":"start","maxMegabytes":1e13}'))
    s.sendall(ws_frame('{"record":"stop"}'))
    s.sendall(ws_frame('{"record":"start","maxSeconds":"nan"}'))
    reply = ws_read_text(s, timeout=5)
    check(reply is not None and "invalidArgument" in reply, f"a bad recording message gets a typed error ({reply})")
    s.sendall(ws_frame('{"faces":true}'))
    s.sendall(ws_frame('{"maxFaces":1e13}'))
    reply = ws_read_text(s, timeout=5)
    check(reply is not None and "maxFaces" in reply, f'{{"faces":true}} is taken, 1e13 faces is an error ({reply})')
    s.sendall(ws_frame("x" * 100_000))
    reply = ws_read_text(s, timeout=5)
    check(reply is not None and "at most 65536 bytes" in reply, "a 100 KB text message is refused unread")
    s.close()
    for query in ["limit=abc", "limit=1e99", "limit=-1"]:
        status, _, _ = server.request("GET", f"/v1/codes?{query}")
        check(status == 400, f"/v1/codes?{query} is 400 ({status})")
    check(server.alive(), "the server survived the numbers")


def cross_site_is_refused(server):
    s, line = server.upgrade("/v1/cameras/0/live", "Origin: http://evil.example\r\n")
    check(b" 403 " in line, f"a foreign page cannot watch the camera ({line})")
    s.close()
    s, line = server.upgrade("/v1/cameras/0/live", "Origin: null\r\n")
    check(b" 403 " in line, f"Origin: null cannot either ({line})")
    s.close()
    s, line = server.upgrade("/v1/cameras/0/live", f"Origin: http://127.0.0.1:{server.port}\r\n")
    check(b" 101 " in line, f"the server's own page can ({line})")
    s.close()
    s, line = server.upgrade("/v1/live", "Origin: https://app.example.com\r\n")
    check(b" 101 " in line, f"an --allow-origin page can ({line})")
    s.close()
    status, body, _ = server.request(
        "POST", "/v1/cameras/0/recording", body=b"x", headers={"Origin": "http://evil.example", "Content-Type": "text/plain"})
    check(status == 403 and b"forbiddenOrigin" in body, f"a cross-origin text/plain POST starts nothing ({status})")
    _, body, _ = server.request("GET", "/v1/cameras")
    check(json.loads(body)["cameras"][0].get("recording") is None, "no recording was started")
    status, body, _ = server.request(
        "PUT", "/v1/cameras/0/controls", body=b'{"torchMode":"on"}', headers={"Origin": "http://evil.example", "Content-Type": "text/plain"})
    check(status == 403 and b"forbiddenOrigin" in body, f"a cross-origin page cannot change a camera's controls ({status})")
    status, body, _ = server.request("POST", "/v1/cameras/0/photo", body=b"x", headers={"Origin": "http://evil.example", "Content-Type": "text/plain"})
    check(status == 403 and b"forbiddenOrigin" in body, f"a cross-origin page cannot take a photo ({status})")
    _, body, _ = server.request("GET", "/v1/stills")
    check(json.loads(body)["stills"] == [], "no photo was taken")
    status, body, _ = server.request("DELETE", "/v1/stills/..%2F..%2Fkamera.sqlite")
    check(status == 404, f"a photo id cannot name a file outside the library ({status})")
    for path in ["/", "/healthz", "/v1/recordings"]:
        status, _, _ = server.request("GET", path, headers={"Host": "evil.example"})
        check(status == 403, f"Host: evil.example gets 403 on {path} (DNS rebinding) ({status})")
    status, _, headers = server.request("GET", "/")
    check(status == 200 and "frame-ancestors 'none'" in (headers["Content-Security-Policy"] or ""), "the page has a CSP")
    check(headers["X-Content-Type-Options"] == "nosniff" and headers["X-Frame-Options"] == "DENY", "nosniff and DENY")


def malformed_and_slow_requests_are_closed(server):
    cases = [
        (b"GET /" + b"a" * 1_000_000 + b" HTTP/1.1\r\n\r\n", b"414"),
        (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 1_000_000 + b"\r\n\r\n", b"431"),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n", b"501"),
        (b"FROB / HTTP/1.1\r\nHost: x\r\n\r\n", b"501"),
        (b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", b"505"),
        (b"GET /\r\n\r\n", b"400"),
        (b"GET / HTTP/1.1\r\n bad header\r\n\r\n", b"400"),
    ]
    for data, expected in cases:
        line, closed, _ = server.raw(data, timeout=5)
        check(expected in line and closed, f"{data[:24]!r}… gets {expected.decode()} and is closed ({line[:40]}, closed {closed})")
    started = time.time()
    line, closed, _ = server.raw(b"", timeout=8)
    check(closed and time.time() - started < 5, f"a silent connection is closed ({time.time() - started:.1f} s)")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        started = time.time()
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        reply = b""
        try:
            for _ in range(20):
                time.sleep(0.3)
                s.sendall(b"X-Drip: 1\r\n")
        except OSError:
            pass
        try:
            reply = s.recv(200)
        except OSError:
            pass
        check(b"408" in reply and time.time() - started < 6, f"a slow head is cut off with 408 ({reply[:30]}, {time.time() - started:.1f} s)")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        started = time.time()
        s.sendall(f"POST /v1/detect HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Length: 100000\r\n\r\n".encode() + b"x" * 10)
        reply = b""
        while b"}" not in reply:
            chunk = s.recv(1000)
            if not chunk:
                break
            reply += chunk
        check(b"408" in reply and b"bodyTimeout" in reply and time.time() - started < 5,
              f"a body that stops arriving gets 408 ({reply[:30]}, {time.time() - started:.1f} s)")
    s, line = server.upgrade("/v1/live")
    s.sendall(ws_frame('{"faces":true}', masked=False))
    s.settimeout(5)
    try:
        closing = s.recv(10)
    except OSError:
        closing = b""
    check(closing[:1] == b"\x88" or closing == b"", f"an unmasked client frame closes the socket ({closing!r})")
    s.close()
    check(server.alive(), "the server survived the malformed requests")


def connections_are_capped(server):
    sockets, refused = [], 0
    for _ in range(300):
        try:
            sockets.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
        except OSError:
            refused += 1
    time.sleep(0.5)
    answered_503 = 0
    for s in sockets:
        s.setblocking(False)
        try:
            if b" 503 " in s.recv(200):
                answered_503 += 1
        except OSError:
            pass
    check(answered_503 + refused >= 300 - 64, f"beyond 64 connections new ones get 503 ({answered_503} answered, {refused} refused)")
    time.sleep(2.5)  # the header timeout frees the idle ones
    status, _, _ = server.request("GET", "/healthz", timeout=5)
    check(status == 200, f"/healthz answers once the idle connections are closed ({status})")
    for s in sockets:
        s.close()
    check(server.alive(), "the server survived 300 idle sockets with 256 file descriptors")


def memory_stays_bounded(server):
    baseline = server.rss_peak_mb()
    statuses = []
    lock = threading.Lock()
    body = random.randbytes(31 << 20)

    def upload(data, query=""):
        try:
            status, _, _ = server.request("POST", f"/v1/detect{query}", body=data, timeout=120)
        except OSError as error:
            status = str(error)
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=upload, args=(body,)) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    peak = server.rss_peak_mb()
    check(set(statuses) <= {415, 503}, f"40 × 31 MB uploads: only 415 (not an image) or 503 (busy) ({sorted(set(map(str, statuses)))})")
    check(503 in statuses, "some of them were told to retry (503)")
    check(peak < baseline + 128 + 200, f"peak RSS {peak:.0f} MB stays near baseline {baseline:.0f} MB + the 128 MB budget")
    statuses.clear()
    # 25 megapixels: about 100 MB decoded, so the 128 MB budget admits one at a time.
    big = png(5000, 5000)
    threads = [threading.Thread(target=upload, args=(big,)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    peak = server.rss_peak_mb()
    check(set(statuses) <= {200, 503} and 503 in statuses and 200 in statuses,
          f"8 × 25-megapixel PNGs at once: analysed (200) or told to retry (503) ({sorted(map(str, statuses))})")
    check(peak < baseline + 128 + 400, f"peak RSS {peak:.0f} MB bounded (baseline {baseline:.0f} MB)")


def token_from_a_file():
    token = "s3cret-token-0123456789"
    folder = tempfile.mkdtemp(prefix="kamera-token-")
    path = os.path.join(folder, "token")
    with open(path, "w") as file:
        file.write(token + "\n")
    server = Server("--token-file", path)
    try:
        with open(f"/proc/{server.process.pid}/cmdline", "rb") as cmdline:
            check(token.encode() not in cmdline.read(), "the token is not in the command line (ps)")
        s, line = server.upgrade("/v1/live")
        check(b" 401 " in line, f"an upgrade without the token gets 401 ({line})")
        s.close()
        s, line = server.upgrade("/v1/live", f"Authorization: Bearer {token}\r\n")
        check(b" 101 " in line, f"with it, 101 ({line})")
        s.close()
        status, _, _ = server.request("GET", "/healthz", headers={"Authorization": f"Bearer {token}"})
        check(status == 200, "a request with the token is served")
    finally:
        server.stop()


def a_full_disk_is_reported():
    if os.getuid() != 0:
        print("skip a full disk (needs root to mount a small tmpfs)")
        return
    mount = tempfile.mkdtemp(prefix="kamera-full-")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mount], check=True)
    server = None
    try:
        server = Server("--camera", MOVIE, "--min-free-mb", "0", data=mount)
        status, body, _ = server.request("POST", "/v1/cameras/0/recording")
        check(status == 201, f"a recording starts on the small disk ({status})")
        entry = None
        deadline = time.time() + 40
        while time.time() < deadline:
            _, body, _ = server.request("GET", "/v1/recordings")
            recordings = json.loads(body)["recordings"]
            if recordings and recordings[0]["complete"]:
                entry = recordings[0]
                break
            time.sleep(0.5)
        check(entry is not None and entry["stopReason"] == "diskFull", f"the recording ends as diskFull ({entry})")
        check(entry is not None and entry["frames"] > 0 and entry["width"] > 0, "what was written is kept")
        with open(QR, "rb") as file:
            status, body, _ = server.request("POST", "/v1/detect", body=file.read())
        check(status == 200 and b"KAMERA-SECURITY" in body, f"a detect result is returned on a full disk ({status})")
        check("disk is full" in server.stderr(), "the full disk is in the log")
        # The library gave up its reserve to record how the recording ended: fill what it freed.
        with open(os.path.join(mount, "filler"), "wb") as filler:
            try:
                while True:
                    filler.write(b"\0" * 65536)
                    filler.flush()
            except OSError:
                pass
        status, body, _ = server.request("POST", "/v1/cameras/0/photo")
        check(status == 507 and b"diskFull" in body, f"a photo on the full disk is a typed 507 ({status} {body[:80]})")
        stray = os.listdir(os.path.join(mount, "stills"))
        check(stray == [], f"and leaves no partial file behind ({stray})")
        check(server.alive(), "the server survived a full disk")
    finally:
        if server:
            server.stop()
        subprocess.run(["umount", mount])


def recovered_recordings_have_their_size():
    data = tempfile.mkdtemp(prefix="kamera-recover-")
    server = Server("--camera", MOVIE, data=data)
    status, _, _ = server.request("POST", "/v1/cameras/0/recording")
    check(status == 201, "a recording starts")
    time.sleep(2.5)
    server.process.kill()
    server.process.wait()
    server = Server("--camera", MOVIE, data=data)
    try:
        _, body, _ = server.request("GET", "/v1/recordings")
        entry = json.loads(body)["recordings"][0]
        check(entry["stopReason"] == "interrupted" and entry["width"] > 0 and entry["height"] > 0,
              f"a recording recovered after SIGKILL is listed with its size ({entry['width']}×{entry['height']})")
    finally:
        server.stop()


def main():
    started = time.time()
    server = Server(
        "--camera", MOVIE, "--allow-origin", "https://app.example.com", "--header-timeout", "2", "--body-timeout", "2",
        "--idle-timeout", "3", "--max-connections", "64", "--memory-budget", "128", fd_limit=256)
    try:
        numbers_do_not_crash(server)
        cross_site_is_refused(server)
        malformed_and_slow_requests_are_closed(server)
        connections_are_capped(server)
        memory_stays_bounded(server)
    finally:
        server.stop()
    token_from_a_file()
    a_full_disk_is_reported()
    recovered_recordings_have_their_size()
    print(f"security: {len(FAILURES)} failures in {time.time() - started:.0f} s")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
