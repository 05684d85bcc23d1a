"""Every agent-log rule: a bad case asserting the exact rule, line and verdict, and valid cases
that must not raise a false alarm. The base log is the seed document's example (with its
elisions filled in), shortened to end 5 s after run_start."""

from __future__ import annotations

import copy

import orjson
import pytest
from loghelp import T, base, ev, renumber, run

from moderator_app.core.catalogue import all_rules
from moderator_app.core.errors import Cancelled
from moderator_app.core.formats.streams import MAX_LINE
from moderator_app.core.progress import CancelToken
from moderator_app.core.verify.agent_log import action_digest, parse_at
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths


def found(report, severity=None):
    return [(f.rule, f.line) for f in report.findings.sorted()
            if severity is None or f.severity.value == severity]


def errors(report):
    return found(report, "error")


def warnings(report):
    return found(report, "warning")


def assert_only_error(report, rule_id, line):
    assert errors(report) == [(rule_id, line)]
    assert report.verdict == "fail"
    assert report.summary()["first_error_line"] == line
    assert report.summary()["first_error_rule"] == rule_id


def assert_only_warning(report, rule_id, line):
    assert errors(report) == []
    assert warnings(report) == [(rule_id, line)]
    assert report.verdict == "pass"


# --- valid logs ---------------------------------------------------------------------------------
def test_base_log_is_clean(tmp_path):
    r = run(tmp_path, base())
    assert found(r) == []
    assert r.verdict == "pass"
    assert r.events == 6
    assert r.run.start.game == "tetris-gb" and r.run.start.model == "provider/model-id"
    assert r.run.duration_s == 5.0
    assert r.run.start.started_at == T + "00:00.000Z" and r.run.ended_at == T + "00:05.000Z"
    assert [f.name for f in r.files] == ["agent-log.jsonl"]
    assert r.files[0].size == (tmp_path / "agent-log.jsonl").stat().st_size


def test_generated_logs_are_clean(tmp_path):
    from moderator_app.core.samples.community import make_agent_log

    for seed, withheld in ((1, False), (2, True), (3, False)):
        path = tmp_path / "agent-log.jsonl"
        dur = make_agent_log(path, n_events=60 + seed, seed=seed, withheld=withheld)
        r = verify_paths([path], VerifyOptions(probe_video=False)).report
        assert found(r) == [], seed
        assert r.events == 60 + seed
        assert r.run.duration_s == dur


def test_tolerated_variants_raise_no_error(tmp_path):
    lines = base()
    lines[0]["at"] = T + "00:00+00:00"  # +00:00 and no fraction
    lines[1]["extra"] = {"forward": "compatible"}  # unknown members are allowed
    lines[2]["data"]["usage"]["cached"] = 3
    lines[3]["elapsedMs"] = 2500.5  # a fractional millisecond count
    lines[4]["at"] = T + "00:02.700000Z"  # microseconds
    lines[4]["data"] = {"screen": [[0, 1], [1, 0]]}  # observation: any shape
    assert found(run(tmp_path, lines)) == []


def test_action_args_compare_as_canonical_json(tmp_path):
    lines = base()
    lines[2]["data"]["actions"] = [{"name": "move", "args": {"x": 1.0, "y": 2, "z": [1e2]}}]
    lines[3]["data"] = {"call": "c1", "name": "move", "args": {"z": [100], "y": 2.0, "x": 1}}
    assert found(run(tmp_path, lines)) == []
    assert action_digest("a", {"k": 1}) == action_digest("a", {"k": 1.0})
    assert action_digest("a", {"k": 1}) != action_digest("a", {"k": "1"})
    assert action_digest("a", {"k": 2**60}) != action_digest("a", {"k": 2**60 + 1})


def test_exactly_two_seconds_of_drift_is_allowed(tmp_path):
    lines = base()
    lines[4]["elapsedMs"] = 4700  # at is 2700 ms after the start: 2000 ms apart
    assert errors(run(tmp_path, lines)) == []


