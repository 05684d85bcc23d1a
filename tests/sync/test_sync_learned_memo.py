"""The learned fits an analysis keeps (`fit.learned_fit`'s memo) are the latest
LEARNED_KEPT (issue 13, session 26): each one that learnt tile weights holds a novelty and a
lookup of its own, ~100 bytes a frame, and a long run's track cuts its log into many
stretches, each tested. An hour's rises at 60 fps with 3,000 actions kept ~155 of them to
the reading's end (3.3 GB above the signals). A fit let go and asked again is learnt again:
the same answer, bit for bit."""

from __future__ import annotations

from one_tile import bits as _bits
from one_tile import signals as _signals

from moderator_app.core.sync import fit, lookup, reactions
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH


def _held(memo: dict) -> list:
    """The learned fits a memo holds that carry a novelty and a lookup of their own."""
    return [v for v in memo.values() if isinstance(v, tuple) and len(v) == 4
            and v[3] is not None]


def test_a_long_logs_stretches_keep_a_bounded_number_of_learned_fits():
    sig, actions = _signals(seconds=60.0, actions_n=200, chance=0.003)
    nov1 = reactions.novelty(sig)
    look1 = lookup.Lookup(sig, lookup.lookahead(sig, nov1))
    q = reactions.background_rates(sig, nov1)
    stretches = [actions[i:i + 16] for i in range(0, len(actions) - 15, 8)]  # 24, overlapping
    memo: dict = {}
    first = [fit.learned_fit(sig, nov1, look1, q, s, 1.0, TH, memo) for s in stretches]
    learnt = sum(f[3] is not None for f in first)
    assert learnt > fit.LEARNED_KEPT  # the case: more stretches learnt than are kept
    held = _held(memo)
    assert len(held) == fit.LEARNED_KEPT
    one = first[0][2].table.nbytes + first[0][1].excess.nbytes
    assert sum(h[2].table.nbytes + h[1].excess.nbytes for h in held) <= fit.LEARNED_KEPT * one
    # the first stretch that learnt was let go: learnt again, the same fit and weights
    i = next(j for j, f in enumerate(first) if f[3] is not None)
    again = fit.learned_fit(sig, nov1, look1, q, stretches[i], 1.0, TH, memo)
    assert again is not first[i]
    for a, b in zip(first, [fit.learned_fit(sig, nov1, look1, q, s, 1.0, TH) for s in stretches],
                    strict=True):
        assert _bits([a[0].offset_s, a[0].score, a[0].z]) == \
            _bits([b[0].offset_s, b[0].score, b[0].z])
    assert _bits([again[0].offset_s, again[0].score]) == \
        _bits([first[i][0].offset_s, first[i][0].score])
    assert again[3] is not None and _bits(again[3]) == _bits(first[i][3])
    assert _bits(again[2].table) == _bits(first[i][2].table)
