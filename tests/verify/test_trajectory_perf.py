"""The fast paths of the official verifier (issue 3 item 6) agree with the reference ones.

* block summaries (`scan_block` + `apply_summary`) give exactly the report that applying
  `examine_line`'s facts line by line gives, for valid chains and for chains that are valid
  link by link but break an event rule across block boundaries (re-sealed after the edit);
* the "plain line" canonical form (a sorted dump, `hash` cut off) equals RFC 8785
  `canonical_json`, and a non-compact or repeated-member line never takes it;
* lines nested too deep for orjson are findings at their line, never a crash.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import sys

import orjson
import pytest
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from trajhelp import errors, join, rules_at, verify_bytes

import moderator_app.core.verify.trajectory as traj
from moderator_app.core.formats.chain import ZERO_HASH, event_hash
from moderator_app.core.formats.jsonline import LineError, parse_line, parse_line_compact
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events
from moderator_app.core.verify.report import Report
from moderator_app.core.verify.seeds import SeedCheck
from moderator_app.core.verify.trajectory import (
    LineContext,
    TrajectoryChecker,
    examine_block,
    examine_line,
)

# Every test here runs on both engines (conftest.engine): their reports must be the same.
pytestmark = pytest.mark.usefixtures("engine")

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _deep(depth: int) -> bytes:
    return b'{"a":' + b"[" * depth + b"]" * depth + b"}"


@pytest.mark.parametrize("depth", [300, 1000, 5000])
def test_too_deep_line_is_a_json_error_not_a_crash(depth):
    got = parse_line_compact(_deep(depth))
    assert isinstance(got, LineError)
    assert got.kind == "json"
    assert "nesting too deep" in got.message
    assert isinstance(parse_line(_deep(depth)), LineError)


def test_deep_but_serialisable_line_still_parses():
    got = parse_line_compact(_deep(200))
    assert not isinstance(got, LineError) and got[1] is True


def _reference(data: bytes) -> Report:
    """The report of applying `examine_line`'s facts one line at a time (no blocks)."""
    report = Report(kind="official", input_name="events.jsonl")
    checker = TrajectoryChecker(report, "events.jsonl", SeedCheck())
    offset = 0
    lines = data.split(b"\n")
    last_newline = lines[-1] == b""
    if last_newline:
        lines.pop()
    for n, raw in enumerate(lines, 1):
        checker.line(offset, raw, n)
        offset += len(raw) + 1
    checker.finish(True, bool(lines) and not last_newline)
    return report


def _same(fast: Report, ref: Report) -> None:
    def view(r: Report):
        return ([(f.rule, f.line, f.message) for f in r.findings.sorted()], r.chain, r.run)

    assert view(fast) == view(ref)


def _with_block(data: bytes, block: int, parallel: bool = False,
                name: str = "events.jsonl") -> Report:
    old = traj.stream.BLOCK
    traj.stream.BLOCK = block
    try:
        return verify_bytes(data, name, parallel=parallel)
    finally:
        traj.stream.BLOCK = old


def test_too_deep_lines_in_a_trajectory_are_findings_at_their_line():
    lines = [orjson.dumps(e) for e in chain_events(make_run_events(24, seed=3, variety=0))]
    lines[5] = _deep(300)
    lines[11] = _deep(5000)
    lines[17] = _deep(1000)
    data = join(lines)
    report = _with_block(data, 4096)
    for n in (6, 12, 18):
        assert "traj.json" in rules_at(report, n)
    assert report.chain.first_break.to_dict() == {"line": 6, "kind": "unreadable"}
    assert report.events == 24 and report.verdict == "fail"
    _same(report, _reference(data))
    ctx = LineContext()
    assert examine_block(data, LineContext()) == [(len(r), examine_line(r, ctx))
                                                   for r in data.split(b"\n")[:-1]]


# -- summaries == line facts, across block boundaries -------------------------------------
_EDITS = ["none", "seq_repeat", "wall_back", "run_id", "trust", "agent_trust", "first_prev",
          "swap", "delete", "byte", "eval_untrusted", "secret"]