def test_a_valid_withheld_request_passes(tmp_path):
    lines = base()
    lines[1]["data"] = {"withheld": True}
    del lines[2]["data"]["text"]
    assert found(run(tmp_path, lines)) == []


def test_parse_at():
    assert parse_at(T + "00:00.000Z")[1] is None
    assert parse_at(T + "00:00.001Z")[0] - parse_at(T + "00:00.000Z")[0] == 1000
    assert parse_at(T + "00:00.000+00:00")[0] == parse_at(T + "00:00Z")[0]
    assert parse_at(T + "00:00.123456789Z")[0] - parse_at(T + "00:00Z")[0] == 123456
    # one strict shape (docs/rules-community.md, "`at` spellings"), not what CPython tolerates
    for lax in ("2026-10-22 18:00:00Z", "2026-10-22t18:00:00Z", T + "00:00z",
                T + "00:00+00:00:00", T + "00:00.0000000000Z", T + "00:00,5Z", T + "00Z",
                "2026-W43-4T18:00:00Z", "20261022T180000Z", T + "00:00+0000"):
        assert parse_at(lax)[1].id == "log.at_format", lax
    assert parse_at(T + "00:00-00:00")[1].id == "log.at_not_utc"
    assert parse_at("2026-10-22")[1].id == "log.at_format"
    assert parse_at(T + "00:00.000+02:00")[1].id == "log.at_not_utc"
    assert parse_at(T + "00:00.000")[1].id == "log.at_not_utc"


# --- line syntax --------------------------------------------------------------------------------
@pytest.mark.parametrize("raw, rule_id", [
    (b'{"seq":4,"at":"2026-10-22T18:00:02.700Z",', "log.json"),
    (b'{"seq":4,"at":"2026-10-22T18:00:02.700Z","elapsedMs":2700,"type":"observation",'
     b'"data":{"summary":"\xff"}}', "log.utf8"),
    (b'[4, "observation"]', "log.not_object"),
    (b'{"seq":4,"at":"2026-10-22T18:00:02.700Z","elapsedMs":2700,"type":"observation",'
     b'"data":{},"seq":4}', "log.duplicate_member"),
    (b'{"seq":4,"at":"2026-10-22T18:00:02.700Z","elapsedMs":NaN,"type":"observation",'
     b'"data":{}}', "log.json"),
])
def test_bad_line_is_one_finding_and_consumes_one_seq(tmp_path, raw, rule_id):
    lines = base()
    lines[4] = raw
    assert_only_error(run(tmp_path, lines), rule_id, 5)


def test_line_too_long(tmp_path):
    lines = base()
    lines[4]["data"]["summary"] = "x" * (MAX_LINE + 10)
    assert_only_error(run(tmp_path, lines), "log.line_too_long", 5)


def test_blank_line_between_events(tmp_path):
    lines = base()
    lines.insert(3, b"")
    r = run(tmp_path, lines)
    assert_only_error(r, "log.blank_line", 4)
    assert r.events == 6


def test_trailing_blank_line_is_a_warning(tmp_path):
    assert_only_warning(run(tmp_path, base() + [b""]), "log.trailing_blank", 7)


def test_bom_and_crlf_are_tolerated_with_a_warning(tmp_path):
    lines = [orjson.dumps(e) + b"\r" for e in base()]
    lines[0] = b"\xef\xbb\xbf" + lines[0]
    r = run(tmp_path, lines)
    assert errors(r) == []
    assert warnings(r) == [("log.bom", 1), ("log.crlf", 1)]


@pytest.mark.parametrize("content", [b"", b"\n\n"])
def test_empty_log(tmp_path, content):
    path = tmp_path / "agent-log.jsonl"
    path.write_bytes(content)
    r = verify_paths([path], VerifyOptions(probe_video=False)).report
    assert ("log.empty", None) in errors(r)
    assert r.verdict == "fail"


# --- seq -----------------------------------------------------------------------------------------
def test_seq_gap_is_reported_once(tmp_path):
    lines = base()
    del lines[3]  # the action: also makes c1's action unrun and the run action-less
    r = run(tmp_path, lines)
    assert ("log.seq", 4) in errors(r)
    assert [x for x in errors(r) if x[0] == "log.seq"] == [("log.seq", 4)]
    assert r.summary()["first_error_line"] == 4


