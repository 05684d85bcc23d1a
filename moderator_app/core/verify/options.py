"""What a verification is asked to do (`VerifyOptions`) and what a kind-specific verifier
hands back (`KindResult`).

Apart from the pipeline so that the verifiers (`agent_log`, `trajectory`) can name these types
without importing the pipeline that imports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from moderator_app.core.formats.event_index import EventIndex

if TYPE_CHECKING:  # community-run signals: an official run's verification never needs them
    from moderator_app.core.thresholds import Thresholds


# `verify --scan`'s CPU budget when none is given: 5 minutes of the decoding process's CPU, about
# 24 minutes of 1080p60 H.264 (0.21 CPU s a second of video on one core of the session 13
# machine) and a 1,000,000-frame 16x16 file whole; a command line never runs unbounded on a
# hostile file (docs/DECISIONS.md, "verify --scan is bounded")
DEFAULT_SCAN_BUDGET_S = 300.0


@dataclass(frozen=True)
class VerifyOptions:
    """How to verify. `secret` is the evaluator secret: never printed, stored or logged."""

    offset: float = 0.0
    seeds: tuple[str, ...] | None = None
    secret: str | None = field(default=None, repr=False)
    build_index: bool = False  # the GUI wants the event index (and a spool for .zst)
    spool_dir: Path | None = None  # where a decompressed copy for the GUI may be written
    probe_video: bool = True
    scan_video: bool = False  # the integrity scan (verify --scan): decodes every frame
    # CPU seconds the scan may spend (None: no bound); past it the scan stops and says where
    # (`video.scan_stopped`). The CLI's default is DEFAULT_SCAN_BUDGET_S (docs/DECISIONS.md)
    scan_budget_s: float | None = None
    thresholds: Thresholds | None = None  # moderation-signal thresholds; None = the defaults


@dataclass(frozen=True)
class KindResult:
    """What a kind-specific verifier hands back besides the findings it put in the report."""

    index: EventIndex | None
    run_duration_s: float | None  # run_start to run_end, None when unknown
