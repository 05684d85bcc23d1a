"""The steady run of lines in C: `iter_lines`' `skim` for a `LogChecker` (issue 15).

On an honest log, each line leaves the checker's envelope state (seq, the order of `at` and
`elapsedMs`, the 2 s rule, gaps) in a state that follows from the envelope alone, and most
lines (model requests carrying the conversation so far: most of the bytes; observations)
need nothing else. `_skim.c` reads such lines at memory speed (strict JSON, no repeated
member, without building any object). A response or an action of plain shape whose checks
pass (a new id, the run's model, not too fast; an action's response known, in time, one of
the actions it asked for) is checked there too, against the checker's C table of responses
(_skim_table.h). Any other response or action `data` comes back here, in line order, for
that type's checks (`LogChecker._response`, `_action`), which word any finding. The first
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
    delay_ms = checker.th.action_delay_s * 1000
    min_latency_ms = checker.th.min_response_s * 1000
    table = checker.responses if isinstance(checker.responses, mod.Responses) else None
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
        if c.stopped or c.drift_streak or c.alt_seq is not None or c.blank_pending_count or c.run_ends \
                or prev_el is None or good_el is None or c.prev_at is None \
                or c.base_at is None or not c.content_lines or prev_el >= _EXACT \
                or good_el >= _EXACT or not -_SEQ < c.expected_seq < _SEQ:
            return start
        model = c.run_start_model
        # surrogatepass: a model no plain string equals, so every response goes to Python
        got = fn(data, start, c.expected_seq, c.prev_at, prev_el, good_el, c.base_at,
                 c.base_el, gap_ms, MAX_LINE, c.req_el, on_event, table, delay_ms, c.lines,
                 None if model is None else model.encode("utf-8", "surrogatepass"),
                 min_latency_ms, c.crlf_reported)
        if got[1] == 0:
            return start
        end, count, seq, at, el, req_el, last_type, actions, responses = got
        c.secrets(data, c.lines + 1, start, end)  # (the lines C consumed: public parts)
        c.n_actions += actions
        c.n_responses += responses
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
