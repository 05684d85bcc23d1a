"""The walk before an append (`Ledger._check_body_before_append`: before every append since
session 30, the records this process has not walked yet) checks each record with the orjson
canonical engine (`canonical_json_fast`, session 29). It must say what `decisions verify`
says: the same bytes for every record shape the ledger stores, and the same first bad record
on a damaged chain."""

from __future__ import annotations

import json
import sqlite3
from types import SimpleNamespace

import pytest

from moderator_app.core.formats.canonical import canonical_json, canonical_json_fast
from moderator_app.core.ledger.claims import CLAIM, RELEASE, new_claim
from moderator_app.core.ledger.errors import LedgerError
from moderator_app.core.ledger.records import build_record
from moderator_app.core.ledger.store import Ledger
from moderator_app.core.verify.report import FileDigest, Report

# notes a moderator may type: escapes, control characters, DEL/C1/bidi, astral characters
# (UTF-16 member order), a lone-looking backslash
NOTES = ["plain", "quote \" backslash \\ tab \t newline \n nul \x00",
         "del \x7f c1 \x85 bidi \u202e rtl", "astral \U0001f600 \U00010000 é ß 中",
         "", "x" * 3000]


def _rec(i: int, note: str):
    r = Report(kind="community", input_name=f"sub-{i}")
    r.files = [FileDigest("agent-log.jsonl", "agent_log", 1000 + i, f"{i:064x}"),
               FileDigest("video.mp4", "video", 2 ** 40 + i, f"{i + 7:064x}")]
    return build_record(SimpleNamespace(report=r, submission=SimpleNamespace(
        display_name=f"sub \U0001f600 {i}")), ("accept", "reject")[i % 2], note=note,
        reviewer="ålice")


def _filled(tmp_path) -> tuple[Ledger, list]:
    store = tmp_path / "decisions.sqlite3"
    led = Ledger(store)
    for i, note in enumerate(NOTES):
        stored = led.append(_rec(i, note))
        digest = stored.record.evidence_digest
        led.append(new_claim(CLAIM, "bob", digest, f"sub-{i}", minutes=1.5, note=note))
        led.append(new_claim(RELEASE, "bob", digest, f"sub-{i}"))
    return led, [raw for _, raw in led.iter_raw()]


def test_every_stored_record_shape_canonicalises_to_the_same_bytes_on_both_engines(tmp_path):
    led, raws = _filled(tmp_path)
    led.close()
    assert len(raws) == 3 * len(NOTES)
    for raw in raws:
        d = json.loads(raw)
        assert canonical_json_fast(d) == canonical_json(d) == raw
        body = {k: v for k, v in d.items() if k != "hash"}
        assert canonical_json_fast(body) == canonical_json(body)


def test_an_intact_ledger_walks_as_verify_says_and_takes_the_next_decision(tmp_path):
    led, raws = _filled(tmp_path)
    led.close()
    with Ledger(tmp_path / "decisions.sqlite3") as again:
        assert again.verify().ok
        stored = again.append(_rec(99, "after the walk"))
        assert stored.seq == len(raws) + 1
        assert again.verify().ok


@pytest.mark.parametrize("how", ["deleted", "edited", "swapped", "rewritten", "note"])
def test_a_damaged_ledger_is_refused_at_the_record_verify_names(tmp_path, how):
    led, _ = _filled(tmp_path)
    led.close()
    store = tmp_path / "decisions.sqlite3"
    conn = sqlite3.connect(store)
    raw4 = conn.execute("SELECT record_json FROM decisions WHERE seq = 4").fetchone()[0]
    if how == "deleted":
        conn.execute("DELETE FROM decisions WHERE seq = 5")
    elif how == "edited":
        conn.execute("UPDATE decisions SET decision = 'accept' WHERE seq = 4")
    elif how == "swapped":
        raw7 = conn.execute("SELECT record_json FROM decisions WHERE seq = 7").fetchone()[0]
        conn.execute("UPDATE decisions SET record_json = ? WHERE seq = 4", (raw7,))
        conn.execute("UPDATE decisions SET record_json = ? WHERE seq = 7", (raw4,))
    elif how == "rewritten":  # the same JSON value, not in canonical form
        conn.execute("UPDATE decisions SET record_json = ? WHERE seq = 4",
                     (raw4.replace(b'":', b'": ', 1),))
    else:  # the note edited and the record re-serialised canonically: the hash fails
        d = json.loads(raw4)
        d["note"] = d["note"] + "!"
        conn.execute("UPDATE decisions SET record_json = ? WHERE seq = 4", (canonical_json(d),))
    conn.commit()
    conn.close()
    with Ledger(store) as led2:
        verdict = led2.verify()
        assert not verdict.ok
        with pytest.raises(LedgerError) as err:
            led2.append(_rec(99, "refused"))
    expected = {"deleted": (6, "sequence gap: expected seq 5, found 6"),
                "edited": (4, "column 'decision' differs from the sealed record"),
                "swapped": (4, "prev_hash"),
                "rewritten": (4, "record_json is not in canonical form"),
                "note": (4, "hash mismatch: the record's content was edited")}[how]
    assert (verdict.bad_seq, verdict.reason[:len(expected[1])]) == expected
    assert f"is damaged (at seq {verdict.bad_seq}: {verdict.reason[:60]}" in str(err.value)


def test_a_member_nested_deeper_than_orjson_writes_gets_the_reference_verdict():
    """orjson refuses 255+ levels of nesting; the reference writes them. A sealed record with
    such a member walks as before (intact); the same record not in canonical form is named
    as that, not as one that cannot be canonicalised."""
    from moderator_app.core.formats.chain import ZERO_HASH, seal
    from moderator_app.core.ledger.chained import row_columns, walk

    deep: object = {"a": 1}
    for _ in range(300):
        deep = [deep]
    d = json.loads(canonical_json(_rec(1, "deep").to_dict()))
    sealed = seal({**d, "seq": 1, "x": deep}, ZERO_HASH)
    raw = canonical_json(sealed)
    assert walk([(row_columns(sealed), raw)]).ok
    bad = walk([(row_columns(sealed), raw.replace(b'":', b'": ', 1))])
    assert (bad.ok, bad.bad_seq) == (False, 1)
    assert bad.reason == "record_json is not in canonical form (it was rewritten after sealing)"
