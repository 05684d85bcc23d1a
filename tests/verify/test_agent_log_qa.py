"""Adversarial QA corpus for community submissions: unseen-style submissions, valid and invalid,
each with the exit code, verdict and FIRST error (rule and line) a careful moderator expects,
written down before the tool was run on them (see docs/rules-community.md for the decisions).

Each case builds a submission in a temporary folder and runs `moderator-app verify PATH --json`
in-process (the same `cli.main` the console script calls); a few cases go through the installed
script to prove the process boundary too. Videos are real files from cv2.VideoWriter, made once
per session and copied.
"""

from __future__ import annotations

import io
import json
import subprocess
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

import orjson
import pytest
from conftest import REPO
from loghelp import renumber

from moderator_app import cli
from moderator_app.core.samples.community import make_video

CLI = str(REPO / ".venv" / "bin" / "moderator-app")
T0 = datetime(2026, 10, 22, 18, 0, 0, tzinfo=timezone.utc)
MODEL = "provider/model-id"


def at(ms: float, fmt: str = "Z") -> str:
    t = T0 + timedelta(milliseconds=ms)
    s = t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]
    return s + ("Z" if fmt == "Z" else "+00:00")


def ev(seq: int, ms: float, typ: str, data) -> dict:
    return {"seq": seq, "at": at(ms), "elapsedMs": ms, "type": typ, "data": data}


def base() -> list[dict]:
    """An 11-line, 20-second run that verifies clean (line n is index n-1)."""
    return [
        ev(0, 0, "run_start", {"game": "tetris-gb", "category": "any-percent", "model": MODEL,
                               "scaffold": {"name": "my-agent", "version": "1.2.0"}}),
        ev(1, 120, "model_request", {"messages": [{"role": "user", "content": "Board: empty"}]}),
        ev(2, 2480, "model_response", {"id": "c1", "model": MODEL,
                                       "usage": {"input": 812, "output": 64},
                                       "text": "Rotate and drop.",
                                       "actions": [{"name": "press", "args": {"button": "A"}}]}),
        ev(3, 2500, "action", {"call": "c1", "name": "press", "args": {"button": "A"}}),
        ev(4, 2700, "observation", {"summary": "piece locked"}),
        ev(5, 3000, "model_request", {"messages": [{"role": "user", "content": "Board: 1"}]}),
        ev(6, 5200, "model_response", {"id": "c2", "model": MODEL, "text": "Left, then drop.",
                                       "actions": [{"name": "press", "args": {"button": "LEFT"}},
                                                   {"name": "press", "args": {"button": "B"}}]}),
        ev(7, 5300, "action", {"call": "c2", "name": "press", "args": {"button": "LEFT"}}),
        ev(8, 5400, "action", {"call": "c2", "name": "press", "args": {"button": "B"}}),
        ev(9, 6000, "observation", {"summary": "line cleared"}),
        ev(10, 20000, "run_end", {"reason": "goal reached"}),
    ]


def dump(evs: list, eol: bytes = b"\n") -> bytes:
    """Events (dicts, or raw bytes for a line written as is) as a JSON Lines file."""
    return b"".join((e if isinstance(e, bytes) else orjson.dumps(e)) + eol for e in evs)


def raw(e: dict, old: str, new: str) -> bytes:
    """The compact line of `e` with one text replacement (for what dicts cannot express)."""
    line = orjson.dumps(e).decode()
    assert old in line, (old, line)
    return line.replace(old, new, 1).encode("utf-8", "surrogateescape")


