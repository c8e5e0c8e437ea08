#!/usr/bin/env python3
"""Make MapLibre glyph PBFs (signed distance fields) for the viewer's labels.

MapLibre GL JS needs a `glyphs` URL to draw symbol text; the viewer may not
load anything from the network, so this script renders its own:
web/fonts/<FONTSTACK>/<start>-<end>.pbf for the ranges 0-255, 256-511 and
512-767 (Basic Latin, Latin-1, Latin Extended-A/B: every Natural Earth city
name) from DejaVu Sans (Debian package fonts-dejavu-core; the DejaVu fonts'
license allows this use).

Format (the one node-fontnik writes and MapLibre reads): protobuf
  glyphs   { repeated fontstack stacks = 1; }
  fontstack{ string name = 1; string range = 2; repeated glyph glyphs = 3; }
  glyph    { uint32 id = 1; bytes bitmap = 2; uint32 width = 3; uint32 height = 4;
             sint32 left = 5; sint32 top = 6; uint32 advance = 7; }
Glyphs are rendered at 24 px with a 3 px buffer; the bitmap is
(width + 6) x (height + 6) bytes of 255 - 255 (d / 8 + 0.25) where d is the
signed distance to the outline in px (positive outside), so the outline sits
at 191. `top` is the glyph's top above the baseline minus the font's
ascender, as fontnik does. Distances come from an 8x oversampled FreeType
rendering (freetype-py) and scipy's exact Euclidean distance transform.

Deterministic. Usage:
  python3 -m pip install freetype-py scipy numpy
  python3 scripts/make_glyphs.py [--font PATH] [--out DIR]
"""
import argparse
import os
import sys

import numpy as np

try:
    import freetype
    from scipy.ndimage import distance_transform_edt
except ImportError:  # pragma: no cover
    sys.exit("make_glyphs: needs freetype-py and scipy: python3 -m pip install freetype-py scipy")

FONTSTACK = "DejaVuSans"  # no spaces: the name goes into URLs unencoded
DEFAULT_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
RANGES = [(0, 255), (256, 511), (512, 767)]
SIZE = 24
BUFFER = 3
RADIUS = 8.0
CUTOFF = 0.25
OVERSAMPLE = 8


# --- protobuf writing (just what this format needs) ---------------------------

def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_varint(num, value):
    return varint(num << 3) + varint(value)


def field_sint(num, value):
    return field_varint(num, (value << 1) ^ (value >> 63) if value < 0 else value << 1)


def field_bytes(num, data):
    return varint((num << 3) | 2) + varint(len(data)) + data


# --- rendering ---------------------------------------------------------------

FLAGS = freetype.FT_LOAD_NO_HINTING | freetype.FT_LOAD_NO_BITMAP


def glyph_metrics(face, cp):
    face.set_char_size(SIZE * 64)
    face.load_char(cp, FLAGS)
    g = face.glyph
    advance = int(round(g.advance.x / 64.0))
    if g.outline.n_points == 0:
        return advance, None
    bbox = g.outline.get_bbox()
    left = int(np.floor(bbox.xMin / 64.0))
    right = int(np.ceil(bbox.xMax / 64.0))
    bottom = int(np.floor(bbox.yMin / 64.0))
    top = int(np.ceil(bbox.yMax / 64.0))
    return advance, (left, top, right - left, top - bottom)


def render_sdf(face, cp, left, top, width, height):
    S = OVERSAMPLE
    W, H = width + 2 * BUFFER, height + 2 * BUFFER
    canvas = np.zeros((H * S, W * S), dtype=np.float64)
    face.set_char_size(SIZE * S * 64)
    face.load_char(cp, FLAGS | freetype.FT_LOAD_RENDER)
    bm = face.glyph.bitmap
    if bm.rows and bm.width:
        img = np.array(bm.buffer, dtype=np.float64).reshape(bm.rows, bm.pitch)[:, : bm.width] / 255.0
        # canvas origin (top-left) is at (left - BUFFER, top + BUFFER) in 1x px, y up
        x0 = face.glyph.bitmap_left - (left - BUFFER) * S
        y0 = (top + BUFFER) * S - face.glyph.bitmap_top
        ys, xs = slice(max(0, y0), min(H * S, y0 + bm.rows)), slice(max(0, x0), min(W * S, x0 + bm.width))
        canvas[ys, xs] = img[ys.start - y0: ys.stop - y0, xs.start - x0: xs.stop - x0]
    inside = canvas >= 0.5
    if inside.any():
        d_out = distance_transform_edt(~inside)  # outside px: distance to the nearest inside px
        d_in = distance_transform_edt(inside)  # inside px: distance to the nearest outside px
        sd = np.where(inside, -(d_in - 0.5), d_out - 0.5) / S
    else:
        sd = np.full(canvas.shape, RADIUS)
    sd = sd.reshape(H, S, W, S).mean(axis=(1, 3))
    values = np.clip(np.round(255.0 - 255.0 * (sd / RADIUS + CUTOFF)), 0, 255).astype(np.uint8)
    return values.tobytes()


def make_range(face, ascender, start, end):
    glyph_msgs = []
    count = 0
    for cp in range(start, end + 1):
        if face.get_char_index(cp) == 0 or cp < 32:
            continue
        advance, box = glyph_metrics(face, cp)
        msg = field_varint(1, cp)
        if box is None:  # space and other blanks
            msg += field_varint(3, 0) + field_varint(4, 0) + field_sint(5, 0) + field_sint(6, -ascender)
        else:
            left, top, width, height = box
            msg += field_bytes(2, render_sdf(face, cp, left, top, width, height))
            msg += field_varint(3, width) + field_varint(4, height) + field_sint(5, left) + field_sint(6, top - ascender)
        msg += field_varint(7, advance)
        glyph_msgs.append(field_bytes(3, msg))
        count += 1
    stack = field_bytes(1, FONTSTACK.encode()) + field_bytes(2, f"{start}-{end}".encode()) + b"".join(glyph_msgs)
    return field_bytes(1, stack), count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--font", default=DEFAULT_FONT)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web", "fonts"))
    args = ap.parse_args()
    if not os.path.exists(args.font):
        sys.exit(f"make_glyphs: no font at {args.font} (apt-get install fonts-dejavu-core)")
    face = freetype.Face(args.font)
    face.set_char_size(SIZE * 64)
    ascender = int(round(face.size.ascender / 64.0))
    out_dir = os.path.join(args.out, FONTSTACK)
    os.makedirs(out_dir, exist_ok=True)
    for start, end in RANGES:
        data, count = make_range(face, ascender, start, end)
        path = os.path.join(out_dir, f"{start}-{end}.pbf")
        with open(path, "wb") as f:
            f.write(data)
        print(f"make_glyphs: wrote {os.path.relpath(path)} ({count} glyphs, {len(data) // 1024} KiB)")


if __name__ == "__main__":
    main()
