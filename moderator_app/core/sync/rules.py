"""The `sync.*` rules: does the picture react to the logged actions at one offset?

Warnings only, until measured to be reliable on more games (issue 13); thresholds in
`Thresholds.sync_*`.
"""

from __future__ import annotations

from moderator_app.core.rules import Severity, rule

OFFSET_JUMP = rule(
    "sync.offset_jump", Severity.WARNING,
    "the offset that explains the reactions changes during the run: footage removed or inserted "
    "near the given video time", "sync")
DRIFT = rule(
    "sync.drift", Severity.WARNING,
    "the video runs faster or slower than the log's clock (percent)", "sync")
NO_REACTION = rule(
    "sync.no_reaction", Severity.WARNING,
    "a stretch of actions with no visible reaction on screen (frozen or replaced footage?)",
    "sync")
ACTIVITY_WITHOUT_ACTIONS = rule(
    "sync.activity_without_actions", Severity.WARNING,
    "the screen reacts as it does to input, repeatedly, while the log holds no action "
    "(a human stretch, or actions deleted from the log)", "sync")
SILENT_LOG = rule(
    "sync.silent_log", Severity.WARNING,
    "the log holds no event for seconds while nothing is in flight (no model call awaited, no "
    "input being applied): what the video shows there is not in the log (actions deleted, or "
    "a human stretch)", "sync")
NOT_ENOUGH_SIGNAL = rule(
    "sync.not_enough_signal", Severity.INFO,
    "the video's reactions do not single out one offset: no offset is suggested", "sync")

NOT_ANALYSED = rule(
    "sync.not_analysed", Severity.INFO,
    "the sync analysis did not run: the log holds more actions than it takes (100,000), or "
    "the video's frames are finer than it reads (more than 1,000 a second, or more than "
    "50,000 frame periods with under one frame in 4); nothing of the picture's reactions "
    "was checked", "sync")

BY_ID = {r.id: r for r in (OFFSET_JUMP, DRIFT, NO_REACTION, ACTIVITY_WITHOUT_ACTIONS,
                            SILENT_LOG)}