def deep(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


@dataclass(frozen=True)
class Case:
    name: str
    log: Callable[[], bytes] | None  # None: no agent log in the submission
    exit: int
    first: tuple[str, int | None] | None  # the first error (rule, line); None when it passes
    video: tuple[float, str] | None = (21.0, ".mp4")  # (seconds, extension); None: no video
    args: tuple[str, ...] = ()
    shape: str = "folder"  # folder | pair | zip | tar.gz | log_only
    warnings: tuple[str, ...] = ()  # rules that must be among the warnings
    extra: dict = field(default_factory=dict)  # more files of the folder: name -> bytes


def mut(f: Callable[[list[dict]], list]) -> Callable[[], bytes]:
    """A log made by editing the base run."""
    return lambda: dump(f(base()))


def _set(n: int, **kw):
    def f(evs):
        for k, v in kw.items():
            if v is _DEL:
                evs[n - 1].pop(k, None)
            else:
                evs[n - 1][k] = v
        return evs
    return f


def _data(n: int, **kw):
    def f(evs):
        d = evs[n - 1]["data"]
        for k, v in kw.items():
            if v is _DEL:
                d.pop(k, None)
            else:
                d[k] = v
        return evs
    return f


_DEL = object()


def _withheld(evs):
    for e in evs:
        if e["type"] == "model_request":
            e["data"] = {"withheld": True}
        if e["type"] == "model_response":
            e["data"] = {k: v for k, v in e["data"].items()
                         if k in ("id", "model", "usage", "actions")}
    return evs


def _frac(evs):
    spellings = ["2026-10-22T18:00:00Z", "2026-10-22T18:00:00.12Z", "2026-10-22T18:00:02.48Z",
                 "2026-10-22T18:00:02.500000Z", "2026-10-22T18:00:02.700000000Z",
                 "2026-10-22T18:00:03.0+00:00"]
    for e, s in zip(evs, spellings, strict=False):
        e["at"] = s
    return evs


def _plus00(evs):
    for e in evs:
        e["at"] = at(e["elapsedMs"], "+00:00")
    return evs


def _extra_members(evs):
    evs[0]["host"] = "runner-7"
    evs[0]["data"]["scaffold"]["commit"] = "abc123"
    evs[0]["data"]["seed"] = 42
    evs[3]["data"]["durationMs"] = 16
    evs[4]["data"] = {"summary": "piece locked", "frame": 75}
    evs[10]["data"]["score"] = 1200
    evs[2]["data"]["latencyMs"] = 2360
    return evs


def _unicode(evs):
    m = "meta-llama/Llama-3.1-70B-Instruct:fp8"
    evs[0]["data"]["model"] = m
    evs[0]["data"]["scaffold"]["name"] = "agent-\u00e9t\u00e9 \U0001f3ae"
    for e in evs:
        if e["type"] == "model_response":
            e["data"]["model"] = m
    evs[2]["data"]["text"] = "Tourner \u21bb puis l\u00e2cher \U0001f3ae \u2028 \u0000"
    evs[4]["data"]["summary"] = "\u30d4\u30fc\u30b9\u304c\u56fa\u5b9a"
    evs[2]["data"]["id"] = "r\u00e9ponse-1"
    evs[3]["data"]["call"] = "r\u00e9ponse-1"
    return evs


def _obs_shapes(evs):
    evs[4]["data"] = {}
    evs[9]["data"] = {"grid": [[0, 1], [1, 0]], "n": None, "f": 1.5e-7, "ok": True,
                      "s": [], "nest": json.loads(deep(40))}
    return evs


def _error_event(evs):
    evs.insert(9, ev(0, 5900, "error", {"message": "emulator hiccup", "code": 3}))
    return renumber(evs)


def _huge_usage(evs):
    evs[2]["data"]["usage"] = {"input": 10**18, "output": 1.7976931348623157e308,
                               "cached": 0, "cost": 0.000001}
    return evs


def _some_unrun(evs):
    evs[6]["data"]["actions"].append({"name": "press", "args": {"button": "START"}})
    return evs


def _reordered_args(evs):
    evs[2]["data"]["actions"] = [{"name": "press", "args": {"button": "A", "frames": 2}}]
    evs[3]["data"]["args"] = {"frames": 2.0, "button": "A"}
    return evs


def _drift(n: int, ms: float):
    """Line n keeps its `at` but gets elapsedMs moved by `ms` (the 2 s rule)."""
    def f(evs):
        evs[n - 1]["elapsedMs"] += ms
        return evs
    return f


def _drift_at(n: int, ms: float):
    """Line n keeps its elapsedMs but its `at` moves later by `ms`."""
    def f(evs):
        evs[n - 1]["at"] = at(evs[n - 1]["elapsedMs"] + ms)
        return evs
    return f


def _run_start_late(evs):
    evs[0]["at"] = at(-10_000)  # run_start's clock is 10 s early: every later line disagrees
    return evs


def _first_not_run_start(evs):
    return renumber(evs[1:])


def _no_response(evs):
    return renumber([evs[0], evs[4], evs[10]])


def _no_action(evs):
    return renumber([e for e in evs if e["type"] != "action"])


def _only_run_start(evs):
    return evs[:1]


def _run_end_not_last(evs):
    evs.append(ev(11, 20100, "observation", {"summary": "credits"}))
    return evs


def _run_end_middle(evs):
    evs.insert(5, ev(0, 2800, "run_end", {"reason": "paused"}))
    return renumber(evs)


def _run_end_twice(evs):
    evs.append(ev(11, 20000, "run_end", {"reason": "goal reached"}))
    return evs


def _action_before_response(evs):
    evs[3]["data"]["call"] = "c2"
    return evs


def _repeat_action(evs):
    evs.insert(4, ev(0, 2600, "action", {"call": "c1", "name": "press", "args": {"button": "A"}}))
    return renumber(evs)


def _two_run_starts(evs):
    evs[5] = ev(5, 3000, "run_start", dict(evs[0]["data"]))
    return evs


def _unlisted(evs):
    del evs[2]["data"]["actions"]
    return evs


def _mixed_equal_times(evs):
    evs[3]["at"] = evs[2]["at"]
    evs[3]["elapsedMs"] = evs[2]["elapsedMs"]
    return evs


def _float_ms(evs):
    for e in evs[1:]:
        e["elapsedMs"] = e["elapsedMs"] + 0.25
    return evs


def _withheld_leak(evs):
    evs[1]["data"] = {"withheld": True, "messages": [{"role": "user", "content": "Board"}]}
    return evs


def _withheld_false(evs):
    evs[1]["data"]["withheld"] = False
    return evs


def _first_line_truncated(evs):
    return [orjson.dumps(evs[0])[:40]] + evs[1:]


def _cut_last():
    evs = base()
    return dump(evs[:-1]) + orjson.dumps(evs[-1])[:30]


def _no_final_newline():
    return dump(base())[:-1]


def _crlf():
    return dump(base(), b"\r\n")


def _bom():
    return b"\xef\xbb\xbf" + dump(base())


def _bom_middle():
    lines = [orjson.dumps(e) for e in base()]
    lines[4] = b"\xef\xbb\xbf" + lines[4]
    return b"\n".join(lines) + b"\n"


def _blank_middle():
    lines = [orjson.dumps(e) for e in base()]
    lines.insert(4, b"")
    return b"\n".join(lines) + b"\n"


def _space_middle():
    lines = [orjson.dumps(e) for e in base()]
    lines.insert(6, b"   \t")
    return b"\n".join(lines) + b"\n"


def _trailing_blank():
    return dump(base()) + b"\n\n"


def _line(n: int, make: Callable[[dict], bytes]):
    def f():
        evs = base()
        out = [orjson.dumps(e) for e in evs]
        out[n - 1] = make(evs[n - 1])
        return b"\n".join(out) + b"\n"
    return f


def _garbage():
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00 \xff\xfe" * 20


def _append_raw(extra: bytes):
    def f():
        return dump(base()[:-1]) + extra + b"\n" + dump(base()[-1:])
    return f


LOG_OK = mut(lambda e: e)

CASES = [
    # ---------------------------------------------------------------- valid, unusual shapes
    Case("ok_base", LOG_OK, 0, None),
    Case("ok_extra_members", mut(_extra_members), 0, None),
    Case("ok_unicode_and_model_slashes", mut(_unicode), 0, None),
    Case("ok_withheld", mut(_withheld), 0, None),
    Case("ok_withheld_false_is_public", mut(_withheld_false), 0, None),
    Case("ok_some_actions_never_ran", mut(_some_unrun), 0, None,
         warnings=("log.response_actions_unrun",)),
    Case("ok_plus_00_00", mut(_plus00), 0, None),
    Case("ok_fraction_spellings", mut(_frac), 0, None),
    Case("ok_observation_shapes", mut(_obs_shapes), 0, None),
    Case("ok_error_event", mut(_error_event), 0, None),
    Case("ok_huge_usage", mut(_huge_usage), 0, None),
    Case("ok_usage_beyond_64_bits",
         _line(3, lambda e: raw(e, '"input":812', '"input":1000000000000000000000000000000')),
         0, None),
    Case("ok_args_member_order_and_1_vs_1.0", mut(_reordered_args), 0, None),
    Case("ok_equal_times", mut(_mixed_equal_times), 0, None),
    Case("ok_fractional_elapsed", mut(_float_ms), 0, None),
    Case("ok_drift_1999", mut(_drift(10, 1999)), 0, None),
    Case("ok_drift_exactly_2000", mut(_drift(10, 2000)), 0, None),
    Case("ok_drift_minus_2000", mut(_drift_at(10, 2000)), 0, None),
    Case("ok_response_lists_no_actions", mut(_unlisted), 0, None,
         warnings=("log.response_without_actions",)),
    Case("ok_action_repeated", mut(_repeat_action), 0, None,
         warnings=("log.action_repeated",)),
    Case("ok_actions_null_cannot_vouch", mut(_data(3, actions=None)), 0, None,
         warnings=("log.response_without_actions",)),
    Case("ok_bom_crlf_and_trailing_blank", lambda: b"\xef\xbb\xbf" + dump(base(), b"\r\n")
         + b"\r\n", 0, None, warnings=("log.bom", "log.crlf", "log.trailing_blank")),
    Case("ok_crlf", _crlf, 0, None, warnings=("log.crlf",)),
    Case("ok_bom", _bom, 0, None, warnings=("log.bom",)),
    Case("ok_no_final_newline", _no_final_newline, 0, None),
    Case("ok_trailing_blank", _trailing_blank, 0, None, warnings=("log.trailing_blank",)),
    Case("ok_video_longer_than_run", LOG_OK, 0, None, video=(60.0, ".mp4")),
    Case("ok_video_short_by_4.9", LOG_OK, 0, None, video=(15.1, ".mp4")),
    Case("ok_offset_plus_4.9", LOG_OK, 0, None, video=(20.0, ".mp4"), args=("--offset", "4.9")),
    Case("ok_offset_minus_4.9", LOG_OK, 0, None, video=(40.0, ".mp4"),
         args=("--offset", "-4.9")),
    Case("ok_offset_minus_2_both_ends", LOG_OK, 0, None, video=(17.0, ".mp4"),
         args=("--offset=-2",)),
    Case("ok_avi", LOG_OK, 0, None, video=(21.0, ".avi")),
    Case("ok_webm", LOG_OK, 0, None, video=(21.0, ".webm")),
    Case("ok_file_pair", LOG_OK, 0, None, shape="pair"),
    Case("ok_zip", LOG_OK, 0, None, shape="zip"),
    Case("ok_tar_gz", LOG_OK, 0, None, shape="tar.gz"),
    Case("ok_extra_files", LOG_OK, 0, None,
         extra={"README.md": b"# my run\n", "notes/setup.txt": b"seed 42\n"}),
    # ISO 8601 or RFC 3339 alone allows these, not both: outside the one `at` shape (issue 15)
    Case("at_spellings_outside_the_shape",
         mut(lambda e: _set(4, at="2026-10-22t18:00:02.500z")(_set(5, at="2026-10-22T18:00:02,7Z")(
             _set(6, at="2026-10-22 18:00:03.000Z")(e)))), 1, ("log.at_format", 4)),
    Case("ok_requested_without_args_runs_with_empty_args",
         mut(lambda e: _data(4, name="wait", args={})(_data(3, actions=[{"name": "wait"}])(e))),
         0, None),
    Case("ok_requested_null_args_runs_without_args",
         mut(lambda e: _data(4, name="wait", args=None)(
             _data(3, actions=[{"name": "wait", "args": {}}])(e))), 0, None),
    Case("ok_response_marked_withheld_without_text",
         mut(lambda e: _data(3, withheld=True, text=_DEL)(e)), 0, None),
    # ---------------------------------------------------------------- seq
    Case("seq_starts_at_1", mut(lambda e: [x.update(seq=x["seq"] + 1) or x for x in e]), 1,
         ("log.seq", 1)),
    Case("seq_skips", mut(lambda e: [x.update(seq=x["seq"] + (x["seq"] >= 4)) or x for x in e]),
         1, ("log.seq", 5)),
    Case("seq_repeats", mut(_set(5, seq=3)), 1, ("log.seq", 5)),
    Case("seq_string", mut(_set(5, seq="4")), 1, ("log.seq", 5)),
    Case("seq_float", mut(_set(5, seq=4.0)), 1, ("log.seq", 5)),
    Case("seq_bool", mut(_set(1, seq=False)), 1, ("log.seq", 1)),
    Case("seq_missing", mut(_set(5, seq=_DEL)), 1, ("log.seq", 5)),
    Case("seq_exponent", _line(5, lambda e: raw(e, '"seq":4', '"seq":4e0')), 1, ("log.seq", 5)),
    Case("seq_beyond_64_bits",
         _line(5, lambda e: raw(e, '"seq":4', '"seq":18446744073709551620')), 1, ("log.seq", 5)),
    # ---------------------------------------------------------------- at
    Case("at_plus_02", mut(_set(5, at="2026-10-22T20:00:02.700+02:00")), 1,
         ("log.at_not_utc", 5)),
    Case("at_no_zone", mut(_set(5, at="2026-10-22T18:00:02.700")), 1, ("log.at_not_utc", 5)),
    Case("at_words", mut(_set(5, at="yesterday")), 1, ("log.at_format", 5)),
    Case("at_date_only", mut(_set(5, at="2026-10-22")), 1, ("log.at_format", 5)),
    Case("at_number", mut(_set(5, at=1792692002.7)), 1, ("log.at_format", 5)),
    Case("at_missing", mut(_set(5, at=_DEL)), 1, ("log.at_format", 5)),
    Case("at_fraction_without_digits", mut(_set(5, at="2026-10-22T18:00:02.Z")), 1,
         ("log.at_format", 5)),
    Case("at_leap_second_is_not_a_time_here", mut(_set(5, at="2026-10-22T18:00:60Z")), 1,
         ("log.at_format", 5)),
    Case("at_goes_back", mut(_set(5, at=at(2400))), 1, ("log.at_order", 5)),
    Case("at_impossible_date", mut(_set(5, at="2026-02-30T18:00:02.700Z")), 1,
         ("log.at_format", 5)),
    # ---------------------------------------------------------------- elapsedMs
    Case("elapsed_goes_back", mut(_set(5, elapsedMs=2450)), 1, ("log.elapsed_order", 5)),
    Case("elapsed_negative", mut(_set(1, elapsedMs=-1)), 1, ("log.elapsed_format", 1)),
    Case("elapsed_string", mut(_set(5, elapsedMs="2700")), 1, ("log.elapsed_format", 5)),
    Case("elapsed_bool", mut(_set(5, elapsedMs=True)), 1, ("log.elapsed_format", 5)),
    Case("elapsed_missing", mut(_set(5, elapsedMs=_DEL)), 1, ("log.elapsed_format", 5)),
    Case("drift_2001", mut(_drift(10, 2001)), 1, ("log.elapsed_drift", 10)),
    Case("drift_minus_2001", mut(_drift_at(10, 2001)), 1, ("log.elapsed_drift", 10)),
    Case("drift_run_start_elapsed_5000", mut(_set(1, elapsedMs=5000)), 1,
         ("log.elapsed_drift", 1)),
    Case("elapsed_in_seconds", mut(lambda e: [x.update(elapsedMs=x["elapsedMs"] / 1000) or x
                                              for x in e]), 1, ("log.elapsed_drift", 3)),
    Case("drift_run_start_clock", mut(_run_start_late), 1, ("log.elapsed_drift", 1)),
    # ---------------------------------------------------------------- type, data
    Case("type_unknown", mut(_set(5, type="note")), 1, ("log.type_unknown", 5)),
    Case("type_case", mut(_set(5, type="Observation")), 1, ("log.type_unknown", 5)),
    Case("type_missing", mut(_set(5, type=_DEL)), 1, ("log.type_unknown", 5)),
    Case("data_string", mut(_set(5, data="piece locked")), 1, ("log.data_not_object", 5)),
    Case("data_null", mut(_set(5, data=None)), 1, ("log.data_not_object", 5)),
    Case("data_missing", mut(_set(5, data=_DEL)), 1, ("log.data_not_object", 5)),
    Case("data_array_on_action", mut(_set(4, data=["press", "A"])), 1,
         ("log.data_not_object", 4)),
    # ---------------------------------------------------------------- run_start / run_end
    Case("first_line_not_run_start", mut(_first_not_run_start), 1, ("log.run_start_position", 1)),
    Case("second_run_start", mut(_two_run_starts), 1, ("log.run_start_position", 6)),
    Case("run_start_no_scaffold_name", mut(_data(1, scaffold={"version": "1"})), 1,
         ("log.run_start_fields", 1)),
    Case("run_start_scaffold_string", mut(_data(1, scaffold="my-agent")), 1,
         ("log.run_start_fields", 1)),
    Case("run_start_no_scaffold", mut(_data(1, scaffold=_DEL)), 1, ("log.run_start_fields", 1)),
    Case("run_start_no_game", mut(_data(1, game=_DEL)), 1, ("log.run_start_fields", 1)),
    Case("run_start_no_category", mut(_data(1, category=_DEL)), 1, ("log.run_start_fields", 1)),
    Case("run_start_empty_model", mut(_data(1, model="")), 1, ("log.run_start_fields", 1)),
    Case("run_end_not_last", mut(_run_end_not_last), 1, ("log.run_end_position", 12)),
    Case("run_end_in_the_middle", mut(_run_end_middle), 1, ("log.run_end_position", 6)),
    Case("run_end_twice", mut(_run_end_twice), 1, ("log.run_end_position", 12)),
    Case("run_end_missing", mut(lambda e: e[:-1]), 1, ("log.run_end_missing", None)),
    Case("run_end_no_reason", mut(_data(11, reason=_DEL)), 1, ("log.run_end_fields", 11)),
    Case("run_end_reason_number", mut(_data(11, reason=3)), 1, ("log.run_end_fields", 11)),
    # ---------------------------------------------------------------- responses and actions
    Case("response_id_duplicate", mut(_data(7, id="c1")), 1, ("log.response_id_duplicate", 7)),
    Case("response_no_model", mut(_data(3, model=_DEL)), 1, ("log.response_fields", 3)),
    Case("response_id_number", mut(_data(3, id=1)), 1, ("log.response_fields", 3)),
    Case("response_actions_string", mut(_data(3, actions="press A")), 1,
         ("log.response_fields", 3)),
    Case("action_unknown_call", mut(_data(4, call="c9")), 1, ("log.action_unknown_call", 4)),
    Case("action_calls_later_response", mut(_action_before_response), 1,
         ("log.action_unknown_call", 4)),
    Case("action_other_name", mut(_data(4, name="hold")), 1, ("log.action_not_requested", 4)),
    Case("action_other_args", mut(_data(4, args={"button": "B"})), 1,
         ("log.action_not_requested", 4)),
    Case("action_args_string_vs_number",
         mut(lambda e: _data(4, args={"button": "1"})(_data(3, actions=[
             {"name": "press", "args": {"button": 1}}])(e))), 1,
         ("log.action_not_requested", 4)),
    Case("action_after_response_asking_for_none", mut(_data(3, actions=[])), 1,
         ("log.action_not_requested", 4)),
    Case("action_no_args", mut(_data(4, args=_DEL)), 1, ("log.action_fields", 4)),
    Case("action_no_call", mut(_data(4, call=_DEL)), 1, ("log.action_fields", 4)),
    Case("no_response_no_action", mut(_no_response), 1, ("log.no_response", None)),
    Case("no_action", mut(_no_action), 1, ("log.no_action", None)),
    Case("withheld_leak", mut(_withheld_leak), 1, ("log.withheld_leak", 2)),
    Case("withheld_leak_empty_messages", mut(_data(2, withheld=True, messages=[])), 1,
         ("log.withheld_leak", 2)),
    Case("withheld_response_keeps_text", mut(_data(3, withheld=True)), 1,
         ("log.withheld_leak", 3)),
    Case("error_without_message", mut(lambda e: _data(10, message=_DEL)(_error_event(e))), 1,
         ("log.error_fields", 10)),
    # ---------------------------------------------------------------- line syntax
    Case("empty_file", lambda: b"", 1, ("log.empty", None)),
    Case("only_blank_lines", lambda: b"\n\n\n", 1, ("log.empty", None),
         warnings=("log.trailing_blank",)),
    Case("only_run_start", mut(_only_run_start), 1, ("log.run_end_missing", None)),
    Case("binary_garbage", _garbage, 1, ("log.utf8", 1)),
    Case("invalid_utf8_middle", _line(5, lambda e: raw(e, "piece", "pi\udcffece")), 1,
         ("log.utf8", 5)),
    Case("truncated_last_line", _cut_last, 1, ("log.json", 11)),
    Case("truncated_first_line", mut(_first_line_truncated), 1, ("log.json", 1)),
    Case("duplicate_member", _line(5, lambda e: raw(e, '"seq":4', '"seq":4,"seq":4')), 1,
         ("log.duplicate_member", 5)),
    Case("duplicate_member_nested",
         _line(4, lambda e: raw(e, '"button":"A"', '"button":"A","button":"A"')), 1,
         ("log.duplicate_member", 4)),
    Case("number_1e400", _line(5, lambda e: raw(e, '"piece locked"', "1e400")), 1,
         ("log.json", 5)),
    Case("elapsed_1e400", _line(5, lambda e: raw(e, '"elapsedMs":2700', '"elapsedMs":1e400')), 1,
         ("log.json", 5)),
    Case("nan_literal", _line(5, lambda e: raw(e, '"elapsedMs":2700', '"elapsedMs":NaN')), 1,
         ("log.json", 5)),
    Case("control_char_in_string", _line(5, lambda e: raw(e, "piece locked", "piece\tlocked")),
         1, ("log.json", 5)),
    Case("lone_surrogate_escape", _line(5, lambda e: raw(e, "piece locked", "piece\\ud800")),
         1, ("log.utf8", 5)),
    Case("deep_300", _line(5, lambda e: raw(e, '"piece locked"', deep(300))), 1,
         ("log.json", 5)),
    Case("deep_5000", _line(5, lambda e: raw(e, '"piece locked"', deep(5000))), 1,
         ("log.json", 5)),
    Case("array_line", _line(5, lambda e: b'[4,"observation"]'), 1, ("log.not_object", 5)),
    Case("string_line", _line(5, lambda e: b'"observation"'), 1, ("log.not_object", 5)),
    Case("bom_in_the_middle", _bom_middle, 1, ("log.json", 5)),
    Case("blank_first_line", lambda: b"\n" + dump(base()), 1, ("log.blank_line", 1)),
    Case("blank_first_line_then_observation",
         lambda: b"\n" + dump(renumber(base()[1:])), 1, ("log.blank_line", 1)),
    Case("blank_line_middle", _blank_middle, 1, ("log.blank_line", 5)),
    Case("whitespace_line_middle", _space_middle, 1, ("log.blank_line", 7)),
    Case("two_objects_on_a_line", _line(5, lambda e: orjson.dumps(e) + b" {}"), 1,
         ("log.json", 5)),
    # ---------------------------------------------------------------- video and coverage
    Case("no_video", LOG_OK, 1, ("input.no_video", None), video=None),
    Case("video_garbage", LOG_OK, 1, ("video.unreadable", None), video=(0.0, "garbage")),
    Case("video_empty_file", LOG_OK, 1, ("video.empty", None), video=(0.0, "empty")),
    Case("video_short_by_5.1", LOG_OK, 1, ("coverage.missing", None), video=(14.9, ".mp4")),
    Case("offset_plus_5.1", LOG_OK, 1, ("coverage.missing", None), video=(20.0, ".mp4"),
         args=("--offset", "5.1")),
    Case("offset_minus_5.1", LOG_OK, 1, ("coverage.missing", None), video=(40.0, ".mp4"),
         args=("--offset", "-5.1")),
    Case("zip_without_video", LOG_OK, 1, ("input.no_video", None), shape="zip", video=None),
    Case("log_only_file", LOG_OK, 1, ("input.no_video", None), shape="log_only"),
    Case("no_log_in_folder", None, 2, None),
]


_VIDEO_CACHE: dict[tuple[float, str], Path] = {}


def video_file(tmp_factory, seconds: float, ext: str) -> Path:
    key = (seconds, ext)
    if key not in _VIDEO_CACHE:
        d = tmp_factory.mktemp("videos")
        if ext == "garbage":
            p = d / "video.mp4"
            p.write_bytes(bytes(range(256)) * 64)
        elif ext == "empty":
            p = d / "video.mp4"
            p.write_bytes(b"")
        else:
            fourcc = {".mp4": "mp4v", ".avi": "MJPG", ".webm": "VP80"}[ext]
            p = make_video(d / f"video{ext}", seconds, fps=10, size=(32, 18), fourcc=fourcc)
        _VIDEO_CACHE[key] = p
    return _VIDEO_CACHE[key]


def build(case: Case, root: Path, tmp_factory) -> list[str]:
    """Write the case's submission under `root`; return the arguments for `verify`."""
    root.mkdir(parents=True)
    files: dict[str, bytes] = dict(case.extra)
    if case.log is not None:
        files["agent-log.jsonl"] = case.log()
    if case.video is not None:
        v = video_file(tmp_factory, *case.video)
        files["gameplay" + v.suffix] = v.read_bytes()
    if case.shape == "folder":
        for name, data in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(data)
        return [str(root)]
    if case.shape in ("pair", "log_only"):
        paths = []
        for name, data in files.items():
            if case.shape == "log_only" and name != "agent-log.jsonl":
                continue
            (root / name).write_bytes(data)
            paths.append(str(root / name))
        return paths
    if case.shape == "zip":
        p = root / "run.zip"
        with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in files.items():
                z.writestr(f"my-run/{name}", data)
        return [str(p)]
    p = root / "run.tar.gz"
    with tarfile.open(p, "w:gz") as t:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return [str(p)]


def run_inprocess(args: list[str], capsys) -> tuple[int, dict]:
    code = cli.main(["verify", *args, "--json"])
    out = capsys.readouterr().out
    obj, end = json.JSONDecoder().raw_decode(out)
    assert out[end:].strip() == ""
    return code, obj


def first_error(report: dict) -> tuple[str, int | None] | None:
    for f in report.get("findings", []):
        if f["severity"] == "error":
            return f["rule"], f["line"]
    return None


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case: Case, tmp_path, tmp_path_factory, capsys):
    args = build(case, tmp_path / "sub", tmp_path_factory)
    code, rep = run_inprocess([*args, *case.args], capsys)
    got = (code, rep.get("verdict"), first_error(rep))
    verdict = {0: "pass", 1: "fail", 2: "unreadable"}[case.exit]
    assert got == (case.exit, verdict, case.first), json.dumps(rep.get("findings"), indent=1)
    warnings = {f["rule"] for f in rep.get("findings", []) if f["severity"] == "warning"}
    assert set(case.warnings) <= warnings, warnings
    errors = [(f["rule"], f["line"]) for f in rep.get("findings", []) if f["severity"] == "error"]
    if case.exit == 1 and case.name not in SEVERAL_FAULTS:
        assert errors == [case.first], "one fault, one finding"


