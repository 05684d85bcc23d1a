"""Does the run's head follow the offset suggested for it? The offset is the video time of
run_start, so a suggestion the run's first actions do not follow names no start at all.

A video spliced early (footage cut or inserted after the run's first 8-12 seconds) has a
first stretch too short to stand out on its own, and a second one that does: the track then
keeps one stretch, the first actions' chance matches at the second stretch's offset carry no
weight against the rest's, and the second stretch's offset was offered as the run's
(session 25: Star Gunner with 4 s inserted at video 15.7 s, 6.560 s for a truth of 2.6 s at
confidence 0.588; Kaboom! with 4 s cut at 19.4 s, -1.399 s at 0.538). The stretch test
(`stretch.unexplained`) finds such a head only at MIN_LLR (a finding: the video does not
follow the log), which those heads miss (LLR 6.3 and 7.7). A suggestion is a claim about the
head, and refusing it costs only "not enough signal": the head is held to a lower bar here
(`HEAD_REFUSE_LLR`), together with its own fit's mark at the offset (`HEAD_MARK_Z`), and only
the suggestion is refused (`reading.analyze_at`; a reading of a part of the picture does not
offer it again: `analysis._not_refused`). A head found at chance at the finding's bar keeps
its finding and offset, its confidence bounded (`HEAD_BOUND`).
"""

from __future__ import annotations

import numpy as np

from . import stretch

# The head's answers this much likelier at chance than at the rest's rate (a log-likelihood
# ratio, as `stretch.unexplained`'s; the rest's rate with its +1/+2 prior) refuse the
# suggestion. See the module's docstring and DECISIONS (session 26) for the measured spread.
HEAD_REFUSE_LLR = 4.0
# ... and the head's own fit must leave no mark at the offset used (`align.z_at` of its
# learned fit, in spreads over its other offsets; PART_MIN_WHOLE_Z's bar for a part of a run):
# a genuine head the player's tiles do not answer may still follow the offset in the whole
# picture (Tennis' third genuine run: its first 12 presses at LLR 5.2, their fit 4.4 there).
HEAD_MARK_Z = 2.0
HEAD_MIN = stretch.MIN_TAIL   # the head's actions, at least (a player at a wall misses a few)
REST_MIN = stretch.MIN_HEAD   # the rest's, at least

# A suggestion whose head is found at chance at the finding's bar (`stretch.unexplained`,
# a `sync.no_reaction` over it) and explained by no other offset keeps its offset and
# findings, with its confidence at most this (under records.APPLY_MIN_CONFIDENCE: shown,
# not applied in one click, refused by `verify --offset auto`). Kaboom! with 4 s cut at
# 19.37 s (session 26's s2613): its first 12 presses at chance at -1.402 s, the rest's (truth
# 2.6 s), offered at 0.538.
HEAD_BOUND = 0.4


def at_chance(s: np.ndarray, chance: np.ndarray) -> tuple[int, float] | None:
    """(k, LLR): the run's first k actions (HEAD_MIN or more, leaving REST_MIN), the head whose
    answers `s` are likeliest at their `chance` against the rest's answer rate, when it can
    tell (`stretch.testable`) and its LLR reaches HEAD_REFUSE_LLR; None otherwise."""
    s, chance = np.asarray(s, float), np.asarray(chance, float)
    n = len(s)
    best: tuple[int, float] | None = None
    for k in range(HEAD_MIN, n - REST_MIN + 1):
        rate = (s[k:].sum() + 1) / (n - k + 2)
        if rate <= chance[:k].mean() or not stretch.testable(s[:k], chance[:k]):
            continue
        v = stretch._llr(s[:k], chance[:k], rate)  # the stretch test's own ratio
        if best is None or v > best[1]:
            best = (k, v)
    return best if best is not None and best[1] >= HEAD_REFUSE_LLR else None


def head_note(k: int) -> str:
    """Why the suggestion's confidence is bounded (`HEAD_BOUND`): its head's k actions."""
    return (f"the run's first {k} actions are answered no more often than by chance at this "
            "offset, and no other offset explains them: it may be the offset after a splice, "
            "not the run's start")
