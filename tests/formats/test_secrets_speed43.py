"""Session 43, speed: the reader's view and the rotated-base64 view of a screenshot's or a MIME
attachment's base64 read faster, with the same answers (QA s41 e_png64, QA s42 e_jpeg64 and
e_mime76). Each shortcut is checked against the code it stands in front of, on seeded inputs
built around its edges: `secrets_read.run_spans` against `_RUNS.finditer`, `_unwrap` against
`_WRAPPED.sub` run on every text, `secrets_unwrap.unrotated` against its 25-rotation loop
alone."""

from __future__ import annotations

import base64
import binascii
import random
import re

import pytest

from moderator_app.core.formats import native, secrets_public, secrets_read, secrets_unwrap
from moderator_app.core.formats.secrets_public import scan_public
from moderator_app.core.formats.secrets_text import is_text
from moderator_app.core.formats.withhold_gate import _line_starts


def _text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(0, 12)):
        k = rng.random()
        if k < 0.3:  # runs around 20 and 4,096 characters, the regex's bounds
            size = rng.choice((5, 19, 20, 21, 64, 128, 4095, 4096, 4097, 9000))
            parts.append("".join(rng.choices("ABCxyz019+/-_", k=size)))
        elif k < 0.5:
            parts.append("=" * rng.randint(0, 4))
        elif k < 0.6:
            parts.append(rng.choice(("é", " ", "\n", "€")))
        else:
            parts.append("".join(rng.choice("AZaz09+/-_=.= \n\r:\"é") for _ in range(
                rng.randint(1, 30))))
    return "".join(parts)


def test_run_spans_are_the_runs_regex_matches() -> None:
    rng = random.Random(4301)
    for _ in range(600):
        text = _text(rng)
        assert list(secrets_read.run_spans(text)) == \
            [(m.start(), m.group()) for m in secrets_read._RUNS.finditer(text)], text[:200]
    # a screenshot's base64 after its data URI: one match, its first 4,096 characters
    shot = "$ screenshot\ndata:image/png;base64," + "iVBO" * 2000 + "==" + " ok4567890123456789012=="
    assert [(at, len(run)) for at, run in secrets_read.run_spans(shot)] == \
        [(35, 4096), (8038, 23)]


def _unwrap_always(text: str) -> str:
    """`_unwrap` as it was: `_WRAPPED.sub` on every text holding a line break."""
    if "\n" not in text:
        return text

    def join(m: re.Match[str]) -> str:
        lines = m.group(1).split()
        if len({len(line) for line in lines}) != 1 or len(lines[0]) % 4:
            return m.group()
        full, last = "".join(lines), m.group(2)
        return full + last if not (len(full) + len(last)) % 4 else full + "\n" + last

    return secrets_read._WRAPPED.sub(join, text)


def test_unwrap_joins_what_the_wrapped_regex_joins() -> None:
    rng = random.Random(4302)
    joined = 0
    for _ in range(1500):
        lines = []
        for _ in range(rng.randint(1, 8)):
            width = rng.choice((0, 3, 59, 60, 61, 64, 76, 77, 78))
            lines.append("".join(rng.choice("ABab09+/= é") if rng.random() < 0.05
                                 else rng.choice("ABab09+/") for _ in range(width))
                         + rng.choice(("\n", "\r\n", "\n", "\r\r\n")))
        text = "".join(lines)[:rng.randint(0, 800)]
        got = secrets_read._unwrap(text)
        assert got == _unwrap_always(text), text
        joined += got != text
    assert joined > 150  # (the inputs do reach the join)


def _unrotated_loop(run: bytes) -> bytes | None:
    """`unrotated` without its masks: each rotation's head decoded and tested."""
    if len(run) < secrets_unwrap._HEAD:
        return None
    head = run[:secrets_unwrap._HEAD]
    for table in secrets_unwrap._ROTATIONS:
        try:
            if binascii.a2b_base64(head.translate(table)).translate(
                    None, secrets_unwrap._PRINTABLE):
                continue
            body = run.rstrip(b"=").translate(table)
            got = binascii.a2b_base64(body + b"=" * (-len(body) % 4))
        except (binascii.Error, ValueError):
            continue
        if is_text(got):
            return got
    return None


