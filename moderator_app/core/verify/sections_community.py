"""The report's `run` section of a community run (its agent log's run_start and totals). Apart
from `sections.py` so that an official run's `verify` never creates these classes (issue 15:
each frozen dataclass costs ~0.5 ms of every start); `sections.py` still names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RunStart:
    """What a community log's run_start says (any JSON value, as found)."""

    game: Any
    category: Any
    model: Any
    scaffold: Any
    started_at: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "category": self.category, "model": self.model,
                "scaffold": self.scaffold, "started_at": self.started_at}


@dataclass(frozen=True)
class CommunityRun:
    """The run a community agent log records. `start` is None when the log has no usable
    run_start; `ended_first`: the log's run_end came before its run_start (the JSON then
    names `ended_at` first, as it always did)."""

    start: RunStart | None
    ended_at: str | None
    duration_s: float | None
    responses: int
    actions: int
    ended_first: bool = False

    def to_dict(self) -> dict[str, Any]:
        start = {} if self.start is None else self.start.to_dict()
        end = {"ended_at": self.ended_at}
        head = {**end, **start} if self.ended_first else {**start, **end}
        return {**head, "duration_s": self.duration_s, "responses": self.responses,
                "actions": self.actions}
