"""Verification of a community run's `agent-log.jsonl` (seeds/agent-log-format.md + docs/DESIGN.md).

One streaming pass: the log is read once through `HashingReader` (its SHA-256 is a side effect),
split into lines with a cap on line length, and each line is parsed strictly and checked against
the state carried from the lines before it. Memory stays flat in the number of lines except for
a compact record per `model_response` (its id, line, time and an 8-byte digest per requested
action), which the `action` rule needs since an action may name any earlier response.

How a careful moderator reads a log, and therefore how findings are placed:
- a `seq` discontinuity is reported once, where it happens, and counting resynchronises on the
  number seen (a deleted line is one finding, not one per following line); a line that cannot
  be parsed still consumes one number;
- `at` and `elapsedMs` are compared with the previous *valid* value, so one bad timestamp is one
  finding, not two (itself and the line after it);
- an action's `call` must name an earlier response, and its `name` and `args` (compared as
  canonical JSON) must be one of the actions that response asked for.

The package: `rules` (every `log.*` rule), `timestamps` (`at`), `actions` (what an action is
compared by, and the per-response bookkeeping), `checker` (`LogChecker`, line by line),
`stream` (`verify_agent_log`, the driver).
"""

from __future__ import annotations

from moderator_app.core.verify.agent_log.actions import action_blob, action_digest
from moderator_app.core.verify.agent_log.checker import LogChecker
from moderator_app.core.verify.agent_log.stream import verify_agent_log
from moderator_app.core.verify.agent_log.timestamps import parse_at

__all__ = ["LogChecker", "action_blob", "action_digest", "parse_at", "verify_agent_log"]