def test_seq_gap_of_an_observation(tmp_path):
    lines = base()
    del lines[4]
    assert_only_error(run(tmp_path, lines), "log.seq", 5)


def test_seq_repeated_line(tmp_path):
    lines = base()
    lines.insert(5, copy.deepcopy(lines[4]))  # observation twice, same seq
    assert_only_error(run(tmp_path, lines), "log.seq", 6)


def test_seq_single_edited_value(tmp_path):
    lines = base()
    lines[2]["seq"] = 7
    assert_only_error(run(tmp_path, lines), "log.seq", 3)


def test_seq_first_line_not_zero(tmp_path):
    lines = base()
    lines[0]["seq"] = 1
    assert_only_error(run(tmp_path, lines), "log.seq", 1)


def test_seq_all_shifted(tmp_path):
    lines = base()
    for e in lines:
        e["seq"] += 1
    assert_only_error(run(tmp_path, lines), "log.seq", 1)


@pytest.mark.parametrize("value", ["4", 4.0, None, True])
def test_seq_not_an_integer(tmp_path, value):
    lines = base()
    lines[4]["seq"] = value
    assert_only_error(run(tmp_path, lines), "log.seq", 5)


def test_seq_missing(tmp_path):
    lines = base()
    del lines[4]["seq"]
    assert_only_error(run(tmp_path, lines), "log.seq", 5)


# --- at / elapsedMs ----------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["yesterday", 12345, "2026-10-22", "2026-13-22T18:00:02.700Z"])
def test_at_format(tmp_path, value):
    lines = base()
    lines[4]["at"] = value
    assert_only_error(run(tmp_path, lines), "log.at_format", 5)


def test_at_missing(tmp_path):
    lines = base()
    del lines[4]["at"]
    assert_only_error(run(tmp_path, lines), "log.at_format", 5)


@pytest.mark.parametrize("value", ["2026-10-22T20:00:02.700+02:00", "2026-10-22T18:00:02.700"])
def test_at_not_utc(tmp_path, value):
    lines = base()
    lines[4]["at"] = value
    assert_only_error(run(tmp_path, lines), "log.at_not_utc", 5)


def test_at_order(tmp_path):
    lines = base()
    lines[3]["at"] = T + "00:02.400Z"  # before the response's 02.480, within the 2 s rule
    assert_only_error(run(tmp_path, lines), "log.at_order", 4)


def test_equal_at_is_allowed(tmp_path):
    lines = base()
    lines[3]["at"] = lines[2]["at"]
    assert found(run(tmp_path, lines)) == []


@pytest.mark.parametrize("value", ["2500", -1, None, [2500]])
def test_elapsed_format(tmp_path, value):
    lines = base()
    lines[3]["elapsedMs"] = value
    assert_only_error(run(tmp_path, lines), "log.elapsed_format", 4)


def test_elapsed_order(tmp_path):
    lines = base()
    lines[3]["elapsedMs"] = 2400
    assert_only_error(run(tmp_path, lines), "log.elapsed_order", 4)


def test_elapsed_drift(tmp_path):
    lines = base()
    lines[4]["elapsedMs"] = 4701  # 2001 ms from at - start
    assert_only_error(run(tmp_path, lines), "log.elapsed_drift", 5)


def test_elapsed_drift_on_run_start(tmp_path):
    lines = base()
    lines[0]["elapsedMs"] = 2500
    assert_only_error(run(tmp_path, lines), "log.elapsed_drift", 1)


def test_at_spike_is_reported_where_the_rules_break(tmp_path):
    lines = base()
    lines[3]["at"] = T + "00:09.000Z"  # 6.5 s off its elapsedMs: not the reference for line 5
    assert_only_error(run(tmp_path, lines), "log.elapsed_drift", 4)


