"""`wait_lag._at_the_lag` asks of a candidate press whether each earlier press of its button in
the hold was shown, stopping at the first that was not (session 31's review of 52d9758: the
list of them all, built for each candidate, took 0.21 -> 6.67 s on 100,000 earlier presses).
Its answers, and a bound on its work counted in reads of the presses' kinds (no clock)."""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync import wait_lag

BAND = (0.02, 0.04)
FPS = 60.0


@pytest.mark.parametrize("kinds, faint, out, faintly", [
    (["A", "A"], [], {}, set()),                    # an earlier A the hold hid
    (["A", "A"], [2.03], {0: 1}, {0}),              # an earlier A answered faintly
    (["B", "A"], [], {0: 1}, set()),                # no earlier A: the first of its button
    (["A", "B", "A", "A"], [2.03], {}, set()),      # the second earlier A not shown
    (["A", "B", "A", "A"], [2.03, 6.03], {0: 3}, {0}),  # both shown
])
def test_a_press_after_earlier_ones_of_its_button(kinds, faint, out, faintly):
    v = np.array([2.0, 4.0, 6.0, 9.97] if len(kinds) == 4 else [2.0, 9.97])
    got: set[int] = set()
    assert wait_lag._at_the_lag([(0.5, 10.0)], {}, v, kinds, BAND, FPS,
                             np.array(faint, float), got) == out
    assert got == faintly


class _Counted(list):
    """The presses' kinds, counting the reads made of them one by one."""
    reads = 0

    def __getitem__(self, i):
        _Counted.reads += 1
        return super().__getitem__(i)


def test_earlier_presses_are_not_listed_for_each_candidate():
    n_before, n_band = 20_000, 400
    v = np.sort(np.r_[np.linspace(1.0, 900.0, n_before), np.full(n_band, 999.97)])
    kinds = _Counted(["A"] * len(v))
    _Counted.reads = 0
    assert wait_lag._at_the_lag([(0.5, 1000.0)], {}, v, kinds, BAND, FPS, np.zeros(0),
                             set()) == {}
    # one or two reads per candidate press; the list of earlier presses read all 20,000
    # before each of the 400 (8 million)
    assert _Counted.reads <= 4 * n_band
