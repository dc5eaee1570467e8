"""QR codes for the players' join links: a matrix, PNG bytes for the touchscreen, SVG for web pages.

Phones scan the code on the table's screen once; it holds a link such as
``http://192.168.1.20:8080/j/<token>``. Three shapes of the same code:

* :func:`qr_matrix` - rows of booleans (True = dark module), quiet zone included; draw it any way.
* :func:`qr_png` - PNG bytes. On the Kivy touchscreen::

      from kivy.core.image import Image as CoreImage
      texture = CoreImage(io.BytesIO(qr_png(url)), ext="png").texture
      texture.mag_filter = "nearest"   # keep the modules crisp when scaled up

* :func:`qr_svg` - a small SVG document (one path, no styles or scripts), for the banker's phone page.
* :func:`qr_terminal` - text for ``companion serve --qr``: two modules per character cell, with the
  colours set explicitly (black on white, quiet zone included), so it scans the same on a dark or a
  light terminal.

Medium error correction (about 15 % of the code may be covered or smudged) and a four-module quiet
zone, as scanners expect.
"""

from __future__ import annotations

import io

import qrcode
from qrcode.constants import ERROR_CORRECT_M

__all__ = ["qr_matrix", "qr_png", "qr_svg", "qr_terminal", "UPPER_HALF", "INK", "PAPER"]

QUIET_ZONE = 4
UPPER_HALF = "\u2580"  # the upper half of a cell: its foreground draws the top module, its background the bottom
INK, PAPER = 0, 15  # ANSI colours: black, bright white


def _code(data: str) -> qrcode.QRCode:
    if not isinstance(data, str) or not data:
        raise ValueError("a QR code needs some text to hold")
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=QUIET_ZONE, box_size=1)
    code.add_data(data)
    code.make(fit=True)
    return code


def qr_matrix(data: str) -> list[list[bool]]:
    """The code's modules row by row (True = dark), quiet zone included."""
    return [[bool(m) for m in row] for row in _code(data).get_matrix()]


def qr_png(data: str, *, box: int = 10) -> bytes:
    """PNG bytes of the code, ``box`` pixels per module, black on white."""
    if not 1 <= box <= 64:
        raise ValueError("box is 1 to 64 pixels per module")
    from PIL import Image  # pillow comes with kivy; imported here so the SVG path needs nothing

    matrix = qr_matrix(data)
    size = len(matrix)
    img = Image.new("1", (size, size), 1)
    img.putdata([0 if dark else 1 for row in matrix for dark in row])
    img = img.resize((size * box, size * box), Image.Resampling.NEAREST)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def qr_svg(data: str) -> str:
    """A standalone SVG of the code: a white square and one black path, scalable to any size."""
    matrix = qr_matrix(data)
    size = len(matrix)
    runs = []
    for y, row in enumerate(matrix):
        x = 0
        while x < size:
            if row[x]:
                start = x
                while x < size and row[x]:
                    x += 1
                runs.append(f"M{start} {y}h{x - start}v1h-{x - start}z")
            else:
                x += 1
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'shape-rendering="crispEdges" role="img" aria-label="QR code">'
        f'<rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path fill="#000" d="{"".join(runs)}"/></svg>'
    )


def qr_terminal(data: str) -> str:
    """The code as terminal text: each cell is an upper-half block whose foreground is the top module
    and whose background is the bottom one, both set explicitly (never the terminal's own colours)."""
    matrix = qr_matrix(data)
    if len(matrix) % 2:
        matrix = matrix + [[False] * len(matrix[0])]  # one more row of quiet zone
    lines = []
    for top, bottom in zip(matrix[0::2], matrix[1::2]):
        cells = []
        for up, down in zip(top, bottom):
            fg = INK if up else PAPER
            bg = INK if down else PAPER
            cells.append(f"\x1b[38;5;{fg};48;5;{bg}m{UPPER_HALF}")
        lines.append("".join(cells) + "\x1b[0m")
    return "\n".join(lines)