def test_consistent_forward_spike_is_one_finding(tmp_path):
    lines = base()
    lines[3].update(at=T + "00:12.500Z", elapsedMs=12500)  # both jump forward 10 s
    r = run(tmp_path, lines)
    # The line after goes back in time: that is where "never earlier" breaks, and only there.
    assert errors(r) == [("log.at_order", 5), ("log.elapsed_order", 5)]


def test_backward_spike_is_one_finding(tmp_path):
    lines = base()
    lines[3].update(at=T + "00:01.000Z", elapsedMs=1000)
    r = run(tmp_path, lines)
    assert errors(r) == [("log.at_order", 4), ("log.elapsed_order", 4)]


@pytest.mark.parametrize("at", ["2026-10-22T18:00:10.000Z", "2026-10-22T17:59:50.000Z"])
def test_run_start_time_off_from_every_line_is_blamed_on_run_start(tmp_path, at):
    lines = base()
    lines[0]["at"] = at
    assert_only_error(run(tmp_path, lines), "log.elapsed_drift", 1)


def test_elapsed_in_seconds_is_reported_from_line_2(tmp_path):
    lines = base()
    for e in lines[1:]:
        e["elapsedMs"] = round(e["elapsedMs"] / 1000, 3)  # the drift grows: the lines are wrong
    r = run(tmp_path, lines)
    assert errors(r) == [("log.elapsed_drift", 3), ("log.elapsed_drift", 4),
                         ("log.elapsed_drift", 5), ("log.elapsed_drift", 6)]
    assert r.summary()["first_error_line"] == 3  # line 2 is within 2 s (0.12 vs 120 ms)


def test_at_spike_then_normal_lines(tmp_path):
    lines = base()
    lines[3]["at"] = T + "00:01.000Z"  # back 1.48 s, drift 1.5 s: only the order breaks
    assert_only_error(run(tmp_path, lines), "log.at_order", 4)


# --- type / data --------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["note", None, 3, "Observation", [], {"a": 1}])
def test_type_unknown(tmp_path, value):
    lines = base()
    lines[4]["type"] = value
    assert_only_error(run(tmp_path, lines), "log.type_unknown", 5)


@pytest.mark.parametrize("value", ["x", None, [1], 3])
def test_data_not_object(tmp_path, value):
    lines = base()
    lines[4]["data"] = value
    assert_only_error(run(tmp_path, lines), "log.data_not_object", 5)


# --- run_start / run_end ------------------------------------------------------------------------
def test_first_line_not_run_start(tmp_path):
    lines = renumber(base()[1:])
    assert_only_error(run(tmp_path, lines), "log.run_start_position", 1)


def test_second_run_start(tmp_path):
    lines = base()
    lines.insert(4, dict(copy.deepcopy(lines[0]), at=T + "00:02.600Z", elapsedMs=2600))
    assert_only_error(run(tmp_path, renumber(lines)), "log.run_start_position", 5)


@pytest.mark.parametrize("drop", ["game", "category", "model", "scaffold"])
def test_run_start_fields(tmp_path, drop):
    lines = base()
    del lines[0]["data"][drop]
    assert_only_error(run(tmp_path, lines), "log.run_start_fields", 1)


def test_run_start_scaffold_needs_name(tmp_path):
    lines = base()
    lines[0]["data"]["scaffold"] = {"version": "1.2.0"}
    assert_only_error(run(tmp_path, lines), "log.run_start_fields", 1)


def test_run_start_slug_warning(tmp_path):
    lines = base()
    lines[0]["data"]["game"] = "Tetris GB"
    assert_only_warning(run(tmp_path, lines), "log.run_start_slug", 1)


def test_events_after_run_end(tmp_path):
    """Events appended after the run ended: the first of them is the finding."""
    lines = base() + [ev(6, "00:05.100Z", 5100, "action", {"call": "c1", "name": "press",
                                                             "args": {"button": "A"}}),
                      ev(7, "00:05.200Z", 5200, "observation", {"summary": "late"})]
    r = run(tmp_path, lines)
    assert errors(r) == [("log.run_end_position", 7)]
    assert r.run.duration_s == 5.0


