"""End to end through the CLI, both engines: `moderator-app verify PATH --json` with the C
accelerator (default) and with `MODERATOR_APP_NATIVE=0` must give the same report, and the
report must be what a reviewer would conclude, for edits placed exactly where the block fast
path (`_jcs.summarise` + `TrajectoryChecker.apply_summary`) could go wrong: the first and
last line of a ~1 MiB block, a line deleted, duplicated or swapped across a block boundary,
per-producer sequence/clock/trust changes across a boundary, a second run_id, many producers,
types and minutes in one block, odd run_start/run_end, multi-frame zstd, CRLF, no final
newline, truncated zstd, and 8 MB+ inputs that go through the worker process.

Chains come from `trajectory_writer` (the independent oracle). Block boundaries are located
with the verifier's own reader (`trajectory.stream.iter_blocks`), and every case asserts the edit sits
where it is meant to sit, so a change of the block size cannot silently void a case.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from itertools import accumulate
from pathlib import Path

import orjson
import pytest
import zstandard

from moderator_app.core.formats.chain import ZERO_HASH
from moderator_app.core.formats.zstream import ZstdReader, is_zstd_start
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events
from moderator_app.core.verify import trajectory

EXE = Path(sys.executable).parent / "moderator-app"
SEED_INFO = {"seed.not_checked": 1}  # one commitment, no seeds given: an info, always there


# -- running the CLI -------------------------------------------------------------------------
def _env(native: bool, workers: bool | None) -> dict:
    env = dict(os.environ)
    env.pop("MODERATOR_APP_NATIVE", None)
    env.pop("MODERATOR_APP_WORKERS", None)
    if not native:
        env["MODERATOR_APP_NATIVE"] = "0"
    if workers is False:
        env["MODERATOR_APP_WORKERS"] = "0"
    return env


def _start(path: Path, native: bool, workers: bool | None = None) -> subprocess.Popen:
    return subprocess.Popen([str(EXE), "verify", str(path), "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_env(native, workers))


def _finish(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, 1), err.decode()[-2000:]
    rep = orjson.loads(out)
    assert proc.returncode == (0 if rep["verdict"] == "pass" else 1)
    return rep


def verify_both(path: Path, configs=((True, None), (False, None))) -> dict:
    """Run the CLI under each (native, workers) config at once; the reports must be equal
    (the report holds no timing: every member is compared)."""
    procs = [_start(path, native, workers) for native, workers in configs]
    reps = [_finish(p) for p in procs]
    for cfg, rep in zip(configs[1:], reps[1:], strict=True):
        assert rep == reps[0], f"engine reports differ: {configs[0]} vs {cfg}: " + (
            _diff(reps[0], rep))
    return reps[0]


def _diff(a: dict, b: dict) -> str:
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    return "; ".join(f"{k}: {a.get(k)!r:.600} != {b.get(k)!r:.600}" for k in keys)


# -- building inputs -------------------------------------------------------------------------
def encode(events: list[dict]) -> bytes:
    return b"".join(orjson.dumps(e) + b"\n" for e in events)


def rechain(events: list[dict], start: int) -> list[dict]:
    """A copy with events[start:] sealed again onto events[start - 1] (or the chain start)."""
    prev = events[start - 1]["hash"] if start else ZERO_HASH
    return events[:start] + chain_events(events[start:], prev)


def block_ends(data: bytes) -> list[int]:
    """The line number (1-based) of the last line of each block, as the verifier cuts them."""
    head, rest = data[:4], io.BytesIO(data[4:])
    src = trajectory.stream.PrefixedReader(head, rest)
    if is_zstd_start(head):
        src = ZstdReader(src)
    ends, n = [], 0
    for _, block in trajectory.stream.iter_blocks(src):
        n += block.count(b"\n") + (block[-1:] != b"\n")
        ends.append(n)
    return ends


def place(build, k: int, rel: int, span: int = 24):
    """Find the index `j` (0-based, near boundary `k` of the base file) for which the events
    `build(j)` returns, (events, target line, index to re-seal from or None), have the target
    line at `ends[k] + rel` of their own blocks (rel 0: the last line of block k+1; 1: the
    first line of block k+2). The layout is found before sealing (same line lengths)."""
    for j in range(BASE_ENDS[k] - span, BASE_ENDS[k] + span):
        evs, target, seal_from = build(j)
        data = encode(evs)
        ends = block_ends(data)
        if len(ends) > k + 1 and target == ends[k] + rel:
            if seal_from is not None:
                data = encode(rechain(evs, seal_from))
                assert block_ends(data) == ends
            return j, data, target
    raise AssertionError("no placement puts the edit at the boundary")


def place_padded(build, k: int, rel: int):
    """`place` for edits that must hit one producer's line: the nearest line `build(j)`
    accepts (it returns None otherwise) is moved onto the boundary by a `pad` member added to
    the payload of a line 8 before it (blocks are cut at the last newline before
    4 + (k+1) MiB: the 4 sniffed bytes, then 1 MiB reads)."""
    cut = 4 + (k + 1) * (1 << 20)
    for j in range(BASE_ENDS[k] + 3, BASE_ENDS[k] - 60, -1):
        got = build(j)
        if got is None:
            continue
        evs, target, seal_from = got
        last = target - 1 + rel  # the line that must end block k+1 (1-based)
        ends = list(accumulate(len(orjson.dumps(e)) + 1 for e in evs))
        lo, hi = cut - (ends[last] - 1), cut - (ends[last - 1] - 1) - 1
        d = 0 if lo <= 0 <= hi else max(lo, 9)
        if not 0 <= d <= hi:
            continue
        if d:
            i = last - 8
            evs = list(evs)
            evs[i] = with_(evs[i], payload={**evs[i]["payload"], "pad": "a" * (d - 9)})
            seal_from = i if seal_from is None else min(i, seal_from)
        data = encode(rechain(evs, seal_from) if seal_from is not None else evs)
        assert block_ends(data)[k] == last
        return j, data, target
    raise AssertionError("no placement puts the edit at the boundary")


EDGES = [(0, 1), (1, 0), (1, 1), (2, 0)]  # first/last lines of the summed-up blocks 2 and 3


def with_(ev: dict, **changes) -> dict:
    out = dict(ev)
    out.update(changes)
    return out


BASE_N = 5600  # ~3.4 MB: 4 blocks; blocks 2 and 3 sum up (1 holds the commitment, 4 the score)
BASE = chain_events(make_run_events(BASE_N, seed=5))
BASE_DATA = encode(BASE)
BASE_ENDS = block_ends(BASE_DATA)


def _ts(ms: int) -> str:
    from datetime import datetime, timezone

    t = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def _ms(wall: str) -> int:
    from datetime import datetime

    t = datetime.fromisoformat(wall.replace("Z", "+00:00"))
    return round(t.timestamp() * 1000)


def prev_of(events: list[dict], j: int) -> dict:
    """The event before index j from the same producer."""
    name = events[j]["producer"]
    return next(e for e in reversed(events[:j]) if e["producer"] == name)


def write(tmp_path: Path, data: bytes, name: str = "events.jsonl") -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


def check(rep: dict, *, verdict: str, events: int, first: tuple | None,
          by_rule: dict, first_break=None, breaks: int = 0, complete: bool = True) -> None:
    s = rep["summary"]
    assert rep["verdict"] == verdict and s["verdict"] == verdict
    assert rep["events"] == events and rep["chain"]["events"] == events
    assert (s["first_error_line"], s["first_error_rule"]) == (first or (None, None))
    assert s["findings_by_rule"] == by_rule
    assert rep["chain"]["first_break"] == first_break
    assert rep["chain"]["breaks"] == breaks
    assert rep["chain"]["complete"] is complete and rep["complete"] is complete
    assert rep["chain"]["valid"] is (complete and breaks == 0 and events > 0)


# -- sanity of the layout ----------------------------------------------------------------------
def test_layout_and_valid_base(tmp_path):
    # block 1 holds the bytes up to the last newline before 1 MiB + 4 (the 4 sniffed bytes)
    assert len(BASE_ENDS) == 4 and BASE_ENDS[-1] == BASE_N
    cut = BASE_DATA.rfind(b"\n", 0, (1 << 20) + 4) + 1
    assert BASE_DATA[:cut].count(b"\n") == BASE_ENDS[0]
    rep = verify_both(write(tmp_path, BASE_DATA))
    check(rep, verdict="pass", events=BASE_N, first=None, by_rule=SEED_INFO)
    assert rep["chain"]["head"] == BASE[-1]["hash"]
    assert rep["run"]["producers"] == {
        p: {"events": sum(e["producer"] == p for e in BASE), "trust_level": t}
        for p, t in (("agent", "untrusted_agent"), ("evaluator", "trusted_evaluator"),
                     ("harness", "trusted_harness"), ("proxy", "trusted_proxy"))}
    assert rep["run"]["started_at"] == BASE[0]["wall_time"]
    assert rep["run"]["ended_at"] == BASE[-1]["wall_time"]
    assert rep["run"]["span_from"] == "run_start/run_end"


# -- chain edits at the boundaries ------------------------------------------------------------
@pytest.mark.parametrize("k, rel", EDGES)
def test_edit_at_block_edge(tmp_path, k, rel):
    """A payload byte changed (hash left as it was) on the last / first line of a block."""
    line = BASE_ENDS[k] + rel
    evs = list(BASE)
    ev = evs[line - 1]
    key = next(k_ for k_, v in ev["payload"].items() if type(v) is str)
    value = ev["payload"][key]
    evs[line - 1] = with_(ev, payload={**ev["payload"], key: "X" + value[1:]})
    data = encode(evs)
    assert block_ends(data) == BASE_ENDS
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="fail", events=BASE_N, first=(line, "chain.edited"),
          by_rule={**SEED_INFO, "chain.edited": 1},
          first_break={"line": line, "kind": "edited"}, breaks=1)
    assert rep["chain"]["head"] == BASE[-1]["hash"]


@pytest.mark.parametrize("k, rel", EDGES)
def test_deleted_line_at_boundary(tmp_path, k, rel):
    """Line j deleted so that the line after the gap is the last / first line of a block."""
    j, data, line = place(lambda j: (BASE[:j] + BASE[j + 1:], j + 1, None), k, rel)
    rep = verify_both(write(tmp_path, data))
    by = {**SEED_INFO, "chain.link": 1}
    # the producer of the deleted event loses one sequence number: not a sequence error
    check(rep, verdict="fail", events=BASE_N - 1, first=(line, "chain.link"), by_rule=by,
          first_break={"line": line, "kind": "link"}, breaks=1)


@pytest.mark.parametrize("k, rel", EDGES)
def test_duplicated_line_at_boundary(tmp_path, k, rel):
    """Line j repeated: the copy breaks the link and repeats its producer's sequence."""
    j, data, line = place(lambda j: (BASE[:j + 1] + BASE[j:], j + 2, None), k, rel)
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="fail", events=BASE_N + 1, first=(line, "chain.link"),
          by_rule={**SEED_INFO, "chain.link": 1, "traj.producer_sequence": 1},
          first_break={"line": line, "kind": "link"}, breaks=1)


