"""The reactions lane's tick per action says what `sync.no_reaction` counts (review s36 V2):
green as tall as the reaction is clear when the reader attributed the answering frame, amber
at half height when the picture answered within the rule's 0.5 s only, red when it did not."""

from __future__ import annotations

from moderator_app.core.sync.reactions import Reaction
from moderator_app.ui.sync_lane import LATE, MISSED, REACTED, reaction_tick


def test_a_tick_per_answer_kind():
    shown = Reaction(0, 1.0, 4.0, 4.05, 0.05, 0.5)
    late = Reaction(1, 2.0, 5.0, None, None, 0.0, within_rule=True)
    unseen = Reaction(2, 3.0, 6.0, None, None, 0.0, within_rule=False)
    measured_unseen = Reaction(3, 4.0, 7.0, None, None, 0.0)  # `measure`'s: video_s says it
    assert reaction_tick(shown) == (REACTED, 0.7)
    assert reaction_tick(late) == (LATE, 0.5)
    assert reaction_tick(unseen) == (MISSED, 1.0)
    assert reaction_tick(measured_unseen) == (MISSED, 1.0)
