#!/usr/bin/env python3
"""verify-chart-svg.py [--no-runs] SVG...: readability rules for a chart rendered by gnuplot's SVG terminal.

  key        the key (legend) lies above or below the plot area, or it is at most 25% of the
             plot area's width (inside the plot or beside it).
  style      a key entry whose title names a style in parentheses, "(solid)", "(dashed)",
             "(dotted)", "(open)", "(filled)", is drawn in that style: a line without dashes, a
             dashed or a dotted line, an open or a filled point symbol.
  canvas     no text lies, even in part, outside the canvas (viewBox or width/height).
  overlap    no two texts overlap (tick labels, key entries, per-point labels, titles).
  no-runs    with --no-runs (rendered from an empty benchmark folder), no key entry names the
             reader's run ("yours", "your ...", "this machine"): it would name data not drawn.
  --self-test  checks that each rule fails on a small hand-made SVG with its fault.

Text extents are estimated, not measured: a text is (characters x 0.6 x font size) wide, the
mean advance of DejaVu Sans, the charts' font, and spans 0.75 x font size above its baseline
and 0.2 x font size below; rotated texts are rotated boxes. The plot area is the largest
closed axis-aligned rectangle path (the border). The key is the union of its entries' texts
and their samples (the line, point or box drawn beside each title). Exit 1 with one line per
failure.
"""
import math
import re
import sys
import tempfile
import os
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
CHAR_WIDTH = 0.6  # of the font size: the mean advance of DejaVu Sans
ASCENT, DESCENT = 0.75, 0.2
# gnuplot's point symbols (gpPtN = pointtype N + 1): open outlines and filled shapes.
OPEN_POINTS = {"gpPt3", "gpPt5", "gpPt7", "gpPt9", "gpPt11", "gpPt13"}
FILLED_POINTS = {"gpPt4", "gpPt6", "gpPt8", "gpPt10", "gpPt12", "gpPt14"}
RUN_WORDS = re.compile(r"\byours?\b|\bthis machine\b", re.I)


def tag(el):
    return el.tag.replace(NS, "")


def parse_transform(text):
    """(tx, ty, degrees) of a 'translate(x,y) rotate(a)' transform."""
    tx = ty = rot = 0.0
    if text:
        m = re.search(r"translate\(\s*([-\d.e]+)[ ,]+([-\d.e]+)\s*\)", text)
        if m:
            tx, ty = float(m.group(1)), float(m.group(2))
        m = re.search(r"rotate\(\s*([-\d.e]+)", text)
        if m:
            rot = float(m.group(1))
    return tx, ty, rot


class Text:
    def __init__(self, content, x, y, rot, size, anchor):
        self.content, self.x, self.y, self.size, self.rot = content, x, y, size, rot
        width = self.width = CHAR_WIDTH * size * len(content)
        left = {"start": 0.0, "middle": -width / 2, "end": -width}.get(anchor, 0.0)
        # the box in the text's own (rotated) frame, about its anchor point
        self.local = (left, -ASCENT * size, left + width, DESCENT * size)
        corners = [(left, -ASCENT * size), (left + width, -ASCENT * size),
                   (left, DESCENT * size), (left + width, DESCENT * size)]
        a = math.radians(rot)
        pts = [(x + cx * math.cos(a) - cy * math.sin(a), y + cx * math.sin(a) + cy * math.cos(a))
               for cx, cy in corners]
        self.box = (min(p[0] for p in pts), min(p[1] for p in pts),
                    max(p[0] for p in pts), max(p[1] for p in pts))


def texts_overlap(a, b):
    """Two texts overlap: compared in their own frame when they share a rotation."""
    if a.rot != b.rot:
        return overlaps(a.box, b.box)
    r = math.radians(-a.rot)
    dx, dy = b.x - a.x, b.y - a.y
    ox, oy = dx * math.cos(r) - dy * math.sin(r), dx * math.sin(r) + dy * math.cos(r)
    lb = b.local
    return overlaps(a.local, (lb[0] + ox, lb[1] + oy, lb[2] + ox, lb[3] + oy))


def overlaps(a, b, slack=0.5):
    return (a[0] + slack < b[2] and b[0] + slack < a[2] and
            a[1] + slack < b[3] and b[1] + slack < a[3])


def union(boxes):
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def numbers(d):
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", d)]


def rectangle(d):
    """The box of a closed axis-aligned rectangle path 'M a,b L ... Z', else None."""
    if not re.fullmatch(r"\s*M[^MZ]*Z\s*", d):
        return None
    v = numbers(d)
    if len(v) != 10:
        return None
    pts = list(zip(v[0::2], v[1::2]))
    if pts[0] != pts[4]:
        return None
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x0 != x1 and y0 != y1:
            return None
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


