"""QR codes for join links: the same code as a matrix, a PNG for the touchscreen and an SVG for pages."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
import qrcode
from PIL import Image

from companion.qr import QUIET_ZONE, qr_matrix, qr_png, qr_svg

LINK = "http://192.168.1.20:8080/j/gom_faFk2n4vux5KFx1MpXbubk8vSj_r"


def test_the_matrix_is_the_qr_code_of_the_link_with_a_quiet_zone():
    matrix = qr_matrix(LINK)
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=QUIET_ZONE)
    code.add_data(LINK)
    code.make(fit=True)
    assert matrix == [[bool(m) for m in row] for row in code.get_matrix()]
    size = len(matrix)
    assert all(len(row) == size for row in matrix)
    assert (size - 2 * QUIET_ZONE - 17) % 4 == 0  # a real QR version: 21, 25, 29, ... modules
    assert not any(matrix[0]) and not any(row[0] for row in matrix)


def test_the_png_is_black_and_white_modules_of_ten_pixels():
    png = qr_png(LINK)
    img = Image.open(io.BytesIO(png))
    size = len(qr_matrix(LINK))
    assert img.format == "PNG" and img.size == (size * 10, size * 10)
    matrix = qr_matrix(LINK)
    grey = img.convert("L")
    for y in range(size):
        for x in range(size):
            assert (grey.getpixel((x * 10 + 5, y * 10 + 5)) < 128) == matrix[y][x]


def test_the_svg_draws_exactly_the_dark_modules_and_nothing_active():
    svg = qr_svg(LINK)
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "script" not in svg and "style" not in svg and "href" not in svg
    size = len(qr_matrix(LINK))
    drawn = [[False] * size for _ in range(size)]
    path = root.find("{http://www.w3.org/2000/svg}path").get("d")
    for x, y, w in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", path):
        for dx in range(int(w)):
            drawn[int(y)][int(x) + dx] = True
    assert drawn == qr_matrix(LINK)


def test_nothing_to_encode_is_refused():
    with pytest.raises(ValueError):
        qr_matrix("")
    with pytest.raises(ValueError):
        qr_png(LINK, box=0)


def test_the_terminal_code_sets_both_colours_so_it_scans_on_dark_and_light_screens():
    from companion.qr import INK, PAPER, UPPER_HALF, qr_terminal

    text = qr_terminal(LINK)
    matrix = qr_matrix(LINK)
    read = []
    for line in text.splitlines():
        cells = re.findall(r"\x1b\[38;5;(\d+);48;5;(\d+)m" + UPPER_HALF, line)
        assert line.endswith("\x1b[0m") and len(cells) == len(matrix)
        assert {int(c) for pair in cells for c in pair} <= {INK, PAPER}  # never the terminal's own colours
        read.append([int(fg) == INK for fg, _ in cells])
        read.append([int(bg) == INK for _, bg in cells])
    assert read[: len(matrix)] == matrix
    assert not any(read[-1])  # the padding row, if any, is quiet zone
