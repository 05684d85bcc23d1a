"""Actions checked in C (`_skim.c`'s `action_in_c` against `_skim.Responses`) give the report
the Python path gives, spelling by spelling; the C table answers as the pure-Python one
does; and what it keeps per response does not grow with the ids' length (issue 15, flat
memory)."""

from __future__ import annotations

import orjson
import pytest

from moderator_app.core.formats import native
from moderator_app.core.verify.agent_log import checker as checker_mod
from moderator_app.core.verify.agent_log.actions import PyResponses
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

pytestmark = pytest.mark.skipif(native.SKIM is None, reason="the C accelerator is not built")

T = "2026-10-22T18:"


def _line(seq: int, ms: int, typ: str, data: bytes) -> bytes:
    at = f"{T}{ms // 60000:02d}:{ms % 60000 // 1000:02d}.{ms % 1000:03d}Z"
    return b'{"seq":%d,"at":"%s","elapsedMs":%d,"type":"%s","data":%s}' % (
        seq, at.encode(), ms, typ.encode(), data)


def log(turns: list[tuple[bytes, bytes, list[bytes]]], late_ms: int = 0,
        think_ms: int = 1500, extra: bytes = b"") -> list[bytes]:
    """A log of turns (response id as JSON, requested actions as JSON, the action lines'
    data): request, response, its actions, an observation. `late_ms` delays the actions of
    the last turn, `think_ms` is its response's latency, `extra` more of its members."""
    out = [_line(0, 0, "run_start", b'{"game":"g","category":"c","model":"m",'
                 b'"scaffold":{"name":"s"}}')]
    ms = 0
    for i, (rid, requested, actions) in enumerate(turns):
        ms += 300
        out.append(_line(len(out), ms, "model_request", b'{"messages":[]}'))
        last = i == len(turns) - 1
        ms += think_ms if last else 1500
        out.append(_line(len(out), ms, "model_response", b'{"id":%s,"model":"m","actions":%s%s}'
                         % (rid, requested, extra if last else b"")))
        if last:
            ms += late_ms
        for a in actions:
            ms += 30
            out.append(_line(len(out), ms, "action", a))
        ms += 200
        out.append(_line(len(out), ms, "observation", b'{"summary":"x"}'))
    out.append(_line(len(out), ms + 500, "run_end", b'{"reason":"done"}'))
    return out


def _report(tmp_path, monkeypatch, lines: list[bytes], engine: str) -> tuple[bytes, int]:
    """(report, calls of LogChecker._action and _response) with one engine."""
    path = tmp_path / "agent-log.jsonl"
    path.write_bytes(b"".join(x + b"\n" for x in lines))
    calls = []
    action, response = checker_mod.LogChecker._action, checker_mod.LogChecker._response
    with monkeypatch.context() as m:
        if engine == "python":
            m.setattr(native, "SKIM", None)
        m.setattr(checker_mod.LogChecker, "_action",
                  lambda self, *a: calls.append(a[0]) or action(self, *a))
        m.setattr(checker_mod.LogChecker, "_response",
                  lambda self, *a: calls.append(a[0]) or response(self, *a))
        rep = verify_paths([path], VerifyOptions(probe_video=False)).report
    return orjson.dumps(rep.to_dict(), option=orjson.OPT_SORT_KEYS), len(calls)


def both(tmp_path, monkeypatch, lines: list[bytes]) -> tuple[set, int, int]:
    """Both engines' report is the same: ({(rule, line)}, Python checks called with C, without)."""
    c, c_calls = _report(tmp_path, monkeypatch, lines, "c")
    py, py_calls = _report(tmp_path, monkeypatch, lines, "python")
    assert c == py
    return {(f["rule"], f.get("line")) for f in orjson.loads(c)["findings"]}, c_calls, py_calls


PRESS_A = b'[{"name":"press","args":{"button":"A"}}]'
WARM = (b'"c0"', PRESS_A, [b'{"call":"c0","name":"press","args":{"button":"A"}}'])