@pytest.mark.parametrize("k", [0, 1, 2])
def test_swapped_lines_across_boundary(tmp_path, k):
    """The last line of a block and the first of the next swapped (same byte layout)."""
    line = BASE_ENDS[k]
    evs = list(BASE)
    evs[line - 1], evs[line] = evs[line], evs[line - 1]
    data = encode(evs)
    ends = block_ends(data)
    a, b = BASE[line - 1], BASE[line]
    assert a["producer"] != b["producer"]
    # b (links to a) after the line before a; a after b; the next line after a: 3 links
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="fail", events=BASE_N, first=(line, "chain.link"),
          by_rule={**SEED_INFO, "chain.link": 3},
          first_break={"line": line, "kind": "link"}, breaks=3)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.link"] == [
        line, line + 1, line + 2]
    assert ends[k] in (line - 1, line, line + 1)


# -- envelope rules across a boundary (chain re-sealed: only the rule fires) --------------------
def _seq_build(delta: int):
    def build(j):
        evs = list(BASE)
        p = prev_of(evs, j)
        evs[j] = with_(evs[j], producer_sequence=p["producer_sequence"] + delta)
        return evs, j + 1, j
    return build


@pytest.mark.parametrize("k, rel, delta", [*((k, r, 0) for k, r in EDGES), (1, 1, -3)])
def test_sequence_repeats_or_goes_back_at_boundary(tmp_path, k, rel, delta):
    j, data, line = place(_seq_build(delta), k, rel)
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="fail", events=BASE_N, first=(line, "traj.producer_sequence"),
          by_rule={**SEED_INFO, "traj.producer_sequence": 1})
    assert rep["chain"]["valid"] is True


