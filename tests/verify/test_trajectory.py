"""Event and chain rules of official trajectories, each at its exact line (docs/DESIGN.md 1-11)."""

from __future__ import annotations

import copy

import orjson
import pytest
from trajhelp import chain_lines, errors, first_error, join, rules_at, verify_bytes, zstd

from moderator_app.core.formats.chain import seal
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

# Every test here runs on both engines (conftest.engine): their reports must be the same.
pytestmark = pytest.mark.usefixtures("engine")

BASE = make_run_events(12, seed=7, variety=0.0)


def _lines_from(events: list[dict]) -> list[bytes]:
    return [orjson.dumps(e) for e in chain_events(events)]


def _with(k: int, **changes) -> list[bytes]:
    """The base run with event k (1-based) changed before chaining (a consistent chain)."""
    evs = copy.deepcopy(BASE)
    for key, value in changes.items():
        if value is None:
            evs[k - 1].pop(key, None)
        else:
            evs[k - 1][key] = value
    return _lines_from(evs)


def _only_errors(report) -> list[tuple[str, int | None]]:
    return [(f.rule, f.line) for f in errors(report)]


def test_valid_run_report_sections():
    rep = verify_bytes(zstd(join(_lines_from(BASE))), "events.jsonl.zst")
    assert rep.verdict == "pass" and rep.events == 12
    assert rep.chain.valid and rep.chain.complete and rep.chain.breaks == 0
    assert rep.chain.head == orjson.loads(_lines_from(BASE)[-1])["hash"]
    run = rep.run
    assert run.producers["agent"].trust_level == "untrusted_agent"
    assert run.producers["evaluator"].trust_level == "trusted_evaluator"
    assert sum(p.events for p in run.producers.values()) == 12
    assert run.duration_s == pytest.approx(11 * 0.5)
    assert run.started_at == "2026-07-10T14:00:00.000Z"
    assert run.score.authoritative["score"] == BASE[-2]["payload"]["score"]
    assert run.score.untrusted_claims == ()


@pytest.mark.parametrize("raw,rule", [
    (b"[1,2]", "traj.not_object"),
    (b'{"a":1', "traj.json"), (b'{"a":"\xff"}', "traj.utf8"), (b'{"a":1,"a":2}',
                                                                  "traj.duplicate_member"),
    (b'{"a":1e400}', "traj.number_unrepresentable"), (b"\xef\xbb\xbf{}", "traj.utf8"),
])
def test_unreadable_lines(raw, rule):
    lines = chain_lines(8, seed=1)
    lines.insert(3, raw)
    rep = verify_bytes(join(lines))
    assert first_error(rep).line == 4 and first_error(rep).rule == rule
    assert rep.chain.first_break.to_dict() == {"line": 4, "kind": "unreadable"}
    assert rep.events == 9


@pytest.mark.parametrize("raw", [b"", b"   ", b"\t\r"])
def test_a_blank_line_is_no_event_and_no_break_of_the_chain(raw):
    """The format has one event per line: a blank line holds none. It is an error of its
    own (`traj.blank`), but it is not counted as an event, and the event after it links to
    the one before it (the chain is intact)."""
    lines = chain_lines(8, seed=1)
    lines.insert(3, raw)
    rep = verify_bytes(join(lines))
    assert [(f.rule, f.line) for f in errors(rep)] == [("traj.blank", 4)]
    assert rep.events == 8 and rep.chain.events == 8
    assert rep.chain.first_break is None and rep.chain.valid is True
    assert rep.chain.unreadable_lines == 0


