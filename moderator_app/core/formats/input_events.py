"""Which logged events are inputs to the game, and their run times (seconds since run_start).

Community runs: every `action` event, at its `elapsedMs` (the agent's own monotonic clock).
Official runs: the trajectory records the harness's events; the inputs are events whose `type`
is one of OFFICIAL_INPUT_TYPES (the harness applying an input), or a `tool_call` whose
`payload.tool` is one of INPUT_TOOLS (an agent pressing through a game tool). Shell commands
and other tool calls are not inputs. Times are `wall_time` minus run_start's (else the first
event's). Lines that do not parse are skipped here: the verifiers report them.

Each input also has a kind (`input_kinds`, beside the times): the sync analysis reads the
offset from the kind of input the game answers first (`core/sync/kinds.py`). A kind is the
input's name and the values of its KIND_KEYS arguments (a press's button), never its numbers
of frames or repeats: a button held longer is the same button.
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
KIND_KEYS = ("button", "buttons", "key", "keys", "action", "input", "direction", "move")
KIND_MAX_CHARS = 64  # a kind is a few words; a hostile log's megabyte names are cut here


def _kind(name, args) -> str:
    """The kind of an input named `name` with arguments `args` (see the module)."""
    words = [str(name) if isinstance(name, (str, int)) and not isinstance(name, bool) else ""]
    if isinstance(args, dict):
        for key in KIND_KEYS:
            v = args.get(key)
            if isinstance(v, list):
                v = "+".join(str(x)[:KIND_MAX_CHARS] for x in v[:8])
            if isinstance(v, (str, int)) and not isinstance(v, bool):
                words.append(f"{key}={str(v)[:KIND_MAX_CHARS]}")
    return " ".join(words)[:KIND_MAX_CHARS]


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
    return _community(sub)[0]


def _community(sub: Submission) -> tuple[list[float], list[str]]:
    logs = sub.by_role(ROLE_LOG)
    if not logs:
        return [], []
    out, kinds = [], []
    for ev in _events(logs[0]):
        el = ev.get("elapsedMs")
        if ev.get("type") == "action" and isinstance(el, (int, float)) \
                and not isinstance(el, bool):
            out.append(el / 1000.0)
            data = ev.get("data")
            data = data if isinstance(data, dict) else {}
            kinds.append(_kind(data.get("name"), data.get("args")))
    return out, kinds


def is_official_input(ev: dict) -> bool:
    typ = ev.get("type")
    if typ in OFFICIAL_INPUT_TYPES:
        return True
    payload = ev.get("payload")
    return typ == "tool_call" and isinstance(payload, dict) and \
        str(payload.get("tool", "")).lower() in INPUT_TOOLS


def official_inputs(sub: Submission) -> list[float]:
    return _official(sub)[0]


def _official(sub: Submission) -> tuple[list[float], list[str]]:
    trajs = sub.by_role(ROLE_TRAJECTORY)
    if not trajs:
        return [], []
    start = None
    times, kinds = [], []
    for ev in _events(trajs[0]):
        t = _wall(ev.get("wall_time"))
        if t is None:
            continue
        if start is None or ev.get("type") == "run_start":
            start = t if start is None or ev.get("type") == "run_start" else start
        if is_official_input(ev):
            times.append(t)
            payload = ev.get("payload")
            payload = payload if isinstance(payload, dict) else {}
            typ = ev.get("type")
            kinds.append(_kind(payload.get("tool") if typ == "tool_call" else typ, payload))
    return ([t - start for t in times], kinds) if start is not None else ([], [])


# The events that leave something in flight: a model call awaited, an input being applied. A
# stretch of the log that starts after any other event (an observation, a model's response)
# and holds no event is time in which the agent's loop did nothing (`idle_stretches`).
IN_FLIGHT_TYPES = frozenset({"model_request", "action"})
# The most stretches read: a 40 s to 1 h run holds a handful; a hostile log of a million
# events seconds apart is not made a million findings.
MAX_IDLE_STRETCHES = 200
# Read from this long (the workstation's verification process reads them beside the inputs,
# before the sync thresholds apply): the genuine runs' longest is 0.6 s, so an honest log
# gives none.
IDLE_READ_FLOOR_S = 1.0


def idle_stretches(sub: Submission, min_s: float) -> list[tuple[float, float]]:
    """The stretches (run times from, to) of at least `min_s` in a community log with no
    event in them, after an event that leaves nothing in flight (IN_FLIGHT_TYPES) and before
    any event but `run_end`; none for an official run or a log that records no model call
    (no call in it can be said to be in flight or not).

    Why: an agent's loop is always waiting for a model or applying an input; a long model
    call is a request and, seconds later, its response. A stretch of the log deleted with
    `seq` renumbered, or a stretch a human played while the log was silent, leaves seconds in
    which the loop did nothing. Measured (corpus and QA sessions 14-17, 458 logs): every one
    of the 78 deleted and human stretches leaves 7.1 s or more so; the 170 genuine runs, their
    9 and 30 s pauses (a model call in flight) included, at most 0.6 s. The time before
    `run_end` is the harness stopping the clock, not the loop's."""
    if sub.kind.has_chain:
        return []
    logs = sub.by_role(ROLE_LOG)
    if not logs:
        return []
    out: list[tuple[float, float]] = []
    prev: tuple[float, str] | None = None
    calls = False
    for ev in _events(logs[0]):
        el, typ = ev.get("elapsedMs"), ev.get("type")
        typ = typ if isinstance(typ, str) else ""  # a hostile log's {} or [] names nothing
        if not isinstance(el, (int, float)) or isinstance(el, bool) or \
                not -1e15 < el < 1e15:  # (a huge int is no float: OverflowError)
            continue
        t = el / 1000.0
        calls = calls or typ == "model_request"
        if prev is not None and typ != "run_end" and prev[1] not in IN_FLIGHT_TYPES and \
                t - prev[0] >= min_s:
            out.append((prev[0], t))
            if len(out) >= MAX_IDLE_STRETCHES:
                break
        if prev is None or t >= prev[0]:
            prev = (t, typ)
    return out if calls else []


def input_times(sub: Submission) -> list[float]:
    return inputs(sub)[0]


def inputs(sub: Submission) -> tuple[list[float], list[str]]:
    """The inputs' run times, in log order, and their kinds beside them."""
    return _official(sub) if sub.kind.has_chain else _community(sub)
