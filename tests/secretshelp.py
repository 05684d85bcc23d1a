"""Helpers shared by the secrets tests: a log of one observation, and the one check that a key's
line is refused and named alike by the engine (`scan_public`), verify's gate
(`public_secret_hits`) and `withhold_log` (session 36, secrets: the block was repeated in four
test files; issue 15's rule is that the two commands decide alike)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from moderator_app.core.formats.secrets import unescape_json
from moderator_app.core.formats.secrets_public import scan_public
from moderator_app.core.formats.withhold import WithholdError, public_secret_hits, withhold_log

START = b'{"seq":0,"at":"2026-12-06T06:00:00.000Z","elapsedMs":0,"type":"run_start","data":{}}'


def obs_line(summary: str) -> bytes:
    """One observation event whose summary is `summary` (the log's line 2, after `START`)."""
    return orjson.dumps({"seq": 1, "at": "2026-12-06T06:00:01.000Z", "elapsedMs": 1000,
                         "type": "observation", "data": {"summary": summary}})


def refused_and_named(tmp_path: Path, line: bytes, how: str | None = None,
                      label: str | None = None):
    """Assert the engine names `line`'s key (its `how` holding `how`, its label `label` when
    given), verify's gate names line 2 with the same label, and `withhold` refuses line 2 and
    writes nothing; the engine's hit is returned."""
    hit = scan_public(unescape_json(line))
    assert hit is not None, line[:200]
    if how is not None:
        assert how in (hit.how or ""), hit
    if label is not None:
        assert hit.label == label, hit
    found = public_secret_hits(START + b"\n" + line, 1)
    assert [(n, h.label) for n, h in found] == [(2, hit.label)]
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    with pytest.raises(WithholdError, match=r"^line 2: "):
        withhold_log(src, tmp_path / "public.jsonl")
    assert not (tmp_path / "public.jsonl").exists()
    return hit


def quiet(tmp_path: Path, line: bytes) -> bytes:
    """Assert none of the three names anything on `line` (an honest look-alike); the public
    log `withhold` wrote is returned."""
    assert scan_public(unescape_json(line)) is None
    assert public_secret_hits(START + b"\n" + line, 1) == []
    src, out = tmp_path / "agent-log.jsonl", tmp_path / "public.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    withhold_log(src, out)
    return out.read_bytes()


def redacted_and_noted(tmp_path: Path, line: bytes, keys: list[bytes]) -> bytes:
    """Assert the engine names nothing on `line`, verify's gate gives line 2 a note whose
    places are exactly those of `keys` in the line's reading (`SecretHit.redact`), and
    `withhold` publishes the line with exactly those characters as `*` (review s41 R2,
    session 42); the public line is returned."""
    seen = unescape_json(line)
    assert scan_public(seen) is None
    found = public_secret_hits(START + b"\n" + line, 1)
    places = []
    for key in keys:
        at = seen.find(key)
        places.append((at, at + len(key)))
    assert [(n, h.redact) for n, h in found] == [(2, tuple(sorted(places)))]
    src, out = tmp_path / "agent-log.jsonl", tmp_path / "public.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    stats = withhold_log(src, out)
    assert stats.redacted == (2,)
    public = out.read_bytes().split(b"\n")[1]
    for key in keys:
        assert key not in public
    return public

