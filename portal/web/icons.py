"""The installed portal's icons, drawn with Pillow from our own artwork: the drop of
static/favicon.svg, on the municipality's background colour (nothing from another host)."""

from __future__ import annotations

import io
import math
from functools import lru_cache

from PIL import Image, ImageDraw

# The sizes a web app manifest needs (Android asks for 192 and 512).
ICON_SIZES = (192, 512)
# Drawn this many times larger, then scaled down: smooth edges without an SVG renderer.
SUPERSAMPLE = 4


def _bezier(p0, p1, p2, p3, steps: int = 24) -> list[tuple[float, float]]:
    points = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        points.append(
            tuple(
                u**3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t**3 * d
                for a, b, c, d in zip(p0, p1, p2, p3, strict=True)
            )
        )
    return points


def drop_outline() -> list[tuple[float, float]]:
    """The favicon's drop in its 32 x 32 box: 'M16 2C11 10 6 15 6 21a10 10 0 0 0 20 0
    c0-6-5-11-10-19z', a curve down the left, the round bottom, a curve back up."""
    points = [(16.0, 2.0), *_bezier((16, 2), (11, 10), (6, 15), (6, 21))]
    # The bottom half circle around (16, 21), from the left side through the lowest point.
    points += [
        (16 - 10 * math.cos(math.pi * i / 32), 21 + 10 * math.sin(math.pi * i / 32))
        for i in range(1, 33)
    ]
    return points + _bezier((26, 21), (26, 15), (21, 10), (16, 2))


def _hex(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


@lru_cache(maxsize=8)
def icon_png(size: int, brand: str, background: str) -> bytes:
    """A square PNG: the drop in the middle 60 % (the safe zone of a maskable icon)."""
    big = size * SUPERSAMPLE
    image = Image.new("RGB", (big, big), _hex(background))
    draw = ImageDraw.Draw(image)
    scale = big * 0.6 / 32
    offset = big * 0.2

    def place(x: float, y: float) -> tuple[float, float]:
        return offset + x * scale, offset + y * scale

    draw.polygon([place(x, y) for x, y in drop_outline()], fill=_hex(brand))
    # The highlight: a quarter ring inside the lower left of the drop, radii 3 to 5.
    ring = [
        place(16 - r * math.cos(math.pi / 2 * i / 12), 21 + r * math.sin(math.pi / 2 * i / 12))
        for r, order in ((5, range(13)), (3, range(12, -1, -1)))
        for i in order
    ]
    draw.polygon(ring, fill=_hex(background))
    buffer = io.BytesIO()
    image.resize((size, size), Image.LANCZOS).save(buffer, "PNG", optimize=True)
    return buffer.getvalue()
