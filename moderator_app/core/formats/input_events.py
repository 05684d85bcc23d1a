"""Which logged events are inputs to the game, and their run times (seconds since run_start).

Community runs: every `action` event, at its `elapsedMs` (the agent's own monotonic clock).
Official runs: the trajectory records the harness's events; the inputs are events whose `type`
is one of OFFICIAL_INPUT_TYPES (the harness applying an input), or a `tool_call` whose
`payload.tool` is one of INPUT_TOOLS (an agent pressing through a game tool). Shell commands
and other tool calls are not inputs. Times are `wall_time` minus run_start's (else the first
event's). Lines that do not parse are skipped here: the verifiers report them.
"""

from __future__ import annotations

from datetime import datetime

import orjson

from moderator_app.core.formats.jsonline import raise_if_out_of_memory
from moderator_app.core.formats.members import ROLE_LOG, ROLE_TRAJECTORY
from moderator_app.core.formats.streams import iter_lines
from moderator_app.core.formats.submission import Submission
from moderator_app.core.formats.zstream import ZstdReader, ZstdStreamError, is_zstd_start

OFFICIAL_INPUT_TYPES = frozenset({"action", "game_action", "input", "env_action", "env_step"})
INPUT_TOOLS = frozenset({"press", "press_button", "button", "key", "keypress", "input",
                         "game_input", "joystick", "move"})


def _events(member):
    with member.open() as raw:
        head = raw.read(4)
    with member.open() as raw:
        stream = ZstdReader(raw) if is_zstd_start(head) else raw
        try:
            for _, line in iter_lines(stream):
                if not line:
                    continue
                try:
                    ev = orjson.loads(line)
                except orjson.JSONDecodeError as exc:
                    raise_if_out_of_memory(str(exc))  # never an input silently dropped
                    continue
                if isinstance(ev, dict):
                    yield ev
        except ZstdStreamError:
            return


def _wall(s) -> float | None:
    if not isinstance(s, str):
        return None
    try:
        return datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def community_inputs(sub: Submission) -> list[float]:
    logs = sub.by_role(ROLE_LOG)
    if not logs:
        return []
    out = []
    for ev in _events(logs[0]):
        el = ev.get("elapsedMs")
        if ev.get("type") == "action" and isinstance(el, (int, float)) \
                and not isinstance(el, bool):
            out.append(el / 1000.0)
    return out


def is_official_input(ev: dict) -> bool:
    typ = ev.get("type")
    if typ in OFFICIAL_INPUT_TYPES:
        return True
    payload = ev.get("payload")
    return typ == "tool_call" and isinstance(payload, dict) and \
        str(payload.get("tool", "")).lower() in INPUT_TOOLS


def official_inputs(sub: Submission) -> list[float]:
    trajs = sub.by_role(ROLE_TRAJECTORY)
    if not trajs:
        return []
    start = None
    times = []
    for ev in _events(trajs[0]):
        t = _wall(ev.get("wall_time"))
        if t is None:
            continue
        if start is None or ev.get("type") == "run_start":
            start = t if start is None or ev.get("type") == "run_start" else start
        if is_official_input(ev):
            times.append(t)
    return [t - start for t in times] if start is not None else []


def input_times(sub: Submission) -> list[float]:
    return official_inputs(sub) if sub.kind.has_chain else community_inputs(sub)
