#!/usr/bin/env python3
"""tests/lib/png_check.py: checks the images in the request bodies of a
dumped trace (tokentrace-analyze dump, JSON Lines on stdin): every image
part (chat image_url data URL, Anthropic base64 source) must be a PNG
whose chunk CRCs hold and whose zlib data inflates to exactly the scanlines
of its IHDR size. Prints one line per request: "ID N WxH,WxH,... SHA256"
(the images' hash, to compare seeds). Exits 1 naming the first bad image.
"""
import base64
import hashlib
import json
import struct
import sys
import zlib


def png_size(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("no PNG signature")
    i, idat, size = 8, b"", None
    while i < len(data):
        n, = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        crc, = struct.unpack(">I", data[i + 8 + n:i + 12 + n])
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise ValueError("bad CRC in %r" % kind)
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            if (depth, colour) != (8, 2):
                raise ValueError("not 8-bit RGB")
            size = (w, h)
        elif kind == b"IDAT":
            idat += body
        i += 12 + n
    w, h = size
    if len(zlib.decompress(idat)) != h * (1 + 3 * w):
        raise ValueError("image data is not %dx%d" % (w, h))
    return "%dx%d" % (w, h)


def images(body):
    for m in body.get("messages", []):
        c = m.get("content")
        for p in c if isinstance(c, list) else []:
            if p.get("type") == "image_url":
                url = p["image_url"]["url"]
                if not url.startswith("data:image/png;base64,"):
                    raise ValueError("not a PNG data URL")
                yield base64.b64decode(url.split(",", 1)[1], validate=True)
            elif p.get("type") == "image":
                yield base64.b64decode(p["source"]["data"], validate=True)


for line in sys.stdin:
    rec = json.loads(line)
    if rec["kind"] != "request":
        continue
    try:
        found = list(images(json.loads(rec["body"])))
        sizes = [png_size(d) for d in found]
    except (ValueError, KeyError, TypeError) as e:
        print("request %d: %s" % (rec["id"], e), file=sys.stderr)
        sys.exit(1)
    digest = hashlib.sha256(b"".join(found)).hexdigest()[:16]
    print(rec["id"], len(found), ",".join(sizes), digest)