@pytest.mark.parametrize("k, rel, back_ms", [*((k, r, 1) for k, r in EDGES), (1, 1, 0)])
def test_wall_time_back_1ms_or_equal_at_boundary(tmp_path, k, rel, back_ms):
    line = BASE_ENDS[k] + rel
    evs = list(BASE)
    p = prev_of(evs, line - 1)
    evs[line - 1] = with_(evs[line - 1], wall_time=_ts(_ms(p["wall_time"]) - back_ms))
    data = encode(rechain(evs, line - 1))
    assert block_ends(data) == BASE_ENDS
    rep = verify_both(write(tmp_path, data))
    by = {**SEED_INFO, "traj.wall_time_backwards": 1} if back_ms else SEED_INFO
    check(rep, verdict="pass", events=BASE_N, first=None, by_rule=by)
    if back_ms:
        f = next(f for f in rep["findings"] if f["rule"] == "traj.wall_time_backwards")
        assert f["line"] == line and f["severity"] == "warning"
        assert "0.001 s before" in f["message"]


def test_equal_wall_times_everywhere(tmp_path):
    """Every event at the same millisecond: valid, duration 0."""
    evs = [with_(e, wall_time="2026-07-10T14:00:00.000Z") for e in BASE]
    rep = verify_both(write(tmp_path, encode(rechain(evs, 0))))
    check(rep, verdict="pass", events=BASE_N, first=None, by_rule=SEED_INFO)
    assert rep["run"]["duration_s"] == 0.0


