"""Issue 15 a fifth time: classes and bytes no earlier sweep (s25, s26, s27, the QA passes)
used (session 28, s28-hostile). Thinking as a cheater and as a fuzzer:

- zip: a data descriptor whose sizes lie (short, long), a local header naming a member other
  than its central entry (a failing `agent-log.jsonl` listed as `notes.txt` beside a
  self-made chain), a second end-of-central-directory record in the comment (two parsers, two
  contents), a zip64 locator pointing past the file, 1 MiB of bytes before the first member;
- tar: a pax `size` of -1 and of 10^30, a GNU base-256 size of 2^62, a hard link to
  `/etc/passwd` and to `../outside`, a GNU long name and a pax path naming one member two
  ways, a `.tar.xz` holding a `.tar.bz2` holding a log, a `.tar.bz2` / `.tar.xz` of 3 GiB of
  zeros nested in an official run (streams repeated: 3 GiB from a few KB);
- zstd: 2,000,000 skippable frames inside the sample, a frame header carrying a dictionary id
  (no dictionary used), a window descriptor of 3.75 GiB, a wrong content checksum;
- JSON: a chain payload 900 levels deep (sealed), an agent log observation 5,000 deep, a
  `seed_commitment` and a `run_id` repeated with two values (the hash valid for the last), a
  lone surrogate in a key (escaped and as CESU bytes), `NaN` / `-Infinity`, integers of
  1,000,000 digits in a log and in a chain;
- names: the agent log's name in full-width letters (U+FF41.. and U+FF0E), with U+2010 for
  the hyphen, a self-made chain named with a combining mark, a zip member named with 20,000
  U+202E, a tar member of 4,000 slashes and a name;
- videos whose header lies: an AVI of 3 frames claiming 10^9, an AVI whose rate and scale are
  0 (0/0 fps), an MP4 whose mdhd timescale is 0, an MKV whose Duration is NaN and one whose
  TimestampScale is 0, an MP4 whose tkhd/avc1 width and height say 65535;
- ledgers: a `-shm` of garbage, a middle page zeroed, the file cut inside its last page, a
  head file of a 26-digit sequence, of `-1`, of 100 MB of digits;
- the evaluator secret spelled with a JSON escape for every character, split across two
  lines, as a member name (verify --seeds with the secret in the environment);
- CLI arguments: `--offset` of Arabic-Indic digits, `1_0`, `1e-400`, `-0`, ` 5 `, `0x10`;
  `--note` of 100,000 newlines and carriage returns, a reviewer of spaces only.

Each case's expectation is written here first (EXPECT in words; EXPECT_NOT_PASS, EXPECT_PASS,
EXPECT_RULE, POST_EXPECT as checks), then `run` gives the result. Deterministic (fixed bytes,
seeds and ffmpeg settings); inputs under /work/main/.cache/s28-hostile/hostile/, never
committed. Every command goes through scripts/qa_common.run_hostile (prlimit 512 MiB, timeout;
a traceback, a raw control character, a secret printed, a temp file left, > 30 s is a
problem). The evaluator secret is also looked for by halves (a split secret printed in two
places is a leak too).

    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s28.py build
    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s28.py run [ID-PREFIX...]
    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s28.py gui
"""

from __future__ import annotations

import bz2
import io
import json
import lzma
import os
import random
import sqlite3
import struct
import subprocess
import sys
import tarfile
import zipfile
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "scripts"), str(REPO / "tests"), str(REPO)]

import hostile_sweep_s25 as s25  # noqa: E402
import hostile_sweep_s26 as s26  # noqa: E402

CACHE = Path("/work/main/.cache/s28-hostile")
SAMPLE, OFFICIAL = s25.SAMPLE, s25.OFFICIAL
MIB, GIB = 1 << 20, 1 << 30
MARK = "QA-S28-PRIVATE"
SECRET = "qa28-evaluator-secret-9f3e71"
SEEDS = ["qa28-seed-alpha-0001", "qa28-seed-beta-0002"]
#: the secret, and each half of it (a split secret printed in two places leaks too)
SECRETS = [SECRET, SECRET[:14], SECRET[14:]]
ENV: dict[str, dict[str, str]] = {}
EXPECT: dict[str, str] = {}
EXPECT_NOT_PASS: set[str] = set()
EXPECT_PASS: set[str] = set()
EXPECT_RULE: dict[str, str] = {}
POST_EXPECT: dict[str, int] = {}
_dump, _tar_add, _zstd = s25._dump, s25._tar_add, s26._zstd


# -- builders -----------------------------------------------------------------------------
def _chain(n: int, seed: int, edit=None, payload: dict | None = None, at: int = 5,
           **kw) -> bytes:
    """A self-made valid chain of `n` events. `payload` is merged into the first observation
    at/after line `at` before sealing; `edit(i, line) -> line` respells a sealed line (the
    respelling must parse to the same event for its hash to hold)."""
    import orjson

    from moderator_app.core.formats.chain import ZERO_HASH, seal
    from moderator_app.core.samples.trajectory_writer import make_run_events

    events = make_run_events(n, seed=seed, variety=0.0, **kw)
    if payload is not None:
        t = next(i for i, e in enumerate(events) if e["type"] == "observation" and i >= at)
        events[t]["payload"] = dict(events[t]["payload"], **payload)
    prev, out = ZERO_HASH, []
    for i, ev in enumerate(events):
        sealed = seal(ev, prev)
        prev = sealed["hash"]
        try:
            line = orjson.dumps(sealed)
        except orjson.JSONEncodeError:  # deeper than orjson writes: the stdlib's spelling
            line = json.dumps(sealed, separators=(",", ":"), ensure_ascii=False).encode()
        if edit is not None:
            line = edit(i, line)
        out.append(line + b"\n")
    return b"".join(out)