class Chart:
    def __init__(self, path):
        self.path = path
        root = ET.parse(path).getroot()
        vb = root.get("viewBox")
        if vb:
            _, _, self.width, self.height = (float(v) for v in vb.split())
        else:
            self.width = float(re.sub(r"[a-z]+$", "", root.get("width", "0")))
            self.height = float(re.sub(r"[a-z]+$", "", root.get("height", "0")))
        self.texts = []      # every text drawn
        self.rects = []      # closed rectangle paths
        self.groups = []     # gnuplot's plot groups, in order
        seen = set()
        self.walk(root, 0.0, 0.0, 0.0, 12.0, "start", None, seen)
        self.plot_area = max(self.rects, key=lambda r: (r[2] - r[0]) * (r[3] - r[1]), default=None)

    def walk(self, el, tx, ty, rot, size, anchor, group, seen):
        t = tag(el)
        dx, dy, r = parse_transform(el.get("transform"))
        if t in ("g", "text"):
            tx, ty, rot = tx + dx, ty + dy, rot + r
        if el.get("font-size"):
            size = float(el.get("font-size"))
        anchor = el.get("text-anchor", anchor)
        if t == "defs":
            return
        if t == "g" and re.fullmatch(r"gnuplot_plot_\d+", el.get("id", "")):
            title = el.find(NS + "title")
            name = title.text if title is not None and title.text else ""
            group = {"title": name, "keyed": not re.fullmatch(r"gnuplot_plot_\d+", name),
                     "text": None, "paths": [], "uses": []}
            self.groups.append(group)
        if t == "text":
            content = "".join(el.itertext()).strip()
            x = tx + float(el.get("x", 0))
            y = ty + float(el.get("y", 0))
            if content:
                key = (content, round(x, 1), round(y, 1))
                text = Text(content, x, y, rot, size, anchor)
                if key not in seen:  # an opaque key is drawn twice
                    seen.add(key)
                    self.texts.append(text)
                if group is not None and group["keyed"] and group["text"] is None:
                    group["text"] = text
            return
        if t == "path" and group is None:
            box = rectangle(el.get("d", ""))
            if box:
                self.rects.append(box)
        if group is not None and t == "path":
            group["paths"].append(el)
        if group is not None and t == "use":
            group["uses"].append(el)
        for child in el:
            self.walk(child, tx, ty, rot, size, anchor, group, seen)

    def key_entries(self):
        """(title, text, line sample path or None, point sample href or None, sample box)."""
        out, seen = [], set()
        for g in self.groups:
            text = g["text"]
            if not g["keyed"] or text is None:
                continue
            row = text.y - 0.3 * text.size
            line = point = None
            boxes = [text.box]
            for p in g["paths"]:
                v = numbers(p.get("d", ""))
                if len(v) >= 4 and abs(v[1] - row) < text.size and abs(v[3] - row) < text.size \
                        and p.get("d", "").lstrip().startswith("M"):
                    line = p
                    boxes.append((min(v[0], v[2]), min(v[1], v[3]), max(v[0], v[2]), max(v[1], v[3])))
                    break
                box = rectangle(p.get("d", ""))
                if box and abs((box[1] + box[3]) / 2 - row) < text.size:
                    boxes.append(box)
                    break
            for u in g["uses"]:
                ux, uy, _ = parse_transform(u.get("transform"))
                if abs(uy - row) < text.size and abs(ux - text.x) < 20 * text.size:
                    point = (u.get(XLINK) or u.get("href") or "").lstrip("#")
                    boxes.append((ux - 4, uy - 4, ux + 4, uy + 4))
                    break
            if (g["title"], round(text.x), round(text.y)) in seen:
                continue
            seen.add((g["title"], round(text.x), round(text.y)))
            out.append((g["title"], text, line, point, union(boxes)))
        return out


def dash_kind(path):
    dash = path.get("stroke-dasharray")
    if not dash or dash == "none":
        return "solid"
    v = numbers(dash)
    width = float(path.get("stroke-width", 1) or 1)
    return "dotted" if len(v) >= 2 and v[0] <= 2 * width and v[0] < 0.6 * v[1] else "dashed"