# Number tokens that are not zero but that no double holds: they would be read as 0 (as
# `1e400` as infinity), so the event cannot be hashed over the value written (docs/rules-official.md).
@pytest.mark.parametrize("token", [
    b"1E-400", b"-1e-400", b"2e-324", b"2.4703282292062327e-324", b"1e-99999999999",
    b"0." + b"0" * 330 + b"1", b"0." + b"0" * 250 + b"1e-80", b"100e-326",
])
def test_a_number_that_underflows_to_zero_is_unrepresentable(token):
    evs = copy.deepcopy(BASE)
    evs[4]["payload"]["tiny"] = 0.5  # respelled below, before sealing: the hash covers `0`
    lines = _lines_from(evs)
    lines[4] = lines[4].replace(b'"tiny":0.5', b'"tiny":' + token)
    rep = verify_bytes(join(lines))
    assert _only_errors(rep) == [("traj.number_unrepresentable", 5)]
    assert token[:40].decode() in errors(rep)[0].message
    assert rep.chain.first_break.to_dict() == {"line": 5, "kind": "unreadable"}
    assert rep.verdict == "fail" and rep.events == 12


# Tokens that a double holds (zero spelled any way, the smallest subnormals, a long exponent
# that is not an underflow) keep the chain: the event is hashed over that double.
@pytest.mark.parametrize("token,value", [
    (b"0e400", 0.0), (b"-0.0e-500", -0.0), (b"0." + b"0" * 400, 0.0), (b"3e-324", 5e-324),
    (b"2.5e-324", 5e-324), (b"1e-323", 1e-323), (b"1e-300", 1e-300),
    (b"0." + b"0" * 250 + b"1e-70", 1e-321), (b"123e-325", 1e-323),
])
def test_a_number_a_double_holds_is_hashed_as_that_double(token, value):
    evs = copy.deepcopy(BASE)
    evs[4]["payload"]["tiny"] = value
    lines = _lines_from(evs)
    spelled = orjson.dumps(value)
    assert b'"tiny":' + spelled in lines[4]
    lines[4] = lines[4].replace(b'"tiny":' + spelled, b'"tiny":' + token)
    rep = verify_bytes(join(lines))
    assert _only_errors(rep) == [] and rep.chain.valid and rep.verdict == "pass"


def test_crlf_line_is_an_error_but_the_chain_holds():
    lines = chain_lines(8, seed=1)
    lines[2] += b"\r"
    rep = verify_bytes(join(lines))
    assert _only_errors(rep) == [("traj.line_ending", 3)]


def test_unicode_line_separators_are_content_not_breaks():
    evs = copy.deepcopy(BASE)
    evs[4]["payload"]["text"] = "a\u2028b\u2029c"
    rep = verify_bytes(join(_lines_from(evs)))
    assert rep.verdict == "pass" and rep.events == 12


def test_missing_final_newline_is_a_warning():
    rep = verify_bytes(join(chain_lines(8, seed=1))[:-1])
    assert errors(rep) == [] and rep.events == 8
    assert rules_at(rep, 8) == {"traj.no_final_newline"}


def test_empty_stream_is_an_error():
    rep = verify_bytes(b"")
    assert _only_errors(rep) == [("traj.empty", None)]
    rep = verify_bytes(zstd(b""), "events.jsonl.zst")
    assert _only_errors(rep) == [("traj.empty", None)]


@pytest.mark.parametrize("k,changes,rule", [
    (5, {"schema": "ale-trajectory-event/v2"}, "traj.schema_unsupported"),
    (5, {"schema": None}, "traj.schema_unsupported"),
    (5, {"producer_sequence": "3"}, "traj.field_type"),
    (5, {"producer_sequence": None}, "traj.field_missing"),
    (5, {"payload": [1]}, "traj.field_type"),
    (5, {"producer": 7}, "traj.field_type"),
    (5, {"wall_time": "2026-07-10T14:00:02+01:00"}, "traj.wall_time_format"),
    (5, {"wall_time": "2026-02-30T14:00:02Z"}, "traj.wall_time_format"),
    (5, {"wall_time": 1783692202}, "traj.field_type"),
    (6, {"run_id": "run_other"}, "traj.run_id_mismatch"),
])
def test_envelope_rules_at_their_line(k, changes, rule):
    rep = verify_bytes(join(_with(k, **changes)))
    assert _only_errors(rep)[0] == (rule, k)
    assert rep.chain.valid is True  # consistently chained: only the envelope is wrong