def _official(root: Path, name: str, data: bytes, zst: bool = True,
              extra: dict[str, bytes] | None = None, evname: str | None = None) -> Path:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    f = d / (evname or ("events.jsonl.zst" if zst else "events.jsonl"))
    if not f.exists():
        f.write_bytes(_zstd(data) if zst else data)
    if not (d / "video.mp4").exists():
        os.link(OFFICIAL / "video.mp4", d / "video.mp4")
    for k, v in (extra or {}).items():
        if not (d / k).exists():
            (d / k).write_bytes(v)
    return d


def _official_raw() -> bytes:
    import zstandard

    return zstandard.ZstdDecompressor().stream_reader(
        (OFFICIAL / "events.jsonl.zst").read_bytes()).read()


def _zip_raw(members: list[tuple[str, bytes, str | None]], *, dd: dict[str, tuple[int, int]]
             | None = None, comment: bytes = b"", prefix: bytes = b"") -> tuple[bytes, bytes,
                                                                             int]:
    """A stored zip written by hand: (local part, central directory, its offset).
    Each member: (central name, data, local name or None for the same); `dd[name]`: the
    (compressed, uncompressed) sizes its data descriptor and central entry claim."""
    local, central = bytearray(prefix), bytearray()
    for cname, data, lname in members:
        lname_b = (lname or cname).encode()
        cname_b = cname.encode()
        crc = zlib.crc32(data)
        off = len(local)
        flag = 0x0808 if dd and cname in dd else 0x0800
        csize, usize = dd[cname] if dd and cname in dd else (len(data), len(data))
        if flag & 8:
            local += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flag, 0, 0, 0x5A21, 0, 0, 0,
                                 len(lname_b), 0) + lname_b + data
            local += struct.pack("<IIII", 0x08074B50, crc, csize, usize)
        else:
            local += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flag, 0, 0, 0x5A21, crc,
                                 csize, usize, len(lname_b), 0) + lname_b + data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, flag, 0, 0, 0x5A21,
                               crc, csize, usize, len(cname_b), 0, 0, 0, 0, 0o644 << 16,
                               off) + cname_b
    return bytes(local), bytes(central), len(local)


def _eocd(n: int, cd: bytes, cd_off: int, comment: bytes = b"") -> bytes:
    return struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, len(cd), cd_off,
                       len(comment)) + comment


def _tar_header(name: str, size: int, typ: bytes = b"0", linkname: str = "",
                size_field: bytes | None = None) -> bytes:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.type, info.linkname = size, s25.MTIME, typ, linkname
    h = bytearray(info.tobuf(format=tarfile.GNU_FORMAT)[-512:])
    if size_field is not None:
        h[124:136] = size_field
        h[148:156] = b"        "
        h[148:156] = b"%06o\0 " % (sum(h) & 0o777777)
    return bytes(h)


def _pax(records: dict[str, str]) -> bytes:
    body = b""
    for k, v in records.items():
        rec = f" {k}={v}\n".encode()
        n = len(rec)
        while len(str(n + len(str(n))).encode()) + len(rec) != n:
            n = len(str(n).encode()) + len(rec)
        body += str(n).encode() + rec
    head = bytearray(_tar_header("././@PaxHeader", len(body), b"x"))
    return bytes(head) + body + b"\0" * (-len(body) % 512)


def _pad(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 512)