@pytest.mark.parametrize("k, rel", [(0, 1), (1, 1)])
def test_second_run_id_from_boundary_on(tmp_path, k, rel):
    line = BASE_ENDS[k] + rel
    other = "run_" + "f" * 16
    evs = BASE[:line - 1] + [with_(e, run_id=other) for e in BASE[line - 1:]]
    data = encode(rechain(evs, line - 1))
    assert block_ends(data) == BASE_ENDS
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="fail", events=BASE_N, first=(line, "traj.run_id_mismatch"),
          by_rule={**SEED_INFO, "traj.run_id_mismatch": BASE_N - line + 1})
    assert rep["run"]["run_id"] == BASE[0]["run_id"]


@pytest.mark.parametrize("k, rel", EDGES)
def test_one_foreign_run_id_line_at_boundary(tmp_path, k, rel):
    line = BASE_ENDS[k] + rel
    evs = list(BASE)
    evs[line - 1] = with_(evs[line - 1], run_id="run_" + "0" * 16)
    data = encode(rechain(evs, line - 1))
    assert block_ends(data) == BASE_ENDS
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="fail", events=BASE_N, first=(line, "traj.run_id_mismatch"),
          by_rule={**SEED_INFO, "traj.run_id_mismatch": 1})


@pytest.mark.parametrize("k, rel, persist", [*((k, r, False) for k, r in EDGES),
                                              (1, 1, True)])
def test_trust_level_changes_at_boundary(tmp_path, k, rel, persist):
    """The harness turns `trusted_proxy` on one line, or from that line on."""
    def build(j):
        evs = list(BASE)
        for i in range(j, len(evs) if persist else j + 1):
            if evs[i]["producer"] == "harness":
                evs[i] = with_(evs[i], trust_level="trusted_proxy")
        return evs, j + 1, j

    j, data, line = place_padded(lambda j: build(j) if BASE[j]["producer"] == "harness"
                                 else None, k, rel)
    rep = verify_both(write(tmp_path, data))
    later = [i for i in range(line - 1, BASE_N) if BASE[i]["producer"] == "harness"]
    count = len(later) if persist else 1
    check(rep, verdict="fail", events=BASE_N, first=(line, "traj.trust_inconsistent"),
          by_rule={**SEED_INFO, "traj.trust_inconsistent": count})
    assert rep["run"]["producers"]["harness"]["trust_level"] == "trusted_harness"


@pytest.mark.parametrize("k, rel", EDGES)
def test_trusted_agent_at_boundary(tmp_path, k, rel):
    def build(j):
        if BASE[j]["producer"] != "agent":
            return None
        evs = list(BASE)
        evs[j] = with_(evs[j], trust_level="trusted_harness")
        return evs, j + 1, j

    _, data, line = place_padded(build, k, rel)
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="fail", events=BASE_N, first=(line, "traj.agent_trusted"),
          by_rule={**SEED_INFO, "traj.agent_trusted": 1, "traj.trust_inconsistent": 1})


@pytest.mark.parametrize("k, rel", EDGES)
def test_untrusted_eval_result_at_boundary(tmp_path, k, rel):
    def build(j):
        if BASE[j]["producer"] != "agent":
            return None
        evs = list(BASE)
        evs[j] = with_(evs[j], type="eval_result", payload={"score": 99.5})
        return evs, j + 1, j

    _, data, line = place_padded(build, k, rel)
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="fail", events=BASE_N, first=(line, "traj.eval_result_untrusted"),
          by_rule={**SEED_INFO, "traj.eval_result_untrusted": 1})
    score = rep["run"]["score"]
    assert score["authoritative_line"] == BASE_N - 1
    assert score["untrusted_claims"] == [{"line": line, "producer": "agent",
                                          "trust_level": "untrusted_agent",
                                          "type": "eval_result", "score": 99.5,
                                          "label": "untrusted"}]


