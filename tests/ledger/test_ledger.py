"""The decision ledger: chained, durable, tamper-evident, never "repairs" a bad file."""

from __future__ import annotations

import csv
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO
from ledgerhelp import SHA_LOG, SHA_VIDEO, fake_result

from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.formats.chain import ZERO_HASH, event_hash
from moderator_app.core.ledger.paths import STORE_ENV, default_store_path, resolve_store
from moderator_app.core.ledger.records import build_record
from moderator_app.core.ledger.store import Ledger, LedgerError, neutralise_cell
from moderator_app.core.text import reversible_text
from moderator_app.core.verify.report import FileDigest


def rec(note: str = "", decision: str = "accept", reason: str | None = None, **kw):
    return build_record(fake_result(**kw), decision, reason=reason, note=note,
                        reviewer="alice")


def filled(store: Path, n: int = 5) -> Path:
    with Ledger(store) as led:
        for i in range(n):
            led.append(rec(f"note {i + 1}"))
    return store


def sql(store: Path, *statements: str) -> None:
    conn = sqlite3.connect(store)
    for s in statements:
        conn.execute(s)
    conn.commit()
    conn.close()


def test_append_chains_records_from_zero_hash(store):
    with Ledger(store) as led:
        a = led.append(rec("first"))
        b = led.append(rec("second", "reject", "human-input"))
        assert (a.seq, b.seq) == (1, 2)
        assert a.prev_hash == ZERO_HASH and b.prev_hash == a.hash
        body = {k: v for k, v in json.loads(b.raw).items() if k != "hash"}
        assert event_hash(a.hash, body) == b.hash
        assert [d.record.note for d in led.list()] == ["first", "second"]
        out = led.verify()
    assert out.ok and out.count == 2 and out.head == b.hash


def test_by_evidence_finds_earlier_decisions_whatever_the_file_names(store):
    renamed = [FileDigest("x/log.jsonl", "agent_log", 1234, SHA_LOG),
               FileDigest("x/video.mp4", "video", 98765, SHA_VIDEO)]
    other = [FileDigest("agent-log.jsonl", "agent_log", 1234, "3" * 64)]
    with Ledger(store) as led:
        led.append(rec("one"))
        led.append(build_record(fake_result(files=other), "accept", reviewer="bob"))
        renamed_rec = build_record(fake_result(files=renamed), "reject", "other",
                                   note="renamed copy", reviewer="bob")
        assert renamed_rec.evidence_digest == rec().evidence_digest
        assert [d.seq for d in led.by_evidence(renamed_rec.evidence_digest)] == [1]


def test_store_location_env_and_private_permissions(tmp_path, monkeypatch):
    monkeypatch.setenv(STORE_ENV, str(tmp_path / "env" / "d.sqlite3"))
    assert default_store_path() == tmp_path / "env" / "d.sqlite3"
    assert resolve_store(None) == tmp_path / "env" / "d.sqlite3"
    (tmp_path / "adir").mkdir()
    assert resolve_store(tmp_path / "adir") == tmp_path / "adir" / "decisions.sqlite3"
    with Ledger(None) as led:
        led.append(rec())
        assert led._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert stat.S_IMODE((tmp_path / "env").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "env" / "d.sqlite3").stat().st_mode) == 0o600
    conn = sqlite3.connect(tmp_path / "env" / "d.sqlite3")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_default_store_is_in_the_user_data_dir(monkeypatch, tmp_path):
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_store_path() == tmp_path / "xdg" / "moderator-app" / "decisions.sqlite3"
    (tmp_path / "xdg" / "moderator-app").mkdir(parents=True, mode=0o755)
    with Ledger() as led:
        led.append(rec())
    assert stat.S_IMODE((tmp_path / "xdg" / "moderator-app").stat().st_mode) == 0o700


def test_reading_a_missing_ledger_creates_nothing(tmp_path):
    p = tmp_path / "nope" / "d.sqlite3"
    with Ledger(p, create=False) as led:
        assert led.list() == [] and led.verify().ok
    assert not p.parent.exists()


def test_direct_note_edit_is_detected_at_that_record(store):
    filled(store)
    sql(store, "UPDATE decisions SET note = 'nothing to see' WHERE seq = 3")
    with Ledger(store, create=False) as led:
        out = led.verify()
    assert not out.ok and out.bad_seq == 3 and out.count == 2
    assert "column 'note'" in out.reason