def test_producer_sequence_must_increase_within_a_producer():
    evs = copy.deepcopy(BASE)
    agent = [i for i, e in enumerate(evs) if e["producer"] == "agent"]
    evs[agent[2]]["producer_sequence"] = evs[agent[1]]["producer_sequence"]
    rep = verify_bytes(join(_lines_from(evs)))
    assert _only_errors(rep) == [("traj.producer_sequence", agent[2] + 1)]


def test_wall_time_backwards_is_a_warning_within_a_producer_only():
    evs = copy.deepcopy(BASE)
    agent = [i for i, e in enumerate(evs) if e["producer"] == "agent"]
    evs[agent[1]]["wall_time"] = "2026-07-10T13:59:00.000Z"
    rep = verify_bytes(join(_lines_from(evs)))
    assert errors(rep) == []
    assert rules_at(rep, agent[1] + 1) == {"traj.wall_time_backwards"}
    # across producers, time going back is normal
    evs = copy.deepcopy(BASE)
    evs[3]["wall_time"], evs[4]["wall_time"] = evs[4]["wall_time"], evs[3]["wall_time"]
    assert evs[3]["producer"] != evs[4]["producer"]
    rep = verify_bytes(join(_lines_from(evs)))
    assert rep.findings.warnings == 0 and errors(rep) == []


def test_trust_rules():
    agent = next(i for i, e in enumerate(BASE) if e["producer"] == "agent") + 1
    rep = verify_bytes(join(_with(agent, trust_level="trusted_harness")))
    assert ("traj.agent_trusted", agent) in _only_errors(rep)
    harness = [i + 1 for i, e in enumerate(BASE) if e["producer"] == "harness"]
    rep = verify_bytes(join(_with(harness[1], trust_level="trusted_proxy")))
    assert _only_errors(rep) == [("traj.trust_inconsistent", harness[1])]


def test_eval_result_from_the_agent_is_an_untrusted_claim():
    evs = copy.deepcopy(BASE)
    claim = {**evs[4], "type": "eval_result", "payload": {"score": 999}}
    evs.insert(5, claim)
    for i, e in enumerate(e for e in evs if e["producer"] == claim["producer"]):
        e["producer_sequence"] = i
    rep = verify_bytes(join(_lines_from(evs)))
    assert _only_errors(rep) == [("traj.eval_result_untrusted", 6)]
    score = rep.run.score
    assert score.authoritative["score"] == BASE[-2]["payload"]["score"]
    assert score.untrusted_claims[0]["score"] == 999
    assert score.untrusted_claims[0]["label"] == "untrusted"


def test_edited_hash_member_is_one_break_at_its_line():
    lines = _lines_from(BASE)
    ev = orjson.loads(lines[5])
    ev["hash"] = "f" * 64
    lines[5] = orjson.dumps(ev)
    rep = verify_bytes(join(lines))
    assert _only_errors(rep) == [("chain.edited", 6)]
    assert rep.chain.breaks == 1


def test_edited_payload_then_resealed_tail_is_still_found():
    """An attacker who edits event 5 and re-chains 6.. can only hide it by re-hashing event 5
    too: then the chain is valid (the chain has no key) — but an edit without re-hashing is
    found at its own line however the rest is arranged."""
    lines = _lines_from(BASE)
    ev = orjson.loads(lines[4])
    ev["payload"]["tampered"] = True
    lines[4] = orjson.dumps(ev)
    rep = verify_bytes(join(lines))
    assert _only_errors(rep)[0] == ("chain.edited", 5)
    assert rep.chain.first_break.to_dict() == {"line": 5, "kind": "edited"}


def test_missing_hash_member():
    lines = _lines_from(BASE)
    ev = orjson.loads(lines[3])
    del ev["hash"]
    lines[3] = orjson.dumps(ev)
    rep = verify_bytes(join(lines))
    assert _only_errors(rep) == [("traj.field_missing", 4)]
    assert rep.chain.first_break.to_dict() == {"line": 4, "kind": "unreadable"}


def test_first_prev_hash_must_be_zero():
    evs = chain_events(BASE[1:], prev_hash="a" * 64)
    rep = verify_bytes(join([orjson.dumps(e) for e in evs]))
    assert _only_errors(rep) == [("chain.first_prev_hash", 1)]


