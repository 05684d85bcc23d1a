"""`sync.stats`: numpy's median, percentile and sorted unique values, bit for bit, without the
8 ms of CPU numpy 2 spends importing numpy.ma at their first call (issue 13's synccost: the
analysis adds at most 20 % to the scan; QA s29 T6, 16 fps runs of a 0.34 s scan)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from moderator_app.core.sync import stats


def _same(a, b) -> bool:
    """The same value bits, dtype, shape and Python type."""
    return (type(a) is type(b) and np.asarray(a).dtype == np.asarray(b).dtype
            and np.shape(a) == np.shape(b) and np.asarray(a).tobytes() == np.asarray(b).tobytes())


def _arrays(rng, count: int):
    for trial in range(count):
        n = int(rng.integers(1, 60))
        kind = trial % 4
        if kind == 0:
            yield rng.integers(-50, 500, n)
        elif kind == 1:
            yield np.round(rng.uniform(-10, 100, n), int(rng.integers(0, 4)))
        elif kind == 2:
            yield rng.exponential(1.0, n)
        else:
            yield rng.integers(1, 5, n).astype(float) / 60  # frame intervals, many ties


@pytest.mark.parametrize("method", ["linear", "lower"])
def test_percentile_is_numpys(method):
    rng = np.random.default_rng(11)
    qs = (10, 75, 90, 25.0, 12.5, 97.5, 0, 100, (5, 95), [25, 75])
    for x in _arrays(rng, 2000):
        for q in qs:
            got, want = stats.percentile(x, q, method=method), np.percentile(x, q, method=method)
            assert _same(got, want), (x.tolist(), q, got, want)


def test_median_and_unique_are_numpys():
    rng = np.random.default_rng(12)
    for x in _arrays(rng, 2000):
        assert np.float64(stats.median(x)).tobytes() == np.float64(np.median(x)).tobytes()
        assert _same(stats.unique_sorted(x), np.unique(x))


def test_numpys_own_answer_where_the_steps_differ():
    """A NaN, an empty array, a zero's sign: numpy's own answer (and its warning)."""
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        assert np.isnan(stats.median(np.array([]))) and np.isnan(stats.median([]))
    assert np.isnan(stats.percentile(np.array([1.0, np.nan, 3.0]), 50))
    assert np.isnan(stats.percentile(np.array([1.0, np.nan, 3.0]), 10, method="lower"))
    assert np.isnan(stats.median([2.0, np.nan]))
    x = np.array([0.0, -0.0, 1.0, 1.0, np.nan, np.nan])
    assert _same(stats.unique_sorted(x), np.unique(x))
    with pytest.raises(ValueError):
        stats.percentile([1.0, 2.0], 101)


def test_an_analysis_imports_no_masked_array():
    """A process that reads the sync view of a scan and analyses it at no offset and at one
    never imports numpy.ma (frame_period's percentile and median, the fits' medians, the
    splices' percentiles): in its own process, as `verify --sync` runs."""
    code = """
import sys
import numpy as np
from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import from_scan
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

class Scan:
    def __init__(self, times, tiles):
        self.times_s, self.sync_tiles, self.chroma_tiles = times, tiles, None

rng = np.random.default_rng(3)
fps, n = 16, 16 * 40
fine = np.zeros((n, 16, 16), np.uint8)
busy = rng.random((n, 16, 16)) < 0.05
fine[busy] = rng.integers(1, 40, int(busy.sum())).astype(np.uint8)
fine[0] = 0
run_s = np.sort(rng.uniform(1, 35, 25))
ks = np.rint((run_s + 1.6) * fps).astype(int) + 2
fine[ks, 14, 7] = 30
sig = from_scan(Scan(np.arange(n) / fps, fine), 8)
for offset in (None, 1.6):
    analyze(list(map(float, run_s)), sig, DEFAULT_THRESHOLDS, offset)
print("numpy.ma" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False"]
