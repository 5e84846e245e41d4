"""Writes the fake camera for the browser tests: a Y4M (what Chromium's
--use-file-for-fake-video-capture plays, looping) of a real face photo (scikit-image's
astronaut) moving over a real photo (opencv-doc's building.jpg), with a QR code made by
`kamera generate` in view for the first half of each loop and gone for the second half.

usage: make_camera_video.py ASTRONAUT.png BACKGROUND.jpg QR.png OUT.y4m
"""
import sys

import numpy as np
from PIL import Image

WIDTH, HEIGHT, FPS, FRAMES = 640, 480, 15, 60


def to_yuv420(rgb):
    """Full-range BT.601 (the Y4M header says C420jpeg), chroma averaged over 2x2."""
    r, g, b = (rgb[..., i].astype(np.float32) for i in range(3))
    y = 0.299 * r + 0.587 * g + 0.114 * b
    u = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b
    v = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b
    def half(plane):
        return plane.reshape(HEIGHT // 2, 2, WIDTH // 2, 2).mean(axis=(1, 3))
    return [np.clip(p + 0.5, 0, 255).astype(np.uint8) for p in (y, half(u), half(v))]


def main():
    astronaut, background, qr, out = sys.argv[1:5]
    scene = Image.open(background).convert("RGB").resize((WIDTH, HEIGHT))
    head = Image.open(astronaut).convert("RGB").resize((260, 260))
    code = Image.open(qr).convert("RGB").resize((170, 170), Image.NEAREST)
    with open(out, "wb") as f:
        f.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        for i in range(FRAMES):
            frame = scene.copy()
            # The face glides right and back (no jump when the file loops).
            x = 20 + int(60 * (1 - abs(2 * i / FRAMES - 1)))
            frame.paste(head, (x, 110))
            if i < FRAMES // 2:
                frame.paste(code, (440, 150))
            f.write(b"FRAME\n")
            for plane in to_yuv420(np.asarray(frame)):
                f.write(plane.tobytes())


if __name__ == "__main__":
    main()
