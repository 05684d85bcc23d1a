"""The steady run of lines in C: `iter_lines`' `skim` for a `LogChecker` (issue 15).

On an honest log, each line leaves the checker's envelope state (seq, the order of `at` and
`elapsedMs`, the 2 s rule, gaps) in a state that follows from the envelope alone, and most
lines (model requests carrying the conversation so far: most of the bytes; observations)
need nothing else. `_skim.c` reads such lines at memory speed (strict JSON, no repeated
member, without building any object); a model_response's or an action's `data` comes back
here, in line order, for that type's checks (`LogChecker._response`, `_action`). The first
line it cannot vouch for comes to `LogChecker.feed` as before, which alone words the
envelope's findings. The reports are the same with and without it
(tests/verify/test_agent_log_engines.py).
"""

from __future__ import annotations

from collections.abc import Callable

import orjson

from moderator_app.core.formats import native
from moderator_app.core.formats.streams import MAX_LINE
from moderator_app.core.verify.agent_log.checker import LogChecker

_EXACT = 1 << 53  # the C side compares elapsedMs as doubles: exact below this
_SEQ = 1 << 62
# _skim.c's type codes (T_REQUEST ... T_ACTION)
_TYPES = (None, "model_request", "observation", "model_response", "action")
_RESPONSE, _ACTION = 3, 4


def skimmer(checker: LogChecker) -> Callable[[bytes, int], int] | None:
    """`skim(data, start) -> end` for `iter_lines`, or None without the C accelerator or when
    the checker fills an event index (the GUI: every line needs its row)."""
    mod = native.SKIM
    if mod is None or checker.index is not None:
        return None
    fn = mod.skim
    gap_ms = checker.th.gap_s * 1000
    loads = orjson.loads
    c = checker

    def on_event(k: int, typ: int, data: bytes, el: float, req_el: float | None) -> None:
        # What LogChecker._event does after the envelope for these two types.
        n = c.lines + k
        if typ == _ACTION:
            c.n_actions += 1
            c._action(n, loads(data), el)
        else:
            c.n_responses += 1
            c.req_el = req_el
            c._response(n, loads(data), el)

    def skim(data: bytes, start: int) -> int:
        # The steady state only: anything pending (blank lines, a run_end, a seq to re-sync,
        # the start line's drift streak) is the Python path's to resolve.
        prev_el, good_el = c.prev_el, c.good_el
        if c.drift_streak or c.alt_seq is not None or c.blank_pending_count or c.run_ends \
                or prev_el is None or good_el is None or c.prev_at is None \
                or c.base_at is None or not c.content_lines or prev_el >= _EXACT \
                or good_el >= _EXACT or not -_SEQ < c.expected_seq < _SEQ:
            return start
        got = fn(data, start, c.expected_seq, c.prev_at, prev_el, good_el, c.base_at,
                 c.base_el, gap_ms, MAX_LINE, c.req_el, on_event)
        if got[1] == 0:
            return start
        end, count, seq, at, el, req_el, last_type = got
        c.lines += count
        c.content_lines += count
        c.last_content_line = c.lines
        c.expected_seq = seq + 1
        c.prev_at = at
        c.prev_el = c.good_el = c.last_el = el
        c.last_content_type = _TYPES[last_type]
        c.req_el = req_el
        return end

    return skim
