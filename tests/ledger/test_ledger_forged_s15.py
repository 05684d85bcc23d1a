"""Forged ledger records (session 15, issue 15): the chain has no key, so anyone can seal a
record of the wrong shape with a valid hash. Each must be "not intact" for `decisions verify`
and a clean refusal (never an internal error) for list, export, decide, claim and queue.
On main `decisions verify` called 5 of these 6 ledgers intact, `list` ended in an internal
error on `rules_list` and the CSV export on 4 of them.
"""

from __future__ import annotations

import copy
import shutil

import pytest
from conftest import SAMPLES
from hostile_corpus import run_cli

from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.formats.chain import ZERO_HASH, seal
from moderator_app.core.ledger.config import open_store
from moderator_app.core.ledger.records import build_record
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

COMMUNITY = SAMPLES / "community-sample"

FORGERIES = {
    "rules_list": lambda b: b["summary"].__setitem__("rules", [["log.seq", 1]]),
    "summary_list": lambda b: b.__setitem__("summary", [1, 2]),
    "files_ints": lambda b: b.__setitem__("files", [1, "x"]),
    "files_str": lambda b: b.__setitem__("files", "abc"),
    "checklist_int": lambda b: b.__setitem__("checklist", 5),
    "checklist_str": lambda b: b.__setitem__("checklist", "abc"),
}


@pytest.fixture(scope="module")
def honest_body():
    result = verify_paths([COMMUNITY], VerifyOptions(offset=0.0))
    return build_record(result, "accept", reviewer="alice").to_dict()


def _forged_store(tmp_path, body, name):
    forged = copy.deepcopy(body)
    FORGERIES[name](forged)
    raw = canonical_json(seal({**forged, "seq": 1}, ZERO_HASH))
    path = tmp_path / f"{name}.sqlite3"
    with open_store(path) as store:
        store.import_raw([raw])
    return path


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_forged_record_is_not_intact_and_never_crashes(tmp_path, capsys, honest_body, name):
    store = _forged_store(tmp_path, honest_body, name)
    code, out, _ = run_cli(capsys, "decisions", "verify", "--store", store)
    assert code == 1
    assert "ledger NOT intact: first bad record seq 1: the record is sealed but is no " \
           "decision this app wrote" in out
    code, _, err = run_cli(capsys, "decisions", "export", "--format", "csv", "--out",
                           tmp_path / "out.csv", "--store", store)
    assert code == 2
    assert "record seq 1 cannot be exported" in err
    code, _, _ = run_cli(capsys, "decisions", "list", "--store", store)
    assert code in (0, 2)  # 0 with a WARNING line when the record still reads
    sub = tmp_path / "sub"
    shutil.copytree(COMMUNITY, sub)
    code, _, err = run_cli(capsys, "decide", sub, "--accept", "--reviewer", "bob",
                           "--offset", "0", "--store", store)
    # refused: `decisions verify` calls the ledger NOT intact, and since session 29 (QA s29
    # h29_01/02/05) nothing is appended to such a ledger; until then `checklist_str`, which
    # still reads (as the items "a", "b", "c"), took a decision after it
    assert (code, "NOT recorded" in err) == (2, True)
    assert "is damaged (at seq 1: the record is sealed but is no decision this app " \
           "wrote" in err
    code, _, _ = run_cli(capsys, "queue", tmp_path, "--store", store)
    assert code in (0, 1, 2)
    code, _, err = run_cli(capsys, "claim", sub, "--reviewer", "bob", "--store", store)
    assert code in (0, 2)


def test_honest_ledger_still_intact_and_exports(tmp_path, capsys, honest_body):
    raw = canonical_json(seal({**honest_body, "seq": 1}, ZERO_HASH))
    store = tmp_path / "honest.sqlite3"
    with open_store(store) as s:
        s.import_raw([raw])
    code, out, _ = run_cli(capsys, "decisions", "verify", "--store", store)
    assert code == 0 and "ledger intact: 1 decisions" in out
    out = tmp_path / "out.csv"
    code, _, _ = run_cli(capsys, "decisions", "export", "--format", "csv", "--out", out,
                         "--store", store)
    assert code == 0
    assert honest_body["files"][0]["sha256"] in out.read_text()


@pytest.mark.parametrize("target", ["db", "wal", "shm", "head", "hard_link", "symlink"])
def test_export_never_replaces_the_ledger_it_reads(tmp_path, capsys, honest_body, target):
    """`decisions export --out decisions.sqlite3` (meant as `--store`) replaced the ledger
    with its CSV on main: every decision gone, exit 0."""
    import os

    store = tmp_path / "decisions.sqlite3"
    with open_store(store) as s:
        s.import_raw([canonical_json(seal({**honest_body, "seq": 1}, ZERO_HASH))])
    before = store.read_bytes()
    out = {"db": store, "wal": tmp_path / "decisions.sqlite3-wal",
           "shm": tmp_path / "decisions.sqlite3-shm",
           "head": tmp_path / "decisions.sqlite3.head"}.get(target)
    if target == "hard_link":
        out = tmp_path / "export.csv"
        os.link(store, out)
    elif target == "symlink":
        out = tmp_path / "export.csv"
        os.symlink("decisions.sqlite3.head", out)
    code, _, err = run_cli(capsys, "decisions", "export", "--format", "csv", "--out", out,
                           "--store", store)
    assert code == 2
    assert "is the ledger's own file" in err and "an export never replaces the ledger" in err
    assert store.read_bytes() == before
    code, out_text, _ = run_cli(capsys, "decisions", "verify", "--store", store)
    assert code == 0 and "ledger intact: 1 decisions" in out_text


@pytest.mark.parametrize("command", ["withhold", "frame"])
def test_no_output_replaces_a_ledger(tmp_path, capsys, honest_body, command):
    """`withhold -o decisions.sqlite3` (and `frame -o`) replaced the ledger with a JSONL (a
    PNG) on main, exit 0: nothing this app writes is an SQLite database, so none is replaced."""
    store = tmp_path / "decisions.sqlite3"
    with open_store(store) as s:
        s.import_raw([canonical_json(seal({**honest_body, "seq": 1}, ZERO_HASH))])
    before = store.read_bytes()
    args = (["withhold", COMMUNITY / "agent-log.jsonl"] if command == "withhold"
            else ["frame", COMMUNITY, "--time", "1"])
    code, _, err = run_cli(capsys, *args, "-o", store)
    assert code == 2
    assert "is an SQLite database (a decision ledger?): refusing to replace it" in err
    assert store.read_bytes() == before
