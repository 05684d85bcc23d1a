"""A stretch of the log in which the agent's loop did nothing: `sync.silent_log` (issue 13,
QA session 17's K4).

Zaxxon scrolls on its own: the same video with 8.2 s of its log deleted (seq renumbered) and
with a 14-press human stretch had no `sync.*` finding at all, not even at the true offset; the
picture shows those presses no more often than its own motion does (DECISIONS.md, s18). The
log shows them: an agent's loop always awaits a model or applies an input, and a deleted or a
human stretch leaves seconds after an observation with no event until the next request.
"""

from __future__ import annotations

import json
import shutil

from conftest import REPO

from moderator_app.core.formats.input_events import IDLE_READ_FLOOR_S, idle_stretches
from moderator_app.core.formats.submission import load_submission
from moderator_app.core.sync.run import analyze_result
from moderator_app.core.verify.isolated import verify_isolated
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

SAMPLE = REPO / "resources" / "samples" / "community-sample"


def _write_log(folder, events):
    folder.mkdir(parents=True, exist_ok=True)
    lines = [{"seq": i, "at": "2026-11-30T20:00:00.000Z", "elapsedMs": el, "type": typ,
              "data": {}} for i, (el, typ) in enumerate(events)]
    (folder / "agent-log.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return load_submission([folder])


def test_only_the_loops_idle_time_is_a_silent_stretch(tmp_path):
    """A 10 s model call (request, then response) is the loop waiting, and so is a 5 s
    press; 8 s after an observation with no event until the next request is the loop idle;
    the time before `run_end` is the harness stopping the clock."""
    sub = _write_log(tmp_path / "a", [
        (0, "run_start"), (1000, "model_request"), (11000, "model_response"),
        (11020, "action"), (16020, "observation"), (16200, "model_request"),
        (17000, "model_response"), (17030, "action"), (17300, "observation"),
        (25300, "model_request"), (26000, "model_response"), (26030, "action"),
        (26300, "observation"), (36000, "run_end")])
    assert idle_stretches(sub, 4.0) == [(17.3, 25.3)]
    assert idle_stretches(sub, 8.5) == []


def test_a_log_that_records_no_model_call_has_no_idle_stretch(tmp_path):
    """Without a model call in the log, none can be said to be in flight or not."""
    sub = _write_log(tmp_path / "b", [
        (0, "run_start"), (1000, "action"), (1300, "observation"), (12000, "action"),
        (12300, "observation"), (20000, "run_end")])
    assert idle_stretches(sub, 4.0) == []


def _deleted_stretch(tmp_path):
    """The community sample with the events after an observation, up to the first model
    request at least 6 s later, deleted and `seq` renumbered (QA's `deleted` tampering):
    the copy's folder and the hole's run times (from, to)."""
    folder = tmp_path / "deleted"
    shutil.copytree(SAMPLE, folder)
    log = folder / "agent-log.jsonl"
    rows = [json.loads(x) for x in log.read_text().splitlines() if x.strip()]
    i = next(k for k, r in enumerate(rows) if r["type"] == "observation"
             and r["elapsedMs"] >= 6000)
    j = next(k for k, r in enumerate(rows) if k > i and r["type"] == "model_request"
             and r["elapsedMs"] - rows[i]["elapsedMs"] >= 6000)
    kept = rows[:i + 1] + rows[j:]
    for n, r in enumerate(kept):
        r["seq"] = n
    log.write_text("".join(json.dumps(r) + "\n" for r in kept))
    return folder, (rows[i]["elapsedMs"] / 1000, rows[j]["elapsedMs"] / 1000)


def test_a_deleted_stretch_is_reported_at_its_place(tmp_path, monkeypatch):
    """Before: no `sync.*` finding about the hole (the rule did not exist). After: one
    `sync.silent_log`, its run span the hole's, its video span the hole at the offset used;
    the genuine sample has none."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    folder, (r0, r1) = _deleted_stretch(tmp_path)
    a = analyze_result(verify_paths([folder]), offset_s=1.5)
    silent = [f for f in a.findings if f.rule == "sync.silent_log"]
    assert [(f.run_start_s, f.run_end_s) for f in silent] == [(r0, r1)]
    assert a.offset_used_s is not None
    assert silent[0].video_start_s == round(a.offset_used_s + r0 / a.speed, 3)
    assert silent[0].video_end_s == round(a.offset_used_s + r1 / a.speed, 3)
    genuine = analyze_result(verify_paths([SAMPLE]), offset_s=1.5)
    assert not [f for f in genuine.findings if f.rule == "sync.silent_log"]


def test_the_window_reads_the_idle_stretches_in_the_verifications_process(tmp_path,
                                                                          monkeypatch):
    """The window never parses the log (issue 15): the verification's process reads the idle
    stretches beside the inputs' times, and the analysis from them is the CLI's."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    folder, hole = _deleted_stretch(tmp_path)
    options = VerifyOptions(build_index=True, spool_dir=tmp_path)
    there = verify_isolated([folder], options)
    here = verify_paths([folder], options)
    assert there.log_idle == tuple(idle_stretches(here.submission, IDLE_READ_FLOOR_S)) \
        == (hole,)
    assert here.log_idle is None  # in process (the CLI): read when `--sync` asks
    assert repr(analyze_result(there, offset_s=1.5)) == repr(analyze_result(here, offset_s=1.5))


def test_the_hole_is_said_beside_the_pictures_finding_and_without_an_offset():
    """Beside a `sync.activity_without_actions` about the same stretch (its span runs from the
    first to the last input-like change: QA s14's Montezuma human stretch 1.66 s from the
    place, missed while the log's finding was left out there), and with run times only when
    the analysis has no offset; shorter holes than the bar are not said."""
    from moderator_app.core.sync.records import SyncAnalysis, SyncFinding
    from moderator_app.core.sync.silent import with_silent

    act = SyncFinding("sync.activity_without_actions", "5 input-like reactions", 21.3, 23.75,
                      17.3, 26.4, actions=5)
    a = SyncAnalysis(1.7, 0.8, 9, 20, 1.0, "", 1.7, findings=[act])
    got = with_silent(a, [(17.8, 25.9), (30.0, 33.0)], 4.0).findings
    assert [(f.rule, f.video_start_s, f.video_end_s, f.run_start_s, f.run_end_s)
            for f in got] == [("sync.silent_log", 19.5, 27.6, 17.8, 25.9),
                              ("sync.activity_without_actions", 21.3, 23.75, 17.3, 26.4)]
    none = SyncAnalysis(None, 0.0, 1, 20, 1.0, "not enough signal", None)
    assert [(f.video_start_s, f.run_start_s, f.run_end_s)
            for f in with_silent(none, [(17.8, 25.9)], 4.0).findings] == [(None, 17.8, 25.9)]
