"""Invisible characters in untrusted text are shown, not hidden (session 27, issue 15).

The s27 hostile sweep: a failing log named `agent-log.jsonl` + U+200B printed as
`agent-log.jsonl`, and a note's soft hyphen, BOM, word joiner reached `decisions list` and the
CSV / JSONL exports raw. Every default-ignorable character is now an escape, as controls
and bidi characters were; the joiners and selectors honest text needs (Persian ZWNJ, emoji
ZWJ sequences, U+FE0F, a flag's tags) stay where they join or select. The exports still give
the text back exactly.
"""

from __future__ import annotations

import csv
import json

import orjson
import pytest
from hostile_corpus import run_cli
from ledgerhelp import fake_result

from moderator_app.core.ledger.records import build_record
from moderator_app.core.ledger.store import Ledger
from moderator_app.core.text import (
    reversible_text,
    safe_json,
    safe_output,
    safe_text,
    terminal_safe_json,
    unescape_reversible,
    unescape_terminal_safe,
)

SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
SHOWN = [
    # hostile: each invisible character is an escape
    ("agent-log.jsonl\u200b", "agent-log.jsonl\\u200b"),
    ("\ufeffreport", "\\ufeffreport"),
    ("soft\u00adhyphen", "soft\\u00adhyphen"),
    ("a\u2060b\u2061c\u2062d\u2063e\u2064", "a\\u2060b\\u2061c\\u2062d\\u2063e\\u2064"),
    ("cgj\u034f mvs\u180e hf\u3164", "cgj\\u034f mvs\\u180e hf\\u3164"),
    ("x\u200c\u200d", "x\\u200c\\u200d"),  # joining nothing
    ("log\u200d.jsonl", "log\\u200d.jsonl"),  # beside ASCII
    ("a\ufe0f", "a\\ufe0f"),  # selecting nothing visible
    ("name\U000e0041\U000e007f", "name\\U000e0041\\U000e007f"),  # tags outside a flag
    ("\U0001f600\u200d\u200d\U0001f600", "\U0001f600\\u200d\\u200d\U0001f600"),  # doubled
    ("rlo \u202etxt.exe lrm\u200e", "rlo \\u202etxt.exe lrm\\u200e"),  # as before
    # honest: shown as written
    ("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"),
    (FAMILY, FAMILY),
    ("\u2764\ufe0f \U0001f44d\U0001f3fd", "\u2764\ufe0f \U0001f44d\U0001f3fd"),
    ("1\ufe0f\u20e3", "1\ufe0f\u20e3"),
    (SCOTLAND, SCOTLAND),
    ("\u05d3\u05d5\u05d3 \u0639\u0644\u064a", "\u05d3\u05d5\u05d3 \u0639\u0644\u064a"),
    ("\u845b\U000e0100", "\u845b\U000e0100"),  # an ideographic variation sequence
]


@pytest.mark.parametrize(("text", "shown"), SHOWN, ids=[ascii(t)[:24] for t, _ in SHOWN])
def test_invisible_characters_are_escapes_and_honest_text_is_kept(text, shown):
    assert safe_text(text) == shown
    assert safe_output(text + "\n") == shown + "\n"
    # the same characters in JSON's spelling (a pair past U+FFFF), the same JSON value
    assert orjson.loads(safe_json({"n": text})) == {"n": text}
    raw = orjson.dumps({"n": text})
    assert orjson.loads(terminal_safe_json(raw)) == {"n": text}
    assert unescape_terminal_safe(terminal_safe_json(raw)) == raw
    assert unescape_reversible(reversible_text(text)) == text


def test_escapes_are_not_escaped_twice():
    once = safe_text("agent-log.jsonl\u200b\ufeff")
    assert safe_text(once) == once == "agent-log.jsonl\\u200b\\ufeff"
    assert terminal_safe_json(b'{"n":"\\u200b"}') == b'{"n":"\\u200b"}'
    assert safe_json({"n": "x\U000e0041"}) == '{"n":"x\\udb40\\udc41"}'
    assert reversible_text("x\U000e0041\u00ad") == "x\\udb40\\udc41\\u00ad"


NOTES = ["zwsp\u200b bom\ufeff shy\u00ad wj\u2060 tag\U000e0041",
         "honest " + FAMILY + " " + SCOTLAND + " \u2764\ufe0f",
         "literal \\u200b stays literal"]
REVIEWER = "\u05d3\u05d5\u05d3\u200b"


@pytest.fixture
def ledger(tmp_path):
    store = tmp_path / "decisions.sqlite3"
    with Ledger(store) as led:
        for note in NOTES:
            led.append(build_record(fake_result(name="agent-log.jsonl\u200b"), "reject",
                                    reason="other", note=note, reviewer=REVIEWER))
    return store


def test_decisions_list_shows_invisible_characters(capsys, ledger):
    code, out, _ = run_cli(capsys, "decisions", "list", "--store", ledger)
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("#")]
    assert len(rows) == 3
    for row in rows:
        assert "\u05d3\u05d5\u05d3\\u200b" in row and "agent-log.jsonl\\u200b" in row
    assert rows[0].endswith(" — zwsp\\u200b bom\\ufeff shy\\u00ad wj\\u2060 tag\\U000e0041")
    assert rows[1].endswith(" — honest " + FAMILY + " " + SCOTLAND + " \u2764\ufe0f")
    assert rows[2].endswith(" — literal \\u200b stays literal")
    assert "\u200b" not in out and "\ufeff" not in out and "\u00ad" not in out


