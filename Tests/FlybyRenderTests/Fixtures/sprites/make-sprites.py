#!/usr/bin/env python3
"""Writes the test sprite sheets icons.png/json and icons@2x.png/json (own work, CC0)."""
import json, math, struct, zlib

def png(path, w, h, px):  # px: list of (r, g, b, a), row by row, straight alpha
    raw = b"".join(b"\0" + bytes(c for p in px[y * w:(y + 1) * w] for c in p) for y in range(h))
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(path, "wb").write(data)

def sheet(scale, name):
    W, H = 64 * scale, 32 * scale
    px = [(0, 0, 0, 0)] * (W * H)
    def put(x, y, c): px[y * W + x] = c
    entries = {}
    # square: 8x8 opaque red (1x) / opaque green (2x, so a test can tell the sheets apart).
    for y in range(8 * scale):
        for x in range(8 * scale): put(x, y, (255, 0, 0, 255) if scale == 1 else (0, 255, 0, 255))
    entries["square"] = {"x": 0, "y": 0, "width": 8 * scale, "height": 8 * scale, "pixelRatio": scale}
    # disc: a 16x16 signed distance field of a disc of radius 5 (alpha 192 on the edge, 32 per px).
    s = 16 * scale
    for y in range(s):
        for x in range(s):
            d = math.hypot(x + 0.5 - s / 2, y + 0.5 - s / 2) / scale - 5
            a = max(0, min(255, round(255 * (0.75 - d / 8))))
            put(16 * scale + x, y, (0, 0, 0, a))
    entries["disc"] = {"x": 16 * scale, "y": 0, "width": s, "height": s, "pixelRatio": scale, "sdf": True}
    # mask: the same disc as a plain alpha mask (coverage), marked sdf.
    for y in range(s):
        for x in range(s):
            d = math.hypot(x + 0.5 - s / 2, y + 0.5 - s / 2) / scale - 5
            a = max(0, min(255, round(255 * (0.5 - d * scale))))
            put(32 * scale + x, y, (0, 0, 0, a))
    entries["mask"] = {"x": 32 * scale, "y": 0, "width": s, "height": s, "pixelRatio": scale, "sdf": True}
    # shield: 16x12, a 2 px dark blue border around white, stretchable in its middle.
    for y in range(12 * scale):
        for x in range(16 * scale):
            edge = x < 2 * scale or y < 2 * scale or x >= 14 * scale or y >= 10 * scale
            put(x, 16 * scale + y, (0, 0, 128, 255) if edge else (255, 255, 255, 255))
    entries["shield"] = {"x": 0, "y": 16 * scale, "width": 16 * scale, "height": 12 * scale, "pixelRatio": scale,
                         "stretchX": [[4 * scale, 12 * scale]], "stretchY": [[4 * scale, 8 * scale]],
                         "content": [3 * scale, 3 * scale, 13 * scale, 9 * scale]}
    png(name + ".png", W, H, px)
    json.dump(entries, open(name + ".json", "w"), indent=1, sort_keys=True)

sheet(1, "icons")
sheet(2, "icons@2x")
