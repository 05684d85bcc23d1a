"""`middle.median` and `middle.unique`: `np.median` and `np.unique` bit for bit, without
importing numpy.ma (session 27, issue 12 point 5: ~6-8 ms of a small file's `verify --scan`,
whose whole decode floor is ~0.08 s of CPU)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from moderator_app.core.video.middle import isin, median, union, unique

ROOT = Path(__file__).resolve().parents[2]


def _same(got, want) -> bool:
    """The same type, dtype, shape and values (NaN where numpy says NaN)."""
    if type(got) is not type(want):
        return False
    g, w = np.asarray(got), np.asarray(want)
    return g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w, equal_nan=True)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.uint8, bool])
def test_the_median_is_numpys_to_the_bit(dtype):
    rng = np.random.default_rng(27)
    for _ in range(400):
        size = int(rng.integers(1, 40))
        if dtype is bool:
            x = rng.random(size) > 0.5
        else:
            x = (rng.normal(size=size) * rng.choice([1e-3, 1.0, 1e6])).astype(dtype)
            if np.dtype(dtype).kind == "f" and rng.random() < 0.25:
                x[rng.integers(0, size)] = np.nan
        assert _same(median(x), np.median(x)), x
        m = np.stack([x, x[::-1], np.roll(x, 1)])
        assert _same(median(m, axis=1), np.median(m, axis=1)), m
        assert _same(median(m), np.median(m)), m


def test_a_median_of_float32_is_summed_in_float32_as_numpy_does():
    # the two middle values' sum overflows float32 (a float64 sum would not): inf, as numpy
    x = np.array([3e38, 3e38, 1.0, 3.2e38], np.float32)
    with np.errstate(over="ignore"):
        got, want = median(x), np.median(x)
    assert _same(got, want) and got == np.inf and isinstance(got, np.float32)


def test_a_nan_makes_the_median_nan_row_by_row():
    m = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
    got = median(m, axis=-1)
    assert _same(got, np.median(m, axis=-1)) and np.isnan(got[0]) and got[1] == 5.0
    assert np.isnan(median([2.0, np.nan])) and isinstance(median([2.0, np.nan]), np.float64)


def test_a_deque_and_integers_as_the_scan_passes_them():
    d = deque([3003, 3003, 3004, 3003, 9009], maxlen=31)
    assert _same(median(d), np.median(d)) and median(d) == 3003.0
    assert _same(median(np.array([1, 2], np.int64)), np.float64(1.5))


def test_unique_is_numpys():
    rng = np.random.default_rng(5)
    for dtype in (np.int64, np.int32, np.uint16, np.uint8):
        for size in (0, 1, 2, 3, 17, 300):
            x = rng.integers(0, 9, size=size).astype(dtype)
            assert _same(unique(x), np.unique(x)), x
    assert unique(np.array([[5, 1], [5, 2]])).tolist() == [1, 2, 5]


def test_neither_imports_numpy_ma():
    code = ("import sys, json, numpy as np\n"
            "from moderator_app.core.video.middle import isin, median, union, unique\n"
            "median(np.arange(7.0)); median(np.ones((3, 4)), axis=1); median([1.0, float('nan')])\n"
            "unique(np.array([3, 1, 3])); isin(np.arange(5) << 40, np.arange(3) << 40)\n"
            "union(np.arange(4) << 40, np.arange(2))\n"
            "print(json.dumps('numpy.ma' in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, check=True)
    assert json.loads(out.stdout) is False


def test_isin_and_union_are_numpys():
    rng = np.random.default_rng(9)
    for size_a, size_b in ((0, 0), (5, 0), (0, 5), (1, 1), (40, 7), (300, 120)):
        # timestamps far apart (numpy's sorting kind, which imported numpy.ma) and near
        for scale in (1, 1 << 40):
            a = (rng.integers(0, 50, size=size_a) * scale).astype(np.int64)
            b = (rng.integers(0, 50, size=size_b) * scale).astype(np.int64)
            assert _same(isin(a, b), np.isin(a, b)), (a, b)
            assert _same(union(a, b), np.union1d(a, b)), (a, b)
    m = np.array([[1, 5], [7, 1]], np.int64)
    assert _same(isin(m, np.array([1, 7], np.int64)), np.isin(m, [1, 7]))
    # other dtypes: numpy's own answer
    assert _same(isin(np.array([1.5, 2.0]), np.array([2.0])), np.array([False, True]))
