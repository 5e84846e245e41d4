"""Starting a real `kamera serve` for the server's tests and the soak."""

import re
import subprocess


def start(kamera, arguments, stderr, preexec_fn=None):
    """Runs `kamera serve --port 0 ARGUMENTS…`; returns the process (stdout piped) and the port it chose."""
    process = subprocess.Popen([kamera, "serve", "--port", "0", *arguments], stdout=subprocess.PIPE, stderr=stderr,
                               text=True, preexec_fn=preexec_fn)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        process.kill()
        raise RuntimeError(f"kamera serve did not start: {line!r}")
    return process, int(match.group(1))
