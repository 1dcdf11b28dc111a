#!/usr/bin/env python3
"""Writes the cburnett piece set as one SVG file per piece (wK.svg ... bP.svg).

The source is the PyPI package `chess` (python-chess, GPL-3.0+), whose module
`chess.svg` keeps Colin M. L. Burnett's pieces as SVG <g> fragments drawn on a
45x45 grid in its `PIECES` dictionary (upper case: White, lower case: Black).
Each fragment is wrapped, unchanged, in a standalone <svg> element.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install chess==1.11.2
    /tmp/venv/bin/python assets/pieces/cburnett/extract.py
"""

import pathlib

import chess.svg

HERE = pathlib.Path(__file__).resolve().parent

for symbol, fragment in sorted(chess.svg.PIECES.items()):
    color = "w" if symbol.isupper() else "b"
    name = f"{color}{symbol.upper()}.svg"
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        'width="45" height="45" viewBox="0 0 45 45">'
        f"{fragment}</svg>\n"
    )
    (HERE / name).write_text(svg, encoding="utf-8")
    print(name)
