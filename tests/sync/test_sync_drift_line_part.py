"""A drift's line is not dropped for a stretch "at chance" that holds its own reactions
(issue 13, session 36, placing; core/sync/reading.py `line_answers`).

Solaris sped up 2.9 % (the wide set, read at the truth): the coarse reading's line, +2.89 % on
19 of 30 presses, was refitted on its last 8 presses because the first 22 read "at chance" in
the player's tiles, though 11 of the line's 18 supporting reactions lay among them; the refit
(+2.64 % on 7 presses, confidence 0.106) was too weak a line for a drift and the speed-up was
said nowhere. The gate: a drift's stretch holding sync_min_actions of the line's supporting
reactions (fit.SUPPORT_BEFORE_S before to SUPPORT_AFTER_S after where the line expects them)
is no stretch at chance; at speed 1 the stretch test keeps its word (a second attempt).
"""

from __future__ import annotations

from moderator_app.core.sync.fit import SUPPORT_AFTER_S
from moderator_app.core.sync.reactions import Reaction
from moderator_app.core.sync.reading import line_answers
from moderator_app.core.sync.records import SyncAnalysis
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS as TH


def _reading(speed: float, delays: list[float | None]) -> SyncAnalysis:
    """A reading at `speed` whose action i reacts `delays[i]` after the line expects it."""
    rs = [Reaction(i, 1.3 * i, 2.0 + 1.3 * i / speed,
                   None if d is None else 2.0 + 1.3 * i / speed + d, d, 0.0 if d is None else 0.4)
          for i, d in enumerate(delays)]
    support = sum(1 for d in delays if d is not None and 0 <= d <= SUPPORT_AFTER_S)
    return SyncAnalysis(2.0, 0.44, support, len(delays), speed, "", 2.0, reactions=rs)


# Solaris' shape: 30 presses, the line's 18 supporting reactions, 11 of them in the first 22
HEAD = [0.02] * 11 + [None] * 6 + [0.3] * 5
TAIL = [0.03] * 7 + [None]


def test_a_drift_stretch_holding_the_lines_reactions_is_not_at_chance() -> None:
    assert line_answers(_reading(1.029, HEAD + TAIL), (0, 22), TH)


def test_at_speed_one_the_stretch_test_keeps_its_word() -> None:
    assert not line_answers(_reading(1.0, HEAD + TAIL), (0, 22), TH)


def test_a_stretch_with_fewer_than_the_minimum_of_the_lines_reactions_stays_at_chance() -> None:
    few = [0.02] * (TH.sync_min_actions - 1) + [None] * 12 + [0.3] * 5  # late ones do not count
    assert not line_answers(_reading(1.029, few + TAIL), (0, 22), TH)
    # ... and the tail's reactions are not the stretch's
    assert not line_answers(_reading(1.029, few + TAIL), (0, len(few)), TH)
