"""Avatar uploads: how long the server's re-encoding takes (laizi.server.accounts.avatars.reencode).

Run: ``.venv/bin/python benchmarks/bench_avatars.py [--repeat 5] [--json]``

Two uploads, each re-encoded ``--repeat`` times (the median is kept): a 640×480 JPEG photo-like
picture, and the largest accepted kind — a 4096×4096 RGBA PNG — squeezed under the 2 MiB upload
limit by flat colour with thin stripes (what decodes slowest per byte). Both are made here with
Pillow; no file is read.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import time

from PIL import Image

from laizi.server.accounts.avatars import MAX_SIDE, MAX_UPLOAD_BYTES, reencode


def jpeg_photo(w: int = 640, h: int = 480) -> bytes:
    rng = random.Random(7)
    im = Image.new("RGB", (w, h), (10, 120, 60))
    for _ in range(400):  # blotches: a JPEG that is not all one colour
        x, y = rng.randrange(w), rng.randrange(h)
        im.paste((rng.randrange(256), rng.randrange(256), rng.randrange(256)),
                 (x, y, min(w, x + 40), min(h, y + 30)))
    out = io.BytesIO()
    im.save(out, "JPEG", quality=90)
    return out.getvalue()


def largest_png(side: int = 4096) -> bytes:
    im = Image.new("RGBA", (side, side), (200, 30, 30, 255))
    stripe = Image.new("RGBA", (side, 7), (30, 30, 200, 100))
    for y in range(0, side, 64):
        im.paste(stripe, (0, y))
    out = io.BytesIO()
    im.save(out, "PNG", optimize=True)
    data = out.getvalue()
    assert len(data) <= MAX_UPLOAD_BYTES, len(data)
    return data


def timed(data: bytes, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        reencode(data)
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times) * 1000, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    jpeg, png = jpeg_photo(), largest_png(min(4096, MAX_SIDE))
    out = {"jpeg_640x480_bytes": len(jpeg), "jpeg_640x480_ms": timed(jpeg, args.repeat),
           "png_4096x4096_bytes": len(png), "png_4096x4096_ms": timed(png, args.repeat),
           "repeat": args.repeat}
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>22}: {v}")


if __name__ == "__main__":
    main()
