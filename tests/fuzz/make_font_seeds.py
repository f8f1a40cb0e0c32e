#!/usr/bin/env python3
"""Writes fuzz_font's seed corpus (tests/fuzz/corpus/font/): a minimal TrueType font built here from
nothing (two glyphs: .notdef and a square for 'A'; the tables stb_truetype and ImGui read: cmap, glyf,
head, hhea, hmtx, loca, maxp), small enough for the fuzzer's 64 KiB inputs, and damaged copies of it of
the kinds the hardening issue found (a loca past the glyphs, a cmap of an unknown format, a cut-off file).

    python3 tests/fuzz/make_font_seeds.py [DIR]
"""
import os
import struct
import sys


def table_dir(tables):
    tags = sorted(tables)
    n = len(tags)
    power = 1 << (n.bit_length() - 1)
    out = struct.pack(">IHHHH", 0x00010000, n, power * 16, power.bit_length() - 1, n * 16 - power * 16)
    offset = 12 + 16 * n
    body = b""
    for tag in tags:
        data = tables[tag]
        out += struct.pack(">4sIII", tag.encode(), 0, offset + len(body), len(data))
        body += data + b"\0" * (-len(data) % 4)
    return out + body


def font(loca_past=False, cmap_format=4):
    square = struct.pack(">hhhhhHH", 1, 100, 0, 500, 400, 3, 0) + bytes([1, 1, 1, 1])
    square += struct.pack(">hhhh", 100, 400, 0, -400) + struct.pack(">hhhh", 0, 0, 400, 0)
    square += b"\0" * (len(square) % 2)
    glyf = square
    loca_words = [0, 0, len(glyf) // 2]
    if loca_past:  # offsets increasing, far past the glyf table (stbrp_pack_rects crashed on it)
        loca_words = [0, 0x4000, 0x8000]
    loca = struct.pack(">3H", *loca_words)
    head = struct.pack(">IIIIHHqqhhhhHHhhh", 0x00010000, 0x00010000, 0, 0x5F0F3CF5, 0, 1000, 0, 0, 0, 0, 600, 800,
                       0, 8, 2, 0, 0)
    hhea = struct.pack(">IhhhHhhhhhh4hhH", 0x00010000, 800, -200, 0, 600, 0, 0, 500, 1, 0, 0, 0, 0, 0, 0, 0, 2)
    maxp = struct.pack(">IH", 0x00005000, 2)
    hmtx = struct.pack(">HhHh", 600, 0, 600, 100)
    # cmap: Windows Unicode BMP, format 4, 'A' -> glyph 1 (an unknown format made the lookup assert).
    sub = struct.pack(">HHHHHHH", cmap_format, 32, 0, 4, 4, 1, 0)
    sub += struct.pack(">HH", 0x41, 0xFFFF) + b"\0\0" + struct.pack(">HH", 0x41, 0xFFFF)
    sub += struct.pack(">hh", 1 - 0x41, 1) + struct.pack(">HH", 0, 0)
    cmap = struct.pack(">HHHHI", 0, 1, 3, 1, 12) + sub
    return table_dir({"cmap": cmap, "glyf": glyf, "head": head, "hhea": hhea, "hmtx": hmtx, "loca": loca,
                      "maxp": maxp})


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "font")
    os.makedirs(out, exist_ok=True)
    whole = font()
    seeds = {
        "tiny.ttf": whole,
        "tiny-loca-past-glyphs.ttf": font(loca_past=True),
        "tiny-cmap-format-9.ttf": font(cmap_format=9),
        "tiny-cut-off.ttf": whole[: len(whole) // 2],
        "tiny-otto.otf": b"OTTO" + whole[4:],
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
