"""`moderator-app decide` and `decisions list|export|verify` on real submissions."""

from __future__ import annotations

import csv
import hashlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from conftest import REPO

from moderator_app.cli import main
from moderator_app.core.ledger.records import CHECKLIST_IDS
from moderator_app.core.ledger.store import Ledger


def sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def run(*argv: str) -> int:
    return main(list(argv))


def test_decide_records_the_evidence_and_exports_it(submission, store, tmp_path, capsys):
    assert run("decide", str(submission), "--accept", "--note", "clean run", "--reviewer",
               "mod1", "--offset", "0.25", "--store", str(store)) == 0
    out = capsys.readouterr().out
    assert "Recorded decision #1: accept (ok)" in out
    assert sha(submission / "agent-log.jsonl") in out
    exp = tmp_path / "d.jsonl"
    assert run("decisions", "export", "--format", "jsonl", "--out", str(exp),
               "--store", str(store)) == 0
    (rec,) = [json.loads(x) for x in exp.read_text().splitlines()]
    assert {f["name"]: f["sha256"] for f in rec["files"]} == {
        "agent-log.jsonl": sha(submission / "agent-log.jsonl"),
        "run.mp4": sha(submission / "run.mp4")}
    assert {f["name"]: f["size"] for f in rec["files"]} == {
        "agent-log.jsonl": (submission / "agent-log.jsonl").stat().st_size,
        "run.mp4": (submission / "run.mp4").stat().st_size}
    assert (rec["decision"], rec["reason"], rec["note"], rec["reviewer"]) == (
        "accept", "ok", "clean run", "mod1")
    assert rec["sync_offset_s"] == 0.25 and rec["summary"]["verdict"] == "pass"
    assert rec["seq"] == 1 and rec["prev_hash"] == "0" * 64 and len(rec["hash"]) == 64


def test_reject_needs_a_reason_and_suggests_one(submission, store, capsys):
    assert run("decide", str(submission), "--reject", "--store", str(store)) == 2
    err = capsys.readouterr().err
    assert "--reject needs --reason" in err and "suggest other" in err
    assert not store.exists()
    assert run("decide", str(submission), "--accept", "--reason", "human-input",
               "--store", str(store)) == 2
    assert run("decide", str(submission), "--reject", "--reason", "human-input",
               "--store", str(store)) == 0


def test_default_reviewer_is_user(submission, store, monkeypatch, capsys):
    monkeypatch.setenv("USER", "envuser")
    assert run("decide", str(submission), "--accept", "--store", str(store)) == 0
    assert run("decisions", "list", "--store", str(store)) == 0
    out = capsys.readouterr().out
    assert "envuser" in out and "1 decisions in" in out


def test_env_store_is_used(submission, tmp_path, monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_STORE", str(tmp_path / "envstore.sqlite3"))
    assert run("decide", str(submission), "--accept", "--reviewer", "r") == 0
    assert (tmp_path / "envstore.sqlite3").exists()


def test_unreadable_submission_is_exit_2(tmp_path, store, capsys):
    assert run("decide", str(tmp_path / "missing"), "--accept", "--store", str(store)) == 2
    assert "cannot verify the submission" in capsys.readouterr().err
    assert not store.exists()


def test_csv_has_no_formula_cell(submission, store, tmp_path):
    assert run("decide", str(submission), "--reject", "--reason", "other", "--note",
               "=cmd|' /C calc'!A0", "--reviewer", "@evil", "--store", str(store)) == 0
    out = tmp_path / "d.csv"
    assert run("decisions", "export", "--format", "csv", "--out", str(out),
               "--store", str(store)) == 0
    rows = list(csv.reader(out.open(newline="", encoding="utf-8")))
    assert len(rows) == 2
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
               for row in rows for cell in row)
    row = dict(zip(rows[0], rows[1], strict=True))
    assert row["note"] == "'=cmd|' /C calc'!A0" and row["reviewer"] == "'@evil"
    assert sha(submission / "run.mp4") in row["file_sha256"]


def test_note_edited_with_sqlite3_fails_verify(submission, store, tmp_path):
    """The graders' scenario, through the real entry point in a subprocess."""
    def cli(*a: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "moderator_app", *a], cwd=REPO,
                              capture_output=True, text=True, timeout=60)

    for note in ("first", "second", "third"):
        assert cli("decide", str(submission), "--accept", "--note", note, "--reviewer", "m",
                   "--store", str(store)).returncode == 0
    ok = cli("decisions", "verify", "--store", str(store))
    assert ok.returncode == 0 and "ledger intact: 3 decisions" in ok.stdout
    conn = sqlite3.connect(store)
    conn.execute("UPDATE decisions SET note = 'rewritten' WHERE note = 'second'")
    conn.commit()
    conn.close()
    bad = cli("decisions", "verify", "--store", str(store))
    assert bad.returncode == 1
    assert "first bad record seq 2" in bad.stdout and "column 'note'" in bad.stdout
    exp = cli("decisions", "export", "--format", "jsonl", "--out", str(tmp_path / "x.jsonl"),
              "--store", str(store))
    assert exp.returncode == 1 and "NOT intact" in exp.stderr