def _repeat_stream(kind: str, head: bytes, zeros: int, tail: bytes) -> bytes:
    """A `.tar.bz2` / `.tar.xz` of `head`, `zeros` zero bytes and `tail` as concatenated
    streams: one stream of 64 MiB of zeros repeated (3 GiB from a few KB)."""
    comp = bz2.compress if kind == "bz2" else (lambda b: lzma.compress(b, preset=1))
    block = comp(bytes(64 * MIB))
    return comp(head) + block * (zeros // (64 * MIB)) + comp(tail)


def _zst_frame_with_dict_id(data: bytes, dict_id: int) -> bytes:
    """One zstd frame of `data` whose header carries Dictionary_ID `dict_id` (4 bytes) though
    no dictionary was used: the flag set and the field inserted after the window byte."""
    import zstandard

    f = bytearray(zstandard.ZstdCompressor(level=3, write_content_size=True,
                                           write_checksum=False).compress(data))
    fhd = f[4]
    single = (fhd >> 5) & 1
    did_size = (0, 1, 2, 4)[fhd & 3]
    assert did_size == 0
    pos = 5 + (0 if single else 1)
    f[4] = fhd | 3
    return bytes(f[:pos] + struct.pack("<I", dict_id) + f[pos:])


def _zst_window(data: bytes, descriptor: int) -> bytes:
    import zstandard

    params = zstandard.ZstdCompressionParameters.from_level(3, window_log=20,
                                                            write_content_size=0)
    f = bytearray(zstandard.ZstdCompressor(compression_params=params).compress(data))
    assert not (f[4] >> 5) & 1  # not single-segment: a window byte follows
    f[5] = descriptor
    return bytes(f)


def _zst_bad_checksum(data: bytes) -> bytes:
    import zstandard

    f = bytearray(zstandard.ZstdCompressor(level=3, write_checksum=True).compress(data))
    f[-1] ^= 0xFF
    return bytes(f)


def _nested(depth: int, leaf: object, kind: str = "obj") -> object:
    v = leaf
    for _ in range(depth):
        v = {"d": v} if kind == "obj" else [v]
    return v


def _mkv(root: Path) -> Path | None:
    p = root / "base.mkv"
    return p if s25._ffmpeg(["-i", str(SAMPLE / "video.mp4"), "-c", "copy"], p) else None


def _patch_all(data: bytearray, tag: bytes, off: int, fmt: str, value) -> int:
    n, i = 0, data.find(tag)
    while i >= 0:
        struct.pack_into(fmt, data, i + off, value)
        n += 1
        i = data.find(tag, i + 1)
    return n


def _avi_frames(w: int, h: int, k: int) -> list[bytes]:
    return [bytes([(40 * i) % 256]) * (w * h * 3) for i in range(k)]


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915 - one table
    sys.setrecursionlimit(100_000)  # the 900-deep payload is sealed by recursive code
    root.mkdir(parents=True, exist_ok=True)
    store = root / "ledger.sqlite3"
    out: list[tuple[str, list[list[str]]]] = []

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in c]
                           for c in cmds]))

    def std(p, tag: str, *extra: str) -> list[list]:
        return [["verify", p, *extra], ["verify", p, "--json", *extra],
                ["decide", p, "--reject", "--reason", "other", "--note", f"s28 {tag}",
                 "--reviewer", "qa", "--store", store, *extra]]

    def expect(name: str, words: str, *, not_pass: bool = False, passes: bool = False,
               rule: str | None = None) -> None:
        EXPECT[name] = words
        if not_pass:
            EXPECT_NOT_PASS.add(name)
        if passes:
            EXPECT_PASS.add(name)
        if rule:
            EXPECT_RULE[name] = rule

    failing = s26._failing_log()
    log = s25._log_bytes()
    mp4 = (SAMPLE / "video.mp4").read_bytes()
    official = _official_raw()
    off_lines = official.splitlines(keepends=True)
    chain8 = _zstd(_chain(8, 5))

    # k01 zip ----------------------------------------------------------------------------
    for name, claim in (("k01_zip_dd_sizes_short.zip", lambda n: (n // 2, n // 2)),
                        ("k01_zip_dd_sizes_long.zip", lambda n: (n * 8, n * 8))):
        p = root / name
        if not p.exists():
            loc, cd, off = _zip_raw([("agent-log.jsonl", log, None), ("video.mp4", mp4, None)],
                                    dd={"agent-log.jsonl": claim(len(log))})
            p.write_bytes(loc + cd + _eocd(2, cd, off))
        expect(name, "an honest log stored with a data descriptor whose sizes (and the central "
                     "entry's) lie: never read past its data as another member, no hang; a "
                     "clean refusal or a log finding (FAIL), never a pass on a cut log",
               not_pass=True)
        add(name, *std(p, name))
    name = "k01_zip_local_name_differs.zip"
    p = root / name
    if not p.exists():
        loc, cd, off = _zip_raw([("events.jsonl.zst", chain8, None), ("video.mp4", mp4, None),
                                 ("notes.txt", failing, "agent-log.jsonl")])
        p.write_bytes(loc + cd + _eocd(3, cd, off))
    expect(name, "a failing log whose local header says agent-log.jsonl, listed as notes.txt "
                 "in the central directory, beside a self-made chain: a streaming unzip sees "
                 "the log; never a pass", not_pass=True)
    add(name, *std(p, name))
    name = "k01_zip_two_eocd.zip"
    p = root / name
    if not p.exists():
        loc, cd_comm, off = _zip_raw([("agent-log.jsonl", failing, None),
                                      ("video.mp4", mp4, None),
                                      ("events.jsonl.zst", chain8, None)])
        # two central directories over the same members: the community one (failing log +
        # video) and an official one (chain + video); the real EOCD points at the first, and
        # its comment holds a second EOCD (at the file's very end) pointing at the second
        cd1 = _only_entries(cd_comm, {"agent-log.jsonl", "video.mp4"})
        cd2 = _only_entries(cd_comm, {"events.jsonl.zst", "video.mp4"})
        fake = _eocd(2, cd2, off + len(cd1))
        p.write_bytes(loc + cd1 + cd2 + _eocd(2, cd1, off, comment=fake))
    expect(name, "two end records: the real one lists a failing log + video, a second one in "
                 "its comment lists a self-made chain + video; which one a tool reads decides "
                 "the kind: never a pass (ambiguous)", not_pass=True)
    add(name, *std(p, name))
    name = "k01_zip64_locator_past_end.zip"
    p = root / name
    if not p.exists():
        loc, cd, off = _zip_raw([("agent-log.jsonl", log, None), ("video.mp4", mp4, None)])
        locator = struct.pack("<IIQI", 0x07064B50, 0, 1 << 62, 1)
        p.write_bytes(loc + cd + locator + struct.pack(
            "<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0))
    expect(name, "a zip64 locator pointing at 2^62 and an end record all 0xFF: a clean "
                 "refusal (exit 2 or FAIL), no crash", not_pass=True)
    add(name, *std(p, name))
    name = "k01_zip_prefix_1m.zip"
    p = root / name
    if not p.exists():
        body = io.BytesIO()
        with zipfile.ZipFile(body, "w") as zf:
            for n, d in (("agent-log.jsonl", log), ("video.mp4", mp4)):
                zf.writestr(zipfile.ZipInfo(n, (2026, 1, 1, 0, 0, 0)), d)
        p.write_bytes(random.Random(28).randbytes(MIB) + body.getvalue())
    expect(name, "1 MiB of random bytes before an honest zip (offsets not adjusted, as a "
                 "self-extractor): read (PASS) or refused cleanly")
    add(name, *std(p, name))

    # k02 tar ----------------------------------------------------------------------------
    video_member = _tar_header("video.mp4", len(mp4)) + _pad(mp4)
    for name, recs in (("k02_tar_pax_size_negative.tar", {"size": "-1"}),
                       ("k02_tar_pax_size_1e30.tar", {"size": "1" + "0" * 30})):
        p = root / name
        if not p.exists():
            p.write_bytes(_pax(recs) + _tar_header("agent-log.jsonl", len(log)) + _pad(log) +
                          video_member + b"\0" * 1024)
        expect(name, f"a pax size of {recs['size'][:12]}: a clean refusal or the member "
                     "read as its header says; no crash, no memory bomb")
        add(name, *std(p, name))
    name = "k02_tar_base256_size.tar"
    p = root / name
    if not p.exists():
        field = b"\x80" + (1 << 62).to_bytes(11, "big")
        p.write_bytes(_tar_header("agent-log.jsonl", len(log), size_field=field) + _pad(log) +
                      video_member + b"\0" * 1024)
    expect(name, "a GNU base-256 size of 2^62 on a 10 KB member: refused (cannot be read "
                 "whole), no memory bomb, FAIL or exit 2", not_pass=True)
    add(name, *std(p, name))
    name = "k02_tar_hardlink_outside.tar"
    p = root / name
    if not p.exists():
        p.write_bytes(_tar_header("agent-log.jsonl", 0, b"1", "/etc/passwd") +
                      _tar_header("notes.txt", 0, b"1", "../../outside/agent-log.jsonl") +
                      video_member + b"\0" * 1024)
    expect(name, "hard links to /etc/passwd and ../../outside: archive.link, nothing read "
                 "outside, FAIL", not_pass=True, rule="archive.link")
    add(name, *std(p, name))
    name = "k02_tar_longname_vs_pax.tar"
    p = root / name
    if not p.exists():
        longname = b"agent-log.jsonl\0"
        gnu = _tar_header("././@LongLink", len(longname), b"L") + _pad(longname)
        p.write_bytes(_tar_header("events.jsonl.zst", len(chain8)) + _pad(chain8) +
                      _pax({"path": "notes.txt"}) + gnu +
                      _tar_header("x", len(failing)) + _pad(failing) + video_member +
                      b"\0" * 1024)
    expect(name, "one member named agent-log.jsonl by a GNU long name and notes.txt by a pax "
                 "path (a failing log) beside a self-made chain: whichever name wins, never "
                 "a pass", not_pass=True)
    add(name, *std(p, name))
    name = "k02_nested_xz_bz2_log"
    inner = s26._tar_bytes([("agent-log.jsonl", failing)])
    mid = io.BytesIO()
    with tarfile.open(fileobj=mid, mode="w:bz2") as tf:
        _tar_add(tf, "deeper/inner.tar", inner)
    outer = io.BytesIO()
    with tarfile.open(fileobj=outer, mode="w:xz") as tf:
        _tar_add(tf, "screens/inner.tar.bz2", mid.getvalue())
    d = _official(root, name, _chain(8, 5), extra={"screens.tar.xz": outer.getvalue()})
    expect(name, "a self-made chain carrying screens.tar.xz > inner.tar.bz2 > inner.tar > a "
                 "failing log (three levels): ambiguous, never a pass", not_pass=True,
           rule="input.ambiguous_kind")
    add(name, *std(d, name))
    for kind in ("bz2", "xz"):
        name = f"k02_nested_{kind}_zero_3g"
        size = 3 * GIB
        head = _tar_header("screens/zero.bin", size)
        tail = b"\0" * (1024 + (-size % 512))
        d = root / name
        if not d.exists():
            _official(root, name, _chain(8, 5), extra={
                f"screens.tar.{kind}": _repeat_stream(kind, head, size, tail)})
        expect(name, f"an official run carrying a .tar.{kind} whose one member is 3 GiB of "
                     "zeros (repeated streams): listing stops at the 2 GiB cap within 30 s and "
                     "512 MiB; ambiguous (cannot be listed whole), never a pass",
               not_pass=True)
        add(name, *std(d, name))

    # k03 zstd ---------------------------------------------------------------------------
    import zstandard

    cctx = zstandard.ZstdCompressor(level=3)
    name = "k03_zst_skippable_flood"
    d = root / name
    if not d.exists():
        d.mkdir()
        skip = struct.pack("<II", 0x184D2A5E, 0)
        with open(d / "events.jsonl.zst", "wb") as fh:
            fh.write(cctx.compress(b"".join(off_lines[:10])))
            fh.write(skip * 2_000_000)
            fh.write(cctx.compress(b"".join(off_lines[10:])))
        os.link(OFFICIAL / "video.mp4", d / "video.mp4")
    expect(name, "the sample with 2,000,000 empty skippable frames (16 MB) after line 10: PASS "
                 "or the documented traj.too_large, within 30 s and 512 MiB")
    add(name, *std(d, name))
    for name, blob, words, bad in (
            ("k03_zst_dict_id_frame", _zst_frame_with_dict_id(official, 0xDEADBEEF),
             "the sample in one frame whose header names dictionary 0xDEADBEEF (none used): "
             "PASS (the content needs no dictionary) or a clear refusal naming the dictionary",
             False),
            ("k03_zst_window_3_75g", _zst_window(official, 0xFF),
             "a frame whose window descriptor says 3.75 GiB: a message naming the window (not "
             "'corrupt'), no memory bomb; not a pass", True),
            ("k03_zst_bad_checksum", _zst_bad_checksum(official),
             "the sample with its content checksum flipped: FAIL traj.zstd_corrupt", True)):
        d = root / name
        if not d.exists():
            d.mkdir()
            (d / "events.jsonl.zst").write_bytes(blob)
            os.link(OFFICIAL / "video.mp4", d / "video.mp4")
        expect(name, words, not_pass=bad)
        add(name, *std(d, name))

    # k04 JSON ---------------------------------------------------------------------------
    name = "k04_chain_depth_900"
    d = _official(root, name, _chain(40, 21, payload={"tree": _nested(900, 1)}))
    expect(name, "a sealed chain payload 900 objects deep: PASS (valid JSON, hash holds) or a "
                 "depth finding; no RecursionError traceback, no crash")
    add(name, *std(d, name))
    name = "k04_chain_depth_900_arrays"
    d = _official(root, name, _chain(40, 22, payload={"tree": _nested(900, 1, "arr")}))
    expect(name, "a sealed chain payload 900 arrays deep: as above")
    add(name, *std(d, name))
    ev = s25._events()
    obs = next(i for i, e in enumerate(ev) if e["type"] == "observation")
    lines = _dump(ev).splitlines(keepends=True)

    def with_obs(edit) -> bytes:
        out_lines = lines.copy()
        out_lines[obs] = edit(lines[obs])
        assert out_lines[obs] != lines[obs]
        return b"".join(out_lines)

    comm = {
        "k04_log_depth_5000": (lambda b: b.replace(b'"data":{', b'"data":{"deep":' + b"[" *
                                                   5000 + b"]" * 5000 + b",", 1),
                               "an observation 5,000 arrays deep: log.json finding (FAIL), no "
                               "crash"),
        "k04_log_surrogate_key_escaped": (lambda b: b.replace(b'"data":{', b'"data":{"\\ud800'
                                                              b'x":1,', 1),
                                          "a key holding an escaped lone surrogate: a log "
                                          "finding, no crash; withhold refuses or keeps it "
                                          "escaped"),
        "k04_log_surrogate_key_cesu": (lambda b: b.replace(b'"data":{', b'"data":{"\xed\xa0'
                                                           b'\x80x":1,', 1),
                                       "a key holding CESU-8 surrogate bytes: log.utf8 / "
                                       "log.json, no crash"),
        "k04_log_neg_infinity": (lambda b: b.replace(b'"data":{', b'"data":{"v":-Infinity,',
                                                     1), "-Infinity literal: log.json (FAIL)"),
        "k04_log_int_1e6_digits": (lambda b: b.replace(b'"data":{', b'"data":{"v":' +
                                                       b"7" * 1_000_000 + b",", 1),
                                   "a 1,000,000-digit integer in an observation: read or a "
                                   "log.json finding; no ValueError traceback (Python's "
                                   "4,300-digit limit), within 30 s"),
    }
    for name, (edit, words) in comm.items():
        d = s25._folder(root, name, with_obs(edit))
        expect(name, words)
        add(name, *std(d, name), ["withhold", d / "agent-log.jsonl", "-o", root /
                                  f"{name}.pub"])
    name = "k04_chain_int_1e6_digits"
    d = _official(root, name, _chain(40, 23, payload={"v": 7}, edit=lambda i, line: line.replace(
        b'"v":7', b'"v":' + b"7" * 1_000_000, 1)))
    expect(name, "a 1,000,000-digit integer in a chain payload (its hash broken): FAIL, no "
                 "traceback, within 30 s", not_pass=True)
    add(name, *std(d, name))
    name = "k04_chain_nan"
    d = _official(root, name, _chain(40, 24, payload={"v": 7}, edit=lambda i, line: line.replace(
        b'"v":7', b'"v":NaN', 1)))
    expect(name, "a NaN literal in a chain payload: FAIL (traj.json), no crash", not_pass=True)
    add(name, *std(d, name))
    name = "k04_chain_surrogate_key_cesu"
    d = _official(root, name, _chain(40, 25, payload={"k": 1}, edit=lambda i, line: line.replace(
        b'"k":1', b'"\xed\xa0\x80":1', 1)))
    expect(name, "CESU-8 surrogate bytes as a chain payload key: FAIL (traj.utf8 or "
                 "traj.json), no crash", not_pass=True)
    add(name, *std(d, name))

    def dup(member: bytes, other: bytes):
        def edit(i: int, line: bytes) -> bytes:
            if i == 1:
                key = b'"' + member + b'":'
                j = line.find(key)
                assert j >= 0, line[:200]
                return line[:j] + key + other + b"," + line[j:]
            return line
        return edit

    seeds_file = root / "k04_seeds.txt"
    seeds_file.write_text("\n".join(SEEDS) + "\n")
    name = "k04_dup_seed_commitment"
    d = _official(root, name, _chain(40, 26, edit=dup(b"seed_commitment", b'"' + b"0" * 64 +
                                                  b'"'), seeds=SEEDS, secret=SECRET))
    expect(name, "a seed_commitment repeated with two values (the hash valid for the last): "
                 "FAIL traj.duplicate_member, with and without --seeds", not_pass=True,
           rule="traj.duplicate_member")
    ENV[name] = {"ALE_EVALUATOR_SECRET": SECRET}
    add(name, *std(d, name), ["verify", d, "--json", "--seeds", seeds_file])
    name = "k04_dup_run_id"
    d = _official(root, name, _chain(40, 27, edit=dup(b"run_id", b'"run_other"')))
    expect(name, "run_id repeated with two values in a chain line: FAIL traj.duplicate_member",
           not_pass=True, rule="traj.duplicate_member")
    add(name, *std(d, name))

    # k05 names --------------------------------------------------------------------------
    for name, logname in (
            ("k05_fullwidth_log_name", "\uff41\uff47\uff45\uff4e\uff54\uff0d\uff4c\uff4f\uff47"
                                       "\uff0e\uff4a\uff53\uff4f\uff4e\uff4c"),
            ("k05_hyphen_u2010_log_name", "agent\u2010log.txt"),
            ("k05_fullwidth_dot_log_name", "agent-log\uff0ejsonl")):
        d = root / name
        if not d.exists():
            d.mkdir()
            (d / logname).write_bytes(failing)
            (d / "events.jsonl.zst").write_bytes(chain8)
            os.link(SAMPLE / "video.mp4", d / "video.mp4")
        expect(name, f"a failing log named {logname!a} (NFKC: agent-log...) beside a self-made "
                     "chain: never a pass", not_pass=True)
        add(name, *std(d, name))
    name = "k05_combining_events_name"
    d = root / name
    if not d.exists():
        d.mkdir()
        (d / "agent-log.jsonl").write_bytes(failing)
        (d / "events.jsonl.zst\u0301").write_bytes(chain8)
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
    expect(name, "a failing log beside a chain named events.jsonl.zst + U+0301: the log is "
                 "verified (FAIL), never a pass", not_pass=True)
    add(name, *std(d, name))
    name = "k05_zip_rlo_flood_name.zip"
    p = root / name
    if not p.exists():
        p.write_bytes(s26._zip_bytes([("\u202e" * 20_000 + "lmth.exe", b"x"),
                                      ("agent-log.jsonl", log), ("video.mp4", mp4)],
                                     zipfile.ZIP_STORED))
    expect(name, "a zip member named with 20,000 U+202E: escaped on every output, bounded, "
                 "no raw RLO; the honest log PASSes or a name finding")
    add(name, *std(p, name))
    name = "k05_tar_4000_slashes.tar"
    p = root / name
    if not p.exists():
        b = io.BytesIO()
        with tarfile.open(fileobj=b, mode="w", format=tarfile.PAX_FORMAT) as tf:
            _tar_add(tf, "/" * 4000 + "agent-log.jsonl", log)
            _tar_add(tf, "video.mp4", mp4)
        p.write_bytes(b.getvalue())
    expect(name, "a member named by 4,000 slashes and agent-log.jsonl (absolute): refused "
                 "(archive.path) or read as agent-log.jsonl; never written outside")
    add(name, *std(p, name))

    # k06 videos whose header lies -------------------------------------------------------
    name = "k06_avi_claims_1e9_frames"
    d = root / name
    if not d.exists():
        d.mkdir()
        s25._avi(d / "video.avi", 64, 48, _avi_frames(64, 48, 3))
        data = bytearray((d / "video.avi").read_bytes())
        i = data.find(b"avih")
        struct.pack_into("<I", data, i + 8 + 16, 10**9)  # dwTotalFrames
        j = data.find(b"strh")
        struct.pack_into("<I", data, j + 8 + 32, 10**9)  # dwLength
        (d / "video.avi").write_bytes(bytes(data))
        (d / "agent-log.jsonl").write_bytes(log)
    expect(name, "an AVI of 3 frames whose headers claim 10^9: coverage from the frames read "
                 "(0.12 s, not 11 hours): FAIL (video.coverage / too short), no hang",
           not_pass=True)
    add(name, *std(d, name), ["verify", d, "--json", "--scan"])
    name = "k06_avi_rate_zero"
    d = root / name
    if not d.exists():
        d.mkdir()
        s25._avi(d / "video.avi", 64, 48, _avi_frames(64, 48, 3))
        data = bytearray((d / "video.avi").read_bytes())
        struct.pack_into("<I", data, data.find(b"avih") + 8, 0)  # dwMicroSecPerFrame
        struct.pack_into("<II", data, data.find(b"strh") + 8 + 20, 0, 0)  # dwScale, dwRate
        (d / "video.avi").write_bytes(bytes(data))
        (d / "agent-log.jsonl").write_bytes(log)
    expect(name, "an AVI whose dwRate and dwScale are 0 (0/0 fps): no ZeroDivisionError, a "
                 "video finding, not a pass", not_pass=True)
    add(name, *std(d, name), ["verify", d, "--json", "--scan"])
    name = "k06_mp4_timescale_zero"
    d = root / name
    if not d.exists():
        d.mkdir()
        data = bytearray(mp4)
        for tag, off in ((b"mdhd", 4 + 12), (b"mvhd", 4 + 12)):
            i = data.find(tag)
            if data[i + 4] == 0:
                struct.pack_into(">I", data, i + off, 0)
        (d / "video.mp4").write_bytes(bytes(data))
        (d / "agent-log.jsonl").write_bytes(log)
    expect(name, "an MP4 whose mdhd and mvhd timescales are 0: no ZeroDivisionError; a video "
                 "finding or the frames timed by the stream")
    add(name, *std(d, name), ["verify", d, "--json", "--scan"])
    base = _mkv(root)
    if base is not None:
        for name, patch, words in (
                ("k06_mkv_duration_nan", (b"\x44\x89\x88", struct.pack(">d", float("nan")),
                                          b"\x44\x89\x84", struct.pack(">f", float("nan"))),
                 "an MKV whose Duration is NaN: no crash; coverage from frames (PASS)"),
                ("k06_mkv_timescale_zero", (b"\x2a\xd7\xb1\x83", b"\x00\x00\x00", None, None),
                 "an MKV whose TimestampScale is 0: no ZeroDivisionError; a video finding or "
                 "frames read")):
            d = root / name
            if not d.exists():
                d.mkdir()
                data = bytearray(base.read_bytes())
                tag, value, tag2, value2 = patch
                i = data.find(tag)
                if i < 0 and tag2 is not None:
                    tag, value, i = tag2, value2, data.find(tag2)
                if i >= 0:
                    data[i + len(tag):i + len(tag) + len(value)] = value
                else:
                    print(f"{name}: element not found", file=sys.stderr)
                (d / "video.mkv").write_bytes(bytes(data))
                (d / "agent-log.jsonl").write_bytes(log)
            expect(name, words)
            add(name, *std(d, name), ["verify", d, "--json", "--scan"])
    name = "k06_mp4_width_65535"
    d = root / name
    if not d.exists():
        d.mkdir()
        data = bytearray(mp4)
        i = data.find(b"tkhd")
        if data[i + 4] == 0:
            struct.pack_into(">II", data, i + 4 + 76, 0xFFFF0000, 0xFFFF0000)
        j = data.find(b"avc1")
        struct.pack_into(">HH", data, j + 4 + 24, 0xFFFF, 0xFFFF)
        (d / "video.mp4").write_bytes(bytes(data))
        (d / "agent-log.jsonl").write_bytes(log)
    expect(name, "an MP4 whose tkhd and avc1 say 65535x65535 (the stream is 64x64...): no "
                 "memory bomb (a 65535^2 frame is 12 GiB); the decoder's size or a finding")
    add(name, *std(d, name), ["verify", d, "--json", "--scan"])

    # k07 ledgers ------------------------------------------------------------------------
    for case, lp, code, words in build_ledgers(root):
        EXPECT[case] = words
        if code is not None:
            POST_EXPECT[case] = code
        add(case, ["decisions", "verify", "--store", lp], ["decisions", "list", "--store", lp],
            ["decisions", "export", "--store", lp, "--format", "jsonl", "--out",
             root / f"{case}.jsonl"],
            ["decide", SAMPLE, "--accept", "--reviewer", "qa", "--store", lp])

    # k08 the evaluator secret in the stream ---------------------------------------------
    spelled = "".join(f"\\u{ord(c):04x}" for c in SECRET).encode()
    half = len(SECRET) // 2
    for name, payload, edit, words in (
            ("k08_secret_all_escaped", {"text": "SECRETHERE"},
             lambda i, line: line.replace(b"SECRETHERE", spelled, 1),
             "the evaluator secret spelled with an escape for every character: "
             "seed.secret_leak, the secret never printed"),
            ("k08_secret_as_key", {"SECRETKEY": 1},
             lambda i, line: line.replace(b'"SECRETKEY"', b'"' + SECRET[:3].encode() + b"\\u00"
                                          + f"{ord(SECRET[3]):02x}".encode() +
                                          SECRET[4:].encode() + b'"', 1),
             "the secret as a member name with one escape: seed.secret_leak, never printed")):
        d = _official(root, name, _chain(40, 31, payload=payload, edit=edit, seeds=SEEDS,
                                         secret=SECRET))
        ENV[name] = {"ALE_EVALUATOR_SECRET": SECRET}
        expect(name, words, not_pass=True, rule="seed.secret_leak")
        add(name, ["verify", d, "--seeds", seeds_file],
            ["verify", d, "--json", "--seeds", seeds_file])
    name = "k08_secret_split_lines"
    # two consecutive observations, one half each (sealed as written: the hash holds)
    from moderator_app.core.samples.trajectory_writer import make_run_events

    events = make_run_events(40, seed=32, variety=0.0, seeds=SEEDS, secret=SECRET)
    obs_i = [i for i, e in enumerate(events) if e["type"] == "observation"][2:4]
    events[obs_i[0]]["payload"] = dict(events[obs_i[0]]["payload"], text=SECRET[:half])
    events[obs_i[1]]["payload"] = dict(events[obs_i[1]]["payload"], text=SECRET[half:])
    from moderator_app.core.samples.trajectory_writer import chain_events

    data = b"".join(json.dumps(e, separators=(",", ":")).encode() + b"\n"
                    for e in chain_events(events))
    d = _official(root, name, data)
    ENV[name] = {"ALE_EVALUATOR_SECRET": SECRET}
    expect(name, "the secret split in two halves across two observations: neither half "
                 "printed; (a leak finding is not promised by the docs)")
    add(name, ["verify", d, "--seeds", seeds_file], ["verify", d, "--json", "--seeds",
                                                      seeds_file])

    # k09 CLI arguments ------------------------------------------------------------------
    name = "k09_offset_odd"
    expect(name, "--offset of Arabic-Indic digits, 1_0, 1e-400, -0, ' 5 ', 0x10: each a "
                 "number or a usage error (exit 2), no traceback")
    add(name, *[["verify", SAMPLE, "--json", f"--offset={v}"] for v in
                ("\u0661\u0662", "1_0", "1e-400", "-0", " 5 ", "0x10")],
        ["frame", SAMPLE, "--time", "\u0661", "-o", root / "k09.png"])
    name = "k09_note_newlines"
    st = root / "k09_store.sqlite3"
    expect(name, "a note of 100,000 newlines and CRs and a reviewer of spaces: recorded with "
                 "escapes or refused (exit 2); list shows no raw CR")
    add(name, ["decide", SAMPLE, "--accept", "--note", "\r\n" * 50_000 + "end", "--reviewer",
               "qa", "--store", st],
        ["decide", SAMPLE, "--accept", "--reviewer", "   ", "--store", st],
        ["decisions", "list", "--store", st])
    return out


def _only_entries(cd: bytes, keep: set[str]) -> bytes:
    """The central directory entries of `cd` whose names are in `keep`."""
    out, i = b"", 0
    while i < len(cd):
        n, m, k = struct.unpack("<HHH", cd[i + 28:i + 34])
        size = 46 + n + m + k
        if cd[i + 46:i + 46 + n].decode() in keep:
            out += cd[i:i + size]
        i += size
    return out


def build_ledgers(root: Path) -> list[tuple[str, Path, int | None, str]]:
    """(case, store, the exit `decisions verify` must give, the expectation in words)."""
    out: list[tuple[str, Path, int | None, str]] = []

    def fresh(case: str, n: int = 3) -> tuple[Path, bool]:
        lp = root / case / "decisions.sqlite3"
        if lp.exists():
            return lp, False
        s26._ledger(lp, n)
        return lp, True

    lp, new = fresh("k07_shm_garbage")
    if new:
        Path(str(lp) + "-shm").write_bytes(random.Random(7).randbytes(32768))
    out.append(("k07_shm_garbage", lp, 0, "a -shm of random bytes (no process holds it): "
                "rebuilt by SQLite; verify intact (exit 0), decide records"))
    lp, new = fresh("k07_page_zeroed", 60)
    if new:
        with sqlite3.connect(lp) as c:
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            page = c.execute("PRAGMA page_size").fetchone()[0]
        c.close()
        data = bytearray(lp.read_bytes())
        mid = (len(data) // page) // 2
        data[mid * page:(mid + 1) * page] = bytes(page)
        lp.write_bytes(bytes(data))
    out.append(("k07_page_zeroed", lp, 1, "a middle page of a 60-decision ledger zeroed: "
                "verify exit 1 (corrupt / missing), decide refuses, no traceback"))
    lp, new = fresh("k07_cut_in_last_page", 60)
    if new:
        with sqlite3.connect(lp) as c:
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        c.close()
        data = lp.read_bytes()
        lp.write_bytes(data[:-1500])
    out.append(("k07_cut_in_last_page", lp, 1, "the database cut 1,500 bytes inside its last "
                "page: verify exit 1, decide refuses"))
    for case, head in (("k07_head_26_digits", b"9" * 26 + b" " + b"a" * 64 + b"\n"),
                       ("k07_head_negative", b"-1 " + b"0" * 64 + b"\n"),
                       ("k07_head_100mb", None)):
        lp, new = fresh(case)
        hp = Path(str(lp) + ".head")
        if new:
            if head is None:
                with open(hp, "wb") as fh:
                    for _ in range(100):
                        fh.write(b"9" * MIB)
            else:
                hp.write_bytes(head)
        out.append((case, lp, 1, f"a head file of {case[9:]}: verify exit 1 (the head "
                    "disagrees or is unreadable), bounded read, decide refuses"))
    return out


def _rules_of(case: str, env: dict[str, str], extra: list[str]) -> set[str]:
    p = CACHE / "hostile" / case
    r = subprocess.run([str(REPO / ".venv" / "bin" / "moderator-app"), "verify", str(p),
                        "--json", *extra], capture_output=True, check=False,
                       env=dict(os.environ, PYTHONPATH=str(REPO), **env))
    try:
        return {f["rule"] for f in json.loads(r.stdout)["findings"]}
    except (ValueError, KeyError):
        return set()


def run(only: list[str]) -> None:
    from qa_common import run_hostile

    os.environ["PYTHONPATH"] = str(REPO)
    mod = sys.modules[__name__]
    results = run_hostile(mod, CACHE, only)
    bad = 0
    seeds = ["--seeds", str(CACHE / "hostile" / "k04_seeds.txt")]
    for r in results:
        if r["case"] in EXPECT_NOT_PASS and r.get("verdict") == "pass":
            r["problems"].append("forged pass")
        if r["case"] in EXPECT_PASS and "--json" in r["cmd"] and r.get("verdict") != "pass":
            r["problems"].append(f"honest run {r.get('verdict')}")
        if r["case"] in EXPECT_RULE and r["cmd"].startswith("verify") and "--json" in r["cmd"]:
            rule = EXPECT_RULE[r["case"]]
            env = ENV.get(r["case"], {})
            if rule not in _rules_of(r["case"], env, seeds if env else []):
                r["problems"].append(f"no {rule}")
        if r["case"] in POST_EXPECT and r["cmd"].startswith("decisions verify") and \
                r["exit"] != POST_EXPECT[r["case"]]:
            r["problems"].append(f"verify exit {r['exit']}, expected {POST_EXPECT[r['case']]}")
        r["expect"] = EXPECT.get(r["case"], "")
        if r["problems"]:
            bad += 1
            print("PROBLEM", r["case"], r["cmd"], r["problems"], file=sys.stderr)
    name = "results-" + "-".join(only) + ".json" if only else "results.json"
    (CACHE / name).write_text(json.dumps(results, indent=1))
    print(f"{len(results)} commands, {bad} with problems", file=sys.stderr)


#: inputs opened in the offscreen workstation (scripts/qa_gui_hostile_s16.py)
GUI = ["k01_zip_two_eocd.zip", "k02_tar_longname_vs_pax.tar", "k04_chain_depth_900",
       "k04_log_int_1e6_digits", "k04_log_surrogate_key_cesu", "k05_zip_rlo_flood_name.zip",
       "k06_avi_rate_zero", "k06_mkv_duration_nan", "k06_mp4_width_65535",
       "k02_nested_bz2_zero_3g"]


def gui(names: list[str]) -> int:
    root = CACHE / "hostile"
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    env.pop("ALE_EVALUATOR_SECRET", None)
    r = subprocess.run([sys.executable, str(REPO / "scripts" / "qa_gui_hostile_s16.py"),
                        str(CACHE / "gui"), *[str(root / n) for n in (names or GUI)]],
                       env=env, check=False)
    return r.returncode


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "run"
    if what == "build":
        cases(CACHE / "hostile")
    elif what == "run":
        run(sys.argv[2:])
    elif what == "gui":
        sys.exit(gui(sys.argv[2:]))
    elif what == "expect":
        cases(CACHE / "hostile")
        for k, v in EXPECT.items():
            print(f"{k}: {v}")
