"""`np.median`, `np.unique`, `np.isin` and `np.union1d` without `numpy.ma`, bit for bit (issue
12 point 5: the scan of a small file against its decode floor).

Why: numpy imports `numpy.ma` the first time either runs (numpy 2.4: `np.median`'s NaN check
asks `np.ma.isMaskedArray`, `np.unique` asks `np.ma.is_masked`), ~6-8 ms of CPU, once in
the video process (`build_index`: the keyframes) and once in the CLI (the scan's analysis),
or once for both when imported before the fork (session 25). On a 3 s 208x160 file that
was ~3 % of `verify --scan`'s process tree, beside a decode floor of ~0.08 s. `np.isin` and
`np.union1d` import it through `np.unique` (the sorting kind of `isin`: timestamps far apart).
Nothing on that path uses a masked array.

The same numbers: a median is the mean of the one or two middle values of the sorted data,
which `np.median` takes with `np.mean` over those values of its partitioned copy (the same
values: they are order statistics); here `np.mean` over the same values of a sorted copy, in
the same dtype, on the same axis. A NaN anywhere gives NaN, as there. Empty data, or data
that is not numbers, goes to numpy itself (its warning, its error).
"""

from __future__ import annotations

import numpy as np


def median(x, axis: int | None = None):
    """`np.median(x)` (axis None: all values) or `np.median(x, axis=-1)` (axis -1 or the last
    axis), the same value and type."""
    a = np.asarray(x)
    if axis is None:
        a = a.ravel()
    elif axis not in (-1, a.ndim - 1):
        return np.median(a, axis=axis)
    n = a.shape[-1] if a.ndim else 0
    if n == 0 or a.dtype.kind not in "biuf":
        return np.median(a, axis=-1 if axis is not None else None)
    s = np.sort(a, axis=-1)
    k = n // 2
    mid = s[..., k - 1:k + 1] if n % 2 == 0 else s[..., k:k + 1]
    out = np.mean(mid, axis=-1)
    if s.dtype.kind == "f":
        if s.ndim == 1:
            return s[-1] if np.isnan(s[-1]) else out
        last = s[..., -1]
        nan = np.isnan(last)
        if nan.any():
            np.copyto(out, last, where=nan)
    return out


def unique(x) -> np.ndarray:
    """`np.unique(x)` of integers (flattened, sorted, each value once)."""
    a = np.asarray(x).ravel()
    if a.dtype.kind not in "biu":
        return np.unique(a)
    s = np.sort(a)
    if s.shape[0] < 2:
        return s
    keep = np.empty(s.shape[0], bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def isin(a, b) -> np.ndarray:
    """`np.isin(a, b)` of integers of one dtype: whether each value of `a` is among `b`'s."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.dtype.kind not in "iu":
        return np.isin(a, b)
    s = unique(b)
    if s.shape[0] == 0:
        return np.zeros(a.shape, bool)
    at = np.minimum(np.searchsorted(s, a), s.shape[0] - 1)
    return s[at] == a


def union(a, b) -> np.ndarray:
    """`np.union1d(a, b)` of integers: their values, sorted, each once."""
    return unique(np.concatenate((np.asarray(a).ravel(), np.asarray(b).ravel())))