def test_unrotated_masks_pass_over_no_rotation_the_loop_takes() -> None:
    rng = random.Random(4303)
    upper, lower = secrets_unwrap._UPPER, secrets_unwrap._LOWER
    found = 0
    for _ in range(5000):
        k = rng.random()
        if k < 0.3:  # text, base64'd, its letters rotated by any n (and URL-safe at times)
            text = bytes(rng.choice(b"abcdefgh KEY=sk-0123456789\n") for _ in range(
                rng.randint(8, 80)))
            n = rng.randint(0, 25)
            run = base64.b64encode(text).translate(bytes.maketrans(
                upper + lower, upper[n:] + upper[:n] + lower[n:] + lower[:n]))
            if rng.random() < 0.3:
                run = run.replace(b"+", b"-").replace(b"/", b"_")
        elif k < 0.8:
            run = base64.b64encode(rng.randbytes(rng.randint(10, 200)))
        else:
            run = bytes(rng.choice(b"ABab09+/=-_.") for _ in range(rng.randint(0, 40)))
        got = secrets_unwrap.unrotated(run, is_text)
        assert got == _unrotated_loop(run), run
        found += got is not None
    assert found > 1000


def test_a_rot13_key_in_a_mime_attachments_lines_is_still_named() -> None:
    key = "sk-proj-" + "QA43rot13Mime0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV"
    rot13 = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                            b"NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm")
    run = base64.b64encode(f"OPENAI_API_KEY={key}\n".encode()).translate(rot13).decode()
    line = ('{"seq":3,"at":"2026-10-22T18:00:01.000Z","elapsedMs":1000,"type":"observation",'
            '"data":{"summary":"$ cat note.b64\\n' + run + '"}}').encode()
    hit = scan_public(line)
    assert hit is not None and hit.how.startswith(secrets_unwrap.ROTATED)
    assert hit.label == "base64 of a secret" and hit.column == 115


PIECES = [b"a", b"A", b"0", b"f", b"9", b"\\", b"n", b'"', b" ", b"/", b"_", b"=", b"-", b"\n",
          b"\n", b"ABCdef0123456789xyz", b"746f6b656e2d616263646566676869", b"\\u00ad",
          b"\xe2\x80\x8b", b'{"a": "$ shot\\ndata:image/png;base64,']


@pytest.mark.parametrize("engine", ["native", "python"])
def test_one_spot_a_line_gives_the_gate_the_lines_every_spot_gives(engine, monkeypatch) -> None:
    """`reader_spots(..., lines=True)` (withhold_gate's call): the lines holding a spot are
    the lines of every spot, on seeded blocks of many lines, in the C loop and Python's."""
    if engine == "python":
        monkeypatch.setattr(native, "UNESCAPE", None)
    rng = random.Random(4304)
    asked = 0
    for _ in range(300):
        data = b"".join(rng.choice(PIECES) * rng.choice([1, 1, 2, 40, 300])
                        for _ in range(rng.randint(0, 80)))
        for formats, limit in ((True, secrets_public._SPOTS_MAX), (False, 3)):
            every = secrets_public.reader_spots(data, formats, limit)
            once = secrets_public.reader_spots(data, formats, limit, lines=True)
            if limit > len(every):  # (a gate cut at `limit` spots: no line set to compare)
                assert set(once) <= set(every)
                assert _line_starts(data, 0, once) == _line_starts(data, 0, every)
                asked += len(every) > len(once)
    assert asked > 100  # (blocks where the one-a-line loop skipped runs)
    # a screenshot's line: a run between each two `/`s, 200 a line; one asked a line
    shot = (b'{"type":"observation","data":{"summary":"$ screenshot\\ndata:image/png;base64,'
            + b"iVBORw0KGgoAAAANSUhEUgAAAEAA/AAA+CAIAAAA" * 200 + b'"}}\n')
    assert len(secrets_public.reader_spots(shot * 3)) == 600
    assert secrets_public.reader_spots(shot * 3, lines=True) == \
        [77, 77 + len(shot), 77 + 2 * len(shot)]
