"""Issue 15 points 11 and 13: silent loss becomes visible; a read-only ledger verifies and
lists. What is and is not detected is written in docs/decisions-ledger.md."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import REPO

from moderator_app.core.ledger.errors import LedgerError
from moderator_app.core.ledger.records import build_record
from moderator_app.core.ledger.store import Ledger
from moderator_app.core.verify.report import FileDigest, Report


def rec(note: str):
    r = Report(kind="community", input_name="sub")
    r.files = [FileDigest("agent-log.jsonl", "agent_log", 1, "1" * 64)]
    return build_record(SimpleNamespace(report=r, submission=SimpleNamespace(
        display_name="sub")), "accept", note=note, reviewer="alice")


def verify_cli(store: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "moderator_app", "decisions", "verify",
                           "--store", str(store)], capture_output=True, text=True, cwd=REPO,
                          timeout=60)


def fill(store: Path, n: int) -> None:
    with Ledger(store) as led:
        for i in range(n):
            led.append(rec(f"d{i + 1}"))


def test_acknowledged_decisions_are_in_the_main_file(tmp_path):
    """Each append is checkpointed: dropping the -wal afterwards loses nothing."""
    store = tmp_path / "decisions.sqlite3"
    fill(store, 5)
    for suffix in ("-wal", "-shm"):
        Path(str(store) + suffix).unlink(missing_ok=True)
    r = verify_cli(store)
    assert r.returncode == 0 and "intact: 5 decisions" in r.stdout, r.stdout + r.stderr


def test_dropped_wal_is_detected(tmp_path):
    """The issue's case: the 3 newest decisions only in the WAL (a reader kept the checkpoint
    from finishing), then the main file is copied or kept without its -wal."""
    store = tmp_path / "decisions.sqlite3"
    fill(store, 2)
    reader = sqlite3.connect(store)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM decisions").fetchone()  # holds a snapshot
    fill(store, 3)
    moved = tmp_path / "moved"
    moved.mkdir()
    shutil.copy(store, moved / store.name)  # the main file alone
    shutil.copy(str(store) + ".head", moved / (store.name + ".head"))
    reader.close()
    r = verify_cli(moved / store.name)
    assert r.returncode == 1, r.stdout
    assert "first bad record seq 3" in r.stdout and "decisions are missing" in r.stdout


def test_deleting_the_last_decision_and_fixing_the_head_row_is_detected(tmp_path):
    store = tmp_path / "decisions.sqlite3"
    fill(store, 4)
    conn = sqlite3.connect(store)
    head3 = conn.execute("SELECT hash FROM decisions WHERE seq = 3").fetchone()[0]
    conn.execute("DELETE FROM decisions WHERE seq = 4")
    conn.execute("UPDATE meta SET value = ? WHERE key = 'head'", (f"3 {head3}",))
    conn.commit()
    conn.close()
    r = verify_cli(store)
    assert r.returncode == 1 and "first bad record seq 4" in r.stdout, r.stdout


def test_an_older_copy_put_back_is_detected(tmp_path):
    store = tmp_path / "decisions.sqlite3"
    fill(store, 2)
    backup = tmp_path / "old.sqlite3"
    shutil.copy(store, backup)
    fill(store, 2)
    shutil.copy(backup, store)
    r = verify_cli(store)
    assert r.returncode == 1 and "head file says the ledger reached seq 4" in r.stdout


def test_a_ledger_file_replaced_by_a_folder_is_refused_not_taken_for_a_new_one(tmp_path):
    """Session 27 hostile sweep: the ledger file replaced by a folder, its head file left
    beside it, was read as "a folder for the ledger": `verify` made a new, empty ledger in it
    and said "intact: 0 decisions" (exit 0), and `decide` recorded there. Now every command
    refuses it (exit 2), naming the head file that says a ledger was there; a plain folder
    given as the store still holds the ledger."""
    store = tmp_path / "decisions.sqlite3"
    fill(store, 3)
    for suffix in ("", "-wal", "-shm"):
        Path(str(store) + suffix).unlink(missing_ok=True)
    store.mkdir()
    r = verify_cli(store)
    assert r.returncode == 2 and r.stdout == "", r.stdout + r.stderr
    assert r.stderr == (f"moderator-app: {store} is a folder, but decisions.sqlite3.head beside "
                        "it belongs to a ledger file of that name: the ledger was replaced by "
                        "a folder, and its decisions are not there. Restore the ledger file "
                        "from a backup (see docs/decisions-ledger.md), or give another store\n")
    assert list(store.iterdir()) == []  # nothing made inside it
    plain = tmp_path / "plain"
    plain.mkdir()
    fill(plain, 1)
    r = verify_cli(plain)
    assert r.returncode == 0 and "intact: 1 decision" in r.stdout, r.stdout + r.stderr


def test_missing_head_file_is_said_not_hidden(tmp_path):
    store = tmp_path / "decisions.sqlite3"
    fill(store, 2)
    Path(str(store) + ".head").unlink()
    r = verify_cli(store)
    assert r.returncode == 0 and "no head file" in r.stdout + r.stderr
    fill(store, 1)  # the next decision writes it again
    assert Path(str(store) + ".head").read_text().startswith("3 ")


def test_an_emptied_head_file_is_not_rewritten_by_the_next_decision(tmp_path):
    """Session 9 QA: an older copy of the database put back and its head file emptied
    (`: > decisions.sqlite3.head`) was "NOT intact" for `decisions verify`, but the next
    `decide` appended and rewrote the head, and verify then said "intact: 3 decisions": the
    2 lost decisions were erased. An empty head file beside recorded decisions is refused
    like one that is ahead; deleting it stays the documented way on."""
    store = tmp_path / "decisions.sqlite3"
    head = Path(str(store) + ".head")
    fill(store, 2)
    shutil.copy(store, tmp_path / "old.sqlite3")
    fill(store, 2)
    shutil.copy(tmp_path / "old.sqlite3", store)
    head.write_bytes(b"")
    r = verify_cli(store)
    assert r.returncode == 1 and "the head file decisions.sqlite3.head is empty but the " \
        "database holds 2 decision(s)" in r.stdout, r.stdout + r.stderr
    with pytest.raises(LedgerError, match="is empty but the database holds 2 decision"):
        fill(store, 1)
    assert head.read_bytes() == b""  # nothing rewritten: the loss stays visible
    assert verify_cli(store).returncode == 1
    head.unlink()  # the documented way on (Recovery)
    fill(store, 1)
    r = verify_cli(store)
    assert r.returncode == 0 and "intact: 3 decisions" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("text", ["-1 " + "0" * 64, "+3 " + "0" * 64, "1_0 " + "0" * 64,
                                  "2 " + "A" * 64])
def test_a_head_file_not_as_an_append_writes_it_is_unreadable_and_not_rewritten(tmp_path,
                                                                              text):
    """s28 hostile sweep: a head file of `-1` and a zero hash beside 3 decisions verified
    as intact (int() took `-1`, and no record -1 read as the zero hash), and the next decide
    rewrote it. A head file is only what an append writes: `SEQ HASH`, ASCII digits and
    lowercase hex; anything else is unreadable, and decide refuses as for an emptied one."""
    store = tmp_path / "decisions.sqlite3"
    head = Path(str(store) + ".head")
    fill(store, 3)
    head.write_text(text + "\n")
    r = verify_cli(store)
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"the head file decisions.sqlite3.head is unreadable: {text!r}" in r.stdout
    with pytest.raises(LedgerError, match="is unreadable"):
        fill(store, 1)
    assert head.read_text() == text + "\n"  # nothing rewritten


def test_a_new_ledger_with_an_empty_head_file_takes_its_first_decision(tmp_path):
    """An empty head file beside an empty database (a first append that failed after
    creating it) is no loss: verify says intact and the first decision is recorded."""
    store = tmp_path / "decisions.sqlite3"
    with Ledger(store) as led:
        assert led.verify().ok
    Path(str(store) + ".head").write_bytes(b"")
    fill(store, 1)
    assert verify_cli(store).returncode == 0


def _ro_mount_works() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    r = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    return r.returncode == 0


@pytest.mark.skipif(not _ro_mount_works(), reason="needs root and mount namespaces")
def test_ledger_on_a_read_only_mount_verifies_and_lists(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    store = folder / "decisions.sqlite3"
    fill(store, 3)
    script = (f"mount --bind -o ro {folder} {folder} && "
              f"{sys.executable} -m moderator_app decisions verify --store {store} && "
              f"{sys.executable} -m moderator_app decisions list --store {store} && "
              f"{sys.executable} -m moderator_app decisions export --format jsonl "
              f"--store {store} --out {tmp_path / 'out.jsonl'} && "
              f"touch {folder}/x")
    r = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True,
                       text=True, cwd=REPO, timeout=120)
    assert "intact: 3 decisions" in r.stdout, r.stdout + r.stderr
    assert "3 decisions in" in r.stdout
    assert "Read-only file system" in r.stderr  # the mount really was read-only
    assert not (folder / "x").exists()
    assert sorted(p.name for p in folder.iterdir()) == ["decisions.sqlite3",
                                                         "decisions.sqlite3.head"]


@pytest.mark.skipif(not _ro_mount_works(), reason="needs root and mount namespaces")
def test_ledger_on_a_full_disk_verifies_and_says_full(tmp_path):
    """A ledger on a file system with no room left (session 26 hostile sweep, a full tmpfs):
    SQLite cannot grow the -shm a reader needs and says "disk I/O error", which `decisions
    verify` reported as "corrupt or unreadable ... restore from a backup" (exit 1) and
    `decide` too, about an intact ledger. Verify reads it whole (its WAL is empty: each
    append checkpoints) and `decide` says the disk is full."""
    store = tmp_path / "src" / "decisions.sqlite3"
    fill(store, 3)
    mnt = tmp_path / "full"
    mnt.mkdir()
    sample = REPO / "resources" / "samples" / "community-sample"
    script = (f"mount -t tmpfs -o size=512k tmpfs {mnt} && "
              f"cp {store} {store}.head {mnt}/ && "
              f"(dd if=/dev/zero of={mnt}/filler bs=4096 2>/dev/null; true) && "
              f"{sys.executable} -m moderator_app decisions verify --store "
              f"{mnt}/decisions.sqlite3; echo verify-exit=$?; "
              f"{sys.executable} -m moderator_app decide {sample} --accept --note n "
              f"--reviewer qa --store {mnt}/decisions.sqlite3; echo decide-exit=$?")
    r = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True,
                       text=True, cwd=REPO, timeout=120)
    assert "intact: 3 decisions" in r.stdout, r.stdout + r.stderr
    assert "verify-exit=0" in r.stdout
    assert "decide-exit=2" in r.stdout
    assert "is full" in r.stderr and "whether it is intact is not known" in r.stderr
    assert "not damaged" not in r.stderr  # a refusal to open is no evidence either way
    assert "corrupt" not in r.stderr


def _damaged(tmp_path: Path, how: str) -> Path:
    """A 60-decision ledger, checkpointed, then a middle page zeroed or the file cut 1,500
    bytes inside its last page (the s28 hostile sweep's k07 cases)."""
    store = tmp_path / "decisions.sqlite3"
    fill(store, 60)
    with sqlite3.connect(store) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = c.execute("PRAGMA page_size").fetchone()[0]
    c.close()
    data = bytearray(store.read_bytes())
    if how == "page_zeroed":
        mid = (len(data) // page) // 2
        data[mid * page:(mid + 1) * page] = bytes(page)
    else:
        del data[-1500:]
    store.write_bytes(bytes(data))
    return store


@pytest.mark.parametrize("how", ["page_zeroed", "cut_in_last_page"])
def test_decide_refuses_to_append_to_a_damaged_database(tmp_path, how):
    """s28 hostile sweep, left open: `decisions verify` called the file damaged, yet
    `decide` appended and said "Recorded". Now nothing is written, the CLI says "decision
    NOT recorded" with SQLite's reason (exit 2, as for every other refused append), and the
    file is left byte for byte as it was."""
    store = _damaged(tmp_path, how)
    before = store.read_bytes()
    assert verify_cli(store).returncode == 1
    with pytest.raises(LedgerError, match=r"is damaged \(SQLite.*\); nothing was recorded"):
        fill(store, 1)
    sample = REPO / "resources" / "samples" / "community-sample"
    r = subprocess.run([sys.executable, "-m", "moderator_app", "decide", str(sample),
                        "--accept", "--reviewer", "qa", "--note", "keep me",
                        "--store", str(store)], capture_output=True, text=True, cwd=REPO,
                       timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stdout == ""
    assert "moderator-app: decision NOT recorded: the decision ledger" in r.stderr
    assert "is damaged (SQLite" in r.stderr
    assert "Traceback" not in r.stderr
    assert store.read_bytes() == before


def test_a_file_size_limit_is_not_called_a_corrupt_ledger(tmp_path):
    """s29 hostile sweep: under `prlimit --fsize=8192` SQLite cannot make the 32 KiB -shm a
    reader needs and says "disk I/O error"; every command called the intact ledger "corrupt
    or unreadable". It now names the limit, and the ledger reads as intact without it."""
    import resource

    store = tmp_path / "decisions.sqlite3"
    fill(store, 3)
    Path(str(store) + "-shm").unlink(missing_ok=True)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    r = subprocess.run([sys.executable, "-m", "moderator_app", "decisions", "list",
                        "--store", str(store)], capture_output=True, text=True, cwd=REPO,
                       timeout=60, preexec_fn=limit)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "this process may not write files larger than 8192 bytes (a file-size limit, " \
           "`ulimit -f`), so SQLite cannot open the decision ledger" in r.stderr
    # nothing could be read: the message says so, and claims nothing of the ledger's state
    # (it said "it is not damaged" for any failure under the limit until session 30)
    assert "the ledger was left untouched and could not be checked, so whether it is " \
           "intact is not known" in r.stderr
    assert "not damaged" not in r.stderr
    assert "corrupt" not in r.stderr
    assert verify_cli(store).returncode == 0


@pytest.mark.parametrize("how, said", [
    ("deleted", "at seq 4: sequence gap: expected seq 3, found 4 (a decision was deleted"),
    ("edited", "at seq 2: column 'decision' differs from the sealed record"),
    ("swapped", "at seq 2: prev_hash"),
])
def test_decide_refuses_to_append_to_a_chain_verify_calls_damaged(tmp_path, how, said):
    """QA s29 h29_01/02/05: with a record deleted in the middle, a column edited, or two
    records' bodies swapped, SQLite is fine (quick_check ok) and `decisions verify` says NOT
    intact, yet `decide` appended. The chain is walked before each append, as verify walks
    it: nothing is recorded, and the first bad record is named."""
    store = tmp_path / "decisions.sqlite3"
    fill(store, 5)
    conn = sqlite3.connect(store)
    if how == "deleted":
        conn.execute("DELETE FROM decisions WHERE seq = 3")
    elif how == "edited":
        conn.execute("UPDATE decisions SET decision = 'reject' WHERE seq = 2")
    else:
        two, three = (conn.execute("SELECT record_json FROM decisions WHERE seq = ?",
                                   (n,)).fetchone()[0] for n in (2, 3))
        conn.execute("UPDATE decisions SET record_json = ? WHERE seq = 2", (three,))
        conn.execute("UPDATE decisions SET record_json = ? WHERE seq = 3", (two,))
    conn.commit()
    conn.close()
    assert verify_cli(store).returncode == 1
    before = [r for r in sqlite3.connect(store).execute("SELECT seq FROM decisions")]
    with pytest.raises(LedgerError) as err:
        fill(store, 1)
    assert f"is damaged ({said}" in str(err.value)
    assert "nothing was recorded" in str(err.value)
    assert [r for r in sqlite3.connect(store).execute("SELECT seq FROM decisions")] == before
