"""A fleet of `kamera serve` on loopback behind Debian's nginx, for the scale-out test and its
bench: instances configured from KAMERA_* environment variables as a container would be, an
nginx balancer in front, and a load of real photos posted to /v1/detect by threads."""
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port, method, path, body=None, headers=None, timeout=60):
    """(status, headers, body) or raises OSError / http.client errors."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()



def read_head(connection):
    """The bytes of a response up to the end of its head (or of the stream, if it ends first)."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = connection.recv(65536)
        if not chunk:
            break
        received += chunk
    return received

class Instance:
    """One `kamera serve`, configured from the environment only (no flags)."""

    def __init__(self, kamera, root, name, port=None, **settings):
        self.kamera, self.name = kamera, name
        self.port = port or free_port()
        self.data = os.path.join(root, name)
        self.log_path = os.path.join(root, name + ".log")
        self.settings = settings
        self.process = None

    def start(self):
        env = dict(os.environ, KAMERA_PORT=str(self.port), KAMERA_DATA=self.data, KAMERA_LOG_FORMAT="json")
        env.update({"KAMERA_" + key.upper(): str(value) for key, value in self.settings.items()})
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen([self.kamera, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=self.log)
        return self

    def wait_ready(self, limit=60):
        deadline = time.time() + limit
        while time.time() < deadline:
            try:
                if request(self.port, "GET", "/readyz", timeout=2)[0] == 200:
                    return True
            except OSError:
                pass
            time.sleep(0.1)
        return False

    def log_lines(self):
        lines = []
        for line in open(self.log_path, encoding="utf-8"):
            try:
                lines.append(json.loads(line))
            except ValueError:
                pass
        return lines

    def metrics(self):
        status, _, body = request(self.port, "GET", "/metrics")
        samples = {}
        for line in body.decode().splitlines():
            if line and not line.startswith("#"):
                series, _, value = line.rpartition(" ")
                samples[series] = float(value)
        return samples

    def kill(self, sig=signal.SIGKILL):
        self.process.send_signal(sig)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class Balancer:
    """nginx on loopback spreading over `instances` (round robin), telling which one answered
    (X-Upstream), passing its own request ID on (X-Request-ID)."""

    def __init__(self, root, instances):
        self.root = os.path.join(root, "nginx")
        os.makedirs(os.path.join(self.root, "logs"), exist_ok=True)
        self.port = free_port()
        servers = "\n".join(f"        server 127.0.0.1:{i.port} max_fails=1 fail_timeout=1s;" for i in instances)
        self.conf = os.path.join(self.root, "nginx.conf")
        with open(self.conf, "w") as f:
            f.write(f"""worker_processes 1;
error_log {self.root}/logs/error.log warn;
pid {self.root}/nginx.pid;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {self.root}/body;
    proxy_temp_path {self.root}/proxy;
    fastcgi_temp_path {self.root}/fastcgi;
    uwsgi_temp_path {self.root}/uwsgi;
    scgi_temp_path {self.root}/scgi;
    upstream kamera {{
{servers}
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{self.port};
        client_max_body_size 32m;
        # Bodies stay in memory: nginx's workers run as www-data, which cannot write the
        # test's private folders.
        client_body_buffer_size 32m;
        location / {{
            proxy_pass http://kamera;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host localhost;
            proxy_set_header X-Request-ID $request_id;
            proxy_next_upstream error timeout;
            proxy_read_timeout 60s;
            add_header X-Upstream $upstream_addr always;
        }}
    }}
}}
""")
        self.process = subprocess.Popen(["nginx", "-p", self.root, "-c", self.conf, "-g", "daemon off;"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)

    def stop(self):
        self.process.terminate()
        self.process.wait()


class Load:
    """`clients` threads posting `photo` to `path` on `port` until stopped or `count` requests
    were sent; every outcome is kept: (time, status or error, upstream)."""

    def __init__(self, port, photo, clients=4, path="/v1/detect?faces", count=None):
        self.port, self.photo, self.path, self.count = port, photo, path, count
        self.outcomes = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.sent = 0
        self.threads = [threading.Thread(target=self.client, daemon=True) for _ in range(clients)]

    def client(self):
        while not self.stopping.is_set():
            with self.lock:
                if self.count is not None and self.sent >= self.count:
                    return
                self.sent += 1
            try:
                status, headers, _ = request(self.port, "POST", self.path, body=self.photo,
                                             headers={"Content-Type": "image/jpeg"})
                outcome = (time.time(), status, headers.get("X-Upstream", ""))
            except (OSError, http.client.HTTPException) as error:
                outcome = (time.time(), type(error).__name__, "")
            with self.lock:
                self.outcomes.append(outcome)

    def start(self):
        self.began = time.time()
        for thread in self.threads:
            thread.start()
        return self

    def stop(self):
        self.stopping.set()
        return self.join()

    def join(self):
        for thread in self.threads:
            thread.join()
        self.seconds = time.time() - self.began
        return self.outcomes


def workspace():
    return tempfile.mkdtemp(prefix="kamera-fleet-")


def cleanup(root, *parts):
    for part in parts:
        part.stop()
    shutil.rmtree(root, ignore_errors=True)
