"""A server camera under kamera serve (bench/serve.sh runs it): a movie played as the camera
at 30 fps, one page watching over /v1/cameras/0/live while the camera records through
POST/DELETE /v1/cameras/0/recording. Reports the frames per second the page sees analysed
and the frames per second recorded (every camera frame should be).

usage: serve_camera.py PORT LABEL SECONDS
"""
import asyncio
import http.client
import json
import sys
import time

import websockets

PORT, LABEL, SECONDS = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])


def call(method, path):
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    connection.request(method, path)
    response = connection.getresponse()
    return response.status, json.loads(response.read() or b"{}")


async def watch(seconds):
    pictures, results, analysis = 0, 0, []
    async with websockets.connect(f"ws://127.0.0.1:{PORT}/v1/cameras/0/live", max_size=None) as ws:
        await ws.send(json.dumps({"faces": True, "landmarks": False, "codes": True, "text": False}))
        # Let the camera open and the scanner warm up before measuring.
        warm_until = time.time() + 1.5
        while time.time() < warm_until:
            await ws.recv()
        status, _ = call("POST", "/v1/cameras/0/recording")
        assert status == 201, status
        start = time.time()
        while time.time() - start < seconds:
            message = await ws.recv()
            if isinstance(message, bytes):
                pictures += 1
                continue
            result = json.loads(message)
            if "analysisMs" in result:
                results += 1
                analysis.append(result["analysisMs"])
        elapsed = time.time() - start
        status, body = call("DELETE", "/v1/cameras/0/recording")
        assert status == 200, (status, body)
    analysis.sort()
    return results / elapsed, analysis[len(analysis) // 2], body["recording"]


def main():
    rate, median, recording = asyncio.run(watch(SECONDS))
    recorded = recording["frames"] / recording["duration"]
    print(f"{LABEL:<12}{rate:>12.1f}{median:>14.1f}{recorded:>14.1f}{recording['width']:>7}x{recording['height']:<5}"
          f"{recording['frames']:>7} frames in {recording['duration']:.1f} s")


if __name__ == "__main__":
    main()
