"""The review queue: each submission with the verdict `verify` gives it, its decision state,
reports cached by evidence digest (an unchanged submission is never verified twice)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

from moderator_app.core.ledger.claims import new_claim
from moderator_app.core.ledger.records import build_record
from moderator_app.core.ledger.store import Ledger
from moderator_app.core.queue.listing import build_queue, examine_all, next_pending
from moderator_app.core.queue.scan import scan_queue
from moderator_app.core.verify.pipeline import verify_paths

SAMPLE = REPO / "resources" / "samples" / "community-sample"
OFFICIAL = REPO / "resources" / "samples" / "official-sample"


def cli(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MODERATOR_APP_STORE")}
    return subprocess.run([sys.executable, "-m", "moderator_app", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def queue_dir(tmp_path_factory) -> Path:
    """valid, broken, a duplicate of valid, an archive, an official run, an unreadable one;
    mtimes set so that the order is known."""
    q = tmp_path_factory.mktemp("queue")
    shutil.copytree(SAMPLE, q / "a-valid")
    shutil.copytree(SAMPLE, q / "b-broken")
    log = q / "b-broken" / "agent-log.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:3] + [b"{not json\n"] + lines[3:]))
    shutil.copytree(SAMPLE, q / "c-duplicate")
    with zipfile.ZipFile(q / "d-bundle.zip", "w") as z:
        for f in SAMPLE.iterdir():
            z.write(f, f.name)
    shutil.copytree(OFFICIAL, q / "e-official")
    (q / "f-empty").mkdir()
    (q / "f-empty" / "readme.txt").write_text("nothing here")
    (q / "notes.txt").write_text("not a submission")
    (q / ".hidden").mkdir()
    for i, name in enumerate(["a-valid", "b-broken", "c-duplicate", "d-bundle.zip",
                              "e-official", "f-empty"]):
        t = 1_700_000_000 + i * 60
        for p in [q / name, *(q / name).rglob("*")]:
            os.utime(p, (t, t))
    return q


def test_each_submission_gets_the_verdict_verify_gives(queue_dir, tmp_path):
    r = cli("queue", str(queue_dir), "--json", "--cache", str(tmp_path / "c.sqlite3"),
            "--store", str(tmp_path / "l.sqlite3"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    names = [i["name"] for i in doc["items"]]
    assert names == ["a-valid", "b-broken", "c-duplicate", "d-bundle.zip", "e-official",
                     "f-empty"]  # oldest first; hidden and loose files are not submissions
    for item in doc["items"]:
        v = cli("verify", "--json", str(queue_dir / item["name"]))
        expected = json.loads(v.stdout)
        assert item["verdict"] == expected["verdict"], item["name"]
        if "summary" in expected:
            assert (item["errors"], item["warnings"]) == (
                expected["summary"]["errors"], expected["summary"]["warnings"])
    by = {i["name"]: i for i in doc["items"]}
    assert by["a-valid"]["verdict"] == "pass" and by["b-broken"]["verdict"] == "fail"
    assert by["f-empty"]["verdict"] == "unreadable" and by["f-empty"]["error"]
    assert by["c-duplicate"]["duplicate_of"] == "a-valid"
    assert by["d-bundle.zip"]["duplicate_of"] == "a-valid"  # same bytes, zipped
    assert by["a-valid"]["game"] and by["e-official"]["kind"] == "official"
    assert {i["state"] for i in doc["items"]} == {"pending"}


def test_unchanged_submissions_are_never_verified_twice(queue_dir, tmp_path):
    cache = str(tmp_path / "c.sqlite3")
    cands = scan_queue(queue_dir)
    _, verified = examine_all(cands, cache, workers=1)  # one worker: a known order
    assert verified == 3  # a-valid, b-broken, e-official; copies found by digest, f unreadable
    _, verified = examine_all(cands, cache, workers=2)
    assert verified == 0
    work = tmp_path / "q2"
    shutil.copytree(queue_dir, work)  # new paths, new mtimes: digested, not verified
    moved = scan_queue(work)
    out, verified = examine_all(moved, cache, workers=2)
    assert verified == 0
    assert [out[c.fingerprint]["verdict"] for c in moved] == [
        "pass", "fail", "pass", "pass", "pass", "unreadable"]
    log = work / "b-broken" / "agent-log.jsonl"
    log.write_bytes(log.read_bytes().replace(b"{not json\n", b"{still not\n"))  # new bytes
    now = scan_queue(work)
    out, verified = examine_all(now, cache, workers=2)
    b = next(c for c in now if c.name == "b-broken")
    assert verified == 1 and out[b.fingerprint]["verdict"] == "fail"


def test_a_log_rewritten_in_place_with_its_mtime_put_back_is_verified_again(tmp_path):
    """Session 15: same size, same inode, modification time restored (`touch -r`): on main the
    fingerprint held and the queue showed the cached PASS of bytes the log no longer held."""
    q = tmp_path / "q"
    shutil.copytree(SAMPLE, q / "run")
    cache = str(tmp_path / "c.sqlite3")
    out, verified = examine_all(scan_queue(q), cache, workers=1)
    assert verified == 1 and [s["verdict"] for s in out.values()] == ["pass"]
    log = q / "run" / "agent-log.jsonl"
    st = log.stat()
    data = log.read_bytes()
    at = data.index(b'"type":"action"')
    with open(log, "r+b") as fh:
        fh.seek(at)
        fh.write(b'"type":"actioX"')
    os.utime(log, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (log.stat().st_size, log.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    out, verified = examine_all(scan_queue(q), cache, workers=1)
    assert verified == 1 and [s["verdict"] for s in out.values()] == ["fail"]


def test_decision_states_from_the_ledger(queue_dir, tmp_path):
    store = tmp_path / "l.sqlite3"
    valid = verify_paths([queue_dir / "a-valid"])
    broken = verify_paths([queue_dir / "b-broken"])
    with Ledger(store) as led:
        led.append(build_record(valid, "accept", reviewer="alice"))
        led.append(build_record(broken, "reject", reason="log-invalid", reviewer="bob"))
        official = verify_paths([queue_dir / "e-official"])
        from moderator_app.core.ledger.records import evidence_digest

        led.append(new_claim("claim", "carol", evidence_digest(official.report.files),
                             "e-official"))
    items = build_queue(queue_dir, str(store), str(tmp_path / "c.sqlite3"))
    states = {i.name: i.state for i in items}
    assert states == {"a-valid": "accepted", "b-broken": "rejected",
                      "c-duplicate": "accepted", "d-bundle.zip": "accepted",
                      "e-official": "claimed", "f-empty": "pending"}
    claimed = next(i for i in items if i.name == "e-official")
    assert claimed.claimed_by == "carol" and claimed.claimed_until
    assert next_pending(items) is None  # f-empty is unreadable: nothing to review
    r = cli("queue", str(queue_dir), "--store", str(store), "--cache",
            str(tmp_path / "c.sqlite3"), "--state", "claimed")
    assert r.returncode == 0, r.stderr
    assert "claimed by carol until" in r.stdout and "a-valid" not in r.stdout
    assert "1 of 6 submissions shown" in r.stdout


def test_unreadable_queue_folder_is_a_clear_error(tmp_path):
    r = cli("queue", str(tmp_path / "nope"), "--cache", str(tmp_path / "c"))
    assert r.returncode == 2 and "cannot read the queue folder" in r.stderr


def test_a_submission_past_the_time_limit_times_out_and_is_tried_again(queue_dir, tmp_path):
    """A deadline already passed when a worker receives its submission (time limit 0): every
    examination is stopped, each submission says so, no worker is left behind, nothing is
    cached, and the next listing with the default limit verifies them."""
    import multiprocessing

    cache = str(tmp_path / "c.sqlite3")
    cands = scan_queue(queue_dir)
    out, verified = examine_all(cands, cache, workers=2, time_limit_s=0.0)
    assert verified == 0
    assert [out[c.fingerprint]["verdict"] for c in cands] == ["timed_out"] * 6
    assert "within the queue's time limit of 0 s" in out[cands[0].fingerprint]["error"]
    assert multiprocessing.active_children() == []
    out, verified = examine_all(cands, cache, workers=1)  # one worker: a known order
    assert verified == 3
    assert [out[c.fingerprint]["verdict"] for c in cands] == [
        "pass", "fail", "pass", "pass", "pass", "unreadable"]


def test_queue_time_limit_on_the_command_line(queue_dir, tmp_path):
    r = cli("queue", str(queue_dir), "--json", "--cache", str(tmp_path / "c.sqlite3"),
            "--store", str(tmp_path / "l.sqlite3"), "--time-limit", "1e-9",
            "--verdict", "timed_out")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [i["verdict"] for i in doc["items"]] == ["timed_out"] * 6
    bad = cli("queue", str(queue_dir), "--time-limit", "0")
    assert bad.returncode == 2 and "not a positive number of seconds" in bad.stderr


def test_a_damaged_or_shared_report_cache_is_a_miss_never_an_error(tmp_path):
    """A cached summary that is not one (an array, `{}`, a count that is text) was an
    internal error of the whole listing (AttributeError, KeyError: exit 2); a cache file
    others may write could list any submission as passed. Each is now a miss: the
    submission is verified again (issue 15, fourth hostile pass)."""
    import sqlite3

    q = tmp_path / "q"
    shutil.copytree(SAMPLE, q / "sub")
    cache = tmp_path / "c.sqlite3"
    (first,) = build_queue(q, cache_path=cache, workers=1)
    assert first.verdict == "pass" and first.game == "tetris-gb"

    def damage(summary: str) -> None:
        with sqlite3.connect(cache) as conn:
            conn.execute("UPDATE reports SET summary = ?", (summary,))

    forged = json.dumps({**{k: None for k in ("verification_level", "first_error_rule",
                                               "first_error_line", "kind", "category",
                                               "model", "evidence_digest", "error")},
                         "verdict": "pass", "errors": 0, "warnings": 0, "game": "FORGED"})
    for bad in ("[1, 2]", "null", "5", "{}", '{"verdict": "pass", "errors": "0"}',
                forged.replace('"evidence_digest": null', '"evidence_digest": "zz"')):
        damage(bad)
        (item,) = build_queue(q, cache_path=cache, workers=1)
        assert (item.verdict, item.game, item.evidence_digest) == (
            "pass", "tetris-gb", first.evidence_digest), bad
    damage(forged)  # a well-formed summary, in a file others may write: not used
    os.chmod(cache, 0o666)
    (item,) = build_queue(q, cache_path=cache, workers=1)
    assert item.game == "tetris-gb"
    os.chmod(cache, 0o600)  # the user's own file is trusted (docs/DECISIONS.md)
    (item,) = build_queue(q, cache_path=cache, workers=1)
    assert item.game == "FORGED"


def test_every_row_is_listed_before_any_submission_is_examined(queue_dir, tmp_path):
    """Session 17: a queue of 10,000 showed nothing until every new submission was verified
    (98 s in the CLI, more than 240 s in the workstation). `stream_queue` hands every row
    over first, unverified and of unknown state, then each verdict as it is computed."""
    from moderator_app.core.queue.listing import stream_queue

    cache = tmp_path / "c.sqlite3"
    firsts: list[list] = []
    told: list[tuple[int, object]] = []
    items = stream_queue(queue_dir, None, cache, workers=1, on_rows=firsts.append,
                         on_items=told.extend)
    (first,) = firsts
    assert [i.name for i in first] == ["a-valid", "b-broken", "c-duplicate", "d-bundle.zip",
                                       "e-official", "f-empty"]
    assert {(i.verdict, i.state, i.errors, i.evidence_digest) for i in first} == {
        ("unverified", "unknown", None, None)}
    # one worker, nothing preferred: examined oldest first, each told once it is known
    assert [pos for pos, _ in told] == [0, 1, 2, 3, 4, 5]
    assert [i.verdict for _, i in told] == ["pass", "fail", "pass", "pass", "pass",
                                            "unreadable"]
    assert items == [i for _, i in told] == build_queue(queue_dir, None, cache)
    assert items[2].duplicate_of == "a-valid" and items[0].state == "pending"
    # cached now: the first rows are the final ones, nothing is examined
    again: list[list] = []
    told.clear()
    assert stream_queue(queue_dir, None, cache, on_rows=again.append,
                        on_items=told.extend) == items
    assert again == [items] and told == []


def test_the_rows_a_moderator_looks_at_are_examined_first(queue_dir, tmp_path):
    """A `WorkOrder` told to prefer some submissions (the rows in view) hands them to the
    workers before the older ones; a copy examined before its original names it once the
    original is known."""
    from moderator_app.core.queue.listing import stream_queue
    from moderator_app.core.queue.workers import WorkOrder

    order = WorkOrder()
    order.prefer(["e-official", "c-duplicate", "no-such"])
    told: list[tuple[int, object]] = []
    items = stream_queue(queue_dir, None, tmp_path / "c.sqlite3", workers=1,
                         on_items=told.extend, order=order)
    assert list(dict.fromkeys(i.name for _, i in told))[:3] == [
        "e-official", "c-duplicate", "a-valid"]
    assert told[1][1].duplicate_of is None  # no older copy known yet
    assert [(pos, i.duplicate_of) for pos, i in told[2:4]] == [(2, "a-valid"), (0, None)]
    assert items[2].duplicate_of == "a-valid" and items[3].duplicate_of == "a-valid"


def test_queue_no_verify_lists_at_once_from_the_cache(queue_dir, tmp_path):
    """`queue --no-verify` examines nothing: what the cache holds is shown as known, the
    rest `unverified` with an unknown state; the streamed text lists the rows in the
    listing's order, as `--json` does."""
    cache, store = str(tmp_path / "c.sqlite3"), str(tmp_path / "l.sqlite3")
    r = cli("queue", str(queue_dir), "--no-verify", "--json", "--cache", cache, "--store",
            store)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [(i["verdict"], i["state"]) for i in doc["items"]] == [
        ("unverified", "unknown")] * 6
    assert doc["counts"] == {"unknown": 6}
    build_queue(queue_dir, None, cache, workers=1)
    text = cli("queue", str(queue_dir), "--cache", cache, "--store", store)
    assert text.returncode == 0, text.stderr
    names = ["a-valid", "b-broken", "c-duplicate", "d-bundle.zip", "e-official", "f-empty"]
    rows = text.stdout.splitlines()
    assert [n for line in rows[:-1] for n in names if f"  {n}  " in line] == names
    assert "duplicate of a-valid" in rows[2] and "UNREADABLE" in rows[5]
    fast = cli("queue", str(queue_dir), "--no-verify", "--cache", cache, "--store", store)
    assert fast.stdout == text.stdout  # all cached: the same listing, nothing examined
    (tmp_path / "q2").mkdir()
    shutil.copytree(queue_dir / "a-valid", tmp_path / "q2" / "new")
    new = cli("queue", str(tmp_path / "q2"), "--no-verify", "--cache", cache, "--store",
              store)
    assert "UNVERIFIED   -E   -W  unknown" in new.stdout
    assert new.stdout.splitlines()[-1].startswith(
        "1 of 1 submissions shown; 0 pending, 1 unverified (not in the report cache)")
