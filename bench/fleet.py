#!/usr/bin/env python3
"""Throughput of `kamera serve` on /v1/detect (faces in a real photo): one instance direct,
one behind nginx, two behind nginx, the same clients and photo in one run, with ratios to
one instance direct. Usage: fleet.py KAMERA PHOTO [SECONDS] [CLIENTS]"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "scale"))
from fleet import Balancer, Instance, Load, cleanup, workspace  # noqa: E402

kamera, photo_path = os.path.abspath(sys.argv[1]), sys.argv[2]
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 20
clients = int(sys.argv[4]) if len(sys.argv) > 4 else 4
photo = open(photo_path, "rb").read()


def measure(port):
    Load(port, photo, clients=clients, count=clients * 4).start().join()  # warm up
    load = Load(port, photo, clients=clients).start()
    time.sleep(seconds)
    outcomes = load.stop()
    ok = sum(1 for o in outcomes if o[1] == 200)
    return ok / load.seconds, len(outcomes) - ok


rows = []
root = workspace()
a = Instance(kamera, root, "a").start()
b = Instance(kamera, root, "b").start()
parts = [a, b]
try:
    assert a.wait_ready() and b.wait_ready()
    rows.append(("1 instance, direct", *measure(a.port)))
    one = Balancer(root + "/one", [a])
    parts.append(one)
    rows.append(("1 instance behind nginx", *measure(one.port)))
    two = Balancer(root + "/two", [a, b])
    parts.append(two)
    rows.append(("2 instances behind nginx", *measure(two.port)))
finally:
    cleanup(root, *parts)
base = rows[0][1]
print(f"{'setup':28} {'photos/s':>9} {'failed':>7} {'vs direct':>10}")
for name, rate, failed in rows:
    print(f"{name:28} {rate:9.1f} {failed:7d} {rate / base:9.2f}x")