# Invalid cases that hold more than one fault; every other invalid case must give exactly one
# error (no cascade from a single edit).
SEVERAL_FAULTS = {
    "elapsed_in_seconds",  # every line from the third breaks the 2 s rule, each by more
    "response_id_duplicate",  # the actions that named the renamed response now name nothing
    "response_id_number",  # same: the action names an id no valid response has
    "no_response_no_action", "only_run_start",  # each whole-file rule is its own fault
    "binary_garbage",  # every line of the garbage is unreadable
    "truncated_last_line",  # the cut line was the run_end
    "blank_first_line_then_observation",  # a blank line, and no run_start at all
    "at_spellings_outside_the_shape",  # three lax spellings, one error each
}


def test_corpus_is_large_enough():
    assert len(CASES) >= 60
    assert sum(c.exit == 0 for c in CASES) >= 25


@pytest.mark.parametrize("name", ["ok_zip", "offset_minus_5.1", "deep_5000", "no_log_in_folder"])
def test_through_the_installed_script(name, tmp_path, tmp_path_factory):
    """The same verdicts across the process boundary (exit code and one JSON object)."""
    case = next(c for c in CASES if c.name == name)
    args = build(case, tmp_path / "sub", tmp_path_factory)
    proc = subprocess.run([CLI, "verify", *args, *case.args, "--json"], capture_output=True,
                          text=True, timeout=60)
    obj, end = json.JSONDecoder().raw_decode(proc.stdout)
    assert proc.stdout[end:].strip() == ""
    assert (proc.returncode, first_error(obj)) == (case.exit, case.first), proc.stdout
    assert "Traceback" not in proc.stderr