def test_exports_escape_invisible_characters_and_read_back_exactly(capsys, ledger, tmp_path):
    out = tmp_path / "out.csv"
    assert run_cli(capsys, "decisions", "export", "--format", "csv", "--out", out,
                   "--store", ledger)[0] == 0
    text = out.read_text(encoding="utf-8")
    assert "\u200b" not in text and "\ufeff" not in text and "\U000e0041" not in text
    rows = list(csv.DictReader(out.open(newline="", encoding="utf-8")))
    assert rows[0]["note"] == "zwsp\\u200b bom\\ufeff shy\\u00ad wj\\u2060 tag\\udb40\\udc41"
    assert rows[2]["note"] == "literal \\u005cu200b stays literal"
    assert [unescape_reversible(r["note"]) for r in rows] == NOTES
    assert {unescape_reversible(r["reviewer"]) for r in rows} == {REVIEWER}
    assert {r["submission"] for r in rows} == {"agent-log.jsonl\\u200b"}

    jsonl = tmp_path / "out.jsonl"
    assert run_cli(capsys, "decisions", "export", "--format", "jsonl", "--out", jsonl,
                   "--store", ledger)[0] == 0
    lines = jsonl.read_bytes().splitlines()
    assert b"\xe2\x80\x8b" not in jsonl.read_bytes()  # no raw U+200B
    assert b'"note":"zwsp\\u200b bom\\ufeff shy\\u00ad wj\\u2060 tag\\udb40\\udc41"' in lines[0]
    assert [json.loads(line)["note"] for line in lines] == NOTES
    code, said, _ = run_cli(capsys, "decisions", "verify", "--jsonl", jsonl)
    assert code == 0 and "intact" in said and "NOT" not in said


def test_a_flag_holds_at_most_32_tags_and_a_long_run_of_tags_is_escaped_whole():
    """Tags are kept only inside a flag of at most 32 tag letters (Scotland has 5): a flag
    sequence of 40 is an escape, and a run of 50,000 tags (a note) is escaped in one pass,
    never searched back to its start for each tag."""
    long_flag = "\U0001f3f4" + "\U000e0041" * 40 + "\U000e007f"
    assert safe_text(long_flag) == "\U0001f3f4" + "\\U000e0041" * 40 + "\\U000e007f"
    assert safe_text("a" + SCOTLAND + "\U000e0041") == "a" + SCOTLAND + "\\U000e0041"
    run = "\U0001f3f4" + "\U000e0041" * 50_000
    assert safe_text(run) == "\U0001f3f4" + "\\U000e0041" * 50_000
    assert unescape_reversible(reversible_text(run)) == run


CUT_NOTES = ["a" * 78 + "\x1b[2J tail",  # ESC at 79: `\u001b` would be cut to `\u`
             "b" * 75 + "\u202etxt.exe",  # `\u202e` from 76 to 81: cut to `\u202`
             "c" * 77 + SCOTLAND + " end",  # the cut inside a kept flag: raw tags at the end (the
             # black flag stays, drawn)
             "d" * 75 + "\U000e0001 language tag"]  # `\U000e0001` cut to `\U000`


def test_decisions_list_never_cuts_a_note_inside_an_escape(capsys, tmp_path):
    """Session 28 (s27 hostile open item): `decisions list` cut each escaped note at 80
    characters, so a note could end in `\\u` or `\\u202` (a spelling that reads as another
    character or none) or in a flag's raw tags with no flag. The cut now falls before the
    escape, or before the flag."""
    store = tmp_path / "decisions.sqlite3"
    with Ledger(store) as led:
        for note in CUT_NOTES:
            led.append(build_record(fake_result(name="s"), "reject", reason="other",
                                    note=note, reviewer="qa"))
    code, out, _ = run_cli(capsys, "decisions", "list", "--store", store)
    rows = [line for line in out.splitlines() if line.startswith("#")]
    assert code == 0 and len(rows) == 4
    assert [row.rsplit(" — ", 1)[1] for row in rows] == [
        "a" * 78, "b" * 75, "c" * 77 + "\U0001f3f4", "d" * 75]


@pytest.mark.parametrize(("text", "limit", "cut"), [
    ("x" * 5 + "\u202e", 8, "x" * 5),
    ("x" * 5 + "\u202e", 11, "x" * 5 + "\\u202e"),
    ("\U000e0041" * 3, 12, "\\U000e0041"),
    (FAMILY * 3, 4, FAMILY[:3]),  # the cut would end on a ZWJ: it ends before it
    ("short", 80, "short")])
def test_safe_cut_is_its_own_escaping_and_within_the_limit(text, limit, cut):
    from moderator_app.core.text import safe_cut

    assert safe_cut(text, limit) == cut
    assert safe_text(cut) == cut and len(cut) <= limit