def test_early_run_end_in_a_log_that_ends_with_run_end(tmp_path):
    lines = base()
    lines.insert(4, ev(0, "00:02.600Z", 2600, "run_end", {"reason": "oops"}))
    assert_only_error(run(tmp_path, renumber(lines)), "log.run_end_position", 5)


def test_repeated_run_end(tmp_path):
    lines = base()
    lines.append(dict(copy.deepcopy(lines[5]), seq=6))
    assert_only_error(run(tmp_path, lines), "log.run_end_position", 7)


def test_bad_line_after_run_end(tmp_path):
    r = run(tmp_path, base() + [b"garbage"])
    assert errors(r) == [("log.json", 7), ("log.run_end_position", 7)]


def test_run_end_missing(tmp_path):
    r = run(tmp_path, base()[:-1])
    assert_only_error(r, "log.run_end_missing", None)
    assert r.run.duration_s == 2.7  # the last valid elapsedMs


def test_truncated_last_line(tmp_path):
    path = tmp_path / "agent-log.jsonl"
    data = b"".join(orjson.dumps(e) + b"\n" for e in base())
    path.write_bytes(data[:-20])  # cut inside run_end, no final newline
    r = verify_paths([path], VerifyOptions(probe_video=False)).report
    assert errors(r) == [("log.json", 6), ("log.run_end_missing", None)]
    assert r.summary()["first_error_line"] == 6


def test_run_end_fields(tmp_path):
    lines = base()
    lines[5]["data"] = {"why": "done"}
    assert_only_error(run(tmp_path, lines), "log.run_end_fields", 6)


# --- requests and responses ---------------------------------------------------------------------
def test_withheld_leak(tmp_path):
    lines = base()
    lines[1]["data"]["withheld"] = True
    assert_only_error(run(tmp_path, lines), "log.withheld_leak", 2)


@pytest.mark.parametrize("change", [
    {"id": None}, {"id": 1}, {"id": ""}, {"model": None}, {"usage": 5},
    {"actions": "press A"}, {"actions": [{"args": {"button": "A"}}]},
])
def test_response_fields(tmp_path, change):
    lines = base()
    data = lines[2]["data"]
    for k, v in change.items():
        if v is None:
            del data[k]
        else:
            data[k] = v
    r = run(tmp_path, lines)
    assert errors(r)[0] == ("log.response_fields", 3)
    assert r.verdict == "fail"


def test_response_id_duplicate(tmp_path):
    lines = base()
    second = copy.deepcopy(lines[2])
    second.update(at=T + "00:02.600Z", elapsedMs=2600)
    lines.insert(4, second)
    lines.insert(5, dict(copy.deepcopy(lines[3]), at=T + "00:02.650Z", elapsedMs=2650))
    assert_only_error(run(tmp_path, renumber(lines)), "log.response_id_duplicate", 5)


@pytest.mark.parametrize("drop", ["call", "name", "args"])
def test_action_fields(tmp_path, drop):
    lines = base()
    del lines[3]["data"][drop]
    r = run(tmp_path, lines)
    assert errors(r)[0] == ("log.action_fields", 4)
    assert r.verdict == "fail"


def test_action_unknown_call(tmp_path):
    lines = base()
    lines[3]["data"]["call"] = "c9"
    r = run(tmp_path, lines)
    assert errors(r) == [("log.action_unknown_call", 4)]
    assert warnings(r) == [("log.response_actions_unrun", 3)]


def test_action_before_its_response(tmp_path):
    lines = base()
    lines[1], lines[2], lines[3] = (
        dict(lines[3], at=T + "00:00.100Z", elapsedMs=100), dict(lines[1], at=T + "00:00.120Z"),
        dict(lines[2], at=T + "00:02.480Z"))
    r = run(tmp_path, renumber(lines))
    assert errors(r) == [("log.action_unknown_call", 2)]
    assert r.verdict == "fail"


@pytest.mark.parametrize("change", [{"args": {"button": "B"}}, {"name": "hold"},
                                    {"args": {"button": "A", "frames": 2}}])