VALID_LOGS = [c for c in CASES if c.exit == 0 and c.log is not None and not c.args
              and c.video == (21.0, ".mp4") and c.shape == "folder"]


@pytest.mark.parametrize("case", VALID_LOGS, ids=[c.name for c in VALID_LOGS])
def test_withheld_version_of_every_valid_log_still_passes(case, tmp_path, tmp_path_factory,
                                                          capsys):
    """`withhold` on each valid corpus log: the public log verifies, and keeps no prompt,
    text or reasoning."""
    args = build(case, tmp_path / "sub", tmp_path_factory)
    log = Path(args[0]) / "agent-log.jsonl"
    assert cli.main(["withhold", str(log), "-o", str(tmp_path / "public.jsonl")]) == 0
    log.write_bytes((tmp_path / "public.jsonl").read_bytes())
    capsys.readouterr()
    code, rep = run_inprocess(args, capsys)
    assert (code, first_error(rep)) == (0, None), rep["findings"]
    for line in log.read_bytes().splitlines():
        e = orjson.loads(line.lstrip(b"\xef\xbb\xbf").rstrip(b"\r") or b"{}")
        if e.get("type") == "model_request":
            assert e["data"] == {"withheld": True}
        if e.get("type") == "model_response":
            assert not {"text", "reasoning"} & set(e["data"])