def _tampered(seed: int, edit: str, at: int, n: int, variety: float) -> bytes:
    events = make_run_events(n, seed=seed, variety=variety, text_bytes=300)
    k = max(1, min(at, n - 2))
    ev = events[k]
    if edit == "seq_repeat":
        ev["producer_sequence"] = 0
    elif edit == "wall_back":
        ev["wall_time"] = "2026-07-10T13:59:59.000Z"
    elif edit == "run_id":
        ev["run_id"] = "run_other"
    elif edit == "trust":
        ev["trust_level"] = "trusted_something"
    elif edit == "agent_trust":
        ev["producer"], ev["trust_level"] = "agent", "trusted_harness"
    elif edit == "eval_untrusted":
        ev["type"] = "eval_result"
    elif edit == "secret":
        ev["payload"] = {"token": "sk-" + "A" * 30}
    chained = chain_events(events)
    lines = [orjson.dumps(e) for e in chained]
    if edit == "first_prev":
        lines = lines[1:]
    elif edit == "swap":
        lines[k], lines[k + 1] = lines[k + 1], lines[k]
    elif edit == "delete":
        del lines[k]
    elif edit == "byte":
        raw = bytearray(lines[k])
        raw[len(raw) // 2] ^= 0x01
        lines[k] = bytes(raw)
    return join(lines)


@SETTINGS
@given(seed=st.integers(0, 1000), edit=st.sampled_from(_EDITS), at=st.integers(1, 200),
       n=st.integers(20, 220), variety=st.sampled_from([0.0, 0.1, 0.6]),
       block=st.sampled_from([2048, 4096, 9000]))
def test_block_summaries_give_the_line_by_line_report(seed, edit, at, n, variety, block):
    data = _tampered(seed, edit, at, n, variety)
    _same(_with_block(data, block), _reference(data))


@pytest.mark.parametrize("edit", _EDITS)
def test_worker_summaries_give_the_line_by_line_report(edit):
    data = _tampered(7, edit, 120, 400, 0.2)
    _same(_with_block(data, 8192, parallel=True), _reference(data))


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_forked_and_spawned_workers_give_the_same_report(monkeypatch, start):
    """A forked worker gets blocks read straight into the shared mapping's slots (a line too
    long for a slot sends the rest of the stream the general way: blocks copied into a slot,
    one longer than a slot examined in the main process), a spawned one through the queue;
    both, the line-by-line report."""
    monkeypatch.setattr(traj.worker, "can_fork", lambda: start == "fork")
    monkeypatch.setattr(traj.worker, "SLOT", 8192)  # a block with a partial line before it does not fit
    data = _tampered(11, _EDITS[0], 77, 300, 0.2)
    lines = data.split(b"\n")
    lines[150] = lines[150][:-1] + b',"pad":"' + b"x" * 9000 + b'"}'  # longer than a slot
    data = b"\n".join(lines)
    sent, slotted, ends = [], [], []
    real, real_slot, run_slots = (traj.worker.Worker.send, traj.worker.Worker.send_slot,
                                  traj.stream._run_slots)
    monkeypatch.setattr(traj.stream, "_run_slots", lambda *a: (
        ends.append(run_slots(*a)) or ends[-1]))
    monkeypatch.setattr(traj.worker.Worker, "send", lambda self, parts, hint=traj.SPELL_ALL: (
        sent.append((self._shared is not None, sum(map(len, parts)) <= traj.worker.SLOT))
        or real(self, parts, hint)))
    monkeypatch.setattr(traj.worker.Worker, "send_slot", lambda self, k, n, hint=traj.SPELL_ALL: (
        slotted.append(n) or real_slot(self, k, n, hint)))
    for name in ("events.jsonl", "events.jsonl.zst"):
        sent.clear()
        slotted.clear()
        ends.clear()
        raw = data if name == "events.jsonl" else zstandard.ZstdCompressor().compress(data)
        _same(_with_block(raw, 8192, parallel=True, name=name), _reference(data))
        assert {shared for shared, _ in sent} == {start == "fork"}
        assert {fits for _, fits in sent} == {True, False}
        if start == "fork":  # the lines before the long one through the slots
            assert slotted and ends[0][1] == len(b"\n".join(lines[:150])) + 1
            assert lines[150].startswith(ends[0][0])  # the rest: the general path
        else:
            assert not slotted and not ends


def test_a_worker_that_dies_mid_pass_leaves_its_blocks_to_the_main_process(monkeypatch):
    """The worker exits on its third block (as a crash would): the main process reads the end
    of its result pipe, examines the blocks it had sent there, and the report is the
    line-by-line one. Forked whatever threads this process runs (`can_fork` is False beside
    any other thread, and a spawned worker would not see the patch below): a thread left by
    another test must not change the path this test takes."""
    monkeypatch.setattr(traj.worker, "can_fork", lambda: True)
    main_pid = os.getpid()
    calls = {"worker": 0, "main": 0}
    real = traj.worker.scan_block

    def scan(data, ctx):
        if os.getpid() != main_pid:
            calls["worker"] += 1
            if calls["worker"] == 3:
                os._exit(3)
        else:
            calls["main"] += 1  # the blocks the dead worker left
        return real(data, ctx)

    monkeypatch.setattr(traj.worker, "scan_block", scan)
    data = _tampered(5, "byte", 150, 400, 0.2)
    _same(_with_block(data, 8192, parallel=True), _reference(data))
    assert calls["main"] >= 1


def test_a_forked_worker_is_started_without_multiprocessing():
    """The forked worker is started by `os.fork` (`worker.ForkedProcess`): importing
    `multiprocessing` for its fork context cost ~9 ms of CPU in every verification of a large
    trajectory (session 17). In a fresh interpreter, a pass with the worker gives the
    reference report and leaves `multiprocessing` unimported; fails where the fork context
    was `multiprocessing`'s."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})\n"
        "from trajhelp import chain_lines, join, verify_bytes, errors\n"
        "import moderator_app.core.verify.trajectory as traj\n"
        "traj.stream.BLOCK = 4096\n"
        "sent = []\n"
        "real = traj.worker.Worker.result\n"
        "traj.worker.Worker.result = lambda self, w: sent.append(1) or real(self, w)\n"
        "report = verify_bytes(join(chain_lines(400, seed=4)), parallel=True)\n"
        "print(len(sent) > 0, report.events, len(errors(report)),"
        " 'multiprocessing' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out == ["True", "400", "0", "False"]


def _running(pid: int) -> bool:
    """Whether process `pid` runs (a zombie left to a parent that does not reap it has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl: Linux")
def test_a_forked_child_ends_when_its_parent_is_killed():
    """`ForkedProcess` (session 18): a parent killed outright (SIGKILL) left its forked child
    running, here a target that sleeps 600 s (the worker's own loop notices only between
    blocks, when idle). Now the kernel kills the child with its parent. Fails on main (the
    child still runs at the guard's end)."""
    import subprocess
    import time

    code = ("import time\n"
            "from moderator_app.core.verify.trajectory.worker import ForkedProcess\n"
            "p = ForkedProcess(time.sleep, (600,))\n"
            "p.start()\n"
            "print(p.pid, flush=True)\n"
            "time.sleep(600)\n")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    try:
        assert _running(child)
        parent.kill()
        parent.wait()
        end = time.monotonic() + 60  # a guard against a hang, nothing timed
        while _running(child) and time.monotonic() < end:
            time.sleep(0.05)
        assert not _running(child)
    finally:
        parent.kill()
        parent.wait()
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, 9)


def test_a_worker_result_longer_than_its_pipe_holds(monkeypatch):
    """Findings of a block whose lines are all broken, larger than the result pipe holds: the
    worker writes them in pieces while the main process reads, and nothing is lost. Forked
    whatever threads this process runs (the result pipe is the forked worker's)."""
    monkeypatch.setattr(traj.worker, "can_fork", lambda: True)
    monkeypatch.setattr(traj.worker, "RESULT_PIPE_SIZE", 4096)
    sizes = []
    real_get = traj.worker.ResultPipe.get

    def get(self, timeout=None):
        got = real_get(self, timeout)
        sizes.append(len(pickle.dumps(got)))
        return got

    monkeypatch.setattr(traj.worker.ResultPipe, "get", get)
    lines = _tampered(9, "none", 0, 600, 0.2).split(b"\n")[:-1]
    data = join([raw[:-2] + b"0}" if i % 2 else raw for i, raw in enumerate(lines)])
    _same(_with_block(data, 1 << 16, parallel=True), _reference(data))
    assert max(sizes) > 4096 * 2


def test_a_valid_chain_is_applied_by_summaries():
    data = _tampered(1, "none", 0, 300, 0.0)
    ctx = LineContext()
    lines = data.split(b"\n")[:-1]
    block = join(lines[10:60])
    kind, summary = traj.scan_block(block, ctx)
    assert kind == "s" and summary[0] == 50
    assert summary[1] == orjson.loads(lines[10])["prev_hash"]
    assert summary[2] == orjson.loads(lines[59])["hash"]
    report = _with_block(data, 4096)
    assert errors(report) == [] and report.chain.valid is True and report.events == 300


# -- the plain-line canonical form -------------------------------------------------------
_plain_values = st.one_of(st.text(max_size=30), st.integers(-(2**53) + 1, 2**53 - 1),
                          st.booleans(), st.none())
_any_values = st.one_of(_plain_values, st.floats(allow_nan=False, allow_infinity=False),
                        st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=3),
                        st.dictionaries(st.text(max_size=6), _plain_values, max_size=3))


