"""A key split over consecutive events (session 33, issue 15, QA s32 T9): a Databricks-like
token in four parts of 10 characters over four observations was published by `withhold` and
named by no `verify`. `secrets_split` joins the word ending an event's text with the words
opening or ending the next events of its type, when a family's prefix opens the first."""

from __future__ import annotations

import orjson
import pytest

from moderator_app.core.formats.secrets_split import SplitWatch
from moderator_app.core.formats.withhold import WithholdError, public_secret_hits, withhold_log

DBX = "dapi" + "0f3c9e21a7b84d65c0e1f2a3b4c5d6e7"  # a family's shape: dapi + 32 hex
ODD = "dapi" + "S33x7e4c19f0a6d28e5b3c71f4a9d0e6b2c8"  # its prefix, then mixed-case random


def _log(parts: list[str], *, opening: bool = False, between: bool = True) -> bytes:
    """A run_start, then per part: a request, a response, an action (unless not `between`),
    and an observation holding the part (ending its text, or opening it)."""
    lines = [{"type": "run_start", "data": {"game": "g", "category": "c", "model": "m",
                                            "scaffold": {"name": "a"}}}]
    for i, part in enumerate(parts):
        if between:
            lines += [{"type": "model_request", "data": {"messages": []}},
                      {"type": "model_response", "data": {"id": f"r{i}", "model": "m",
                                                           "actions": []}},
                      {"type": "action", "data": {"call": f"c{i}", "name": "press",
                                                  "args": {"button": "A"}}}]
        text = f"{part} is row {i + 1} of the panel" if opening and i else \
            f"row {i + 1} of the token panel: {part}"
        lines.append({"type": "observation", "data": {"summary": text}})
    return b"".join(orjson.dumps({"seq": n, "at": f"2026-12-05T20:00:{n:02d}.000Z",
                                  "elapsedMs": n * 1000, **ev}) + b"\n"
                    for n, ev in enumerate(lines))


def _parts(key: str, n: int = 4) -> list[str]:
    size = -(-len(key) // n)
    return [key[i:i + size] for i in range(0, len(key), size)]


@pytest.mark.parametrize("key, opening, between", [
    (DBX, False, True), (DBX, True, True), (ODD, False, True), (ODD, False, False),
])
def test_a_key_over_consecutive_observations_is_refused_and_named(tmp_path, key, opening,
                                                                  between):
    data = _log(_parts(key), opening=opening, between=between)
    first = 5 if between else 2  # the first part's line
    hits = public_secret_hits(data, 1, watch=SplitWatch())
    assert [n for n, _ in hits] == [first]
    assert "consecutive observation events are joined" in hits[0][1].how
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(data)
    with pytest.raises(WithholdError, match=f"^line {first}: ") as exc:
        withhold_log(src, tmp_path / "public.jsonl")
    assert key[4:14] not in str(exc.value)
    assert not (tmp_path / "public.jsonl").exists()


def test_the_watch_is_kept_between_the_checkers_chunks():
    data = _log(_parts(DBX))
    cut = data.index(b"\n", len(data) // 2) + 1
    watch = SplitWatch()
    got = public_secret_hits(data, 1, 0, cut, watch)
    got += public_secret_hits(data, 1 + data.count(b"\n", 0, cut), cut, len(data), watch)
    assert [n for n, _ in got] == [5]


HONEST = [
    ["voice sk-SK", "LukasNeural2 ready", "Filip speaks", "done"],  # a locale, then words
    ["press key-", "Enter", "Shift", "Escape"],  # key names
    ["model hf_", "TheBloke", "Mistral", "7B"],
    ["frame dapi", "a3f9c2e1", "b4d5e6f7", "0a1b2c3d"],  # hex: not mixed-case random
    [f"cursor eyJ{'wYWdlIjoxLCJhZnRlciI6Iml0ZW1fMzciLCJzb3J0IjoiZGVzYyJ9'}", "decoded",
     "next", "page"],
]


@pytest.mark.parametrize("parts", HONEST)
def test_honest_event_ends_are_not_joined_into_a_key(tmp_path, parts):
    data = _log(parts)
    assert public_secret_hits(data, 1, watch=SplitWatch()) == []
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(data)
    withhold_log(src, tmp_path / "public.jsonl")