# -- many producers, types, minutes in one block -----------------------------------------------
def test_more_than_16_producers_types_and_32_minutes(tmp_path):
    """Blocks 2-3 hold 20 producers, 40 event types and one event a minute (~1700 minutes a
    block): the C summary declines them; the verdict is a pass either way."""
    lo, hi = BASE_ENDS[0], BASE_ENDS[2]
    seqs: dict[str, int] = {}
    t0 = _ms(BASE[lo - 1]["wall_time"])
    evs = list(BASE[:lo])
    for i in range(lo, hi):
        e = BASE[i]
        name = f"sensor{i % 20:02d}"
        seqs[name] = seqs.get(name, -1) + 1
        evs.append(with_(e, producer=name, trust_level="trusted_proxy", type=f"kind{i % 40:02d}",
                         producer_sequence=seqs[name], wall_time=_ts(t0 + 60_000 * (i - lo + 1))))
    tail_t = t0 + 60_000 * (hi - lo + 1)
    evs += [with_(e, wall_time=_ts(tail_t + 500 * i)) for i, e in enumerate(BASE[hi:])]
    data = encode(rechain(evs, lo))
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="pass", events=BASE_N, first=None, by_rule=SEED_INFO)
    prods = rep["run"]["producers"]
    assert len(prods) == 24
    assert prods["sensor07"] == {"events": sum(i % 20 == 7 for i in range(lo, hi)),
                                 "trust_level": "trusted_proxy"}
    assert sum(p["events"] for p in prods.values()) == BASE_N


def test_17_producers_one_of_them_goes_back(tmp_path):
    """17 producers in the summed-up blocks, the 17th's sequence repeats at the boundary."""
    lo, hi = BASE_ENDS[0], BASE_ENDS[2]
    seqs: dict[str, int] = {}
    evs = list(BASE[:lo])
    for i in range(lo, hi):
        name = f"p{i % 17:02d}"
        seqs[name] = seqs.get(name, -1) + 1
        evs.append(with_(BASE[i], producer=name, trust_level="trusted_proxy",
                         producer_sequence=seqs[name]))
    evs += BASE[hi:]
    line = block_ends(encode(evs))[1] + 1
    p = prev_of(evs, line - 1)
    evs[line - 1] = with_(evs[line - 1], producer_sequence=p["producer_sequence"])
    data = encode(rechain(evs, lo))
    assert block_ends(data)[1] == line - 1
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="fail", events=BASE_N, first=(line, "traj.producer_sequence"),
          by_rule={**SEED_INFO, "traj.producer_sequence": 1})


# -- run_start / run_end in odd places ---------------------------------------------------------
def _retype(evs, idx, etype):
    evs[idx] = with_(evs[idx], type=etype, payload={"status": "x"})


def _harness_at(line):
    return next(i for i in range(line - 1, BASE_N) if BASE[i]["producer"] == "harness")


def test_run_start_twice_second_at_boundary(tmp_path):
    evs = list(BASE)
    i = _harness_at(BASE_ENDS[1] + 1)
    _retype(evs, i, "run_start")
    rep = verify_both(write(tmp_path, encode(rechain(evs, i))))
    check(rep, verdict="pass", events=BASE_N, first=None, by_rule=SEED_INFO)
    assert rep["run"]["started_at"] == BASE[0]["wall_time"]  # the first run_start counts
    assert rep["run"]["ended_at"] == BASE[-1]["wall_time"]


def test_run_end_twice_first_at_boundary_last_wins(tmp_path):
    evs = list(BASE)
    i = _harness_at(BASE_ENDS[1])
    _retype(evs, i, "run_end")
    rep = verify_both(write(tmp_path, encode(rechain(evs, i))))
    check(rep, verdict="pass", events=BASE_N, first=None, by_rule=SEED_INFO)
    assert rep["run"]["ended_at"] == BASE[-1]["wall_time"]


def test_run_end_only_in_middle_and_no_final(tmp_path):
    """run_end inside a summed-up block, the real run_end dropped: the run 'ends' mid-way."""
    evs = list(BASE[:-1])
    i = _harness_at(BASE_ENDS[1] - 40)
    _retype(evs, i, "run_end")
    rep = verify_both(write(tmp_path, encode(rechain(evs, i))))
    check(rep, verdict="pass", events=BASE_N - 1, first=None, by_rule=SEED_INFO)
    assert rep["run"]["ended_at"] == BASE[i]["wall_time"]
    assert rep["run"]["span_from"] == "run_start/run_end"