def check(path, no_runs):
    failures = []
    fail = lambda rule, what: failures.append(f"FAIL: {path}: {rule}: {what}")
    chart = Chart(path)
    entries = chart.key_entries()
    area = chart.plot_area
    # key
    if entries and area:
        key = union([e[4] for e in entries])
        above_or_below = key[1] >= area[3] or key[3] <= area[1]
        plot_width = area[2] - area[0]
        if not above_or_below and key[2] - key[0] > 0.25 * plot_width:
            fail("key", f"the key is {key[2] - key[0]:.0f} wide, over 25% of the plot's "
                        f"{plot_width:.0f}, and not above or below the plot")
    # style
    for title, text, line, point, _ in entries:
        for words in re.findall(r"\(([^)]*)\)", title):
            for style in re.findall(r"\b(solid|dashed|dotted|open|filled)\b", words):
                if style in ("solid", "dashed", "dotted"):
                    drawn = dash_kind(line) if line is not None else "no line"
                    ok = drawn == style
                else:
                    drawn = ("open" if point in OPEN_POINTS else "filled" if point in FILLED_POINTS
                             else "no such symbol") if point else "no point"
                    ok = drawn == style
                if not ok:
                    fail("style", f'"{title}" says {style} but its sample is {drawn}')
    # canvas
    for t in chart.texts:
        b = t.box
        if b[0] < -0.5 or b[1] < -0.5 or b[2] > chart.width + 0.5 or b[3] > chart.height + 0.5:
            fail("canvas", f'"{t.content}" reaches outside the {chart.width:.0f}x{chart.height:.0f} canvas')
    # overlap
    for i, a in enumerate(chart.texts):
        for b in chart.texts[i + 1:]:
            if texts_overlap(a, b):
                fail("overlap", f'"{a.content}" and "{b.content}" overlap')
    # no-runs
    if no_runs:
        for title, *_ in entries:
            if RUN_WORDS.search(title):
                fail("no-runs", f'key entry "{title}" names a run of this machine, and there is none')
    return failures


SVG_HEAD = ('<svg viewBox="0 0 400 300" xmlns="http://www.w3.org/2000/svg" '
            'xmlns:xlink="http://www.w3.org/1999/xlink">\n'
            '<path d="M50,20 L50,250 L350,250 L350,20 L50,20 Z"/>\n')


def entry(n, title, x, y, sample=""):
    return (f'<g id="gnuplot_plot_{n}"><title>{title}</title>'
            f'<g transform="translate({x},{y})" font-size="10" text-anchor="end"><text>{title}</text></g>'
            f'{sample}</g>\n')


def line_sample(x, y, dash=""):
    return f"<path {dash} d='M{x + 5},{y - 3} L{x + 30},{y - 3} M60,100 L100,80'/>"


def point_sample(x, y, pt):
    return f"<use xlink:href='#{pt}' transform='translate({x + 15},{y - 3}) scale(4)'/>"


def self_test():
    """Each rule passes a clean chart and fails a chart with its fault."""
    clean = SVG_HEAD + entry(1, "ref (dashed)", 150, 270, line_sample(150, 270, "stroke-dasharray='2.5,4.0'")) + \
        entry(2, "ref (filled)", 300, 270, point_sample(300, 270, "gpPt6")) + "</svg>"
    faults = {
        "key": SVG_HEAD + entry(1, "a very long key entry that eats the plot", 340, 40, line_sample(340, 40)) + "</svg>",
        "style": SVG_HEAD + entry(1, "yours (solid)", 330, 40, point_sample(330, 40, "gpPt4")) + "</svg>",
        "canvas": SVG_HEAD + '<g transform="translate(200,299)" font-size="12" text-anchor="middle">'
                             '<text>(tall and skinny)</text></g></svg>',
        "overlap": SVG_HEAD + '<g transform="translate(100,100)" font-size="7"><text>naive</text></g>'
                              '<g transform="translate(100,103)" font-size="7"><text>naive</text></g></svg>',
        "no-runs": SVG_HEAD + entry(1, "ref", 330, 40, line_sample(330, 40)) +
                   entry(2, "your runs on this machine", 330, 280, point_sample(330, 280, "gpPt5")) + "</svg>",
    }
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        def run(name, svg):
            p = os.path.join(tmp, name + ".svg")
            with open(p, "w") as f:
                f.write(svg)
            return check(p, no_runs=True)
        got = run("clean", clean)
        if got:
            print("self-test FAIL: the clean chart fails:\n  " + "\n  ".join(got))
            status = 1
        for rule, svg in faults.items():
            got = run(rule, svg)
            if not any(f": {rule}: " in g for g in got):
                print(f"self-test FAIL: rule {rule} passes a chart with its fault ({got})")
                status = 1
            else:
                print(f"self-test OK: rule {rule} fails its faulty chart")
    return status


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip().replace("verify-chart-svg.py", "usage: verify-chart-svg.py", 1))
        return 0 if argv else 2
    if argv[0] == "--self-test":
        return self_test()
    no_runs = argv[0] == "--no-runs"
    files = argv[1:] if no_runs else argv
    failures = []
    for f in files:
        failures += check(f, no_runs)
    for line in failures:
        print(line)
    if not failures:
        print(f"OK: {' '.join(files)} (key, style, canvas, overlap{', no-runs' if no_runs else ''})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