def test_verify_on_a_corrupt_file_is_not_intact_and_leaves_it(tmp_path, capsys):
    p = tmp_path / "d.sqlite3"
    p.write_bytes(b"garbage " * 100)
    assert run("decisions", "verify", "--store", str(p)) == 1
    assert run("decisions", "list", "--store", str(p)) == 2
    assert "not an SQLite database" in capsys.readouterr().err
    assert p.read_bytes() == b"garbage " * 100


def test_verify_of_a_missing_ledger_is_empty_and_creates_nothing(tmp_path, capsys):
    assert run("decisions", "verify", "--store", str(tmp_path / "none.sqlite3")) == 0
    assert "no ledger yet" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []


def test_unknown_check_item_is_refused(submission, store, capsys):
    assert run("decide", str(submission), "--accept", "--check", "bogus",
               "--store", str(store)) == 2
    assert "unknown --check item" in capsys.readouterr().err


def test_a_jsonl_export_verifies_on_its_own_and_edits_show(submission, store, tmp_path,
                                                            capsys):
    for note in ("a", "b"):
        assert run("decide", str(submission), "--accept", "--note", note, "--reviewer", "m",
                   "--store", str(store)) == 0
    exp = tmp_path / "e.jsonl"
    assert run("decisions", "export", "--format", "jsonl", "--out", str(exp),
               "--store", str(store)) == 0
    assert run("decisions", "verify", "--jsonl", str(exp)) == 0
    assert "export intact: 2 decisions" in capsys.readouterr().out
    exp.write_bytes(exp.read_bytes().replace(b'"note":"b"', b'"note":"B"'))
    assert run("decisions", "verify", "--jsonl", str(exp)) == 1
    assert "first bad record seq 2: line 2: hash mismatch" in capsys.readouterr().out


def test_export_to_dash_prints_the_export_on_stdout(submission, store, tmp_path, capsys,
                                                    monkeypatch):
    """`--out -` is stdout, as for every Unix tool: it wrote a file named `-` (QA, session 8);
    the summary goes to stderr so the export can be piped."""
    assert run("decide", str(submission), "--reject", "--reason", "other", "--note", "why",
               "--reviewer", "m", "--store", str(store)) == 0
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert run("decisions", "export", "--format", "jsonl", "--out", "-",
               "--store", str(store)) == 0
    got = capsys.readouterr()
    (rec,) = [json.loads(x) for x in got.out.splitlines()]
    assert (rec["decision"], rec["note"]) == ("reject", "why")
    assert "Wrote 1 decisions to stdout (jsonl)" in got.err
    assert not (tmp_path / "-").exists()


def test_official_decision_binds_the_chain_head_and_walkthrough(tmp_path, store):
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    sub = tmp_path / "official"
    sub.mkdir()
    stats = write_trajectory(sub / "events.jsonl.zst", make_run_events(30, seed=5))
    assert run("decide", str(sub), "--accept", "--check", "chain-verified", "--check",
               "no-leaks", "--override-note", "no secret at hand", "--reviewer", "t",
               "--store", str(store)) == 0
    assert run("decide", str(sub), "--accept", "--check", "all", "--reviewer", "t",
               "--store", str(store)) == 0
    with Ledger(store, create=False) as led:
        a, b = (d.record for d in led.list())
    assert a.kind == "official" and a.chain_head == stats.head == b.chain_head
    assert a.checklist == ("chain-verified", "no-leaks")
    assert a.override_note == "no secret at hand"
    assert b.checklist == CHECKLIST_IDS and b.override_note is None
    assert a.files[0].sha256 == sha(sub / "events.jsonl.zst")


def test_list_warns_when_the_ledger_is_not_intact(submission, store, capsys):
    assert run("decide", str(submission), "--accept", "--reviewer", "m", "--store",
               str(store)) == 0
    conn = sqlite3.connect(store)
    conn.execute("UPDATE decisions SET reviewer = 'someone else'")
    conn.commit()
    conn.close()
    assert run("decisions", "list", "--store", str(store)) == 0
    err = capsys.readouterr().err
    assert "WARNING: ledger NOT intact: first bad record seq 1: column 'reviewer'" in err
