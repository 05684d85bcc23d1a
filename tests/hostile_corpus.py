"""Deterministic generators of hostile submissions (issue 15), built at test time, never
committed: each `make_*` writes one input under a folder and returns the paths to pass to
the CLI. Heavy ones (bombs) are small on disk but expand to gigabytes when read.

Every generator is deterministic (fixed bytes, fixed seeds, fixed mtimes), so a failure
reproduces byte for byte.
"""

from __future__ import annotations

import gzip
import io
import struct
import tarfile
import zipfile
import zlib
from pathlib import Path

import orjson
import zstandard

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

REPO = Path(__file__).resolve().parent.parent

MIB = 1 << 20
# Raw bytes a terminal would act on: C0 (but \n and \t), DEL, C1, bidi controls.
RAW_CONTROL = [chr(c) for c in (*range(0, 9), *range(11, 32), 127, *range(0x80, 0xA0))] + \
    ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
# and, since session 27, characters that draw nothing and are escaped wherever they stand
# (core/text.py; a ZWJ or U+FE0F is kept inside emoji, so it is not listed)
RAW_CONTROL += ["\u00ad", "\u200b", "\u2060", "\u2061", "\u2062", "\u2063", "\u2064",
                "\ufeff"]


def run_cli(capsys, *args) -> tuple[int, str, str]:
    """One CLI command in this process (pytest's capsys): its exit code, stdout and stderr,
    which never hold a traceback, an internal error or a raw control character."""
    from moderator_app.cli import main

    try:
        code = main([str(a) for a in args])
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    for stream in (out, err):
        assert "Traceback" not in stream
        assert "internal error" not in stream
        assert not [c for c in RAW_CONTROL if c in stream], stream[:300]
    return code, out, err
MTIME = 1_780_000_000  # fixed mtime for archive members


# -- small helpers -------------------------------------------------------------------------
def _log_lines(n: int = 12, seed: int = 3) -> list[bytes]:
    buf = io.BytesIO()
    tmp = Path("/dev/null")
    del tmp
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "agent-log.jsonl"
        make_agent_log(p, n, seed)
        buf.write(p.read_bytes())
    return buf.getvalue().splitlines()


def valid_log_bytes(n: int = 12, seed: int = 3) -> bytes:
    return b"\n".join(_log_lines(n, seed)) + b"\n"


