"""numpy's median, percentile and sorted unique values, bit for bit, without numpy.ma.

Why: numpy 2's `np.median`, `np.percentile` and `np.unique` each import `numpy.ma` on their
first call (`unique` asks `np.ma.is_masked`; the other two reach it through `np.unique` of
their partition indices): 8 ms of CPU in a process that needs no masked array, paid by every
`verify --sync` (the signals' frame period reads a percentile and a median), ~2.4 % of a
16 fps WMV run's 0.34 s scan (issue 13: the analysis adds at most 20 % to the scan; QA s29
T6). These are numpy's own steps for a 1-D array (flattened, as numpy does with no axis):
the same partition with the same indices, the same interpolation in the same types; an
input they do not follow numpy on (empty, a NaN, a signed zero for `unique_sorted`) is
handed to numpy itself. tests/sync/test_sync_stats.py holds them to numpy's answers.
"""

from __future__ import annotations

from typing import Literal

import numpy as np


def median(x) -> float:
    """np.median(x), bit for bit (the middle value, or the two middle ones' sum halved), at
    a tenth of its cost on the few dozen actions of a window (it ran for every fit)."""
    s = np.sort(np.asarray(x, float).ravel())
    n = len(s)
    if n == 0 or np.isnan(s[-1]):
        return float(np.median(x))  # nan, as np.median says (with its warning)
    k = n // 2
    return float(s[k]) if n % 2 else float((s[k - 1] + s[k]) / 2)


def percentile(a, q, method: Literal["linear", "lower"] = "linear"):
    """np.percentile(a, q, method=method) for `method` "linear" (numpy's default) or
    "lower", `q` a number or a sequence of them: numpy's `_quantile` on the flattened
    array (its virtual indices, its partition, its `_lerp`), so the same bits."""
    arr = np.asanyarray(a)
    weak_q = type(q) in (int, float)
    qs = np.asarray(np.true_divide(q, 100))
    if arr.size == 0 or method not in ("linear", "lower") or arr.dtype.kind not in "iuf" \
            or not ((qs >= 0) & (qs <= 1)).all():
        return np.percentile(a, q, method=method)  # numpy's answer, or its error
    arr = arr.flatten()
    n = arr.shape[0]
    nans = arr.dtype.kind == "f"
    if method == "lower":
        idx = np.floor((n - 1) * qs).astype(np.intp)
        arr.partition(np.concatenate((idx.ravel(), [-1])) if nans else idx.ravel())
        if nans and np.isnan(arr[-1]):
            return np.percentile(a, q, method=method)
        return np.take(arr, idx)
    virtual = np.asanyarray((n - 1) * qs)
    prev = np.asarray(np.floor(virtual))
    nxt = np.asarray(np.add(prev, 1))
    above = virtual >= n - 1
    if above.any():
        prev[above] = -1
        nxt[above] = -1
    prev, nxt = prev.astype(np.intp), nxt.astype(np.intp)
    # numpy's np.unique of these indices: the same ones, in the same (ascending) order
    arr.partition(sorted({0, -1, *prev.ravel().tolist(), *nxt.ravel().tolist()}))
    if nans and np.isnan(arr[-1]):
        return np.percentile(a, q, method=method)
    lo, hi = arr[prev], arr[nxt]
    gamma = np.asanyarray(virtual - prev, dtype=virtual.dtype)
    return _lerp(lo, hi, float(gamma) if weak_q else gamma.reshape(virtual.shape))


def _lerp(a, b, t):
    """numpy's `_lerp`: a + (b - a) t, or b - (b - a)(1 - t) where t >= 0.5."""
    diff = b - a
    out = np.asarray(np.add(a, diff * t))
    np.subtract(b, diff * (1 - t), out=out, where=t >= 0.5, casting="unsafe",
                dtype=type(out.dtype))
    return out[()] if out.ndim == 0 else out


def unique_sorted(x) -> np.ndarray:
    """np.unique(x): the sorted distinct values of the flattened array (numpy's own, for an
    input holding a NaN or a zero, whose sign the two may pick apart)."""
    s = np.sort(np.asarray(x).ravel())
    if len(s) == 0 or (s.dtype.kind == "f" and (np.isnan(s[-1]) or (s == 0).any())):
        return np.unique(x)
    keep = np.empty(len(s), bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]