def test_run_end_missing(tmp_path):
    rep = verify_both(write(tmp_path, encode(BASE[:-1])))
    check(rep, verdict="pass", events=BASE_N - 1, first=None,
          by_rule={**SEED_INFO, "traj.run_end_missing": 1})
    assert rep["run"]["span_from"] == "first/last wall_time"
    assert rep["run"]["ended_at"] == BASE[-2]["wall_time"]


def test_run_end_before_run_start(tmp_path):
    """The run_start retyped to run_end, a run_start in block 3: the span would be negative."""
    evs = list(BASE)
    _retype(evs, 0, "run_end")
    evs[-1] = with_(evs[-1], type="observation")
    i = _harness_at(BASE_ENDS[1] + 1)
    _retype(evs, i, "run_start")
    rep = verify_both(write(tmp_path, encode(rechain(evs, 0))))
    # a warning (a moderator must see it: the video coverage cannot be checked), not an error
    check(rep, verdict="pass", events=BASE_N, first=None,
          by_rule={**SEED_INFO, "traj.run_span_order": 1})
    run = rep["run"]
    assert run["duration_s"] is None and run["span_from"] == "run_start/run_end"
    assert (run["started_at"], run["ended_at"]) == (BASE[i]["wall_time"], BASE[0]["wall_time"])


# -- stream shapes -----------------------------------------------------------------------------
def test_no_final_newline_last_line_alone_in_its_block(tmp_path):
    """The last line, without its newline, is a block of its own (it starts past a chunk)."""
    def build(j):
        return encode(BASE[:j])[:-1], j
    # the last line's own block: the previous block ends at the line before
    for j in range(BASE_ENDS[0] - 4, BASE_ENDS[0] + 6):
        data, n = build(j)
        if block_ends(data)[-2:] == [n - 1, n]:
            break
    else:
        raise AssertionError("no layout with the last line alone")
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="pass", events=n, first=None,
          by_rule={**SEED_INFO, "traj.no_final_newline": 1, "traj.run_end_missing": 1,
                   "traj.no_eval_result": 1})


def test_no_final_newline_full_run(tmp_path):
    rep = verify_both(write(tmp_path, BASE_DATA[:-1]))
    check(rep, verdict="pass", events=BASE_N, first=None,
          by_rule={**SEED_INFO, "traj.no_final_newline": 1})
    f = next(f for f in rep["findings"] if f["rule"] == "traj.no_final_newline")
    assert f["line"] == BASE_N


@pytest.mark.parametrize("k, rel", EDGES)
def test_one_crlf_line_at_boundary(tmp_path, k, rel):
    line = BASE_ENDS[k] + rel
    lines = BASE_DATA.split(b"\n")
    lines[line - 1] += b"\r"
    data = b"\n".join(lines)
    assert block_ends(data)[k] in (line - 1, line)
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="fail", events=BASE_N, first=(line, "traj.line_ending"),
          by_rule={**SEED_INFO, "traj.line_ending": 1})


def test_all_crlf(tmp_path):
    data = BASE_DATA.replace(b"\n", b"\r\n")
    rep = verify_both(write(tmp_path, data))
    assert rep["verdict"] == "fail" and rep["events"] == BASE_N
    assert rep["summary"]["first_error_line"] == 1
    assert rep["summary"]["first_error_rule"] == "traj.line_ending"
    assert rep["summary"]["findings_by_rule"] == {**SEED_INFO, "traj.line_ending": BASE_N}
    assert rep["chain"]["valid"] is True  # the hashed content is intact


def _zstd_cut(data: bytes, cuts: list[int]) -> bytes:
    cctx = zstandard.ZstdCompressor(level=1, write_checksum=True)
    edges = [0, *cuts, len(data)]
    return b"".join(cctx.compress(data[a:b]) for a, b in zip(edges, edges[1:], strict=False))


def test_multiframe_zstd_frames_cut_mid_line(tmp_path):
    """Frames end inside lines, one of them inside the first line of block 3."""
    line = BASE_ENDS[1] + 1
    start = sum(len(x) + 1 for x in BASE_DATA.split(b"\n")[:line - 1])
    cuts = [777, (1 << 20) - 3, start + 5, start + 100_001, len(BASE_DATA) - 2]
    data = _zstd_cut(BASE_DATA, cuts)
    rep = verify_both(write(tmp_path, data, "events.jsonl.zst"))
    check(rep, verdict="pass", events=BASE_N, first=None, by_rule=SEED_INFO)
    assert rep["chain"]["head"] == BASE[-1]["hash"]


