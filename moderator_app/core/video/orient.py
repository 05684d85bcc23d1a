"""How a decoded picture is shown: its display matrix (rotation and mirroring), as ffmpeg shows it.

A phone, a capture tool or an editor records the picture as the sensor (or the source) gave it
and writes a 3x3 display matrix saying how to show it: a turn, a mirror, any angle. FFmpeg's
matrix maps a stored pixel (x, y) (y down) to the shown (x', y') = (a x + c y, b x + d y) with
(a, b, c, d) = m[0], m[1], m[3], m[4] in 16.16 fixed point.

Decided (issue 12, session 8; docs/DECISIONS.md "Rotation and mirroring"): the picture is the one
ffmpeg's own autorotation shows, and where ffmpeg drops the mirror (any angle that is not a
right angle, and every flip in ffmpeg 5.1) the mirror is still applied, first:
- a right angle, mirrored or not (the eight ways a rectangle can be laid down), is exact pixel
  moves (`apply_moves`): a transpose and flips, what ffmpeg's `transpose`/`hflip`/`vflip` do;
- any other angle is FFmpeg's `rotate` filter by the angle rounded to a whole degree, on the
  decoded picture before its conversion to RGB (ffmpeg's `-autorotate` does exactly that, so
  the pixels are ffmpeg's own, not within rounding), the picture keeping its size (corners cut,
  black fill), with `hflip` before it when the matrix mirrors.
This module is pure arithmetic (no PyAV): the reader (`pixels.to_rgb`) runs the filter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Orientation:
    """What to do to a decoded picture to show it. Right angles: `transpose` (rows become
    columns), then `flip_rows` (upside down) and `flip_cols` (left-right). Other angles:
    `filters`, a libavfilter chain (`hflip,rotate=...`) run on the decoded frame."""

    transpose: bool = False
    flip_rows: bool = False
    flip_cols: bool = False
    filters: str = ""

    @property
    def identity(self) -> bool:
        return not (self.transpose or self.flip_rows or self.flip_cols or self.filters)

    @property
    def turns(self) -> int:
        """Quarter turns counterclockwise when the orientation is a plain turn (0-3); 0 for a
        mirror or another angle."""
        if self.filters:
            return 0
        return {(False, False, False): 0, (True, True, False): 1, (False, True, True): 2,
                (True, False, True): 3}.get((self.transpose, self.flip_rows, self.flip_cols),
                                            0)


IDENTITY = Orientation()


def orientation(matrix: Sequence[int] | None) -> Orientation:
    """The orientation a display matrix (9 ints, FFmpeg's layout) asks for; `IDENTITY` for none,
    a malformed one or one that squashes the picture flat."""
    if not matrix or len(matrix) != 9:
        return IDENTITY
    try:
        a, b, c, d = (float(matrix[i]) for i in (0, 1, 3, 4))
    except (TypeError, ValueError):
        return IDENTITY
    det = a * d - b * c
    if not math.isfinite(det) or det == 0:
        return IDENTITY
    mirror = det < 0
    if mirror:  # the matrix = (a turn) after (a left-right mirror of the stored picture)
        a, b = -a, -b
    # clockwise on screen (y down), rounded to a whole degree as ffmpeg's get_rotation does
    theta = round(math.degrees(math.atan2(b, a))) % 360
    if theta % 90:
        return Orientation(filters=("hflip," if mirror else "") + f"rotate={theta:f}*PI/180")
    cos, sin = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}[theta]
    # the whole map [[la, lc], [lb, ld]] = turn @ mirror, integer entries
    h = -1 if mirror else 1
    la, lc, lb, ld = cos * h, -sin, sin * h, cos
    if la != 0:  # no swap: x' = la x, y' = ld y
        return Orientation(False, ld < 0, la < 0)
    # swapped: shown[lb x, lc y] = stored[y, x] (rows of the transpose are x)
    return Orientation(True, lb < 0, lc < 0)


def apply_moves(img: np.ndarray, o: Orientation) -> np.ndarray:
    """`img` (rows, columns, ...) moved as a right-angle orientation says (exact, no filter)."""
    if o.transpose:
        img = np.swapaxes(img, 0, 1)
    if o.flip_rows:
        img = img[::-1]
    if o.flip_cols:
        img = img[:, ::-1]
    return np.ascontiguousarray(img) if (o.transpose or o.flip_rows or o.flip_cols) else img