def test_cached_action_digests_keep_json_types_apart():
    """The digest cache is keyed by the exact args text: `1`, `1.0`, `true` and `"1"` never
    share an entry, while `1` and `1.0` still compare equal (canonical JSON)."""
    from moderator_app.core.verify.agent_log import action_digest

    for _ in range(2):  # the second round is served from the cache
        d_int, d_float = action_digest("a", {"k": 1}), action_digest("a", {"k": 1.0})
        d_true, d_str = action_digest("a", {"k": True}), action_digest("a", {"k": "1"})
        assert d_int == d_float
        assert len({d_int, d_true, d_str}) == 3
        assert action_digest("a", {"x": 1, "y": 2}) == action_digest("a", {"y": 2, "x": 1})
        assert action_digest("a", {"k": 2**64}) != action_digest("a", {"k": 2**64 + 1})


def test_fast_at_parsing_agrees_with_datetime():
    """parse_at's fast path (regex + minute cache) and _event's second cache give the
    microseconds datetime gives, and refuse what datetime refuses."""
    import random

    from moderator_app.core.verify.agent_log import parse_at

    rng = random.Random(7)
    epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
    for _ in range(3000):
        v = (f"{rng.choice(['2026', '1970', '2024', '0001'])}-{rng.choice(['01', '02', '12', '13'])}"
             f"-{rng.choice(['01', '29', '30', '31', '32'])}T{rng.choice(['00', '23', '24'])}:"
             f"{rng.choice(['00', '59', '60'])}:{rng.choice(['00', '59', '60'])}"
             f"{rng.choice(['', '.1', '.123', '.1234567', '.999999999'])}"
             f"{rng.choice(['Z', '+00:00'])}")
        try:
            dt = datetime.fromisoformat(v.replace("Z", "+00:00"))
            want = (dt - epoch) // timedelta(microseconds=1)
        except ValueError:
            want = None
        assert parse_at(v)[0] == want, v