def test_multiframe_zstd_with_edit_and_deletion(tmp_path):
    evs = list(BASE)
    line = BASE_ENDS[1] + 1
    evs[line - 1] = with_(evs[line - 1], producer="intruder")  # hash left stale: edited
    evs = evs[:BASE_ENDS[2] + 3] + evs[BASE_ENDS[2] + 4:]  # a deletion in block 4
    plain = encode(evs)
    data = _zstd_cut(plain, [1000, 1_500_000, 1_500_013, 2_999_999])
    rep = verify_both(write(tmp_path, data, "events.jsonl.zst"))
    check(rep, verdict="fail", events=BASE_N - 1, first=(line, "chain.edited"),
          by_rule={**SEED_INFO, "chain.edited": 1, "chain.link": 1},
          first_break={"line": line, "kind": "edited"}, breaks=2)
    link = next(f for f in rep["findings"] if f["rule"] == "chain.link")
    assert link["line"] == BASE_ENDS[2] + 4


@pytest.mark.parametrize("frame, keep", [(0, 0.6), (1, 0.3)])
def test_truncated_zst(tmp_path, frame, keep):
    """The compressed stream cut inside frame 1 or 2: the whole lines decoded before the cut
    are verified and counted, the partial line is not, the verdict fails."""
    half = BASE_DATA.rfind(b"\n", 0, len(BASE_DATA) // 2) + 7  # frame 1 ends mid-line
    f1, f2 = _zstd_cut(BASE_DATA[:half], []), _zstd_cut(BASE_DATA[half:], [])
    cut = len(f1) * (frame) + int(len((f1, f2)[frame]) * keep)
    data = (f1 + f2)[:cut]
    dobj = zstandard.ZstdDecompressor().decompressobj()
    decoded = (BASE_DATA[:half] if frame else b"") + dobj.decompress((f1, f2)[frame][:int(
        len((f1, f2)[frame]) * keep)])
    assert 0 < len(decoded) < len(BASE_DATA)
    n = decoded.count(b"\n")
    rep = verify_both(write(tmp_path, data, "events.jsonl.zst"))
    assert rep["events"] == n and rep["chain"]["events"] == n
    assert rep["verdict"] == "fail" and rep["complete"] is False
    assert rep["summary"]["first_error_rule"] == "traj.zstd_truncated"
    assert rep["summary"]["first_error_line"] == n + 1
    assert rep["summary"]["findings_by_rule"] == {**SEED_INFO, "traj.zstd_truncated": 1}
    assert rep["chain"]["complete"] is False and rep["chain"]["valid"] is False
    assert rep["chain"]["head"] == BASE[n - 1]["hash"]


# -- 8 MB+: the worker process ------------------------------------------------------------------
BIG_N = 14_000


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A valid ~8.5 MB run and a tampered copy with faults at several block boundaries."""
    d = tmp_path_factory.mktemp("big")
    evs = chain_events(make_run_events(BIG_N, seed=9))
    data = encode(evs)
    ends = block_ends(data)
    assert len(data) >= 8 << 20 and len(ends) >= 8
    valid = write(d, data)
    bad = list(evs)
    faults = {}
    # block 3/4: sequence repeat on the first line of block 4 (rechained)
    j = ends[2]
    bad[j] = with_(bad[j], producer_sequence=prev_of(bad, j)["producer_sequence"])
    faults[j + 1] = "traj.producer_sequence"
    # block 6/7: the first line of block 7 one millisecond behind its producer's last
    j7 = ends[5]
    bad[j7] = with_(bad[j7], wall_time=_ts(_ms(prev_of(bad, j7)["wall_time"]) - 1))
    faults[j7 + 1] = "traj.wall_time_backwards"
    bad = rechain(bad, j)
    # block 5: its last line edited in place, same length (stale hash)
    e5 = ends[4] - 1
    ev = bad[e5]
    key = next(k for k, v in ev["payload"].items() if type(v) is str)
    bad[e5] = with_(ev, payload={**ev["payload"], key: "X" + ev["payload"][key][1:]})
    faults[e5 + 1] = "chain.edited"
    tampered = encode(bad)
    assert block_ends(tampered) == ends
    return valid, write(d, tampered, "tampered.jsonl"), evs, faults


ALL4 = ((True, None), (False, None), (True, False), (False, False))


def test_big_valid_with_and_without_worker(big):
    valid, _, evs, _ = big
    rep = verify_both(valid, ALL4)
    check(rep, verdict="pass", events=BIG_N, first=None, by_rule=SEED_INFO)
    assert rep["chain"]["head"] == evs[-1]["hash"]


def test_big_tampered_with_and_without_worker(big):
    _, tampered, _, faults = big
    rep = verify_both(tampered, ALL4)
    first = min(faults)
    check(rep, verdict="fail", events=BIG_N, first=(first, faults[first]),
          by_rule={**SEED_INFO, "traj.producer_sequence": 1, "chain.edited": 1,
                   "traj.wall_time_backwards": 1},
          first_break={"line": min(k for k, v in faults.items() if v == "chain.edited"),
                       "kind": "edited"}, breaks=1)
    got = {(f["line"], f["rule"]) for f in rep["findings"] if f["line"] is not None}
    assert got == set(faults.items())


def test_big_zst_multiframe_worker(big, tmp_path):
    valid, _, evs, _ = big
    data = valid.read_bytes()
    z = _zstd_cut(data, [3, 1 << 20, (5 << 20) + 17, len(data) - 1])
    rep = verify_both(write(tmp_path, z, "events.jsonl.zst"), ALL4)
    check(rep, verdict="pass", events=BIG_N, first=None, by_rule=SEED_INFO)


# -- spelling and unreadable lines at the boundaries --------------------------------------------
@pytest.mark.parametrize("line", [1, BASE_ENDS[1], BASE_ENDS[1] + 1])
def test_respelled_line_at_boundary(tmp_path, line):
    """A TAB after a comma: value and hash intact, but no known writer spells it (a warning)."""
    lines = BASE_DATA.split(b"\n")
    lines[line - 1] = lines[line - 1].replace(b'","type":', b'",\t"type":', 1)
    data = b"\n".join(lines)
    assert len(data) == len(BASE_DATA) + 1
    rep = verify_both(write(tmp_path, data))
    check(rep, verdict="pass", events=BASE_N, first=None,
          by_rule={**SEED_INFO, "chain.respelled": 1})
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.respelled"] == [line]


@pytest.mark.parametrize("bad", [b"", b"{not json"])
def test_blank_or_garbage_line_first_in_block_3(tmp_path, bad):
    lines = BASE_DATA.split(b"\n")
    line = BASE_ENDS[1] + 1
    if bad:
        lines[line - 1] = bad  # replaces an event: the next line's link breaks too
    else:
        lines.insert(line - 1, bad)  # inserted: the chain goes on over it
    data = b"\n".join(lines)
    assert block_ends(data)[1] in (line - 1, line)  # the last or the first line of a block
    rep = verify_both(write(tmp_path, data))
    if bad:
        check(rep, verdict="fail", events=BASE_N, first=(line, "traj.json"),
              by_rule={**SEED_INFO, "traj.json": 1, "chain.link": 1},
              first_break={"line": line, "kind": "unreadable"}, breaks=2)
    else:
        # a blank line is no event and no link: the chain goes on over it (unbroken)
        check(rep, verdict="fail", events=BASE_N, first=(line, "traj.blank"),
              by_rule={**SEED_INFO, "traj.blank": 1}, first_break=None, breaks=0)
    assert rep["chain"]["unreadable_lines"] == (1 if bad else 0)


def test_a_respelled_flood_is_counted_past_the_cap(tmp_path):
    """Every line from line 3 spelled as no known writer spells it (PHP's `\\/` in the
    schema, which the C summary takes: its blocks report the warning as runs), after two
    lines orjson spells: each is a warning, the first 500 listed at their lines, the rest
    counted (not made one by one), the same in every engine."""
    lines = BASE_DATA.split(b"\n")
    for i in range(2, BASE_N):
        lines[i] = lines[i].replace(b'"ale-trajectory-event/v1"',
                                    b'"ale-trajectory-event\\/v1"', 1)
    data = b"\n".join(lines)
    assert len(data) == len(BASE_DATA) + BASE_N - 2
    rep = verify_both(write(tmp_path, data), ALL4)
    check(rep, verdict="pass", events=BASE_N, first=None,
          by_rule={**SEED_INFO, "chain.respelled": BASE_N - 2})
    listed = [f["line"] for f in rep["findings"] if f["rule"] == "chain.respelled"]
    assert listed == list(range(3, 503))
    assert rep["summary"]["warnings"] == BASE_N - 2
    assert rep["summary"]["findings_not_listed"] == BASE_N - 2 - 500