def test_action_not_requested(tmp_path, change):
    lines = base()
    lines[3]["data"].update(change)
    r = run(tmp_path, lines)
    assert errors(r) == [("log.action_not_requested", 4)]
    assert warnings(r) == [("log.response_actions_unrun", 3)]


def test_response_without_actions_cannot_vouch(tmp_path):
    lines = base()
    del lines[2]["data"]["actions"]
    assert_only_warning(run(tmp_path, lines), "log.response_without_actions", 4)


def test_no_response_and_no_action(tmp_path):
    lines = renumber([base()[0], base()[4], base()[5]])
    r = run(tmp_path, lines)
    assert errors(r) == [("log.no_response", None), ("log.no_action", None)]
    assert r.verdict == "fail"


def test_no_action(tmp_path):
    lines = base()
    del lines[2]["data"]["actions"]
    del lines[3]
    r = run(tmp_path, renumber(lines))
    assert errors(r) == [("log.no_action", None)]


def test_error_event_fields(tmp_path):
    lines = base()
    lines[4]["type"] = "error"
    lines[4]["data"] = {"message": "emulator hiccup"}
    assert found(run(tmp_path, lines)) == []
    lines[4]["data"] = {"msg": "emulator hiccup"}
    assert_only_error(run(tmp_path, lines), "log.error_fields", 5)


# --- moderation signals -------------------------------------------------------------------------
def test_gap_warning(tmp_path):
    lines = base()
    lines[5].update(at=T + "04:10.000Z", elapsedMs=250000)
    assert_only_warning(run(tmp_path, lines), "log.gap", 6)


def test_action_late_warning(tmp_path):
    lines = base()
    lines[3].update(at=T + "01:03.480Z", elapsedMs=63480)
    lines[4].update(at=T + "01:03.700Z", elapsedMs=63700)
    lines[5].update(at=T + "01:05.000Z", elapsedMs=65000)
    assert_only_warning(run(tmp_path, lines), "log.action_late", 4)


def test_action_repeated_warning(tmp_path):
    lines = base()
    lines.insert(4, dict(copy.deepcopy(lines[3]), at=T + "00:02.550Z", elapsedMs=2550))
    assert_only_warning(run(tmp_path, renumber(lines)), "log.action_repeated", 5)


def test_action_requested_twice_may_run_twice(tmp_path):
    lines = base()
    lines[2]["data"]["actions"] *= 2
    lines.insert(4, dict(copy.deepcopy(lines[3]), at=T + "00:02.550Z", elapsedMs=2550))
    assert found(run(tmp_path, renumber(lines))) == []


def test_response_actions_unrun_warning(tmp_path):
    lines = base()
    lines[2]["data"]["actions"].append({"name": "press", "args": {"button": "B"}})
    assert_only_warning(run(tmp_path, lines), "log.response_actions_unrun", 3)


def test_response_too_fast_warning(tmp_path):
    lines = base()
    lines[1].update(at=T + "00:02.400Z", elapsedMs=2400)  # 80 ms before the response
    assert_only_warning(run(tmp_path, lines), "log.response_too_fast", 3)


def test_model_mismatch_warning(tmp_path):
    lines = base()
    lines[2]["data"]["model"] = "provider/other-model"
    assert_only_warning(run(tmp_path, lines), "log.model_mismatch", 3)


def test_thresholds_are_adjustable(tmp_path):
    from moderator_app.core.thresholds import Thresholds
    from moderator_app.core.verify.agent_log import LogChecker
    from moderator_app.core.verify.report import Report

    report = Report("community", "x")
    checker = LogChecker(report, "agent-log.jsonl", Thresholds(gap_s=1.0), None)
    for i, e in enumerate(base()):
        checker.feed(i, orjson.dumps(e))
    checker.finish()
    assert ("log.gap", 3) in found(report)


