"""Session 33's review R14: the split-key watch (`secrets_split`) joined an honest word
ending an observation, "key-press" / "key-value" / "key-frame" (Mailgun's prefix `key-`) or a
bare "sk-", to an id of mixed case and digits opening the next observation: `withhold`
refused the log and `verify` warned (4 of R14's 7 pairs). A prefix followed by a word opens
no chain, and a bare prefix's join must read as random; QA s32's h32_06 (a Databricks token
in four parts over four observations) stays refused and named. Through the public seams:
`verify_paths` and `withhold_log`."""

from __future__ import annotations

import orjson
import pytest

from moderator_app.core.formats.withhold import WithholdError, withhold_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

PNG = ("iVBORw0KGgoAAAANSUhEUgAAAUAAAAGkCAIAAADPJ2tpAAAACXBIWXMAAAAAAAAAAQCEeRdzAAAFL0lEQVR4nO"
       "3d7W7bVAAGYNtpy7gXtqQr475AGvtgbTfKHwYDRj/2wQ+ugW5txy")
JPG = ("/9j//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgKCgsKCw0NDQ0NDRAPEBAQEBAQEBAQEBASEhIVFRUSEhIQEBIS"
       "FBQVFRcXFxUVFRU")  # (a JPEG's first 99 base64 characters: its last run holds digits)

# R14's pairs: (the first observation's summary, the next observation's data)
R14 = [
    ("sent the key-press", {"id": "msg_01HQ3kZ8vN2pXr7Tb", "summary": "ok"}),
    ("state saved to the key-value", {"cursor": "eyJwYWdlIjo3fQ", "n": 1}),
    ("restored key-frame", {"frame": "Fr4mE9xQ2wLp8KzT"}),
    ("nothing to do, sk-", {"stdout": "3f6099502d06f5b31dc833af5c9506787e20ebf5 sync"}),
    ("sent the key-press", {"id": "1b4e28ba-2fa1-11d2-883f-0016d3cca427"}),
    ("held the key-down", {"screenshot": PNG}),
    ("held the key-down", {"screenshot": JPG}),
]

DONE = {"summary": "1 press(es) done"}
H32_06 = ["dapiQA32b7", "e4c19f0a6d", "28e5b3c71f", "4a9d0e6b2c"]  # QA s32 h32_06's parts


def _log(first: str, nexts: list[dict]) -> bytes:
    """A run_start, then an observation whose summary is `first`, then per `nexts` an action
    and an observation of that data (the next observations: lines 4, 6, 8 ...)."""
    lines: list[dict] = [{"type": "run_start", "data": {
        "game": "g", "category": "c", "model": "m", "scaffold": {"name": "a"}}},
        {"type": "observation", "data": {"summary": first}}]
    for i, data in enumerate(nexts):
        lines += [{"type": "action", "data": {"call": f"c{i}", "name": "press",
                                              "args": {"button": "A"}}},
                  {"type": "observation", "data": data}]
    return b"".join(orjson.dumps({"seq": n, "at": f"2026-12-05T20:00:{n:02d}.000Z",
                                  "elapsedMs": n * 1000, **ev}) + b"\n"
                    for n, ev in enumerate(lines))


def _panel(parts: list[str]) -> bytes:
    return _log(f"line 1 of the token panel: {parts[0]}",
                [{"summary": f"line {i} of the token panel: {p}"}
                 for i, p in enumerate(parts[1:], 2)])


def _secret_lines(path) -> list[int]:
    rep = verify_paths([path], VerifyOptions(probe_video=False)).report.to_dict()
    return [f["line"] for f in rep["findings"] if f["rule"].startswith("secret")]


@pytest.mark.parametrize("first, data", R14)
def test_r14s_honest_pairs_are_published_and_not_named(tmp_path, first, data):
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(_log(first, [data, DONE, DONE]))  # (corpus v2 asteroids' next ones)
    assert _secret_lines(src) == []
    withhold_log(src, tmp_path / "public.jsonl")
    assert (tmp_path / "public.jsonl").read_bytes().count(b"\n") == 8


@pytest.mark.parametrize("parts", [
    H32_06,
    # a one-case family's first part whose rest reads as a word (`dccae`: hex letters): its
    # pattern is still read across the joins
    ["dapidccae", "0b41ede3e", "ad9df42a4", "c3ffb1025"],
    # a bare prefix, then a mixed-case random rest: it reads as random
    ["sk-", "Qa33x7e4c1", "9fR0a6d28e", "5b3c71f4aZ"],
    # a first part holding its own random characters: the pattern across the joins suffices
    ["ghp_x7Kq2m", "ab3def9hij", "klm4opq7st", "uv8xyzab2d"],
])
def test_a_key_split_over_four_observations_stays_refused_and_named(tmp_path, parts):
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(_panel(parts))
    assert _secret_lines(src) == [2]
    with pytest.raises(WithholdError, match="^line 2: ") as exc:
        withhold_log(src, tmp_path / "public.jsonl")
    assert parts[1] not in str(exc.value)
    assert not (tmp_path / "public.jsonl").exists()


@pytest.mark.parametrize("parts", [
    ["key-press", "QA32b7e4c1", "9f0a6d28e5", "b3c71f4a9d"],  # a word: no chain
    ["sk-", "3f6099502d", "06f5b31dc8", "33af5c9506"],  # bare, lowercase hex: not random
])
def test_a_word_after_a_prefix_or_a_bare_prefix_then_hex_is_no_key(tmp_path, parts):
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(_panel(parts))
    assert _secret_lines(src) == []
    withhold_log(src, tmp_path / "public.jsonl")