def test_integer_beyond_2_53_cannot_be_hashed():
    evs = copy.deepcopy(BASE)
    sealed = chain_events(evs)
    ev = seal(evs[6], sealed[5]["hash"])
    ev["payload"]["big"] = 2**53 + 1
    lines = [orjson.dumps(e) for e in sealed]
    lines[6] = orjson.dumps(ev)
    rep = verify_bytes(join(lines))
    assert _only_errors(rep)[0] == ("traj.number_unrepresentable", 7)


def test_floats_and_non_bmp_keys_hash_by_rfc8785():
    evs = copy.deepcopy(BASE)
    evs[3]["payload"].update({"f": 56.0, "g": 1e16, "h": 9.5e-6, "\ue000": 1, "\U0001f600": 2,
                              "neg": -0.0, "big": 1e21, "small": 1e-7})
    rep = verify_bytes(join(_lines_from(evs)))
    assert rep.verdict == "pass", [f.to_dict() for f in rep.findings]


def test_non_compact_lines_are_hashed_by_content():
    lines = [orjson.dumps(orjson.loads(x), option=orjson.OPT_INDENT_2).replace(b"\n", b" ")
             for x in _lines_from(BASE)]
    rep = verify_bytes(join(lines))
    assert rep.verdict == "pass"


def test_secret_in_payload_is_a_warning_with_location_and_redacted():
    key = "sk-proj-" + "A1b2C3d4" * 5
    evs = copy.deepcopy(BASE)
    evs[4]["payload"]["text"] = f"export OPENAI_API_KEY={key}"
    rep = verify_bytes(join(_lines_from(evs)))
    assert errors(rep) == []
    hits = [f for f in rep.findings if f.rule == "secret.suspect"]
    assert [f.line for f in hits] == [5]
    assert key not in hits[0].message and "column" in hits[0].message


def test_run_end_missing_is_a_warning():
    rep = verify_bytes(join(_lines_from(BASE[:-1])))
    assert errors(rep) == []
    assert "traj.run_end_missing" in rep.findings.by_rule


def test_build_index_spools_decompressed_lines(tmp_path):
    from moderator_app.core.verify.report import Report
    from moderator_app.core.verify.trajectory import check_stream

    data = join(_lines_from(BASE))
    z = zstd(data, 3)
    import io

    rep = Report(kind="official", input_name="x")
    checker, digest = check_stream(lambda: io.BytesIO(z), "events.jsonl.zst", len(z), rep,
                                   build_index=True, spool_dir=tmp_path)
    idx = checker.index
    assert len(idx) == 12 and idx.source.read_bytes() == data
    assert orjson.loads(idx.read_raw(3))["producer_sequence"] == BASE[3]["producer_sequence"]
    assert idx.times[0] == 0.0 and idx.times[11] == pytest.approx(5.5)
    assert idx.lane_of(0) == "harness" and idx.kind_of(0) == "run_start"
    assert digest.size == len(z)
    idx.close()


@pytest.mark.parametrize("tamper", [False, True, "blank"])
def test_worker_process_gives_the_same_report_as_one_process(tamper):
    """`blank`: blank lines among events, in blocks the worker examines (its facts hold
    unpickled copies of the rules: a blank line was told by identity, and counted as an
    event there)."""
    lines = chain_lines(300, seed=4, variety=0.5)
    events = len(lines)
    if tamper == "blank":
        for k in (250, 120, 120, 120, 40):
            lines.insert(k, b"")
    elif tamper:
        lines[100], lines[101] = lines[101], lines[100]
        lines[250] = lines[250].replace(b'"producer_sequence":', b'"producer_sequence": ', 1)
        lines[250] = lines[250].replace(b"python", b"pythoN", 1)
        lines.insert(200, b"{not json")
    data = zstd(join(lines) * 1, 3)
    import moderator_app.core.verify.trajectory as traj

    old = traj.stream.BLOCK
    traj.stream.BLOCK = 4096  # many blocks, so both processes take part
    try:
        serial = verify_bytes(data, "events.jsonl.zst", parallel=False)
        parallel = verify_bytes(data, "events.jsonl.zst", parallel=True)
    finally:
        traj.stream.BLOCK = old
    assert parallel.to_dict() == serial.to_dict()
    if tamper == "blank":
        assert parallel.events == events and parallel.chain.valid
        assert [(f.rule, f.line) for f in errors(parallel)] == [
            ("traj.blank", 41), ("traj.blank", 122), ("traj.blank", 255)]
    else:
        assert parallel.events == len(lines)


