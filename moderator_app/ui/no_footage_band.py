"""The no-footage band: every span of video time the probe declares without footage
(`VideoProbe.no_footage`: footage gaps and recordings joined in the file that do not decode),
hatched grey across the timeline's lanes and the lanes under it, all the time.

Why: session 22 painted footage gaps red on the coverage bar, and a gap's or a joined
recording's finding shaded its stretch only while it was selected; the lanes themselves showed
nothing where the player says "no footage at this time" (issue 11 point 3, issue 12 point 3).
One source, the probe's spans, drawn one way whatever their rule; the selected finding's
orange shade (`Timeline._paint_span`) is drawn over it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter

BAND = QColor(128, 128, 128, 70)
HATCH = QColor(128, 128, 128, 150)
LABEL = "no footage"


def span_arrays(spans: Sequence) -> tuple[np.ndarray, np.ndarray]:
    """The starts and ends (video time) of `NoFootage` spans, for `band_pixels`."""
    return (np.array([s.start_s for s in spans], dtype=np.float64),
            np.array([s.end_s for s in spans], dtype=np.float64))


def band_pixels(starts: np.ndarray, ends: np.ndarray, v0: float, v1: float, left: float,
                width: float) -> list[tuple[float, float]]:
    """The spans [starts, ends) seen in the view v0-v1 (their clock) drawn `width` pixels
    wide from x = `left`, as pixel spans, those less than a pixel apart merged: at most one
    per pixel column whatever their number. The lanes under the timeline paint them on every
    playhead move, and a hostile video may hold tens of thousands of gaps."""
    keep = (ends > v0) & (starts < v1)
    if v1 <= v0 or not keep.any():
        return []
    scale = width / (v1 - v0)
    xa, xb = left + (starts[keep] - v0) * scale, left + (ends[keep] - v0) * scale
    order = np.argsort(xa, kind="stable")
    xa, reach = xa[order], np.maximum.accumulate(xb[order])
    first = np.ones(xa.shape[0], dtype=bool)
    first[1:] = xa[1:] > reach[:-1] + 1.0
    heads = np.nonzero(first)[0]
    tails = np.append(heads[1:] - 1, xa.shape[0] - 1)
    return list(zip(xa[heads].tolist(), reach[tails].tolist(), strict=True))


def paint_bands(p: QPainter, xs: Iterable[tuple[float, float]], left: float, right: float,
                top: float, bottom: float, label: QColor | None = None,
                label_h: float = 0.0) -> None:
    """Each span (x0, x1) in pixels, clipped to [left, right], shaded and hatched from `top`
    to `bottom`, at least 2 px wide; with a `label` colour, "no footage" written in its top
    `label_h` pixels where it fits."""
    p.save()
    for x0, x1 in xs:
        a, b = max(left, x0), min(right, x1)
        if b < left or a > right or b < a:
            continue
        b = max(b, a + 2)
        r = QRectF(a, top, b - a, bottom - top)
        p.fillRect(r, BAND)
        p.fillRect(r, QBrush(HATCH, Qt.BrushStyle.BDiagPattern))
        if label is not None and p.fontMetrics().horizontalAdvance(LABEL) + 8 <= b - a:
            p.setPen(label)
            p.drawText(QRectF(a + 4, top, b - a - 8, label_h),
                       Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, LABEL)
    p.restore()
