"""`track.misordered` counted on sorted times (s29 review: its first form built a cuts x
answers table, 465 MB for 20,000 + 2,000 answers, ~10 GB at the 100,000-action cap). The count
must equal the table's on every input, ties at the slack included, and stay small in memory."""

from __future__ import annotations

import tracemalloc

import numpy as np

from moderator_app.core.sync.track import ORDER_SLACK_S, misordered


def _table(va: np.ndarray, vb: np.ndarray) -> int:
    cuts = np.r_[va, vb]
    cuts = np.r_[cuts.min() - 1.0, cuts]
    wrong = (va[None, :] > cuts[:, None] + ORDER_SLACK_S).sum(axis=1) + \
        (vb[None, :] < cuts[:, None] - ORDER_SLACK_S).sum(axis=1)
    return int(wrong.min())


def test_the_count_equals_the_cut_by_answer_table():
    rng = np.random.default_rng(29)
    for k in range(2000):
        n, m = rng.integers(1, 40, 2)
        va = np.round(rng.uniform(0, 30, n), int(rng.integers(0, 3)))
        vb = np.round(rng.uniform(0, 30, m) + rng.uniform(-5, 10), int(rng.integers(0, 3)))
        if k % 3 == 0:  # answers exactly a slack apart
            vb = np.r_[vb, va[: max(1, n // 2)] + ORDER_SLACK_S]
        assert misordered(va, vb) == _table(va, vb)


def test_turmoils_stretches_leave_six_answers_on_the_wrong_side():
    # QA s29 T2's shape: the chance stretch's answers lie inside the true one's footage
    va = np.linspace(18.99, 31.21, 7)
    vb = np.linspace(19.02, 40.28, 10)
    assert misordered(va, vb) == _table(va, vb)
    assert 2 * misordered(va, vb) > len(va)


def test_a_long_log_counts_in_little_memory():
    rng = np.random.default_rng(3)
    va, vb = rng.uniform(0, 3000, 100_000), rng.uniform(0, 3000, 2_000)
    tracemalloc.start()
    try:
        wrong = misordered(va, vb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert 0 <= wrong <= len(vb)
    assert peak < 32 * 2**20  # the table would take ~1.6 GB here