def test_plain_actions_are_checked_in_c(tmp_path, monkeypatch):
    turns = [WARM] + [(b'"c%d"' % i, b'[{"name":"press","args":{"button":"A","n":%d}},'
                       b'{"name":"tap","args":null}]' % i,
                       [b'{"call":"c%d","name":"press","args":{"n":%d,"button":"A"}}' % (i, i),
                        b'{"call":"c%d","name":"tap","args":{}}' % i]) for i in range(1, 6)]
    found, c_calls, py_calls = both(tmp_path, monkeypatch, log(turns))
    assert found == set()
    assert py_calls == 17  # 6 responses, 11 actions
    assert c_calls == 0  # every one checked in C


UNRUN = "log.response_actions_unrun"
# (the last turn's response id, requested actions, action lines, the findings' rules or None)
CASES = [
    (b'"c9"', PRESS_A, [b'{"call":"c9","name":"press","args":{"button":"B"}}'],
     {"log.action_not_requested", UNRUN}),
    (b'"c9"', PRESS_A, [b'{"call":"c9","name":"press","args":{"button":"A"}}'] * 2,
     {"log.action_repeated"}),
    (b'"c9"', PRESS_A, [b'{"call":"c8","name":"press","args":{"button":"A"}}'],
     {"log.action_unknown_call", UNRUN}),
    (b'"c9"', b"null", [b'{"call":"c9","name":"press","args":{"button":"A"}}'],
     {"log.response_without_actions"}),
    (b'"c9"', b"[]", [b'{"call":"c9","name":"press","args":{"button":"A"}}'],
     {"log.action_not_requested"}),
    (b'"c9"', b'[{"name":"press","args":{"button":"A"}},{"name":"press","args":{}}]',
     [b'{"call":"c9","name":"press","args":{"button":"A"}}'], {UNRUN}),
    (b'"c9"', PRESS_A, [b'{"call":"c9","name":"press"}'], {"log.action_fields", UNRUN}),
    (b'"c9"', PRESS_A, [b'{"call":" ","name":"press","args":{"button":"A"}}'],
     {"log.action_fields", UNRUN}),
    (b'"c9"', PRESS_A, [b'{"call":"c9","name":"\xc2\xa0","args":{"button":"A"}}'],
     {"log.action_fields", UNRUN}),
    (b'"\xc2\xa0"', PRESS_A, [b'{"call":"\xc2\xa0","name":"press","args":{"button":"A"}}'],
     {"log.response_fields", "log.action_fields"}),
    (b'"c0"', PRESS_A, [b'{"call":"c0","name":"press","args":{"button":"A"}}'],
     {"log.response_id_duplicate", "log.action_repeated"}),
    # spelled differently, the same action: no finding
    (b'"c9"', PRESS_A, [b'{"call":"c9","name":"press","args":{"button":"\\u0041"}}'], None),
    (b'"c9"', PRESS_A, [b'{"call":"c\\u0039","name":"press","args":{"button":"A"}}'], None),
    (b'"c9"', PRESS_A, [b'{"call":"c9","args":{"button":"A"},"name":"press","x":[1]}'], None),
    (b'"c9"', b'[{"name":"press","args":{"k":1.0,"b":[1]}}]',
     [b'{"call":"c9","name":"press","args":{"b":[1.0],"k":1}}'], None),
    (b'"c9"', b'[{"name":"press","args":{"k":0}}]',
     [b'{"call":"c9","name":"press","args":{"k":-0}}'], None),
    (b'"c9"', b'[{"name":"press","args":{"k":9007199254740993}}]',
     [b'{"call":"c9","name":"press","args":{"k":9007199254740993}}'], None),
    (b'"c9"', b'[{"name":"press","args":{"k":9007199254740993}}]',
     [b'{"call":"c9","name":"press","args":{"k":9007199254740992}}'],
     {"log.action_not_requested", UNRUN}),
    (b'"c\xc3\xa9"', b'[{"name":"\xe2\x86\x92","args":{"b":"\xf0\x9f\x98\x80"}}]',
     [b'{"call":"c\\u00e9","name":"\xe2\x86\x92","args":{"b":"\\ud83d\\ude00"}}'], None),
    (b'"c\xc3\xa9"', b'[{"name":"\xe2\x86\x92","args":{"b":"\xf0\x9f\x98\x80"}}]',
     [b'{"call":"c\xc3\xa9","name":"\xe2\x86\x92","args":{"b":"\xf0\x9f\x98\x80"}}'], None),
    # a lone surrogate is a text fault (log.utf8) on both lines
    (b'"\\ud800"', PRESS_A, [b'{"call":"\\ud800","name":"press","args":{"button":"A"}}'],
     {"log.utf8"}),
    (b'"\\ud800"', PRESS_A, [b'{"call":"\\udc00","name":"press","args":{"button":"A"}}'],
     {"log.utf8"}),
    (b'"c9"', b'[{"name":"press","args":{' + b",".join(b'"k%d":%d' % (i, i) for i in range(20))
     + b'}}]', [b'{"call":"c9","name":"press","args":{' + b",".join(
         b'"k%d":%d' % (i, i) for i in reversed(range(20))) + b'}}'], None),
    (b'"c9"', b'[{"name":"press","args":{"\xc3\xa9":1,"z":2}}]',
     [b'{"call":"c9","name":"press","args":{"z":2,"\xc3\xa9":1}}'], None),
    (b'"c9"', b'[{"name":"press","args":{"t":"' + b"x" * 2000 + b'"}}]',
     [b'{"call":"c9","name":"press","args":{"t":"' + b"x" * 2000 + b'"}}'], None),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_action_spellings_same_report_both_engines(tmp_path, monkeypatch, case):
    rid, requested, actions, rules = CASES[case]
    found, _, _ = both(tmp_path, monkeypatch, log([WARM, (b'"c1"', PRESS_A, [
        b'{"call":"c1","name":"press","args":{"button":"A"}}']), (rid, requested, actions)]))
    assert {r for r, _ in found} == (rules or set()), found


A1 = [b'{"call":"c9","name":"press","args":{"button":"A"}}']
# (the last response's latency, more of its members, its id, the findings' rules)
RESPONSES = [
    (1500, b',"model":"m2"', b'"c9"', {"log.duplicate_member", "log.action_unknown_call"}),
    (1500, b',"usage":{"input":1}', b'"c9"', set()),
    (1500, b',"usage":"x"', b'"c9"', {"log.response_fields"}),
    (1500, b',"withheld":true', b'"c9"', set()),
    (1500, b',"withheld":true,"text":"t"', b'"c9"', {"log.withheld_leak"}),
    (1500, b',"withheld":false,"text":"t"', b'"c9"', set()),
    (1500, b',"text":"\\u0000","reasoning":{"a":[1]}', b'"c9"', set()),
    (199, b"", b'"c9"', {"log.response_too_fast"}),
    (200, b"", b'"c9"', set()),
    (1500, b"", b'"c\\u0039"', set()),
    (1500, b"", b'"c1"', {"log.response_id_duplicate", "log.action_unknown_call"}),
    (1500, b"", b"9", {"log.response_fields", "log.action_unknown_call"}),
]


@pytest.mark.parametrize("case", range(len(RESPONSES)))
def test_response_spellings_same_report_both_engines(tmp_path, monkeypatch, case):
    think, extra, rid, rules = RESPONSES[case]
    turns = [WARM, (b'"c1"', PRESS_A, [b'{"call":"c1","name":"press","args":{"button":"A"}}']),
             (rid, PRESS_A, A1)]
    found, _, _ = both(tmp_path, monkeypatch, log(turns, think_ms=think, extra=extra))
    assert {r for r, _ in found} == rules, found


@pytest.mark.parametrize(("model", "rules"), [
    (b'"m"', set()), (b'"\\u006d"', set()), (b'"m2"', {"log.model_mismatch"}),
    (b'"\\ud800"', {"log.utf8", "log.action_unknown_call"}), (b'"\xc3\xa9"', {"log.model_mismatch"}),
    (b'" "', {"log.response_fields", "log.model_mismatch"})])
def test_response_model_same_report_both_engines(tmp_path, monkeypatch, model, rules):
    turns = [WARM, (b'"c1"', PRESS_A, [b'{"call":"c1","name":"press","args":{"button":"A"}}'])]
    lines = log(turns)
    k = max(i for i, x in enumerate(lines) if b'"model_response"' in x)
    lines[k] = lines[k].replace(b'"model":"m"', b'"model":' + model)
    found, _, _ = both(tmp_path, monkeypatch, lines)
    assert {r for r, _ in found} == rules, found


@pytest.mark.parametrize(("late_ms", "rule"), [(60_000, None), (61_000, "log.action_late")])
def test_late_action_same_both_engines(tmp_path, monkeypatch, late_ms, rule):
    turns = [WARM, (b'"c1"', PRESS_A, [b'{"call":"c1","name":"press","args":{"button":"A"}}'])]
    lines = log(turns, late_ms=late_ms - 30)  # the action `late_ms` after its response
    found, _, _ = both(tmp_path, monkeypatch, lines)
    assert {r for r, _ in found} == ({rule} if rule else set())


@pytest.mark.parametrize("table", ["c", "python"])
def test_tables_answer_alike(table):
    r = native.SKIM.Responses(bytes(16)) if table == "c" else PyResponses()
    d = r.digest
    r.add("c1", 3, 100.0, d(b"x") + d(b"y") + d(b"x"))
    r.add("c\ud800", 7, float("nan"), None)
    r.add("c3", 9, 5.0, b"")
    assert (r.find("c1"), r.find("c\ud800"), r.find("c\udc00"), r.find("c3")) == (0, 1, -1, 2)
    assert r.line_of(1) == 7 and r.el_of(0) == 100.0
    assert [r.consume(0, d(b"x")) for _ in range(3)] == [0, 0, 1]  # ok, ok, repeat
    assert (r.consume(0, d(b"z")), r.consume(1, d(b"x")), r.consume(2, d(b"x"))) == (2, 3, 2)
    assert r.unrun_next(0) == (0, 3, 1, 3) and r.unrun_next(1) is None


def test_siphash_is_the_reference():
    """The C hash is SipHash-2-4: the paper's test vector (key 00..0f, message 00..0e)."""
    r = native.SKIM.Responses(bytes(range(16)))
    assert r.digest(bytes(range(15))) == bytes.fromhex("a129ca6149be45e5")[::-1]


def test_table_cost_does_not_grow_with_id_length():
    """Per response the C table keeps a hash of the id, not the id: 1,000 ids of 100 KB cost
    what 1,000 ids of 2 bytes cost, and at most 64 bytes each."""
    short, long_ = native.SKIM.Responses(bytes(16)), native.SKIM.Responses(bytes(16))
    for i in range(1000):
        short.add(str(i), i, 0.0, None)
        long_.add(str(i) + "x" * 100_000, i, 0.0, None)
    assert short.nbytes() == long_.nbytes() <= 64 * 1000
    assert long_.find("7" + "x" * 100_000) == 7 and long_.find("7" + "x" * 99_999) == -1


def test_crlf_lines_are_read_in_c_once_reported(tmp_path, monkeypatch):
    """CR LF is reported once (line 1); the C side then reads such lines, the CR ignored as the
    Python path ignores it, and a line with a CR elsewhere still goes to Python."""
    turns = [WARM] + [(b'"c%d"' % i, PRESS_A, [
        b'{"call":"c%d","name":"press","args":{"button":"A"}}' % i]) for i in range(1, 6)]
    lines = [x + b"\r" for x in log(turns)]
    lines[9] = lines[9][:-1] + b" \r"  # whitespace: valid JSON, declined by the C side
    fed = []
    real = checker_mod.LogChecker.feed
    monkeypatch.setattr(checker_mod.LogChecker, "feed",
                        lambda self, off, raw: fed.append(raw) or real(self, off, raw))
    found, c_calls, _ = both(tmp_path, monkeypatch, lines)
    assert found == {("log.crlf", 1)}
    fed.clear()
    _report(tmp_path, monkeypatch, lines, "c")
    # run_start, the line whose agreement ends the start's drift streak, the odd line (and
    # at most the one after it), run_end: 4 or 5 of 26
    seqs = [orjson.loads(x)["seq"] for x in fed]
    assert seqs[:3] == [0, 1, 9] and seqs[-1] == 25 and len(seqs) <= 5, seqs


@pytest.mark.parametrize(("max_responses", "max_slots", "line"), [(4, 100, 22), (100, 5, 17)])
def test_the_response_table_is_bounded(tmp_path, monkeypatch, max_responses, max_slots, line):
    """Past the table's bound the log is not examined further: one finding where it stopped,
    the whole file still hashed, the report incomplete; the same with both engines."""
    import hashlib

    from moderator_app.core.verify.agent_log import actions
    from moderator_app.core.verify.agent_log import turns as turns_mod

    for mod in (actions, turns_mod):  # turns.py words the finding
        monkeypatch.setattr(mod, "MAX_RESPONSES", max_responses)
        monkeypatch.setattr(mod, "MAX_SLOTS", max_slots)
    turns = [WARM] + [(b'"c%d"' % i, PRESS_A[:-1] + b',{"name":"x"}]', [
        b'{"call":"c%d","name":"press","args":{"button":"A"}}' % i,
        b'{"call":"c%d","name":"x","args":null}' % i]) for i in range(1, 9)]
    lines = log(turns)
    found, _, _ = both(tmp_path, monkeypatch, lines)
    assert found == {("log.too_many_responses", line)}
    rep = orjson.loads(_report(tmp_path, monkeypatch, lines, "c")[0])
    assert rep["complete"] is False and rep["verdict"] == "fail"
    whole = b"".join(x + b"\n" for x in lines)
    assert rep["files"][0]["sha256"] == hashlib.sha256(whole).hexdigest()


@pytest.mark.parametrize("table", ["c", "python"])
def test_a_long_action_list_answers_as_read_in_order(table):
    """A response listing more than INDEX_MIN actions is looked up by digest (QA session 14,
    G10: a scan of the list per action line made one response of N actions answered by N
    lines N^2): each verdict, and what stays unrun, is what reading the list in order gives."""
    import random

    rng = random.Random(14)
    r = native.SKIM.Responses(bytes(16)) if table == "c" else PyResponses()
    d = r.digest
    kinds = [d(b"k%d" % i) for i in range(12)]
    listed = [rng.choice(kinds) for _ in range(500)]
    r.add("small", 1, 0.0, b"".join(listed[:5]))
    r.add("big", 2, 0.0, b"".join(listed))
    used = [False] * len(listed)

    def reference(dig: bytes) -> int:  # 0 ok, 1 repeat, 2 not requested
        seen = False
        for s, x in enumerate(listed):
            if x == dig:
                if not used[s]:
                    used[s] = True
                    return 0
                seen = True
        return 1 if seen else 2

    runs = [rng.choice([*kinds, d(b"unlisted")]) for _ in range(700)]
    got = [r.consume(1, x) for x in runs]
    assert got == [reference(x) for x in runs]
    assert got.count(0) == used.count(True) and {1, 2} <= set(got)
    missing = used.count(False)
    assert missing > 0 and r.unrun_next(1) == (1, 2, missing, 500)


def test_a_long_action_list_same_report_both_engines(tmp_path, monkeypatch):
    """The in-C action check takes the table's lookup too: 200 listed presses of 7 kinds
    answered shuffled, with repeats and an unlisted one, give the same report either way."""
    import random

    rng = random.Random(3)
    acts = [b'{"name":"press","args":{"button":"B%d"}}' % rng.randrange(7) for _ in range(200)]
    lines = [a.replace(b'{"name"', b'{"call":"c1","name"') for a in acts]
    rng.shuffle(lines)
    lines = lines[:150] + lines[:20] + [b'{"call":"c1","name":"press","args":{"button":"Z"}}']
    found, _, _ = both(tmp_path, monkeypatch, log([WARM, (b'"c1"', b"[" + b",".join(acts)
                                                          + b"]", lines)]))
    # the 20 replayed lines take listed presses of their kind still unrun; the unlisted
    # button is the one line not requested, the last of the 171 action lines (8-178: after
    # run_start, a warm-up turn of 4 lines, the request and the response at line 7)
    assert found == {("log.action_not_requested", 178), ("log.response_actions_unrun", 7)}