def _sealed_lines(payloads: list[dict]) -> list[bytes]:
    events = make_run_events(len(payloads) + 4, seed=5, variety=0)
    for ev, pl in zip(events[2:], payloads, strict=False):
        ev["payload"] = pl
        ev["type"] = "observation"
    return [orjson.dumps(e) for e in chain_events(events)]


@SETTINGS
@given(payloads=st.lists(st.dictionaries(st.text(max_size=8), _any_values, max_size=5),
                         min_size=9, max_size=14))
def test_block_hashes_equal_rfc8785_for_any_payload(payloads):
    lines = _sealed_lines(payloads)
    data = join(lines)
    report = _with_block(data, 1 << 20)
    assert errors(report) == [], [f.message for f in errors(report)]
    ctx = LineContext()
    assert examine_block(data, LineContext()) == [(len(r), examine_line(r, ctx)) for r in lines]


@SETTINGS
@given(payloads=st.lists(st.dictionaries(st.text(max_size=8), _plain_values, max_size=4),
                         min_size=9, max_size=12), which=st.integers(2, 8),
       how=st.sampled_from(["dup_member", "dup_hash", "escape", "space", "reorder"]))
def test_non_compact_or_repeated_members_never_take_the_plain_path(payloads, which, how):
    lines = _sealed_lines(payloads)
    raw = lines[which]
    if how == "dup_member":  # a repeated member whose dropped copy shortens the dump
        raw = raw[:-1] + b',"type":"observation"}'
    elif how == "dup_hash":
        ev = orjson.loads(raw)
        raw = raw[:-1] + b',"hash":"' + ev["hash"].encode() + b'"}'
    elif how == "escape":
        raw = raw.replace(b'"schema":"ale', b'"schema":"\\u0061le', 1)
    elif how == "space":
        raw = raw.replace(b'"type":', b'"type": ', 1)
    else:  # members reordered: still compact, still the same event
        ev = orjson.loads(raw)
        raw = orjson.dumps(dict(reversed(list(ev.items()))))
    lines[which] = raw
    data = join(lines)
    ctx = LineContext()
    assert examine_block(data, LineContext()) == [(len(r), examine_line(r, ctx)) for r in lines]
    report = _with_block(data, 1 << 20)
    _same(report, _reference(data))
    if how.startswith("dup"):
        assert "traj.duplicate_member" in rules_at(report, which + 1)
    else:
        assert errors(report) == []


