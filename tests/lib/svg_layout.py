#!/usr/bin/env python3
"""svg_layout: checks that no text of a gnuplot SVG is hidden: no two texts
overlap and no opaque box (an opaque key) is painted over a text drawn
before it. Text boxes are estimated from gnuplot's own placement (the
translate() of each <g> holding a <text>, its font size and anchor), with
a width of 0.55 em per narrow and 1 em per wide (CJK) character.

usage: svg_layout.py FILE.svg...   exit 1 with what overlaps what."""
import re
import sys
import unicodedata

GROUP = re.compile(
    r'<g transform="translate\(([-0-9.]+),([-0-9.]+)\)(?: rotate\(([-0-9.]+)\))?"'
    r'[^>]*?font-size="([0-9.]+)"[^>]*?text-anchor="(start|middle|end)"[^>]*>\s*'
    r'<text>(.*?)</text>', re.S)
POLY = re.compile(r"<polygon fill = '(#FFFFFF|white)' points = '([^']*)'")


def text_width(s, fs):
    s = re.sub(r"<[^>]+>", "", s)
    s = s.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    w = 0.0
    for ch in s:
        wide = unicodedata.east_asian_width(ch) in ("W", "F")
        w += fs * (1.0 if wide else 0.55)
    return w


def boxes(svg):
    """(position in file, text, x0, y0, x1, y1) of every text."""
    out = []
    for m in GROUP.finditer(svg):
        x, y, rot, fs = float(m[1]), float(m[2]), m[3], float(m[4])
        anchor, text = m[5], m[6]
        if not re.sub(r"<[^>]+>", "", text).strip():
            continue
        w = text_width(text, fs)
        lo = {"start": 0.0, "middle": -w / 2, "end": -w}[anchor]
        # along the text: [lo, lo + w]; across: ascent 0.75 em, descent 0.22
        if rot and float(rot) % 360 == 270:
            # rotate(270): the text runs upwards from (x, y)
            out.append((m.start(), text, x - 0.75 * fs, y - lo - w,
                        x + 0.22 * fs, y - lo))
        else:
            out.append((m.start(), text, x + lo, y - 0.75 * fs, x + lo + w,
                        y + 0.22 * fs))
    return out


def overlap(a, b, slack=0.5):
    return (a[2] + slack < b[4] and b[2] + slack < a[4] and
            a[3] + slack < b[5] and b[3] + slack < a[5])


def check(path):
    svg = open(path, encoding="utf-8").read()
    texts = boxes(svg)
    problems = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if overlap(a, b):
                problems.append(f"text {a[1]!r} overlaps text {b[1]!r}")
    for m in POLY.finditer(svg):
        pts = [tuple(map(float, p.split(","))) for p in m[2].split()]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        box = (0, "box", min(xs), min(ys), max(xs), max(ys))
        for t in texts:
            if t[0] < m.start() and overlap(t, box):
                problems.append(f"opaque box {m[2]!r} covers text {t[1]!r}")
    return problems


def main():
    bad = 0
    for path in sys.argv[1:]:
        for p in check(path):
            print(f"{path}: {p}")
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
