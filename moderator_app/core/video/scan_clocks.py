"""The integrity scan's note of a joined recording whose own clock starts far later
(`video.clock_jump`): where the hidden time is, as a finding with its span.

`joined_clock.origin_shift` shows a recording joined by `cat` whose own clock starts more
than 5 s past where the one before ends (a recorder's clock from its start-up, ffmpeg's
`-output_ts_offset`; or a segmented recording with a segment missing and its clock going on)
right after the one before: no footage gap, every moment its frame. The time its clock
skipped is not in the file either way; session 29 said it only in the probe's `method`. The
scan (in the video process) notes the first packet of each such recording and how far its
clock jumped (`MovedClocks`, cached with the signals: `moved_pts`, `moved_s`); `clock_spans`
makes each a note at the join, in `verify --json`'s `video_scan`, the report's findings and
the workstation's. A note, not a warning: the footage itself is whole, and only the log
beside it (the sync's offset jump) can say whether minutes of the run are missing."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .scan_spans import CLOCK_JUMP, Span

if TYPE_CHECKING:
    from .scan import FrameSignals

#: At most this many recordings noted (`joined_headers.MAX_WALK` bounds the walk anyway).
MAX_NOTED = 32


class MovedClocks:
    """In the scan's demux loop: the recordings read with their clock shifted further than
    the one before (their header's byte, how far their own clock jumped, s), and the shown
    pts of the first video packet at or past each header."""

    def __init__(self, source: object, joinable: bool) -> None:
        from . import joined_chain
        self._todo = joined_chain.clock_jumps(source, MAX_NOTED) if joinable else []
        self._pts: list[int] = []
        self._s: list[float] = []

    def packet(self, pos: int | None, pts: int | None) -> None:
        """A video packet with data (its byte in the file, its pts as the index shows it)."""
        if self._todo and pos is not None and pos >= self._todo[0][0] and pts is not None:
            while self._todo and pos >= self._todo[0][0]:
                _, jump = self._todo.pop(0)
            self._pts.append(int(pts))
            self._s.append(jump)

    def arrays(self) -> dict[str, np.ndarray]:
        return {"moved_pts": np.asarray(self._pts, np.int64),
                "moved_s": np.asarray(self._s, np.float64)}


def clock_spans(sig: FrameSignals, arrays: dict) -> list[Span]:
    """A note at each recording `MovedClocks` saw (a cache written before it: none): from
    its first frame's video time, for as long as that frame is shown."""
    pts, jump = arrays.get("moved_pts"), arrays.get("moved_s")
    out: list[Span] = []
    if pts is None or jump is None or pts.shape != jump.shape or not sig.frame_count:
        return out
    for p, s in zip(pts[:MAX_NOTED].tolist(), jump[:MAX_NOTED].tolist(), strict=True):
        k = int(np.searchsorted(sig.pts, p, side="left"))
        if k >= sig.frame_count:
            continue
        t0 = float(sig.times_s[k])
        t1 = float(sig.times_s[k + 1]) if k + 1 < sig.frame_count else \
            t0 + sig.frame_duration_s
        out.append(Span(CLOCK_JUMP.id, CLOCK_JUMP.severity.value, t0, t1,
                        f"a recording joined at {t0:.3f} s has its own clock {float(s):.3f} s "
                        "past the end of the one before: shown right after it, that time is "
                        "not in the file (a recorder's clock from its start-up, or a "
                        "recording missing between the two)"))
    return out
