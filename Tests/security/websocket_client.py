"""The little of a WebSocket client the server's tests and the soak need, on raw sockets so
that a test can also send what a real client never would (unmasked frames, garbage)."""

import os
import socket
import struct


def frame(payload, opcode=1, masked=True):
    """One final frame: text (opcode 1) or binary (2); masked as a client must, unless told not to."""
    n = len(payload)
    bit = 0x80 if masked else 0
    if n < 126:
        head = bytes([0x80 | opcode, bit | n])
    elif n < 65536:
        head = bytes([0x80 | opcode, bit | 126]) + struct.pack(">H", n)
    else:
        head = bytes([0x80 | opcode, bit | 127]) + struct.pack(">Q", n)
    if not masked:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def upgrade(port, path, headers="", timeout=10):
    """Opens `path` on the loopback server at `port`; returns the socket and the response's status line."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{headers}\r\n").encode())
    response = b""
    while b"\r\n\r\n" not in response:
        chunk = s.recv(4096)
        if not chunk:
            break
        response += chunk
    return s, response.split(b"\r\n")[0]
