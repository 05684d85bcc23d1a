"""Hostile inputs: the leftovers of the session-5 pass fixed in session 6 (issue 15), through
public seams, each asserting the exact outcome. (`seed.secret_leak` is in test_seeds.py, the
`at` shape in test_agent_log*.py.)"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
import zstandard

from moderator_app.core.formats.streams import MAX_LINE
from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

LONG = MAX_LINE + (1 << 20)  # one line over the bound: a finding, never shown


def _with_long_line(lines: list[bytes], at: int) -> bytes:
    long = b'{"x":"' + b"a" * (LONG - 8) + b'"}'
    return b"".join(x + b"\n" for x in [*lines[:at], long, *lines[at:]])


def _allocated(path: Path) -> int:
    return path.stat().st_blocks * 512


@pytest.mark.parametrize("kind", ["official", "community"])
def test_the_workstations_spool_skips_the_bytes_of_over_long_lines(tmp_path, kind):
    """The event table's plain copy of an archived or compressed evidence file held every
    byte of a line over the 16 MiB bound (512 MiB on disk for a 512 MiB one-line member),
    though such a line is never read back. Its bytes are now a hole: the spool's offsets (and
    logical size) are those of the evidence, its disk use is that of the other lines."""
    src = tmp_path / "src"
    src.mkdir()
    if kind == "official":
        write_trajectory(src / "events.jsonl", make_run_events(40, seed=2))
    else:
        make_agent_log(src / "agent-log.jsonl", 40, seed=2)
    name = next(src.iterdir()).name
    lines = (src / name).read_bytes().split(b"\n")[:-1]
    data = _with_long_line(lines, 20)
    sub = tmp_path / "sub"
    sub.mkdir()
    if kind == "official":  # a .zst trajectory: spooled decompressed
        (sub / "events.jsonl.zst").write_bytes(zstandard.ZstdCompressor(level=3).compress(data))
    else:  # an archived log: spooled out of the zip
        with zipfile.ZipFile(sub / "run.zip", "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(name, data)
    spool = tmp_path / "spool"
    spool.mkdir()
    result = verify_paths([sub if kind == "official" else sub / "run.zip"],
                          VerifyOptions(build_index=True, spool_dir=spool, probe_video=False))
    rules = {(f.rule, f.line) for f in result.report.findings}
    assert ("traj.too_long" if kind == "official" else "log.line_too_long", 21) in rules
    copies = [p for p in spool.rglob("*") if p.is_file()]
    assert len(copies) == 1
    copy = copies[0]
    assert copy.stat().st_size == len(data)  # offsets kept
    assert _allocated(copy) < 2 << 20, _allocated(copy)  # not the long line's 17 MiB
    index = result.index
    assert index is not None
    for line in (1, 20, 22, 41):  # before and after the long one: read back exactly
        row = index.row_for_line(line)
        assert index.read_raw(row) == data.split(b"\n")[line - 1], line
    index.close()


def test_line_spool_keeps_every_offset_and_drops_only_over_long_lines(tmp_path):
    """`LineSpool` against its definition, on random lines around the bound cut into random
    writes: the file equals the input with each over-long line's bytes zeroed (a hole)."""
    import random

    from moderator_app.core.formats.streams import LineSpool

    rnd = random.Random(7)
    for trial in range(1500):
        bound = rnd.randint(1, 20)
        lines = [b"x" * rnd.choice([0, 1, bound - 1, bound, bound + 1, rnd.randint(0, 3 * bound)])
                 for _ in range(rnd.randint(0, 12))]
        data = b"\n".join(lines) + (b"\n" if rnd.random() < 0.5 else b"")
        expected = bytearray(data)
        pos = 0
        for line in data.split(b"\n"):
            if len(line) > bound:
                expected[pos:pos + len(line)] = bytes(len(line))
            pos += len(line) + 1
        path = tmp_path / f"spool{trial}"
        spool = LineSpool(open(path, "wb"), bound)  # noqa: SIM115 - LineSpool closes it
        k = 0
        while k < len(data):
            step = rnd.randint(1, 3 * bound + 2)
            spool.write(data[k:k + step])
            k += step
        spool.close()
        assert path.read_bytes() == bytes(expected), (bound, data)
        path.unlink()