def test_edit_of_the_sealed_json_is_a_hash_mismatch(store):
    filled(store)
    conn = sqlite3.connect(store)
    raw = conn.execute("SELECT record_json FROM decisions WHERE seq = 2").fetchone()[0]
    d = json.loads(raw)
    d["decision"] = "reject"
    conn.execute("UPDATE decisions SET record_json = ?, decision = 'reject' WHERE seq = 2",
                 (canonical_json(d),))
    conn.commit()
    conn.close()
    with Ledger(store, create=False) as led:
        out = led.verify()
    assert (out.ok, out.bad_seq) == (False, 2)
    assert out.reason.startswith("hash mismatch")


def test_deleted_middle_record_is_a_sequence_gap(store):
    filled(store)
    sql(store, "DELETE FROM decisions WHERE seq = 4")
    with Ledger(store, create=False) as led:
        out = led.verify()
    assert (out.ok, out.bad_seq) == (False, 5)
    assert "sequence gap: expected seq 4, found 5" in out.reason


def test_deleted_last_record_is_caught_by_the_head_marker(store):
    filled(store)
    sql(store, "DELETE FROM decisions WHERE seq = 5")
    with Ledger(store, create=False) as led:
        out = led.verify()
    assert (out.ok, out.bad_seq) == (False, 5)
    assert "head marker" in out.reason


def test_reordered_records_are_detected(store):
    filled(store)
    # Swap records 2 and 3 wholesale, columns and sealed JSON alike.
    sql(store, "UPDATE decisions SET seq = -2 WHERE seq = 2",
        "UPDATE decisions SET seq = 2 WHERE seq = 3",
        "UPDATE decisions SET seq = 3 WHERE seq = -2")
    with Ledger(store, create=False) as led:
        out = led.verify()
    assert (out.ok, out.bad_seq) == (False, 2)
    assert "prev_hash" in out.reason


def test_garbage_file_is_refused_and_never_overwritten(tmp_path):
    p = tmp_path / "decisions.sqlite3"
    garbage = os.urandom(8192)
    p.write_bytes(garbage)
    for create in (True, False):
        with pytest.raises(LedgerError, match="not an SQLite database.*left untouched"):
            Ledger(p, create=create)
    assert p.read_bytes() == garbage
    assert sorted(x.name for x in tmp_path.iterdir()) == ["decisions.sqlite3"]


def test_sqlite_header_with_corrupt_body_is_refused_unchanged(tmp_path):
    p = tmp_path / "decisions.sqlite3"
    bad = b"SQLite format 3\x00" + os.urandom(4096 - 16)
    p.write_bytes(bad)
    with pytest.raises(LedgerError, match="corrupt or unreadable|not a moderator-app"):
        Ledger(p)
    assert p.read_bytes() == bad


def test_another_apps_database_is_not_touched(tmp_path):
    p = tmp_path / "other.db"
    conn = sqlite3.connect(p)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    before = p.read_bytes()
    with pytest.raises(LedgerError, match="not a moderator-app decision ledger"):
        Ledger(p)
    assert p.read_bytes() == before


def test_jsonl_export_is_the_canonical_chain_with_every_sha256(store, tmp_path):
    filled(store, 3)
    out = tmp_path / "out.jsonl"
    with Ledger(store, create=False) as led:
        assert led.export("jsonl", out) == 3
    lines = out.read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) == 4
    prev = ZERO_HASH
    for n, line in enumerate(lines[:-1], 1):
        d = json.loads(line)
        assert canonical_json(d) == line  # canonical, one record per line
        assert d["seq"] == n and d["prev_hash"] == prev
        assert event_hash(prev, {k: v for k, v in d.items() if k != "hash"}) == d["hash"]
        assert [f["sha256"] for f in d["files"]] == [SHA_LOG, SHA_VIDEO]
        prev = d["hash"]
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_csv_export_neutralises_formula_cells(store, tmp_path):
    hostile = ["=HYPERLINK(\"http://x\")", "+1", "-cmd", "@SUM(A1)", "\tTAB", "\rCR",
               "  =spaced"]
    with Ledger(store) as led:
        for note in hostile:
            led.append(rec(note, "reject", "other", name="=evil"))
    out = tmp_path / "out.csv"
    with Ledger(store, create=False) as led:
        led.export("csv", out)
    rows = list(csv.DictReader(out.open(newline="", encoding="utf-8")))
    # TAB and CR are written as escapes (no raw control character in the file), the rest
    # gets the apostrophe
    assert [r["note"] for r in rows] == [
        "'" + h if h[0] not in "\t\r" else reversible_text(h) for h in hostile]
    assert [r["note"] for r in rows][4:6] == ["\\u0009TAB", "\\u000dCR"]
    assert {r["submission"] for r in rows} == {"'=evil"}
    for r in rows:
        assert r["file_sha256"] == f"{SHA_LOG}; {SHA_VIDEO}"
        for cell in r.values():
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    assert neutralise_cell(-1.5) == "'-1.5" and neutralise_cell(2.0) == "2"


