"""The reader's view of a public line (session 32, issue 15, QA s31 T10): a key split between a
member's name and its value, at a JWT's dots over three members, broken by zero width spaces,
cut at an action's string end with its rest in the next observation, of a family no pattern
names (high entropy); `verify` names the line `withhold` refuses, on both engines; honest
lines (ids, hashes, UUIDs, key combos, screenshots, identifiers) stay quiet. Keys made here
for these tests (QA's held-out bytes are not used)."""

from __future__ import annotations

import base64
import json

import orjson
import pytest

from moderator_app.core.formats import native
from moderator_app.core.formats.secrets import scan_line
from moderator_app.core.formats.secrets_public import reader_spots, scan_public
from moderator_app.core.formats.secrets_read import FAMILIES, high_entropy, reader_hit
from moderator_app.core.formats.withhold import WithholdError, public_secret_hits, withhold_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

HF = "hf_T32nameSideOfTheKey9ValueSideXyZ01234"
STRIPE = "sk_live_T32typedIntoTheShell0aNextObsRest9ZzYyXx8765"
GLPAT = "glpat-T32invisibleSpaces9kQ"
JWT = ("eyJhbGciOiJIUzI1NiJ9", "eyJzdWIiOiJ0MzItcmVhZGVyIn0", "T32sigOfTheSplitJwt9aBcDeF")
UNKNOWN = "zq9T4mK2vX8pL5nR7wQ3jH6bY1cF0dG"  # no family: 31 random characters
SG = "SG.T32sendgridHeadPartXy9.T32sendgridTheRestOfItZz0123456789abcd"


def _log(tmp_path, datas: list[dict], types: list[str] | None = None) -> tuple:
    """A community log: run_start, then one event per data (observations unless `types`)."""
    lines = [b'{"seq":0,"at":"2026-12-05T20:00:00.000Z","elapsedMs":0,"type":"run_start",'
             b'"data":{"game":"x","category":"any-percent","model":"p/m","scaffold":{"name":"a"}}}']
    for i, data in enumerate(datas, 1):
        typ = types[i - 1] if types else "observation"
        lines.append(orjson.dumps({"seq": i, "at": f"2026-12-05T20:00:0{i % 10}.000Z",
                                   "elapsedMs": i * 1000, "type": typ, "data": data}))
    path = tmp_path / "agent-log.jsonl"
    path.write_bytes(b"".join(x + b"\n" for x in lines))
    return path, lines


def _verify(path, monkeypatch, engine: str) -> list[tuple[int, str]]:
    with monkeypatch.context() as m:
        if engine == "python":
            m.setattr(native, "SKIM", None)
        rep = verify_paths([path], VerifyOptions(probe_video=False)).report.to_dict()
    return [(f["line"], f["message"]) for f in rep["findings"] if f["rule"] == "secret.suspect"]


PRE = "the line's public part (what `withhold` publishes) looks like it holds a "
POST = "; `withhold` refuses it"
JOINED = " once the strings it is split over are joined as a reader reads them"


@pytest.mark.parametrize(("datas", "found"), [
    # a member's name the key's head, its value the rest
    ([{"env": {HF[:18]: HF[18:], "HOME": "/home/agent"}}],
     [(2, "Hugging Face token" + JOINED + ": hf_T…[40 chars]")]),
    # a JWT's three parts in three members (a dot between)
    ([{"auth": {"header": JWT[0], "claims": JWT[1], "signature": JWT[2]}}],
     [(2, "JSON web token" + JOINED + ": eyJh…[75 chars]")]),
    # zero width spaces every 4 characters (JSON-escaped, as an OCR copy gives)
    ([{"ocr": ["token: " + "\u200b".join(GLPAT[i:i + 4] for i in range(0, 26, 4))]}],
     [(2, "GitLab token once its invisible format characters (zero width spaces ...) are "
          "removed: glpa…[27 chars]")]),
    # typed into an action, the rest opening the next observation
    ([{"call": "c1", "name": "type", "args": {"text": f"export KEY={STRIPE[:24]}"}},
      {"summary": f"{STRIPE[24:]} typed"}],
     [(2, "Stripe secret key cut at its string's end: sk_l…[24 chars]"),
      (3, "high-entropy run (a key of a family no table holds?): hell…[28 chars]")]),
    # a family no table holds
    ([{"stdout": f"config written: {UNKNOWN}\nok"}],
     [(2, "high-entropy run (a key of a family no table holds?): zq9T…[31 chars]")]),
    # the same, split between a member's name and its value
    ([{"vars": {UNKNOWN[:14]: UNKNOWN[14:]}}],
     [(2, "high-entropy run (a key of a family no table holds?)" + JOINED
       + ": zq9T…[31 chars]")]),
])
def test_verify_names_the_line_withhold_refuses(tmp_path, monkeypatch, datas, found):
    types = ["action", "observation"] if len(datas) == 2 else None
    path, _ = _log(tmp_path, datas, types)
    expected = [(n, PRE + what + POST) for n, what in found]
    assert _verify(path, monkeypatch, "c") == expected
    assert _verify(path, monkeypatch, "python") == expected
    with pytest.raises(WithholdError, match=rf"^line {found[0][0]}: its public part holds"):
        withhold_log(path, tmp_path / "public.jsonl")
    assert not (tmp_path / "public.jsonl").exists()


