"""streams.LineBounded and the blank-line counters (session 25, issue 15 point 8 at 10x): a run
of blank lines is handed over whole and counted, never cut 4,096 lines a read (640 MiB of
newlines in 200 KB of zstd ran 40-49 s as 163,840 blocks; 6.4 GiB ran past 60 s)."""

from __future__ import annotations

import io
import random

import pytest

from moderator_app.core.formats import streams
from moderator_app.core.formats.streams import LineBounded, blank_count, blank_run

MIB = 1 << 20


@pytest.fixture(autouse=True, params=["native", "python"])
def engine(request, monkeypatch):
    """Both line cutters: _jcs.line_cut and the fallback without the C accelerator."""
    if request.param == "python":
        monkeypatch.setattr(streams, "_line_cut", streams.python_line_cut)
    return request.param


class _Chunks(io.RawIOBase):
    """`data` read at most `size` bytes a call (as a decompressor hands out its output)."""

    def __init__(self, data: bytes) -> None:
        self.buf = io.BytesIO(data)

    def read(self, size: int = -1) -> bytes:
        return self.buf.read(MIB if size is None or size < 0 else min(size, MIB))


def _reads(data: bytes) -> list[bytes]:
    lb = LineBounded(_Chunks(data))
    return list(iter(lambda: lb.read(MIB), b""))


@pytest.mark.parametrize("unit", [b"\n", b"\r\n", b" \t\n", b"\x0b\x0c\r\n"])
def test_a_run_of_blank_lines_is_handed_over_whole(unit):
    data = unit * (8 * MIB // len(unit))
    reads = _reads(data)
    assert b"".join(reads) == data
    # about one block per read of the source (8 of 1 MiB; a partial line left at a read's end
    # is a read of its own), not one per 4,096 lines (2,048 to 8,192 before)
    assert len(reads) <= 17, len(reads)
    assert all(blank_count(r) == r.count(b"\n") for r in reads)


def test_lines_that_are_not_blank_are_still_bounded_around_blank_runs():
    rng = random.Random(25)
    parts = []
    for _ in range(40):
        kind = rng.randrange(4)
        n = rng.randrange(1, 20_000)
        parts.append({0: b"{}\n", 1: b"\n", 2: b' {"a":1}\n', 3: b"\r\n \n"}[kind] * n)
    data = b"".join(parts) + b"{}"  # no final newline
    reads = _reads(data)
    assert b"".join(reads) == data
    for r in reads:
        if blank_count(r) is None:  # any block holding an event line: 4,096 lines at most
            assert r.count(b"\n") <= 4096, r.count(b"\n")


def test_unread_bytes_come_back_first_then_the_rest_in_order():
    data = b"{}\n" * 10_000 + b"\n" * 10_000 + b"{}\n" * 5
    lb = LineBounded(_Chunks(data))
    first = lb.read(MIB)
    lb.unread(first[-30:])
    rest = list(iter(lambda: lb.read(MIB), b""))
    assert first[:-30] + b"".join(rest) == data


@pytest.mark.parametrize("block", [b"", b"\n", b"\n\n x", b" \n\t\n\r\n", b"\n" * 9000 + b" ",
                                   b"\n" * 8192 + b"\r\n" * 4096 + b"a\n", b"\r\n" * 5000,
                                   b"\n" * 4096 + b"\x0c\n"])
def test_blank_count_and_run_agree_with_strip_and_count(block):
    expected = None if block.strip() else block.count(b"\n")
    assert blank_count(block) == expected
    ws_end = len(block) - len(block.lstrip())
    assert blank_run(block) == block.rfind(b"\n", 0, ws_end) + 1
    assert blank_run(block, 1) == max(1, block.rfind(b"\n", 1, ws_end) + 1)