def test_plain_canonical_is_the_reference_canonical():
    ev = {"schema": "ale-trajectory-event/v1", "producer_sequence": 3,
          "wall_time": "2026-07-10T14:00:00.000Z", "run_id": "r", "trust_level": "t",
          "producer": "p", "type": "x", "payload": {"é": "\u2028\"\\\x01", "b": 2**53 - 1},
          "prev_hash": ZERO_HASH}
    ev["hash"] = event_hash(ZERO_HASH, ev)
    line = orjson.dumps(ev)
    from moderator_app.core.formats.canonical import canonical_json

    body = {k: v for k, v in ev.items() if k != "hash"}
    dumped = orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
    assert dumped == canonical_json(body)
    assert len(dumped) + traj.columns.HASH_MEMBER == len(line)


def test_uniform_wall_strings_order_as_times():
    walls = ["2026-07-10T14:00:59.999Z", "2026-07-10T14:01:00.000Z", "2026-12-31T23:59:59.001Z",
             "2027-01-01T00:00:00.000Z"]
    assert traj.walltime.uniform_walls(walls)
    times = [traj.parse_wall_time(w) for w in walls]
    assert times == sorted(times) and len(set(times)) == 4
    assert not traj.walltime.uniform_walls(["2026-02-30T14:00:00.000Z"] * 2)


def test_gc_is_restored_after_a_pass():
    import gc

    data = _tampered(2, "none", 0, 30, 0.0)
    assert gc.isenabled()
    verify_bytes(data)
    assert gc.isenabled()
    report = Report(kind="official", input_name="x")
    traj.check_stream(lambda: io.BytesIO(b"not json\n"), "events.jsonl", 9, report)
    assert gc.isenabled()