def test_a_sendgrid_key_over_two_official_events_is_named_at_its_head():
    """The trajectory's scan (`verify` of an official run): the head `SG.<22>.` ends one
    event's stdout, the rest opens the next one's."""
    head, rest = SG[:SG.index(".", 3) + 1], SG[SG.index(".", 3) + 1:]
    one = orjson.dumps({"payload": {"stdout": f"SENDGRID_API_KEY={head}"}})
    two = orjson.dumps({"payload": {"stdout": f"{rest}\nretrying"}})
    assert [(h.label, h.excerpt) for h in scan_line(one)] == [
        ("SendGrid key cut at its string's end", "SG.T…[26 chars]")]
    assert scan_line(two) == []
    assert [(h.label, h.excerpt) for h in scan_line(orjson.dumps({"a": SG}))] == [
        ("SendGrid key", "SG.T…[64 chars]")]


_PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40).decode()
_TINY_PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6k"
             "gAAAABJRU5ErkJggg==")


# What the high-entropy rule must never flag: it would make `withhold` refuse an honest log.
@pytest.mark.parametrize("data", [
    {"args": {"keys": "ControlLeft+ShiftLeft+KeyA", "combo": "Ctrl+Alt+Numpad5"}},
    {"sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
    {"note": "commit 3f2a9c81be07d4f6a5e2c1b0d9f8e7a6b5c4d3e2 fixed it"},
    {"run": "550e8400-e29b-41d4-a716-446655440000", "up": "550E8400-E29B-41D4-A716-446655440000"},
    {"screen": "data:image/png;base64," + _PNG},
    {"icon": "data:image/png;base64," + _TINY_PNG, "raw": _TINY_PNG},
    {"message_id": "msg_01XFDUDYJgAACzvnptvVoYEL", "tool": "toolu_01A09q90qw90lq917835lq9"},
    {"completion": "chatcmpl-9aBcDeFgHiJkLmNoPqRsTuVwXyZ01", "call": "call_Ab12Cd34Ef56Gh78Ij90Kl"},
    {"id": "Xk9mP2qR7vT4wY8zA3bC6dE1", "requestId": "Ab12Cd34Ef56Gh78Ij90KlMn"},
    {"model": "claude-3-5-sonnet-20241022", "path": "/home/agent/work/ProjectX2/src/Main2.java"},
    {"text": "getElementById2Async and ControlLeftShiftLeft2 and VeryLongCamelCaseName2Test1"},
    {"url": "https://example.com/watch?v=dQw4w9WgXcQ&list=PL9tY0BWXOZFuFEG_GtOBZ8-8wbkH-NVWs"},
    {"voices": ["sk-SK-ViktoriaNeural", "sk-SK-LukasNeural2"], "session": "Ab12Cd34Ef56"},
    {"frames": ["Ab12Cd34Ef"] * 50},  # repeated pieces joined: low entropy
])
def test_honest_lines_stay_quiet(tmp_path, data):
    line = orjson.dumps({"seq": 1, "type": "observation", "data": data})
    assert scan_public(line) is None
    assert public_secret_hits(b'{"seq":0,"type":"run_start","data":{}}\n' + line, 1) == []


def test_the_null_model_passes_random_keys_and_not_words():
    assert high_entropy(UNKNOWN) and high_entropy("wJalrXUtnFEMI/K7MDENG/bPxRfiCY9EXAMPLE2")
    assert not high_entropy("9f86d081884c7d659a2feaa0c55ad015")  # hex: one case
    assert not high_entropy("ControlLeftShiftLeft2")  # 3.50 bits, the floor 3.69 at 21
    assert not high_entropy("Ab12Cd34EfAb12Cd34Ef")  # 10 symbols twice: 3.32 bits
    assert not high_entropy("AbcdEfghIjklMnopQrst")  # no digit


def test_the_table_holds_each_family_once_with_bounded_repeats():
    """One table; no pattern with an unbounded repeat but the session-31 ones it keeps."""
    markers = [m for m, _, _ in FAMILIES]
    assert len(FAMILIES) >= 50 and b"glpat-" in markers and b"SG." in markers
    for _, _, pattern in FAMILIES[12:]:
        assert b"{20,}" not in pattern and b"+" not in pattern.replace(b"+/", b"")


def test_a_line_of_decoys_is_read_once(tmp_path):
    """2 MB of runs that pass the gate (upper case and digits) and fail the entropy test, in
    one string: each run found once (`reader_spots` keeps the string's bounds), at most 4,096
    tested; no finding, nothing held."""
    text = "Aa11Aa11Aa11Aa11Aa11 " * 100_000
    line = orjson.dumps({"seq": 1, "type": "observation", "data": {"summary": text}})
    assert len(reader_spots(line)) == 65536 and reader_spots(line, limit=1) == [49]
    assert reader_hit(line) is None and scan_public(line) is None
    path, _ = _log(tmp_path, [{"summary": text}])
    withhold_log(path, tmp_path / "public.jsonl")
    assert json.loads((tmp_path / "public.jsonl").read_bytes().split(b"\n")[1])["data"][
        "summary"] == text