def test_csv_export_holds_no_raw_control_character_and_reads_back(store, tmp_path):
    """A note's ESC, C1 CSI, RLO, DEL, line breaks reached the CSV raw (and a terminal with
    `--out /dev/stdout`, issue 15): every such character is now a `\\uXXXX` escape, and the
    documented inverse gives each note back exactly."""
    import re

    from moderator_app.core.text import unescape_reversible

    notes = ["title \x1b]0;pwned\x07 here", "csi \x9b2J", "rlo \u202etxt.exe", "del \x7f",
             "two\nlines\r\nand\ttab", "a literal \\u0041 and C:\\users\\me", "nul \x00"]
    with Ledger(store) as led:
        for note in notes:
            led.append(rec(note, "reject", "other", name="run\u2028\x1b[31m.zip"))
    out = tmp_path / "out.csv"
    with Ledger(store, create=False) as led:
        led.export("csv", out)
    text = out.read_bytes().decode("utf-8")
    raw = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
    assert raw.search(text) is None, raw.search(text)
    assert text.count("\r\n") == len(notes) + 1 and text.count("\n") == len(notes) + 1
    rows = list(csv.DictReader(out.open(newline="", encoding="utf-8")))
    assert [unescape_reversible(r["note"]) for r in rows] == notes
    assert {unescape_reversible(r["submission"]) for r in rows} == {"run\u2028\x1b[31m.zip"}


def test_export_replaces_the_target_atomically(store, tmp_path):
    filled(store, 2)
    out = tmp_path / "o.jsonl"
    out.write_text("old")
    with Ledger(store, create=False) as led:
        led.export("jsonl", out)
    assert out.read_text().count("\n") == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ledger", "o.jsonl"]


_WRITER = """
import sys
from types import SimpleNamespace
from moderator_app.core.ledger.records import build_record
from moderator_app.core.ledger.store import Ledger
from moderator_app.core.verify.report import FileDigest, Report
r = Report(kind="community", input_name="sub")
r.files = [FileDigest("agent-log.jsonl", "agent_log", 10, "1" * 64)]
res = SimpleNamespace(report=r, submission=SimpleNamespace(display_name="sub"))
with Ledger(sys.argv[1]) as led:
    for i in range(100000):
        s = led.append(build_record(res, "accept", note=f"n{i}", reviewer="k"))
        sys.stdout.write(f"{s.seq}\\n")
        sys.stdout.flush()
"""


def test_sigkill_while_saving_loses_no_acknowledged_decision(store):
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(store)], cwd=REPO,
                            stdout=subprocess.PIPE, text=True)
    acked: list[int] = []
    deadline = time.monotonic() + 300  # a hang guard: 40 acknowledgements end the wait
    assert proc.stdout is not None
    while len(acked) < 40 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acked.append(int(line))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    acked += [int(x) for x in proc.stdout.read().split()]  # acknowledged before the kill
    assert proc.returncode == -signal.SIGKILL
    assert len(acked) >= 40
    with Ledger(store, create=False) as led:
        seqs = [d.seq for d in led.list()]
        out = led.verify()
    assert out.ok, out.describe()
    assert set(acked) <= set(seqs)
    assert seqs == list(range(1, len(seqs) + 1))


def test_three_writer_processes_creating_one_ledger_make_one_valid_chain(store):
    """They race to create the folder, the file and the schema, then interleave appends."""
    code = _WRITER.replace("range(100000)", "range(20)")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(store)], cwd=REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(3)]
    outs = [p.communicate(timeout=300) for p in procs]  # a hang guard
    assert [p.returncode for p in procs] == [0, 0, 0], [e for _, e in outs]
    acked = [int(x) for o, _ in outs for x in o.split()]
    assert sorted(acked) == list(range(1, 61))
    with Ledger(store, create=False) as led:
        out = led.verify()
    assert out.ok and out.count == 60


def test_truncated_ledger_is_a_clear_error_and_left_as_is(store):
    with Ledger(store) as led:
        for i in range(40):
            led.append(rec(f"{i} " + "x" * 1500))
    size = store.stat().st_size
    with open(store, "r+b") as fh:
        fh.truncate(size // 2)
    before = store.read_bytes()
    with pytest.raises(LedgerError, match="malformed"), Ledger(store, create=False) as led:
        led.verify()
    with pytest.raises(LedgerError, match="malformed"), Ledger(store) as led:
        led.append(rec("after"))
    assert store.read_bytes() == before