def test_payload_member_outside_the_bmp_is_no_type_error_line_by_line():
    """Regression: canonicalising swapped the payload for a pre-serialised fragment before
    `examine_line` read it, so a valid event was called `payload must be an object`."""
    lines = _sealed_lines([{"\U00010000": None, "a": 1.5}] + [{}] * 8)
    data = join(lines)
    ctx = LineContext()
    facts = examine_line(lines[2], ctx)
    assert facts.status == traj.OK and facts.found is None and facts.computed == facts.recorded
    assert errors(verify_bytes(join(lines[:5]))) == []  # 5 lines: the line-by-line path
    _same(_with_block(data, 1 << 20), _reference(data))


def test_events_decoded_before_trailing_garbage_are_counted():
    from trajhelp import zstd

    lines = _sealed_lines([{}] * 8)
    report = verify_bytes(zstd(join(lines)) + b"garbage!", "events.jsonl.zst")
    assert report.events == len(lines) and report.complete is False
    err = errors(report)[0]
    assert err.rule == "traj.trailing_garbage" and err.line == len(lines) + 1
    assert f"{len(lines)} events verified" in err.message


class _Failing(io.BytesIO):
    """A member whose read fails after `limit` bytes (a damaged archive, a failing disk)."""

    def __init__(self, data: bytes, limit: int) -> None:
        super().__init__(data)
        self.limit = limit

    def read(self, size: int = -1) -> bytes:
        if self.tell() >= self.limit:
            raise OSError("read error")
        return super().read(min(size if size >= 0 else self.limit, self.limit - self.tell()))


@pytest.mark.parametrize("parallel", [False, True])
def test_blocks_read_before_a_read_error_are_verified(parallel):
    data = _tampered(4, "none", 0, 300, 0.0)
    limit = len(data) * 2 // 3
    report = Report(kind="official", input_name="x")
    old = traj.stream.BLOCK
    traj.stream.BLOCK = 4096
    try:
        traj.check_stream(lambda: _Failing(data, limit), "events.jsonl", len(data), report,
                          parallel=parallel)
    finally:
        traj.stream.BLOCK = old
    whole = data[:limit].count(b"\n")
    assert report.complete is False
    assert whole - 4096 // 300 - 2 <= report.events <= whole
    err = [f for f in errors(report) if f.rule == "input.unreadable"][0]
    assert err.line == report.events + 1 and f"{report.events} events verified" in err.message


def test_ascii_escaped_member_names_outside_the_bmp_hash_by_utf16_order():
    lines = _sealed_lines([{"\U0001f600": 1, "\ue000": 2}] + [{}] * 8)
    import json

    ev = orjson.loads(lines[2])
    lines[2] = json.dumps(ev, ensure_ascii=True, separators=(",", ":")).encode()
    assert lines[2].isascii() and b"\\ud83d\\ude00" in lines[2]
    data = join(lines)
    report = _with_block(data, 1 << 20)
    assert errors(report) == []
    _same(report, _reference(data))


def test_float_sequence_is_named_float_in_the_message():
    lines = _sealed_lines([{}] * 9)
    ev = orjson.loads(lines[4])
    ev["producer_sequence"] = 2.0
    del ev["hash"]
    ev["hash"] = event_hash(ev["prev_hash"], ev)
    lines[4] = orjson.dumps(ev)
    report = verify_bytes(join(lines))
    msgs = [f.message for f in report.findings.sorted() if f.rule == "traj.field_type"]
    assert msgs == ["producer_sequence must be an integer, not float"]


@pytest.mark.parametrize("offset", [0, 1, 2, 3, 70001])
def test_marker_prefilter_never_misses_a_marker_in_a_large_block(offset):
    from moderator_app.core.formats.secrets import MARKERS, markers_in

    base = b"reward batch level jump " * 4000  # > 64 KiB: the numpy prefilter runs
    assert markers_in(base) == ()
    for marker in MARKERS:
        block = base[:offset] + marker + base[offset:]
        assert marker in markers_in(block), (marker, offset)


def _shortest_json(c: int) -> bytes:
    """The shortest legal spelling of a character inside a JSON string."""
    named = {0x08: b"\\b", 0x09: b"\\t", 0x0A: b"\\n", 0x0C: b"\\f", 0x0D: b"\\r",
             0x22: b'\\"', 0x5C: b"\\\\"}
    if c in named:
        return named[c]
    return b"\\u%04x" % c if c < 0x20 else chr(c).encode()


def test_orjson_spells_every_character_as_short_as_json_allows():
    """The premise of the plain-line proof: no string token can be shorter in the line than
    in orjson's dump, so a dump as long as the line dropped no repeated member."""
    codes = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    text = "".join(map(chr, codes))
    assert orjson.dumps(text) == b'"' + b"".join(map(_shortest_json, codes)) + b'"'
