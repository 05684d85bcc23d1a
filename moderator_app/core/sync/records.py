"""The sync analysis's records: a finding and the analysis (suggestion, reactions, track).

Kept apart from the analysis so the views, the report and the CLI name them without the
fitting machinery.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import reactions, track

CHANCE_WORDS = "answered no more often than by chance"  # a stretch the video does not follow
# The confidence under which the workstation does not apply a suggestion in one click (the
# Sync panel says why; the moderator can still type the offset). Over the 452 analyses of
# the first set, the held-out set and QA s14-s17 (DECISIONS, session 18), 75 genuine runs get
# a suggestion: at 0.5, 66 of the 72 within a frame are offered and 0 of the 3 more than a
# frame off (Othello: 0.43, 0.36, 0.19); at 0.6, 63 of 72; at 0.4, the 0.43 one is offered.
# A wrong offset offered in one click is worse than none.
APPLY_MIN_CONFIDENCE = 0.5


def apply_withheld(confidence: float) -> str:
    """Why a suggestion at this confidence is not applied in one click ("" when it is)."""
    if confidence >= APPLY_MIN_CONFIDENCE:
        return ""
    return (f"low confidence ({confidence:.2f}, under {APPLY_MIN_CONFIDENCE:.2f}): check the "
            "sync lanes before using it; one-click apply is withheld, the offset can be typed")


# What a suggestion dates, in the moderator's words (the Sync panel's tooltip on it). The
# picture shows when the game answered each press: a game that answers every press k frames
# later draws the same picture k frames later, and no reading of one video splits the two
# (session 31, QA s30's Backgammon: 2.5-3 frames at 54 fps, suggested 1.93 frames late at
# 0.906; tests/sync/test_sync_constant_lag.py). The confidence cannot carry such a lag, so the
# words say it wherever the suggestion is shown.
DATING_NOTE = ("run_start as the reactions date it, for a game that draws a press's answer "
               "within 0-2 of its frames (the typical Atari game). A game that answers every "
               "press later is suggested later by that lag, at the same confidence: the "
               "picture cannot tell a constant lag from a later offset. Each press still lines "
               "up with its answer there, and the sync findings, which compare times within "
               "the run, do not change; check the offset by eye where the exact frame matters.")


@dataclass(frozen=True)
class SyncFinding:
    rule: str
    message: str
    video_start_s: float | None = None
    video_end_s: float | None = None
    run_start_s: float | None = None
    run_end_s: float | None = None
    size_s: float | None = None
    percent: float | None = None
    actions: int | None = None


def video_order(f: SyncFinding) -> tuple[float, str]:
    """The sort key of an analysis's findings: where in the video, then the rule. Each pass
    that adds a finding (a jump, an insertion, a stretch at chance) re-sorts with it, so the
    report lists them in one order whichever pass found them; one without a video time first."""
    return (f.video_start_s if f.video_start_s is not None else 0.0, f.rule)


@dataclass(frozen=True)
class GameWait:
    """A held picture of the sync's that ends as the game waiting for a button
    (core/sync/waits.py `game_waits`), on the video's clock. `offset_s`: the offset at which
    its press is expected there (the one used, or, with none used, the one at which the run's
    holds agree); `agreed`: how many held pictures end at a press of `kind` at that offset
    when the game's button was learned from them (0: this hold alone, by the one-offset
    rule); `held_s`: the latest press before the ending one (None: none), which a scan's
    longer hold must contain for a wait taken by its button alone (`run.wait_note`);
    `opening_s`: the game's start when the button was learned from its opening wait."""

    start_s: float      # the first held frame
    end_s: float        # the first changed frame
    press_s: float      # the press expected there
    kind: str
    offset_s: float
    agreed: int = 0
    lags: tuple[float, float] = (0.0, 0.0)  # the agreeing holds' lags (end - press), from, to
    held_s: float | None = None
    # the game's start (the first changed frame of its opening wait) when its button was
    # learned there (`freeze.opening_wait`), else None
    opening_s: float | None = None
    # the button the agreeing holds end at when this one ends at another at their lag
    # (`wait_lag._at_the_lag`: a game that takes several buttons), else None
    agreed_kind: str | None = None


@dataclass(frozen=True)
class SyncAnalysis:
    suggested_offset_s: float | None     # None: not enough signal
    confidence: float                    # 0..1
    supporting_actions: int
    actions: int
    speed: float                         # run seconds per video second at the fit
    reason: str                          # why there is no suggestion ("" when there is one)
    offset_used_s: float | None          # the offset the reactions and findings are measured at
    reactions: list[reactions.Reaction] = field(default_factory=list)
    track: list[track.TrackPoint] = field(default_factory=list)
    segments: list[tuple[float, float, float]] = field(default_factory=list)  # run_s from, to, offset
    findings: list[SyncFinding] = field(default_factory=list)
    # per action (as `reactions`): answered in the player's tiles, and the chance of it, at
    # the offset used (core/sync/stretch.py); empty when not tested. The other tile scale
    # reads them: a stretch answered here is no stretch at chance there (`combine.combine`)
    answers: tuple[tuple[bool, float], ...] = field(default=(), compare=False)
    # why the confidence is bounded, when the evidence cannot place the offset within a
    # video frame ("" otherwise; core/sync/cadence.py)
    confidence_note: str = ""
    # the offset a reading singled out and then refused because the run's first actions do
    # not follow it (core/sync/head.py), or None: a later reading of a part of the picture
    # (the player's band, the calmed onsets, the sprites) offers it no more (`analysis`)
    refused_offset_s: float | None = field(default=None, compare=False)
    # the offset a reading singled out under the one-click bar and did not keep because the
    # moderator's offset is far from it (`reading.analyze_at`: read at the offset given), or
    # None: the other tile scale's suggestion of that same offset is not kept either
    # (`combine.combine`)
    withheld_offset_s: float | None = field(default=None, compare=False)
    # the held pictures that end as the game waiting for a button (core/sync/waits.py
    # `game_waits`); the report says a scan's `video.frozen` over one as a note
    # (core/sync/run.py `wait_notes`)
    waits: tuple[GameWait, ...] = field(default=(), compare=False)
    # the log's name for each action (a press's button), in run order as `reactions`, or ()
    # when not given: a scan's held picture under which no button was pressed is told by
    # them (core/sync/hidden.py)
    kinds: tuple[str, ...] = field(default=(), compare=False)
    # the video times of the frames whose colour alone changed in a few of the scan's chroma
    # tiles (core/sync/colour_answers.py `marks`): a scan's held picture whose colour answers
    # the log's presses inside it is said as a note (`run.wait_note`)
    colour_marks: tuple[float, ...] = field(default=(), compare=False)

    @property
    def drift_percent(self) -> float:
        return round((self.speed - 1.0) * 100, 2)