def test_every_official_rule_is_documented():
    from conftest import REPO

    from moderator_app.core.catalogue import all_rules

    doc = (REPO / "docs" / "rules-official.md").read_text(encoding="utf-8")
    ids = [r.id for r in all_rules() if r.id.split(".")[0] in
           ("chain", "traj", "seed", "secret", "archive")]
    assert len(ids) >= 40
    assert [i for i in ids if f"`{i}`" not in doc] == []


def test_blank_lines_are_counted_apart_from_events_in_the_cli_json_and_index(tmp_path, capsys):
    """6 events and 3 blank lines were "Read 9 events" (a blank line was an unreadable event
    and a break of the chain). Events are counted as the format defines them (one event per
    line; a blank line holds none), the same in the text, `--json` and the workstation's
    index (one "blank" row per run, which the event table does not count as an event)."""
    import json
    import tempfile
    from pathlib import Path

    from hostile_corpus import run_cli

    from moderator_app.core.verify.pipeline import VerifyOptions, verify_paths

    lines = chain_lines(6, seed=2)
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "events.jsonl").write_bytes(join(lines[:2] + [b""] + lines[2:4] + [b"", b" "]
                                               + lines[4:]))
    code, out, _ = run_cli(capsys, "verify", folder)
    assert code == 1
    assert "Read 6 events" in out and "Chain: complete, 6 events" in out
    assert "events.jsonl:3  error    traj.blank  blank line: every line must be one event" in out
    assert ("events.jsonl:6  error    traj.blank  2 blank lines (lines 6-7): every line must be "
            "one event (not counted as events)") in out
    code, out, _ = run_cli(capsys, "verify", "--json", folder)
    rep = json.loads(out)
    assert rep["events"] == 6 and rep["chain"]["events"] == 6 and rep["chain"]["valid"]
    assert [(f["rule"], f["line"]) for f in rep["findings"] if f["severity"] == "error"] == \
        [("traj.blank", 3), ("traj.blank", 6)]
    gui = verify_paths([folder], VerifyOptions(build_index=True,
                                               spool_dir=Path(tempfile.mkdtemp(dir=tmp_path))))
    index = gui.index
    assert index is not None
    kinds = [index.kind_of(r) for r in range(len(index))]
    assert kinds.count("blank") == 2 and len(kinds) == 8
    assert [index.lines[r] for r in range(len(index)) if kinds[r] == "blank"] == [3, 6]
    assert gui.report.events == 6
    assert index.read_raw(kinds.index("blank", 3)) == b"\n "  # lines 6-7, one row


@pytest.mark.parametrize("data,count", [(b"\n" * 5, 5), (b" \n" * 300_000, 300_000),
                                         (b"\n" * (3 << 20), 3 << 20)])
def test_a_file_of_blank_lines_only_says_so(data, count):
    """A flood of blank lines is one finding at its first line, with its length, and the
    trajectory is said to hold no event: it was "Read 0 events", or 20,000 findings then
    "verification stopped" with the rest not examined (INCOMPLETE)."""
    for blob in (data, zstd(data)):
        rep = verify_bytes(blob, name="events.jsonl.zst" if blob is not data else "events.jsonl")
        got = [(f.rule, f.line, f.message) for f in errors(rep)]
        assert got == [
            ("traj.blank", 1, f"{count:,} blank lines (lines 1-{count:,}): every line must be "
                              "one event (not counted as events)"),
            ("traj.empty", None, f"the trajectory holds no event ({count:,} blank lines only)")]
        assert rep.events == 0 and rep.complete is True
