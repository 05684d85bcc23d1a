"""Session 34's shuffled-log test on the buttons the picture answers (`sync/buttons.py`, issue
13): the real log and every shuffled log weigh their own buttons (the choice is paid by the
null, not made on the real log alone), each shuffled log keeps every press's button and the
log's rhythm (its gaps shuffled), and a log without kinds or with one button is the whole-log
test's alone (0.0 here)."""

from __future__ import annotations

import numpy as np
import pytest

from moderator_app.core.sync import buttons, fit
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH

RUN = np.array([0.5, 1.1, 1.4, 2.9, 3.3, 4.0, 5.2, 5.9, 7.1, 8.4])
KINDS = ["FIRE", "LEFT", "FIRE", "NOOP", "LEFT", "FIRE", "NOOP", "NOOP", "FIRE", "LEFT"]


def _recorded(monkeypatch, values):
    """`buttons.statistic` replaced by one that returns `values` in turn and records what it
    was asked."""
    asked = []
    it = iter(values)

    def fake(sig, nov1, look1, q, run_s, parts, speed, th):
        asked.append((np.array(run_s), [np.array(g) for g in parts]))
        return next(it), 10

    monkeypatch.setattr(buttons, "statistic", fake)
    return asked


def test_every_shuffled_log_chooses_its_own_buttons_with_the_same_kinds(monkeypatch):
    """The real log first, then NULL_SETS logs with the same first press and the same gaps in
    another order, each asked with the same presses per button; the z is the real one's over
    theirs."""
    null = [1.0, 2.0, 3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0,
            2.0, 3.0]
    assert len(null) == fit.NULL_SETS
    asked = _recorded(monkeypatch, [30.0] + null)
    z = buttons.null_z(None, None, None, None, RUN, KINDS, 1.0, TH)
    assert len(asked) == 1 + fit.NULL_SETS
    assert np.array_equal(asked[0][0], RUN)
    want = [[0, 2, 5, 8], [1, 4, 9], [3, 6, 7]]  # FIRE, LEFT, NOOP: first appearance order
    for run_s, parts in asked:
        assert [g.tolist() for g in parts] == want
        assert run_s[0] == RUN[0]
        assert np.allclose(np.sort(np.diff(run_s)), np.sort(np.diff(RUN)))
    assert any(not np.allclose(run_s, RUN) for run_s, _ in asked[1:])
    arr = np.array(null)
    assert z == pytest.approx((30.0 - arr.mean()) / arr.std())


def test_a_shuffled_log_that_does_as_well_ends_the_test(monkeypatch):
    """One shuffled log's statistic at the real one's: 0.0, after that log."""
    asked = _recorded(monkeypatch, [5.0, 1.0, 5.0] + [0.0] * 20)
    assert buttons.null_z(None, None, None, None, RUN, KINDS, 1.0, TH) == 0.0
    assert len(asked) == 3


def test_no_kinds_or_one_button_is_not_this_test(monkeypatch):
    asked = _recorded(monkeypatch, [30.0] * 40)
    assert buttons.null_z(None, None, None, None, RUN, None, 1.0, TH) == 0.0
    assert buttons.null_z(None, None, None, None, RUN, ["FIRE"] * len(RUN), 1.0, TH) == 0.0
    assert buttons.null_z(None, None, None, None, RUN, KINDS[:-1], 1.0, TH) == 0.0
    assert asked == []


def test_asked_last_at_auto_only_with_kinds(monkeypatch):
    """The analysis asks the buttons test (`analysis._buttons`) when nothing before suggested
    an offset, none was given and the log names its buttons; never otherwise."""
    import one_tile

    from moderator_app.core.sync import analysis

    sig, run_s = one_tile.signals()
    kinds = ["FIRE" if i % 3 else "NOOP" for i in range(len(run_s))]
    asked = []

    def fake(run, s, th, input_kinds):
        asked.append(list(input_kinds))

    monkeypatch.setattr(analysis, "_buttons", fake)
    assert analysis.analyze(run_s, sig, TH, None, None, input_kinds=kinds).suggested_offset_s \
        is None
    assert asked == [kinds]
    analysis.analyze(run_s, sig, TH, None, None)
    analysis.analyze(run_s, sig, TH, 1.5, None, input_kinds=kinds)
    assert asked == [kinds]
