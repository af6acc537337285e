#!/bin/sh
# The plan's SVG charts rendered to PNG by rsvg-convert (Debian's
# librsvg2-bin, which tools/deps.sh installs), then checked: the picture
# has the chart's size; a filled marker is drawn in its colour and a
# hollow one (a row that does not fit) is white inside; and in the SVG,
# the axes carry units, every row has a legend entry, and no two texts
# overlap. Prints RESULT lines.
# ok and no only print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/plan/lib.sh
. tests/plan/lib.sh

if ! have rsvg-convert; then
	no "svg: rsvg-convert is not installed (sh tools/deps.sh installs librsvg2-bin)"
	exit 1
fi

# PNG pixels and SVG geometry, shared by the checks below.
cat >"$t/chart.py" <<'PY'
import struct, sys, zlib, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"

def png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
            bpp = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, rows, prev, stride = zlib.decompress(idat), [], bytearray(w * bpp), w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, lambda x, y: tuple(rows[int(y)][int(x) * bpp:int(x) * bpp + 3])

def texts(path):
    root = ET.parse(path).getroot()
    out = []
    for t in root.iter(NS + "text"):
        if t.get("transform"):
            continue  # the rotated axis label
        size = float(t.get("font-size") or 12)
        x, y, s = float(t.get("x")), float(t.get("y")), t.text or ""
        w = 0.6 * size * len(s)
        a = t.get("text-anchor") or "start"
        x0 = x - w if a == "end" else x - w / 2 if a == "middle" else x
        out.append((s, (x0, y - size, x0 + w, y + size * 0.25)))
    return root, out

def no_overlap(boxes):
    for i, (s, a) in enumerate(boxes):
        for u, b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (s, u)
PY

# ---- the comparison chart: a row that does not fit is hollow -------------
expect_rc svg-compare-written 0 "$TF" plan --same nodes --hours 100 --compare p5.48xlarge,p6-b200.48xlarge \
	--svg "$t/compare.svg" $S/zero-7.5b-stage0.yaml
if rsvg-convert "$t/compare.svg" -o "$t/compare.png" 2>"$t/err"; then ok svg-compare-renders; else no svg-compare-renders; cat "$t/err"; fi
py_check svg-compare-picture "$t/compare.svg" "$t/compare.png" "$t/chart.py" <<'PY'
import sys
exec(open(sys.argv[3]).read())
root, boxes = texts(sys.argv[1])
w, h, px = png(sys.argv[2])
assert (w, h) == (960, 560), (w, h)
for want in ("run time (days)", "p4d.24xlarge, 8 nodes (does not fit)", "p5.48xlarge, 8 nodes: cheapest",
             "p6-b200.48xlarge, 8 nodes", "p4d.24xlarge: does not fit", "hollow: does not fit, never ranked"):
    assert any(s == want for s, _ in boxes), want
assert any("cost per run (USD)" == (t.text or "") for t in root.iter(NS + "text"))
no_overlap(boxes)
circles = [c for c in root.iter(NS + "circle") if float(c.get("cx")) < 640]   # in the plot, not the legend
hollow = [c for c in circles if c.get("fill") == "none"]
filled = [c for c in circles if c.get("fill") not in ("none", None)]
assert len(hollow) == 1 and len(filled) == 2, (len(hollow), len(filled))   # p4d does not fit
for c in filled:
    r, g, b = px(float(c.get("cx")), float(c.get("cy")))
    assert not (r > 240 and g > 240 and b > 240), ("a filled marker renders white", c.attrib)
ring_seen = False
for c in hollow:
    cx, cy, rad = float(c.get("cx")), float(c.get("cy")), float(c.get("r"))
    inside = px(cx, cy)
    if any(abs(cx - float(f.get("cx"))) < 12 and abs(cy - float(f.get("cy"))) < 12 for f in filled):
        continue  # rings a filled marker: its centre is that one's colour
    assert all(v > 240 for v in inside), ("a hollow marker is filled", inside)
    edge = px(cx + rad, cy)
    assert not all(v > 240 for v in edge), ("a hollow marker has no ring", edge)
    ring_seen = True
assert ring_seen
PY

# ---- the owned-against-cloud chart ----------------------------------------
expect_rc svg-tco-written 0 "$TF" plan --tco examples/tco/owned-h100-vs-trn2.yaml --svg "$t/tco.svg" \
	examples/jobs/moe-176b-trn2-mixed.yaml
if rsvg-convert "$t/tco.svg" -o "$t/tco.png" 2>"$t/err"; then ok svg-tco-renders; else no svg-tco-renders; cat "$t/err"; fi
py_check svg-tco-picture "$t/tco.svg" "$t/tco.png" "$t/chart.py" <<'PY'
import sys
exec(open(sys.argv[3]).read())
root, boxes = texts(sys.argv[1])
w, h, px = png(sys.argv[2])
assert (w, h) == (960, 560)
labels = [s for s, _ in boxes]
for want in ("months", "0", "12", "24", "36", "owned", "48 reserved + 16 spot"):
    assert want in labels, want
no_overlap(boxes)
# each line ends in its own colour at month 36
for pl in root.iter(NS + "polyline"):
    x, y = map(float, pl.get("points").split()[-1].split(","))
    color = pl.get("stroke")
    want = tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))
    got = px(x - 2, y)
    assert sum(abs(a - b) for a, b in zip(got, want)) < 200, (color, got)
PY

# ---- a chart with nothing to draw says so ---------------------------------
expect_rc svg-empty-written 0 "$TF" plan --svg "$t/empty.svg" $S/minimal.yaml
if rsvg-convert "$t/empty.svg" -o "$t/empty.png" 2>"$t/err"; then ok svg-empty-renders; else no svg-empty-renders; fi
