"""The timeline's marker columns (ui/timeline.py): events per pixel column, and columns drawn
as bars into one RGBA buffer. Apart from the widget: pure numpy, no Qt."""

from __future__ import annotations

import math

import numpy as np


def density(sorted_times: np.ndarray, v0: float, v1: float, width: int) -> np.ndarray:
    """Events per pixel column for the view [v0, v1] over `width` columns."""
    if width <= 0 or sorted_times.size == 0 or v1 <= v0:
        return np.zeros(max(width, 0), dtype=np.int64)
    edges = np.linspace(v0, v1, width + 1)
    idx = np.searchsorted(sorted_times, edges, side="left")
    return np.diff(idx)


def widen(counts: np.ndarray) -> np.ndarray:
    """A marker three pixels wide instead of one, so that a single finding is easy to see."""
    out = counts.copy()
    out[1:] = np.maximum(out[1:], counts[:-1])
    out[:-1] = np.maximum(out[:-1], counts[1:])
    return out


def nice_step(span: float, target_ticks: int) -> float:
    if span <= 0:
        return 1.0
    raw = span / max(target_ticks, 1)
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * mag >= raw:
            return m * mag
    return 10 * mag


def fill_columns(buf: np.ndarray, counts: np.ndarray, y0: int, hh: int, rgb: tuple[int, int, int],
          full: bool) -> None:
    """Columns with events become bars: full height when sparse (one event per column),
    else height by log density, so dense and sparse stretches stay distinguishable."""
    if hh <= 0 or y0 >= buf.shape[0]:
        return
    hh = min(hh, buf.shape[0] - y0)
    nz = counts > 0
    if not nz.any():
        return
    cmax = int(counts.max())
    if full or cmax <= 1:
        heights = np.where(nz, hh, 0)
    else:
        heights = np.where(nz, np.maximum(2, np.ceil(
            hh * np.log1p(counts) / math.log1p(cmax))).astype(np.int64), 0)
    rows = np.arange(hh)[:, None]
    mask = rows >= (hh - heights)[None, :]
    band = buf[y0:y0 + hh]
    band[mask] = (*rgb, 255)
