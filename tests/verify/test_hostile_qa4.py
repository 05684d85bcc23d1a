"""Hostile inputs: the leftovers of the session-5 pass fixed in session 6 (issue 15), through
public seams, each asserting the exact outcome. (`seed.secret_leak` is in test_seeds.py, the
`at` shape in test_agent_log*.py.)"""

from __future__ import annotations

import os
import stat
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


# -- `--out` through a symbolic link (withhold -o, decisions export --out) -------------------
@pytest.fixture
def community_log(tmp_path) -> Path:
    make_agent_log(tmp_path / "agent-log.jsonl", 12, seed=4)
    return tmp_path / "agent-log.jsonl"


def _withhold(log: Path, out: Path) -> int:
    from moderator_app.cli import main

    return main(["withhold", str(log), "-o", str(out)])


def test_out_through_a_link_to_another_folder_is_refused(tmp_path, community_log, capsys):
    """A link planted to reach another folder (`out.jsonl -> ~/.bashrc`): the atomic rename
    replaced the file it points to with a 0600 copy of the export. Refused now (exit 2),
    dangling or not, and nothing is written anywhere."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    victim = elsewhere / "hostname"
    victim.write_bytes(b"vm\n")
    victim.chmod(0o644)
    outdir = tmp_path / "out"
    outdir.mkdir()
    for target in (victim, elsewhere / "authorized_keys"):  # existing, and dangling
        link = outdir / "public.jsonl"
        link.symlink_to(target)
        assert _withhold(community_log, link) == 2
        assert "symbolic link to a file in another folder" in capsys.readouterr().err
        assert link.is_symlink() and os.readlink(link) == str(target)
        link.unlink()
        assert sorted(p.name for p in outdir.iterdir()) == []  # no temporary file left
    assert victim.read_bytes() == b"vm\n" and stat.S_IMODE(victim.stat().st_mode) == 0o644
    assert sorted(p.name for p in elsewhere.iterdir()) == ["hostname"]


def test_out_through_a_link_in_its_folder_replaces_the_file_and_keeps_its_mode(
        tmp_path, community_log, store):
    """`latest.jsonl -> public-2026-12.jsonl` in one folder is followed, as a shell
    redirection would; the replaced file keeps its permissions (it became 0600). Same for a
    plain file replaced, through `decisions export --out` too."""
    from moderator_app.cli import main

    outdir = tmp_path / "out"
    outdir.mkdir()
    real = outdir / "public-2026-12.jsonl"
    real.write_bytes(b"old\n")
    real.chmod(0o644)
    link = outdir / "latest.jsonl"
    link.symlink_to(real.name)  # relative, in the same folder
    assert _withhold(community_log, link) == 0
    assert link.is_symlink() and real.read_bytes().startswith(b'{"seq":0')
    assert stat.S_IMODE(real.stat().st_mode) == 0o644
    plain = outdir / "plain.jsonl"
    plain.write_bytes(b"old\n")
    plain.chmod(0o640)
    assert _withhold(community_log, plain) == 0
    assert stat.S_IMODE(plain.stat().st_mode) == 0o640 and plain.read_bytes() != b"old\n"
    # decisions export: one decision, exported over a 0644 file through an in-folder link
    assert main(["decide", str(community_log), "--reject", "--reason", "other", "--note", "x",
                 "--store", str(store)]) in (0, 1)
    csv_real = outdir / "decisions-all.csv"
    csv_real.write_bytes(b"old\n")
    csv_real.chmod(0o644)
    csv_link = outdir / "decisions.csv"
    csv_link.symlink_to(csv_real.name)
    assert main(["decisions", "export", "--format", "csv", "--out", str(csv_link),
                 "--store", str(store)]) == 0
    assert csv_real.read_bytes().startswith(b"seq,") and csv_link.is_symlink()
    assert stat.S_IMODE(csv_real.stat().st_mode) == 0o644


# -- a libpq key=value connection string given as the store (fourth hostile pass) ------------
@pytest.mark.parametrize("how", ["--store", "env"])
def test_a_key_value_connection_string_is_refused_never_echoed_nor_made_a_file(
        tmp_path, monkeypatch, capsys, community_log, how):
    """`--store 'host=db port=5432 password=...'` was taken for an SQLite path: `decisions
    list` printed `No decisions in host=db ... password=...` (exit 0) and `decide` made a
    file of that name in the working folder. It is refused (exit 2), never quoted."""
    from moderator_app.cli import main

    secret = "s3cr3t-PW-4711"
    spec = f"host=127.0.0.1 port=1 password={secret} dbname=x"
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MODERATOR_APP_STORE_FILE", raising=False)
    if how == "env":
        monkeypatch.setenv("MODERATOR_APP_STORE", spec)
        store = []
    else:
        store = ["--store", spec]
    before = sorted(p.name for p in tmp_path.iterdir())
    for argv in (["decisions", "list"], ["decisions", "export", "--format", "csv", "--out",
                                         str(tmp_path / "x.csv")],
                 ["decide", str(community_log), "--accept"]):
        assert main([*argv, *store]) == 2, argv
        out = capsys.readouterr()
        assert secret not in out.out + out.err
        assert "key=value PostgreSQL connection string" in out.err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


# -- JSON written to a file that may be a terminal (`--out /dev/stdout`) -------------------------
RAW_TERMINAL = ("\x7f", "\x9b", "\u202e", "\u2028", "\u2066")


def test_the_jsonl_export_escapes_terminal_characters_and_still_verifies(tmp_path, store,
                                                                        capsys):
    """RFC 8785 escapes only C0: a note's DEL, C1 CSI and RLO reached `decisions export
    --format jsonl --out /dev/stdout` raw. They are written as `\\uXXXX` (the same JSON
    value), and `decisions verify --jsonl` checks the canonical bytes they came from."""
    import json

    from moderator_app.cli import main

    notes = [f"n{i} {c}x" for i, c in enumerate(RAW_TERMINAL)] + ["a literal \\u202e"]
    make_agent_log(tmp_path / "agent-log.jsonl", 12, seed=4)
    for note in notes:
        assert main(["decide", str(tmp_path / "agent-log.jsonl"), "--reject", "--reason",
                     "other", "--note", note, "--store", str(store)]) in (0, 1)
    out = tmp_path / "d.jsonl"
    assert main(["decisions", "export", "--format", "jsonl", "--out", str(out),
                 "--store", str(store)]) == 0
    text = out.read_bytes().decode("utf-8")
    assert not any(c in text for c in RAW_TERMINAL)
    assert [json.loads(x)["note"] for x in text.splitlines()] == notes
    capsys.readouterr()
    assert main(["decisions", "verify", "--jsonl", str(out)]) == 0
    assert "intact" in capsys.readouterr().out
    # an edit is still an edit
    out.write_text(text.replace("n1 ", "n9 ", 1))
    assert main(["decisions", "verify", "--jsonl", str(out)]) == 1


def test_withhold_escapes_terminal_characters_of_the_public_log(tmp_path, capsys):
    import json

    from moderator_app.cli import main

    make_agent_log(tmp_path / "agent-log.jsonl", 12, seed=4)
    lines = (tmp_path / "agent-log.jsonl").read_bytes().splitlines()
    evs = [json.loads(x) for x in lines]
    obs = next(i for i, e in enumerate(evs) if e["type"] == "observation")
    evs[obs]["data"]["summary"] = "".join(RAW_TERMINAL) + " seen"
    log = tmp_path / "hostile.jsonl"
    log.write_bytes(b"".join(json.dumps(e, ensure_ascii=False).encode() + b"\n" for e in evs))
    assert any(c.encode() in log.read_bytes() for c in RAW_TERMINAL)
    out = tmp_path / "public.jsonl"
    assert main(["withhold", str(log), "-o", str(out)]) == 0
    text = out.read_bytes().decode("utf-8")
    assert not any(c in text for c in RAW_TERMINAL)
    assert json.loads(text.splitlines()[obs])["data"]["summary"] == evs[obs]["data"]["summary"]
