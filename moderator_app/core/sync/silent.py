"""Stretches of the log in which the agent's loop did nothing (`sync.silent_log`), placed on
the video at the offset the analysis uses.

Why from the log and not the picture: on a screen that moves on its own, the picture does not
show a deleted stretch's presses apart from the motion. Zaxxon (QA session 17, K4; it
scrolls): the genuine run's own analysis sees 1 of the 5 presses later deleted from its log;
the player's band has 0.14-0.23 reaction-like events a second where the log is idle, so the
deleted stretch's 9.4 s hold 1.3-2.1 by chance and show 1-2; its human stretch (14 presses)
shows 4 against 1.3. The log itself tells: an agent's loop always awaits a model or applies
an input (`formats.input_events.idle_stretches`), and those stretches are the only ones in
which it did neither for seconds. Reported without the picture's say, as the log's fact, at
the offset used (the suggestion's or the moderator's); without one, at run times only.
"""

from __future__ import annotations

from dataclasses import replace

from moderator_app.core.formats.input_events import IDLE_READ_FLOOR_S as READ_FLOOR_S

from .records import SyncAnalysis, SyncFinding, video_order

__all__ = ["READ_FLOOR_S", "RULE", "with_silent"]

RULE = "sync.silent_log"


def with_silent(a: SyncAnalysis, stretches, min_s: float) -> SyncAnalysis:
    """`a` with a `sync.silent_log` finding for each idle stretch (run times from, to) of at
    least `min_s`. Also where `sync.activity_without_actions` is said of the same stretch:
    the log's span is the hole's own, the picture's runs from its first to its last
    input-like change (QA s14's Montezuma and Pinball human stretches: 1.66 s and 1.05 s from
    the stretch's ends)."""
    used, speed = a.offset_used_s, a.speed if a.speed > 0 else 1.0
    found = []
    for r0, r1 in stretches or ():
        r0, r1 = float(r0), float(r1)
        if r1 - r0 < min_s:
            continue
        v0 = None if used is None else round(used + r0 / speed, 3)
        v1 = None if used is None else round(used + r1 / speed, 3)
        found.append(SyncFinding(
            RULE, f"the log holds no event for {r1 - r0:.1f} s while nothing is in flight (no "
            "model call awaited, no input being applied): what the video shows then is not "
            "in the log", v0, v1, round(r0, 3), round(r1, 3)))
    if not found:
        return a
    return replace(a, findings=sorted([*a.findings, *found], key=video_order))
