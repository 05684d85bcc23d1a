"""`iter_lines`' `skim` hook: lines a skimmer consumes are not yielded, every other line comes
once with its exact offset, whatever the chunk boundaries."""

from __future__ import annotations

import io

import pytest

from moderator_app.core.formats.streams import iter_lines

LINES = [b"keep 0", b"skip 1", b"skip 2", b"keep 3", b"", b"skip 5", b"keep 6 " + b"x" * 40,
         b"skip 7"]
DATA = b"".join(x + b"\n" for x in LINES) + b"keep tail"


def _skip_lines(seen: list[int]):
    def skim(data: bytes, start: int) -> int:
        # consume whole lines that start with b"skip", as _skim.c consumes steady lines
        while data.startswith(b"skip", start):
            nl = data.find(b"\n", start)
            if nl < 0:
                break
            seen.append(start)
            start = nl + 1
        return start
    return skim


@pytest.mark.parametrize("chunk", [1, 3, 7, 16, 1 << 20])
def test_skimmed_lines_are_not_yielded_and_offsets_stay_exact(chunk):
    seen: list[int] = []
    got = list(iter_lines(io.BytesIO(DATA), chunk_size=chunk, skim=_skip_lines(seen)))
    offsets = [0]
    for x in LINES:
        offsets.append(offsets[-1] + len(x) + 1)
    want = [(offsets[i], x) for i, x in enumerate(LINES) if not x.startswith(b"skip")]
    want.append((offsets[-1], b"keep tail"))
    assert got == want
    assert len(seen) == 4  # every skip line consumed exactly once, by the skimmer
