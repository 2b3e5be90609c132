#!/usr/bin/env python3
"""Writes the demo's sample pictures (Feeds/samples/img/*.png): small palette PNGs drawn
here, so the offline demo shows real pictures without any download or image tool.
Run from anywhere: python3 Feeds/samples/img/make_images.py"""
import math, os, struct, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 320, 180

def png(name, palette, pixel):
    rows = b"".join(b"\x00" + bytes(pixel(x, y) for x in range(W)) for y in range(H))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 3, 0, 0, 0))
            + chunk(b"PLTE", b"".join(bytes(c) for c in palette))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)

def ramp(a, b, n):
    return [tuple(round(a[i] + (b[i] - a[i]) * k / (n - 1)) for i in range(3)) for k in range(n)]

# A tree of nodes (libxml2): a dusk gradient with a branching tree of dots.
def tree(x, y):
    band = min(7, y * 8 // H)
    for (cx, cy) in [(160, 40), (90, 95), (230, 95), (55, 150), (125, 150), (195, 150), (265, 150)]:
        if (x - cx) ** 2 + (y - cy) ** 2 < 13 ** 2:
            return 8
    for (x0, y0, x1, y1) in [(160, 40, 90, 95), (160, 40, 230, 95), (90, 95, 55, 150), (90, 95, 125, 150),
                             (230, 95, 195, 150), (230, 95, 265, 150)]:
        t = max(0.0, min(1.0, ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / ((x1 - x0) ** 2 + (y1 - y0) ** 2)))
        if math.hypot(x - (x0 + t * (x1 - x0)), y - (y0 + t * (y1 - y0))) < 2.5:
            return 9
    return band
png("libxml2.png", ramp((28, 38, 79), (240, 128, 60), 8) + [(255, 244, 214), (255, 230, 190)], tree)

# Threads (concurrency): parallel waves in four colours on a dark ground.
def waves(x, y):
    for i in range(4):
        cy = 30 + i * 40 + 12 * math.sin((x + i * 37) / 26.0)
        if abs(y - cy) < 5:
            return 1 + i
    return 0
png("threads.png", [(24, 26, 32), (94, 200, 229), (246, 196, 69), (240, 98, 146), (129, 199, 132)], waves)

# Episode art (a podcast on conditional GET): concentric rings, like a loudspeaker.
def rings(x, y):
    r = math.hypot(x - 160, y - 90)
    return 0 if r > 84 else 1 + int(r // 12) % 2 + (2 if r < 18 else 0)
png("episode-42.png", [(18, 87, 94), (247, 241, 227), (240, 90, 40), (240, 90, 40), (30, 30, 30)], rings)

# A release (the toolchain's 6.3.1 notes): stacked bars rising left to right, like a changelog
# growing, on a pale ground.
def bars(x, y):
    i, dx = divmod(x - 40, 48)
    if 0 <= i < 5 and dx < 34 and y >= 150 - 22 * (i + 1) and y < 150:
        return 1 + i % 2
    return 3 if 150 <= y < 154 and 30 <= x < 290 else 0
png("6.3.1.png", [(236, 240, 245), (52, 101, 164), (245, 121, 0), (90, 90, 90)], bars)
