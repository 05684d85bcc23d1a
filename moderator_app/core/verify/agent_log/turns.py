"""The checks of a `model_response` line and of an `action` line: the two line kinds that
refer to each other (an action names the response that asked for it). Apart from
`checker.py`, which carries the state from line to line and dispatches each line here; these
functions read and update that state (`LogChecker`), as its methods did."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from moderator_app.core.verify.agent_log.actions import (
    MAX_RESPONSES,
    MAX_SLOTS,
    NOT_REQUESTED,
    REPEAT,
    UNLISTED,
)
from moderator_app.core.verify.agent_log.rules import (
    ACTION_FIELDS,
    ACTION_LATE,
    ACTION_NOT_REQUESTED,
    ACTION_REPEATED,
    ACTION_UNKNOWN_CALL,
    MODEL_MISMATCH,
    RESPONSE_FIELDS,
    RESPONSE_ID_DUPLICATE,
    RESPONSE_TOO_FAST,
    RESPONSE_WITHOUT_ACTIONS,
    TOO_MANY_RESPONSES,
    WITHHELD_LEAK,
)
from moderator_app.core.verify.agent_log.values import is_number, nonempty_str, short_repr

if TYPE_CHECKING:
    from moderator_app.core.verify.agent_log.checker import LogChecker


def check_response(self: LogChecker, n: int, data: dict, el: float) -> None:
    """A `model_response` line: its fields, a withheld response that keeps its text, its
    model against run_start's, its latency; its id and requested actions are kept for the
    actions that name it."""
    add = self.add
    problems = []
    rid = data.get("id")
    if not (type(rid) is str and rid.strip()):  # nonempty_str, inlined (hot path)
        problems.append("`id` missing or not a non-empty string")
        rid = None
    model = data.get("model")
    if not (type(model) is str and model.strip()):
        problems.append("`model` missing or not a non-empty string")
    usage = data.get("usage")
    if "usage" in data and not isinstance(usage, dict):
        problems.append("`usage` is not an object")
    actions = data.get("actions")
    digests: list[bytes] | None = None
    if "actions" in data and actions is not None:
        if not isinstance(actions, list):
            problems.append("`actions` is not a list")
        else:
            digests = []
            action_digest = self.action_digest
            for i, a in enumerate(actions):
                name = a.get("name") if type(a) is dict else None
                if not (type(name) is str and name.strip()):
                    problems.append(f"actions[{i}] is not an object with a `name` string")
                    continue
                # No arguments, however spelled: no `args`, `null` and `{}` all mean
                # "no arguments" and match one another (docs/rules-community.md).
                args = a.get("args")
                digests.append(action_digest(name, {} if args is None else args))
    if problems:
        add(RESPONSE_FIELDS, "model_response: " + "; ".join(problems), n)
    if data.get("withheld") is True:
        kept = [k for k in ("text", "reasoning") if data.get(k) not in (None, "")]
        if kept:
            add(WITHHELD_LEAK, "model_response marked withheld still holds "
                + " and ".join(kept), n)
    if isinstance(model, str) and self.run_start_model is not None \
            and model != self.run_start_model:
        add(MODEL_MISMATCH, f"response model {short_repr(model)} differs from run_start model "
            f"{short_repr(self.run_start_model)}", n)
    if self.req_el is not None and not math.isnan(el):
        latency = el - self.req_el
        if 0 <= latency < self.th.min_response_s * 1000:
            add(RESPONSE_TOO_FAST, f"response {latency:g} ms after its request (a model "
                f"needs at least {self.th.min_response_s:g} s)", n)
        if self.index is not None:
            self.index.add_metric("latency_s", el / 1000, latency / 1000)
    self.req_el = None
    if self.index is not None and isinstance(usage, dict) and not math.isnan(el):
        for key, metric in (("input", "tokens_in"), ("output", "tokens_out")):
            v = usage.get(key)
            if is_number(v):
                self.index.add_metric(metric, el / 1000, float(v))
    if rid is None:
        return
    k = self.responses.find(rid)
    if k >= 0:
        add(RESPONSE_ID_DUPLICATE, f"response id {short_repr(rid)} was already used on line "
            f"{self.responses.line_of(k)}", n)
        return
    if self.responses.full():
        add(TOO_MANY_RESPONSES, f"more than {MAX_RESPONSES:,} model responses or "
            f"{MAX_SLOTS:,} requested actions: the log is not examined past this line "
            "(each response is kept for the actions that may name it; the rest of the "
            "file was hashed)", n)
        self.stopped = True
        return
    self.responses.add(rid, n, el, None if digests is None else b"".join(digests))

def check_action(self: LogChecker, n: int, data: dict, el: float) -> None:
    """An `action` line: its fields, the response it names (known, not too long ago) and
    whether that response asked for it (`Responses.consume`)."""
    add = self.add
    call: Any = data.get("call")  # a JSON value until call_ok says it is a string
    name = data.get("name")
    call_ok = type(call) is str and call.strip()  # nonempty_str, inlined (hot path)
    problems = None
    if not call_ok or not (type(name) is str and name.strip()) or "args" not in data:
        problems = []
        if not call_ok:
            problems.append("`call` missing or not a response id string")
        if not nonempty_str(name):
            problems.append("`name` missing or not a non-empty string")
        if "args" not in data:
            problems.append("`args` missing")
        add(ACTION_FIELDS, "action: " + "; ".join(problems), n)
    if not call_ok:
        return
    responses = self.responses
    k = responses.find(call)
    if k < 0:
        add(ACTION_UNKNOWN_CALL, f"action calls {short_repr(call)}, which is not the id of an "
            "earlier model_response", n)
        return
    rel = responses.el_of(k)
    if not math.isnan(el) and not math.isnan(rel) and \
            el - rel > self.th.action_delay_s * 1000:
        add(ACTION_LATE, f"action runs {(el - rel) / 1000:.1f} s after its response on line "
            f"{responses.line_of(k)} (threshold {self.th.action_delay_s:g} s)", n)
    if problems:
        return
    args = data["args"]
    verdict = responses.consume(k, self.action_digest(name, {} if args is None else args))
    if not verdict:
        return
    rline = responses.line_of(k)
    if verdict == NOT_REQUESTED:
        add(ACTION_NOT_REQUESTED, f"action {short_repr(name)} with these args is not one the "
            f"response on line {rline} asked for", n)
    elif verdict == UNLISTED:
        add(RESPONSE_WITHOUT_ACTIONS, f"the response on line {rline} lists no actions, so "
            "it cannot vouch for this one", n)
    elif verdict == REPEAT:
        add(ACTION_REPEATED, f"action {short_repr(name)} runs again, but the response on line "
            f"{rline} asked for it fewer times", n)