# --- streaming contract: index, progress, cancel, every rule tested ------------------------------
def test_event_index_and_metrics(tmp_path):
    lines = base()
    lines.insert(5, b"not json")
    lines[6]["seq"] = 6
    r_path = tmp_path / "agent-log.jsonl"
    r_path.write_bytes(b"".join((x if isinstance(x, bytes) else orjson.dumps(x)) + b"\n"
                                for x in lines))
    res = verify_paths([r_path], VerifyOptions(probe_video=False, build_index=True))
    idx = res.index
    assert len(idx) == 7
    assert idx.kind_of(0) == "run_start" and idx.lane_of(5) == "invalid"
    assert list(idx.lines) == [1, 2, 3, 4, 5, 6, 7]
    assert idx.times[2] == 2.48
    assert idx.read_event(3)["data"]["call"] == "c1"
    assert idx.read_raw(5) == b"not json"
    ts, vs = idx.metrics["latency_s"]
    assert list(ts) == [2.48] and abs(vs[0] - 2.36) < 1e-9
    assert list(idx.metrics["tokens_in"][1]) == [812.0]
    assert list(idx.metrics["tokens_out"][1]) == [64.0]
    idx.close()


def test_progress_and_cancel(tmp_path):
    from moderator_app.core.samples.community import make_agent_log

    path = tmp_path / "agent-log.jsonl"
    make_agent_log(path, n_events=3000, seed=5)
    seen = []
    verify_paths([path], VerifyOptions(probe_video=False), progress=lambda d, t: seen.append(
        (d, t)))
    assert seen[-1] == (path.stat().st_size, path.stat().st_size)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        verify_paths([path], VerifyOptions(probe_video=False), cancel=token)


def test_every_agent_log_rule_is_exercised():
    """Reading this file's source: each `log.*` rule id appears in a test."""
    from pathlib import Path

    text = Path(__file__).read_text()
    ids = [r.id for r in all_rules() if r.id.startswith("log.")]
    assert len(ids) >= 40
    missing = [i for i in ids if f'"{i}"' not in text]
    assert missing == []


@pytest.mark.parametrize("depth", [300, 1000, 1100])
def test_deep_nesting_is_a_finding_not_a_crash(tmp_path, depth):
    lines = base()
    lines[4] = (b'{"seq":4,"at":"2026-10-22T18:00:02.700Z","elapsedMs":2700,"type":"observation",'
                b'"data":{"deep": ' + b"[" * depth + b"]" * depth + b" }}")
    assert_only_error(run(tmp_path, lines), "log.json", 5)


def test_deeply_nested_action_args(tmp_path):
    from moderator_app.core.verify.agent_log import action_blob

    deep: list = []
    for _ in range(200):
        deep = [deep]
    lines = base()
    lines[2]["data"]["actions"][0]["args"] = {"x": deep}
    lines[3]["data"]["args"] = {"x": deep}
    assert found(run(tmp_path, lines)) == []
    lines[3]["data"]["args"] = {"x": [deep]}
    assert errors(run(tmp_path, lines)) == [("log.action_not_requested", 4)]
    for _ in range(200):  # deeper than orjson writes: the exact-text fallback
        deep = [deep]
    assert action_blob("a", {"x": deep}) == action_blob("a", {"x": deep})
    assert action_blob("a", {"x": deep}) != action_blob("a", {"x": [deep]})


def test_responses_past_the_table_bound_stop_the_examination(tmp_path, monkeypatch):
    """Each response is kept for the actions that may name it; past the bound (patched down
    to 2 here) the log is not examined further, and the report is incomplete."""
    from moderator_app.core.verify.agent_log import actions, turns

    for mod in (actions, turns):  # turns.py: the response check that words the finding
        monkeypatch.setattr(mod, "MAX_RESPONSES", 2)
    lines = base()
    for k in (3, 2):  # two more turns after the first: a response and its action each
        resp, act = copy.deepcopy(lines[2]), copy.deepcopy(lines[3])
        resp["data"]["id"] = act["data"]["call"] = f"c{k}"
        resp["at"], resp["elapsedMs"] = act["at"], act["elapsedMs"]
        lines[4:4] = [resp, act]
    rep = run(tmp_path, renumber(lines))
    assert errors(rep) == [("log.too_many_responses", 7)]
    assert rep.complete is False