def _tar_add(tf: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = MTIME
    tf.addfile(info, io.BytesIO(data))


def _zip_add(zf: zipfile.ZipFile, name: str, data: bytes,
             method: int = zipfile.ZIP_STORED) -> None:
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.compress_type = method
    zf.writestr(info, data)


# -- 1. forged passes ----------------------------------------------------------------------
def make_forged_official(root: Path) -> list[Path]:
    """A community run whose agent log fails (an action no response asked for: a human
    press), plus a self-made `events.jsonl` with a valid chain. Must not pass."""
    sub = root / "forged-official"
    sub.mkdir(parents=True, exist_ok=True)
    lines = _log_lines(12, 3)
    # turn the first action into a human one: its `call` names no response
    for i, line in enumerate(lines):
        ev = orjson.loads(line)
        if ev["type"] == "action":
            ev["data"]["call"] = "human"
            lines[i] = orjson.dumps(ev)
            break
    (sub / "agent-log.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    write_trajectory(sub / "events.jsonl", make_run_events(8, seed=5))
    return [sub]


def make_withhold_private_toplevel(root: Path) -> Path:
    """A log whose model_request/model_response carry the prompt and reasoning in top-level
    members beside `data`: the public version must not contain them."""
    p = root / "private-toplevel.jsonl"
    out = []
    for line in _log_lines(12, 3):
        ev = orjson.loads(line)
        if ev["type"] == "model_request":
            ev["prompt"] = "PRIVATE-PROMPT-TEXT"
            ev["data"]["extra"] = {"system": "PRIVATE-SYSTEM"}
        elif ev["type"] == "model_response":
            ev["reasoning"] = "PRIVATE-REASONING-TEXT"
            ev["data"]["thoughts"] = "PRIVATE-THOUGHTS"
        elif ev["type"] == "run_start":
            ev["notes"] = "PRIVATE-RUN-NOTES"
        out.append(orjson.dumps(ev))
    p.write_bytes(b"\n".join(out) + b"\n")
    return p


SEED_SECRET = "evaluator-secret-for-tests"


def make_small_seeds(root: Path) -> tuple[Path, Path]:
    """An honest official run with integer seeds 42 and 7 whose commitments match, where 42
    and 7 appear as a score and a frame counter: no `seed.leak`."""
    sub = root / "small-seeds"
    sub.mkdir(parents=True, exist_ok=True)
    seeds = ("42", "7")
    events = make_run_events(12, seed=9, run_id="run_small_seeds", seeds=seeds,
                             secret=SEED_SECRET, variety=0.0)
    for ev in events:
        if ev["type"] == "observation":
            ev["payload"]["frame"] = 7
            ev["payload"]["score"] = 42
            ev["payload"]["stdout"] = "score 42 after 7 frames"
    write_trajectory(sub / "events.jsonl", events)
    seeds_file = root / "small-seeds.txt"
    seeds_file.write_text("42\n7\n")
    return sub, seeds_file


def make_real_seed_leak(root: Path) -> tuple[Path, Path]:
    """The same run where the agent wrote a seed in a seed-bearing place: a leak."""
    sub = root / "seed-leak"
    sub.mkdir(parents=True, exist_ok=True)
    seeds = ("42", "7")
    events = make_run_events(12, seed=9, run_id="run_seed_leak", seeds=seeds,
                             secret=SEED_SECRET, variety=0.0)
    for ev in events:
        if ev["type"] == "tool_call":
            ev["payload"]["seed"] = 42
            break
    write_trajectory(sub / "events.jsonl", events)
    seeds_file = root / "seed-leak.txt"
    seeds_file.write_text("42\n7\n")
    return sub, seeds_file


# -- 2. crashes ----------------------------------------------------------------------------
def make_tar_latin1_name(root: Path) -> Path:
    """A tar whose members have non-UTF-8 (Latin-1) names."""
    p = root / "latin1-names.tar"
    with tarfile.open(p, "w", format=tarfile.GNU_FORMAT, encoding="latin-1") as tf:
        _tar_add(tf, "r\xe9sum\xe9/agent-log.jsonl", valid_log_bytes())
        _tar_add(tf, "r\xe9sum\xe9/notes.txt", b"notes\n")
    return p


def make_folder_latin1(root: Path) -> Path:
    """A folder with a non-UTF-8 name holding a log and a file with a non-UTF-8 name."""
    base = bytes(root) + b"/dossier-\xe9"
    import os

    os.makedirs(base, exist_ok=True)
    with open(base + b"/agent-log.jsonl", "wb") as fh:
        fh.write(valid_log_bytes())
    with open(base + b"/caf\xe9.txt", "wb") as fh:
        fh.write(b"x\n")
    return Path(os.fsdecode(base))


# -- 3. bombs ------------------------------------------------------------------------------
def make_newline_bomb_zst(root: Path, size: int = 64 * MIB) -> Path:
    """`events.jsonl.zst`: `size` bytes of newlines in a few KB of zstd."""
    p = root / "newlines" / "events.jsonl.zst"
    p.parent.mkdir(parents=True, exist_ok=True)
    cctx = zstandard.ZstdCompressor(level=19)
    with open(p, "wb") as fh, cctx.stream_writer(fh) as w:
        chunk = b"\n" * MIB
        for _ in range(size // MIB):
            w.write(chunk)
    return p.parent


def make_line_flood(root: Path, kind: str, size: int = 64 * MIB) -> Path:
    """A plain trajectory (`events.jsonl`) of `size` bytes of one kind of line:
    blank, invalid (`x`), or tiny objects (`{}`)."""
    line = {"blank": b"\n", "invalid": b"x\n", "tiny": b"{}\n", "spaces": b" \n"}[kind]
    p = root / f"flood-{kind}" / "events.jsonl"
    p.parent.mkdir(parents=True, exist_ok=True)
    block = line * (MIB // len(line))
    with open(p, "wb") as fh:
        for _ in range(size // len(block)):
            fh.write(block)
    return p.parent


def make_log_flood(root: Path, kind: str, size: int = 64 * MIB) -> Path:
    """A community `agent-log.jsonl` flooded with one kind of line after a valid start."""
    line = {"blank": b"\n", "invalid": b"x\n", "tiny": b"{}\n"}[kind]
    p = root / f"log-flood-{kind}" / "agent-log.jsonl"
    p.parent.mkdir(parents=True, exist_ok=True)
    block = line * (MIB // len(line))
    with open(p, "wb") as fh:
        fh.write(valid_log_bytes())
        for _ in range(size // len(block)):
            fh.write(block)
    return p.parent


def make_zip_flood(root: Path, kind: str, size: int = 64 * MIB) -> Path:
    """A zip holding `agent-log.jsonl` deflated from `size` bytes of one kind of line."""
    line = {"blank": b"\n", "invalid": b"x\n", "tiny": b"{}\n"}[kind]
    p = root / f"zip-flood-{kind}.zip"
    body = valid_log_bytes() + line * (size // len(line))
    with zipfile.ZipFile(p, "w") as zf:
        _zip_add(zf, "agent-log.jsonl", body, zipfile.ZIP_DEFLATED)
    return p


def make_zip_many(root: Path, n: int) -> Path:
    """A zip of `n` empty members plus an agent log."""
    p = root / f"zip-{n}.zip"
    with zipfile.ZipFile(p, "w") as zf:
        _zip_add(zf, "agent-log.jsonl", valid_log_bytes())
        for i in range(n):
            _zip_add(zf, f"e/{i:06d}.txt", b"")
    return p


def make_tar_many(root: Path, n: int) -> Path:
    """A tar of `n` empty members plus an agent log (last, so every header is passed)."""
    p = root / f"tar-{n}.tar"
    with tarfile.open(p, "w", format=tarfile.GNU_FORMAT) as tf:
        for i in range(n):
            _tar_add(tf, f"e/{i:06d}.txt", b"")
        _tar_add(tf, "agent-log.jsonl", valid_log_bytes())
    return p


def make_zip_overlap(root: Path, n: int = 2000, kernel: int = 4 * MIB) -> Path:
    """A quoted-overlap zip bomb (Fifield): `n` central-directory entries whose local files
    overlap, each decompressing to `kernel` bytes and more, sharing one deflate kernel."""
    p = root / "zip-overlap.zip"
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    kdata = comp.compress(b"\n" * kernel) + comp.flush()
    names = [f"m{i:05d}.jsonl" for i in range(n)]
    names[0] = "agent-log.jsonl"
    # Build local headers back to back, each followed by the next one's header... the
    # simple (non-quoted) overlap: every entry points at the same local header + kernel.
    crc = zlib.crc32(b"\n" * kernel)
    out = io.BytesIO()
    local_name = b"k.jsonl"
    lh = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0x21, crc, len(kdata), kernel,
                     len(local_name), 0)
    out.write(lh + local_name + kdata)
    cd = io.BytesIO()
    for nm in names:
        b = nm.encode()
        cd.write(struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 8, 0, 0x21, crc,
                             len(kdata), kernel, len(b), 0, 0, 0, 0, 0o100644 << 16, 0) + b)
    cdb = cd.getvalue()
    start = out.tell()
    out.write(cdb)
    out.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, n, n, len(cdb), start, 0))
    p.write_bytes(out.getvalue())
    return p


def make_tar_zst_zero(root: Path, size: int = 64 * MIB) -> Path:
    """A `.tar.zst` with a `size` zero member beside the agent log."""
    p = root / "zero-member.tar.zst"
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tf:
        _tar_add(tf, "agent-log.jsonl", valid_log_bytes())
        info = tarfile.TarInfo("zeros.bin")
        info.size = size
        info.mtime = MTIME
        tf.addfile(info, _Zeros(size))
    p.write_bytes(zstandard.ZstdCompressor(level=19).compress(raw.getvalue()))
    return p


class _Zeros(io.RawIOBase):
    def __init__(self, n: int) -> None:
        self.n = n

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        size = self.n if size is None or size < 0 else min(size, self.n)
        self.n -= size
        return bytes(size)


class _Repeated(io.RawIOBase):
    """`n` bytes of `pattern` repeated (a stream: never the whole in memory)."""

    def __init__(self, n: int, pattern: bytes) -> None:
        self.n = n
        self.block = pattern * (MIB // len(pattern) + 1)

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        size = self.n if size is None or size < 0 else min(size, self.n, MIB)
        self.n -= size
        return self.block[:size]


def make_archive_repeated_video(root: Path, pattern: bytes = b"A", size: int = 768 * MIB,
                                fmt: str = "gz", name: str = "video.mp4") -> Path:
    """An agent log and a `name` "video" of `size` bytes of `pattern` repeated, in a
    `.tar.gz` (fmt "gz", ~1 MB for 768 MiB), `.tar.zst` ("zst") or deflated zip ("zip")."""
    if fmt == "zip":
        p = root / f"repeated-{pattern.hex()[:8]}.zip"
        with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
            zf.writestr("agent-log.jsonl", valid_log_bytes())
            with zf.open(name, "w", force_zip64=True) as fh:
                src = _Repeated(size, pattern)
                while block := src.read(MIB):
                    fh.write(block)
        return p
    p = root / f"repeated-{pattern.hex()[:8]}.tar.{fmt}"
    with open(p, "wb") as fh:
        if fmt == "gz":
            out = gzip.GzipFile(fileobj=fh, mode="wb", compresslevel=1, mtime=0)
        else:
            out = zstandard.ZstdCompressor(level=1).stream_writer(fh, closefd=False)
        with out, tarfile.open(fileobj=out, mode="w|", format=tarfile.GNU_FORMAT) as tf:
            _tar_add(tf, "agent-log.jsonl", valid_log_bytes())
            info = tarfile.TarInfo(name)
            info.size = size
            info.mtime = MTIME
            tf.addfile(info, _Repeated(size, pattern))
    return p


def make_tar_damaged_second_header(root: Path, how: str) -> Path:
    """A tar of the agent log, then `video.mp4` (32 KiB), then `notes.txt`, whose second
    header is damaged: `how` "negative" (base-256 size -16) or "garbage" (bytes that are no
    header). tarfile took both for the archive's end and listed the log alone."""
    p = root / f"damaged-{how}.tar"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
        _tar_add(tf, "agent-log.jsonl", valid_log_bytes())
        _tar_add(tf, "video.mp4", bytes(range(256)) * 128)
        _tar_add(tf, "notes.txt", b"n")
    data = bytearray(buf.getvalue())
    at = data.find(b"video.mp4\x00")
    assert at > 0 and at % 512 == 0
    if how == "negative":
        data[at + 124:at + 136] = b"\xff" * 11 + b"\xf0"
        chk = sum(data[at:at + 148]) + 8 * 32 + sum(data[at + 156:at + 512])
        data[at + 148:at + 156] = b"%06o\x00 " % chk
    else:
        data[at:at + 512] = b"\x5a" * 512
    p.write_bytes(bytes(data))
    return p


def make_nested_archives(root: Path) -> Path:
    """zip { inner.tar { inner.zip { agent log } } }: archives are not opened inside archives."""
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as zf:
        zf.writestr("agent-log.jsonl", valid_log_bytes())
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode="w", format=tarfile.GNU_FORMAT) as tf:
        _tar_add(tf, "inner.zip", inner.getvalue())
    p = root / "nested.zip"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("inner.tar", tar.getvalue())
    return p


def make_tar_special_members(root: Path) -> Path:
    """A tar whose `video.mp4` is a character device, `agent-log.jsonl` a FIFO, `clip.mkv` a
    block device and `logs/agent-log.jsonl` a hard link to /etc/shadow."""
    p = root / "special-members.tar"
    with tarfile.open(p, "w", format=tarfile.GNU_FORMAT) as tf:
        for name, typ in (("video.mp4", tarfile.CHRTYPE), ("agent-log.jsonl", tarfile.FIFOTYPE),
                          ("clip.mkv", tarfile.BLKTYPE), ("logs/agent-log.jsonl",
                                                          tarfile.LNKTYPE)):
            info = tarfile.TarInfo(name)
            info.type = typ
            info.mtime = MTIME
            info.devmajor, info.devminor = 1, 3
            info.linkname = "/etc/shadow" if typ == tarfile.LNKTYPE else ""
            tf.addfile(info)
    return p


def make_tar_gz_zero(root: Path, size: int = 1 << 30) -> Path:
    """A `.tar.gz` with a `size` zero member (1 GiB in ~1 MB) after the agent log."""
    p = root / "zero-member.tar.gz"
    with open(p, "wb") as fh, gzip.GzipFile(fileobj=fh, mode="wb", compresslevel=1,
                                            mtime=0) as gz, \
            tarfile.open(fileobj=gz, mode="w|", format=tarfile.GNU_FORMAT) as tf:
        _tar_add(tf, "agent-log.jsonl", valid_log_bytes())
        info = tarfile.TarInfo("zeros.bin")
        info.size = size
        info.mtime = MTIME
        tf.addfile(info, _Zeros(size))
    return p


def make_tar_sparse(root: Path, size: int = 16 << 30) -> Path:
    """A GNU tar whose member is `size` bytes of holes (old GNU sparse header, one 512-byte
    data block at the end): 16 GiB announced in a few KB."""
    p = root / "sparse.tar"
    log = valid_log_bytes()

    def header(name: bytes, typeflag: bytes, stored: int, extra: bytes = b"") -> bytes:
        h = bytearray(512)
        h[0:len(name)] = name
        h[100:108] = b"0000644\x00"
        h[108:116] = b"0000000\x00"
        h[116:124] = b"0000000\x00"
        h[124:136] = f"{stored:011o}\x00".encode()
        h[136:148] = f"{MTIME:011o}\x00".encode()
        h[156:157] = typeflag
        h[257:265] = b"ustar  \x00"
        if extra:
            h[386:386 + len(extra)] = extra
        h[148:156] = b" " * 8
        chk = sum(h)
        h[148:156] = f"{chk:06o}\x00 ".encode()
        return bytes(h)

    def num12(v: int) -> bytes:
        # base-256 for values beyond 8 GiB (GNU extension), else octal
        if v >= 8 ** 11:
            return b"\x80" + v.to_bytes(11, "big")
        return f"{v:011o}\x00".encode()

    out = io.BytesIO()
    out.write(header(b"agent-log.jsonl", b"0", len(log)))
    out.write(log + bytes(-len(log) % 512))
    # old GNU sparse: offset 386 holds 4 (offset, numbytes) pairs, then isextended, realsize
    sp = num12(size - 512) + num12(512) + bytes(24 * 3)
    extra = sp + b"\x00" + num12(size)
    h = bytearray(header(b"holes.bin", b"S", 512, extra))
    # realsize lives at 483..495; fix the checksum after writing it
    h[483:495] = num12(size)
    h[148:156] = b" " * 8
    h[148:156] = f"{sum(h):06o}\x00 ".encode()
    out.write(bytes(h))
    out.write(b"Z" * 512)
    out.write(bytes(1024))
    p.write_bytes(out.getvalue())
    return p


def make_sparse_files(root: Path, sparse: str = "video.mp4",
                      size: int = 32 << 30) -> Path:
    """A submission folder: a valid agent log and a video, with `sparse` (either of them, or
    an extra file) grown to `size` bytes by `truncate`: a few KB on disk, 32 GiB of holes
    (QA session 13: `verify` hashed the holes for over 60 s)."""
    sub = root / f"sparse-{sparse}"
    sub.mkdir(parents=True, exist_ok=True)
    (sub / "agent-log.jsonl").write_bytes(valid_log_bytes())
    (sub / "video.mp4").write_bytes(bytes(range(256)) * 16)
    with open(sub / sparse, "ab") as f:
        f.truncate(size)
    return sub


def make_ages_of_elapsed_time(root: Path, last: int = 6) -> Path:
    """The bundled community sample with its last `last` lines' `elapsedMs` at 2e15 ms and
    more (63,000 years): the sync analysis stepped to there and ran out of memory (QA session
    13, q03)."""
    sample = REPO / "resources" / "samples" / "community-sample"
    sub = root / "ages"
    sub.mkdir(parents=True, exist_ok=True)
    lines = (sample / "agent-log.jsonl").read_bytes().splitlines()
    out = []
    for i, raw in enumerate(lines):
        event = orjson.loads(raw)
        if i >= len(lines) - last:
            event["elapsedMs"] = 2 * 10 ** 15 + event["seq"]
        out.append(orjson.dumps(event))
    (sub / "agent-log.jsonl").write_bytes(b"\n".join(out) + b"\n")
    (sub / "video.mp4").write_bytes((sample / "video.mp4").read_bytes())
    return sub


def make_zstd_long31(root: Path) -> Path:
    """A valid `events.jsonl.zst` written with a 2 GiB window (`zstd --long=31` streaming)."""
    sub = root / "long31"
    sub.mkdir(parents=True, exist_ok=True)
    p = sub / "events.jsonl.zst"
    plain = sub / "events.plain.jsonl"
    write_trajectory(plain, make_run_events(20, seed=2))
    params = zstandard.ZstdCompressionParameters.from_level(
        19, window_log=31, enable_ldm=True)
    cctx = zstandard.ZstdCompressor(compression_params=params)
    with open(plain, "rb") as src, open(p, "wb") as dst:
        cctx.copy_stream(src, dst)  # streaming: no content size, the window stays 2 GiB
    plain.unlink()
    return sub


def make_zip_with_video_failing(root: Path, video: Path) -> Path:
    """A zip holding a failing agent log (a human action) and a video."""
    p = root / "video-in-zip.zip"
    lines = _log_lines(12, 3)
    for i, line in enumerate(lines):
        ev = orjson.loads(line)
        if ev["type"] == "action":
            ev["data"]["call"] = "human"
            lines[i] = orjson.dumps(ev)
            break
    with zipfile.ZipFile(p, "w") as zf:
        _zip_add(zf, "agent-log.jsonl", b"\n".join(lines) + b"\n")
        _zip_add(zf, "run.mp4", video.read_bytes())
    return p


# -- 4. output -----------------------------------------------------------------------------
ESCAPES = ("\x1b]0;pwned\x07", "\x1b[2J", "\u202e", "\x9b31m")


def make_zip_escape_names(root: Path) -> Path:
    """A zip whose member names carry terminal escapes and a bidi override, and no log."""
    p = root / "escape-names.zip"
    with zipfile.ZipFile(p, "w") as zf:
        for i, e in enumerate(ESCAPES):
            _zip_add(zf, f"note{i}{e}.txt", b"x")
    return p


def make_zip_escape_names_with_log(root: Path) -> Path:
    p = root / "escape-names-log.zip"
    with zipfile.ZipFile(p, "w") as zf:
        _zip_add(zf, "agent-log.jsonl", valid_log_bytes())
        for i, e in enumerate(ESCAPES):
            _zip_add(zf, f"note{i}{e}.txt", b"x")
            _zip_add(zf, f"../up{i}{e}.txt", b"x")
    return p


def make_zst_zero_bomb(root: Path, size: int = 3 << 30) -> Path:
    """`events.jsonl.zst` holding `size` zero bytes (a few hundred KB on disk)."""
    p = root / "zero-bomb" / "events.jsonl.zst"
    p.parent.mkdir(parents=True, exist_ok=True)
    cctx = zstandard.ZstdCompressor(level=1)
    with open(p, "wb") as fh, cctx.stream_writer(fh) as w:
        chunk = bytes(16 * MIB)
        for _ in range(size // len(chunk)):
            w.write(chunk)
    return p.parent


def make_zip_zero_bomb(root: Path, size: int = 3 << 30) -> Path:
    """A zip whose `agent-log.jsonl` deflates from `size` zero bytes (~1000:1)."""
    p = root / "zip-zero-bomb.zip"
    with zipfile.ZipFile(p, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf, \
            zf.open("agent-log.jsonl", "w", force_zip64=True) as fh:
        chunk = bytes(16 * MIB)
        for _ in range(size // len(chunk)):
            fh.write(chunk)
    return p


# -- 5. lines that need memory (the workstation under an address-space limit) --------------
def make_wide_member_line(root: Path, members: int = 300_000) -> Path:
    """A community folder whose second log line, a valid model_request, holds `members`
    more members in its `data` (4.9 MB): `orjson.dumps` of it maps its worst-case buffer
    unchecked, which crashed the workstation (SIGSEGV) under `prlimit --as=512MiB`, while
    verifying it and again when the event table showed its row."""
    return _log_with_data(root / "wide-line", {f"k{i}": i for i in range(members)})


def make_big_string_line(root: Path, size: int = 15 * MIB) -> Path:
    """A community folder whose second log line, a valid model_request, holds a
    `size`-character string in its `data`: orjson could not allocate its parse buffer in the
    workstation under `prlimit --as=512MiB`, and the line was reported as `log.json`
    "invalid JSON"."""
    return _log_with_data(root / "big-string-line", {"s": "a" * size})


def _log_with_data(folder: Path, extra: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = _log_lines(12, 3)
    ev = orjson.loads(lines[1])
    assert ev["type"] == "model_request"
    ev["data"].update(extra)
    lines[1] = orjson.dumps(ev)
    (folder / "agent-log.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    return folder
