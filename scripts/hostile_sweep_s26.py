"""Issue 15's classes a third time, with bytes and sizes neither session 25's sweep
(scripts/hostile_sweep_s25.py) nor the QA passes (scripts/qa_hostile_s*.py) made (session 26,
s26-hostile): forged passes by new routes (a failing log and a self-made chain in nested
folders, an archive inside an archive, two logs told apart by case or by compression, a video
linked in, a run in the future, hashes in upper case, a duplicated `seq`), one or three frames
in MKV/WebM/MOV with a huge declared duration or an edit list stretching one frame, seeds of
other types (floats, digit strings, Unicode digits), secrets in other places (a JWT, a PEM
split over lines, base64 of a key, URL userinfo, an env dump), names with surrogates, NUL and
RTL, special files where a file is expected (FIFOs, sockets, a folder named like a video,
/proc and /dev files), other bombs (xz/bz2 in tar, bz2 and lzma inside zip, a zstd frame
needing a dictionary, a zip64 declaring 2^62 bytes, archives nested three deep, a single 1 GiB
line), ledger losses (an older copy put back, the last records deleted with the head row fixed,
a WAL cut to its header, a ledger on a full tmpfs, on a read-only tmpfs, a FIFO as the ledger),
and output targets (a socket, /proc/self/fd/1, a two-link chain to /dev/null, the input itself).

Deterministic (fixed bytes, seeds and ffmpeg settings); inputs under
/work/main/.cache/s26-hostile/hostile/, never committed. Every command goes through the shared
runner (scripts/qa_common.run_hostile: prlimit 512 MiB address space, timeout 60 s; a run over
30 s, a traceback, a raw control character, a secret or the private mark in the output, a temp
file left, is a problem), then the verdicts are checked: no forged pass (`EXPECT_NOT_PASS`), an
honest run passes (`EXPECT_PASS`: a false seed.leak fails one), and `decisions verify` gives the
exit the ledger docs promise (`POST_EXPECT`).

    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s26.py build
    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s26.py run [ID-PREFIX...]
    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s26.py gui
"""

from __future__ import annotations

import base64
import bz2
import io
import json
import lzma
import os
import shutil
import socket
import sqlite3
import stat
import struct
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "scripts"), str(REPO / "tests"), str(REPO)]

import hostile_sweep_s25 as s25  # noqa: E402  (its builders: _events, _dump, _folder, ...)

CACHE = Path("/work/main/.cache/s26-hostile")
SAMPLE = s25.SAMPLE
OFFICIAL = s25.OFFICIAL
MIB = 1 << 20
GIB = 1 << 30
MARK = "QA-S26-PRIVATE"
SECRET = "qa26-evaluator-secret-7c1d"
URL_PASS = "qa26urlPassw0rdZ"
ENV_SECRET = "qa26AWSsecretKEYvalue1111111111111111111"
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJxYTI2In0."
       "qa26JWTsignatureXXXXXXXXXXXXXXXXXXXXXXXXXX")
PEM_BODY = "MIIEvqa26PEMbodyAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
SK_B64 = base64.b64encode(b"sk-qa26abcdefghijklmnopqrstuvwxyz0123").decode()
SK_ESCAPED = "sk\\u002dqa26abcdefghijklmnopqrstuvwxyz0123"
SECRETS = [SECRET, URL_PASS, ENV_SECRET, JWT, PEM_BODY, SK_B64, SK_ESCAPED]
ENV: dict[str, dict[str, str]] = {}
EXPECT_NOT_PASS: set[str] = set()
#: case -> an honest run: `verify --json` must pass it
EXPECT_PASS: set[str] = set()
#: case -> the exit `decisions verify` must give
POST_EXPECT: dict[str, int] = {}
_events, _dump, _folder, _tar_add, _ffmpeg = s25._events, s25._dump, s25._folder, \
    s25._tar_add, s25._ffmpeg


def _failing_log() -> bytes:
    ev = _events()
    for e in ev:
        if e["type"] == "action":
            e["data"]["call"] = "human"
            break
    return _dump(ev)


def _self_made(n: int = 8, seed: int = 5, **kw) -> bytes:
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    tmp = CACHE / "selfmade.tmp.jsonl"
    write_trajectory(tmp, make_run_events(n, seed=seed, **kw))
    data = tmp.read_bytes()
    tmp.unlink()
    return data


def _zstd(data: bytes) -> bytes:
    import zstandard

    return zstandard.ZstdCompressor(level=3).compress(data)


def _zip_bytes(members: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as zf:
        for name, data in members:
            zi = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            zi.compress_type = method
            zf.writestr(zi, data)
    return b.getvalue()


def _tar_bytes(members: list[tuple[str, bytes]]) -> bytes:
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=tarfile.PAX_FORMAT) as tf:
        for name, data in members:
            _tar_add(tf, name, data)
    return b.getvalue()


def _official_lines() -> list[bytes]:
    import zstandard

    raw = zstandard.ZstdDecompressor().stream_reader(
        (OFFICIAL / "events.jsonl.zst").read_bytes()).read()
    return raw.splitlines()


def _patch_mkv_duration(p: Path, seconds: float) -> None:
    """The Segment Info's Duration (0x4489, a float in TimestampScale units of 1 ms) set to
    `seconds`: a header that says the file is that long."""
    data = bytearray(p.read_bytes())
    i = data.find(b"\x44\x89\x88")
    if i >= 0:
        data[i + 3:i + 11] = struct.pack(">d", seconds * 1000.0)
    else:
        i = data.find(b"\x44\x89\x84")
        if i >= 0:
            data[i + 3:i + 7] = struct.pack(">f", seconds * 1000.0)
    p.write_bytes(bytes(data))


def _patch_mov(p: Path, delta: int | None = None, edit: int | None = None,
               dur: int | None = None) -> None:
    """An MP4/MOV's boxes rewritten in place: every stts sample delta set to `delta`, the edit
    list's segment duration to `edit`, the mvhd/tkhd/mdhd durations to `dur` (32-bit boxes)."""
    data = bytearray(p.read_bytes())

    def each(tag: bytes):
        i = data.find(tag)
        while i >= 0:
            yield i
            i = data.find(tag, i + 1)

    if delta is not None:
        for i in each(b"stts"):
            n = struct.unpack(">I", data[i + 8:i + 12])[0]
            for k in range(min(n, 1000)):
                struct.pack_into(">I", data, i + 16 + 8 * k, delta)
    if edit is not None:
        for i in each(b"elst"):
            if data[i + 4] == 0:
                struct.pack_into(">I", data, i + 12, edit)
    if dur is not None:
        for tag, off in ((b"mvhd", 20), (b"tkhd", 24), (b"mdhd", 20)):
            for i in each(tag):
                if data[i + 4] == 0:
                    struct.pack_into(">I", data, i + off, dur)
    p.write_bytes(bytes(data))


# -- the cases ----------------------------------------------------------------------------
def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915 - one table
    root.mkdir(parents=True, exist_ok=True)
    store = root / "ledger.sqlite3"
    out: list[tuple[str, list[list[str]]]] = []

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in c]
                           for c in cmds]))

    def std(p, tag: str, *extra: str) -> list[list]:
        return [["verify", p, *extra], ["verify", p, "--json", *extra],
                ["decide", p, "--reject", "--reason", "other", "--note", f"s26 {tag}",
                 "--reviewer", "qa", "--store", store, *extra]]

    log, failing = s25._log_bytes(), _failing_log()

    # c01 forged passes by new routes ----------------------------------------------------
    d = root / "c01_nested_dirs"
    if not d.exists():
        (d / "a" / "b").mkdir(parents=True)
        (d / "a" / "b" / "agent-log.jsonl").write_bytes(failing)
        (d / "x" / "y" / "z").mkdir(parents=True)
        (d / "x" / "y" / "z" / "events.jsonl.zst").write_bytes(_zstd(_self_made()))
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
    add("c01_nested_dirs", *std(d, "c01a"))
    p = root / "c01_archive_in_archive.tar"
    if not p.exists():
        inner = _zip_bytes([("events.jsonl", _self_made(seed=6))])
        p.write_bytes(_tar_bytes([("agent-log.jsonl", failing), ("official.zip", inner),
                                  ("video.mp4", (SAMPLE / "video.mp4").read_bytes())]))
    add("c01_archive_in_archive", *std(p, "c01b"))
    p = root / "c01_official_with_log_in_zip.zip"
    if not p.exists():
        inner = _zip_bytes([("agent-log.jsonl", failing)])
        p.write_bytes(_zip_bytes([("events.jsonl.zst", (OFFICIAL / "events.jsonl.zst")
                                   .read_bytes()), ("video.mp4", (OFFICIAL / "video.mp4")
                                                    .read_bytes()), ("logs.zip", inner)]))
    add("c01_official_with_log_in_zip", *std(p, "c01c"))
    # the nested archive a bomb: 10 GiB of zeros in a 10 MB .tar.gz, the failing log after it
    d = root / "c01_official_nested_bomb"
    if not d.exists():
        d.mkdir()
        for f in ("events.jsonl.zst", "video.mp4"):
            os.link(OFFICIAL / f, d / f)
        tail = s25._tar_header("agent-log.jsonl", len(failing)) + failing + \
            bytes(-len(failing) % 512) + bytes(1024)
        (d / "extras.tar.gz").write_bytes(s25._gzip_zeros(s25._tar_header(
            "zeros.bin", 10 * GIB), 10 * GIB, tail))
    add("c01_official_nested_bomb", *std(d, "c01l"))
    p = root / "c01_two_logs_case.zip"
    if not p.exists():
        p.write_bytes(_zip_bytes([("agent-log.jsonl", log), ("Agent-Log.jsonl", failing),
                                  ("video.mp4", (SAMPLE / "video.mp4").read_bytes())]))
    add("c01_two_logs_case", *std(p, "c01d"))
    d = root / "c01_log_plain_and_zst"
    if not d.exists():
        _folder(root, d.name, log)
        (d / "agent-log.jsonl.zst").write_bytes(_zstd(failing))
    add("c01_log_plain_and_zst", *std(d, "c01e"))
    d = root / "c01_log_underscore"
    if not d.exists():
        _folder(root, d.name, log)
        (d / "agent_log.jsonl").write_bytes(failing)
    add("c01_log_underscore", *std(d, "c01f"))
    d = root / "c01_dup_seq"
    if not d.exists():
        lines = failing.splitlines(keepends=True)
        k = next(i for i, x in enumerate(lines) if b'"human"' in x)
        clean = lines[k].replace(b'"human"', b'"agent"')
        lines[k] = lines[k] + clean  # the human action and an agent one under the same seq
        _folder(root, d.name, b"".join(lines))
    add("c01_dup_seq", *std(d, "c01g"))
    d = root / "c01_video_symlink"
    if not d.exists():
        _folder(root, d.name, failing, video=False)
        os.symlink(SAMPLE / "video.mp4", d / "video.mp4")
        os.link(OFFICIAL / "events.jsonl.zst", d / "events.jsonl.zst")
    add("c01_video_symlink", *std(d, "c01h"))
    d = root / "c01_official_hardlinked_video"
    if not d.exists():
        d.mkdir()
        (d / "events.jsonl.zst").write_bytes(_zstd(_self_made(40, seed=8)))
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
        os.link(SAMPLE / "video.mp4", d / "video-2.mp4")
    add("c01_official_hardlinked_video", *std(d, "c01i"))
    d = root / "c01_future_run"
    if not d.exists():
        d.mkdir()
        (d / "events.jsonl").write_bytes(_self_made(12, seed=9, start="2099-01-01T00:00:00Z"))
    add("c01_future_run", ["verify", d, "--json"], ["verify", d])
    d = root / "c01_upper_hashes"
    if not d.exists():
        d.mkdir()
        lines = []
        for x in _official_lines():
            e = json.loads(x)
            e["hash"], e["prev_hash"] = e["hash"].upper(), e["prev_hash"].upper()
            lines.append(json.dumps(e, separators=(",", ":"), ensure_ascii=False).encode())
        (d / "events.jsonl").write_bytes(b"\n".join(lines) + b"\n")
        os.link(OFFICIAL / "video.mp4", d / "video.mp4")
    add("c01_upper_hashes", *std(d, "c01j"))
    d = root / "c01_official_dup_line"
    if not d.exists():
        d.mkdir()
        lines = _official_lines()
        lines.insert(5, lines[4])
        (d / "events.jsonl").write_bytes(b"\n".join(lines) + b"\n")
        os.link(OFFICIAL / "video.mp4", d / "video.mp4")
    add("c01_official_dup_line", *std(d, "c01k"))
    EXPECT_NOT_PASS.update({"c01_nested_dirs", "c01_archive_in_archive", "c01_two_logs_case",
                            "c01_log_plain_and_zst", "c01_log_underscore", "c01_dup_seq",
                            "c01_video_symlink", "c01_upper_hashes", "c01_official_dup_line",
                            "c01_official_with_log_in_zip", "c01_official_nested_bomb"})

    # c02 still and sparse frames in other containers ------------------------------------
    src = str(SAMPLE / "video.mp4")
    one = ["-i", src, "-frames:v", "1", "-an"]
    vids = {
        "c02_mkv_one_frame_1e9s": (one + ["-c:v", "mjpeg"], "mkv", ("mkv", 1e9)),
        "c02_webm_one_frame_1e6s": (one + ["-c:v", "libvpx", "-b:v", "200k"], "webm",
                                    ("mkv", 1e6)),
        "c02_mov_one_frame_stts": (one + ["-c:v", "mjpeg", "-video_track_timescale", "1000"],
                                   "mov", ("stts", 0x7FFFFFFF)),
        "c02_mov_one_frame_elst": (one + ["-c:v", "mjpeg", "-video_track_timescale", "1000"],
                                   "mov", ("elst", 0x7FFFFFFF)),
        "c02_mp4_three_frames_0_1_40": (
            ["-i", src, "-vf", "select='lt(n,3)',setpts='if(eq(N,2),40/TB,N/TB)'",
             "-fps_mode", "passthrough", "-an", "-c:v", "libx264", "-preset", "ultrafast",
             "-threads", "1"], "mp4", None),
        "c02_webm_three_frames_0_1_40": (
            ["-i", src, "-vf", "select='lt(n,3)',setpts='if(eq(N,2),40/TB,N/TB)'",
             "-fps_mode", "passthrough", "-an", "-c:v", "libvpx", "-b:v", "200k"], "webm",
            None),
    }
    for name, (args, ext, patch) in vids.items():
        d = root / name
        d.mkdir(exist_ok=True)
        v = d / f"video.{ext}"
        fresh = not v.exists()
        if not _ffmpeg(args, v):
            continue
        if fresh and patch is not None:
            if patch[0] == "mkv":
                _patch_mkv_duration(v, patch[1])
            elif patch[0] == "stts":
                _patch_mov(v, delta=patch[1], dur=patch[1])
            else:
                _patch_mov(v, edit=patch[1], dur=patch[1])
        _folder(root, name, log, video=False)
        add(name, *std(d, name[:12], "--offset", "0"),
            ["verify", d, "--json", "--scan", "--offset", "0"],
            ["verify", d, "--json", "--sync", "--offset", "0"],
            ["verify", d, "--offset", "auto"],
            ["frame", d, "--time", "5", "--offset", "0", "-o", root / f"{name}.png"])
        EXPECT_NOT_PASS.add(name)

    # c03 withhold: private text in other places ----------------------------------------
    lines = []
    for e in _events():
        raw = json.dumps(e, separators=(",", ":"), ensure_ascii=False)
        if e["type"] == "model_request":
            # the type spelled with an escape, the private text in a lone-surrogate string
            raw = raw.replace('"type":"model_request"', '"type":"model\\u005frequest"')
            raw = raw[:-2] + ',"note":"' + MARK + ' \\ud800 sys"}}'
        elif e["type"] == "model_response":
            raw = raw[:-1] + ',"messages":[{"role":"system","content":"' + MARK + '"}]}'
        lines.append(raw.encode())
    p = root / "c03_withhold_escaped_type.jsonl"
    if not p.exists():
        p.write_bytes(b"\xef\xbb\xbf" + b"\r\n".join(lines))  # BOM, CRLF, no final newline
    add("c03_withhold_escaped_type", ["withhold", p, "-o", root / "c03_a.pub"],
        ["verify", p, "--json"])
    p = root / "c03_withhold_big_private.jsonl"
    if not p.exists():
        ev = _events()
        for e in ev:
            if e["type"] == "model_request":
                e["data"]["messages"][0]["content"] = MARK + " " + "p" * (20 * MIB)
                break
        p.write_bytes(_dump(ev))
    add("c03_withhold_big_private", ["withhold", p, "-o", root / "c03_b.pub"])

    # c04 seeds of other types: an honest run must pass --------------------------------
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory
    seed_cases = {
        "c04_seeds_float": (("42", "7"), {"score": 42.0, "frame": 7.0, "text": "42.0 7e0"}),
        "c04_seeds_digits": (("0042", "0007"), {"score": 42, "frame": 7, "text": "42 7 0042x"}),
        "c04_seeds_unicode": (("٤٢", "７"), {"score": 42, "frame": 7, "text": "٤٢ ７ 4 2"}),
        "c04_seeds_long_int": (("9" * 400, "1"), {"score": 1e308, "text": "9" * 399}),
    }
    for name, (seeds, payload) in seed_cases.items():
        d = root / name
        d.mkdir(exist_ok=True)
        if not (d / "events.jsonl").exists():
            events = make_run_events(12, seed=9, run_id=f"run_{name}", seeds=seeds,
                                     secret=SECRET, variety=0.0)
            for e in events:
                if e["type"] == "observation":
                    e["payload"].update(payload)
            write_trajectory(d / "events.jsonl", events)
        sf = root / f"{name}.txt"
        sf.write_bytes(("\n".join(seeds) + "\n").encode())
        ENV[name] = {"ALE_EVALUATOR_SECRET": SECRET}
        add(name, ["verify", d, "--json", "--seeds", sf], ["verify", d, "--seeds", sf])
        EXPECT_PASS.add(name)
    sf = root / "c04_seeds_nul_surrogate.txt"
    sf.write_bytes(b"42\x00\n\xed\xa0\x80\n\xc0\xaf\n" + b"\x1b]0;x\x07\n")
    ENV["c04_seeds_nul_surrogate"] = {"ALE_EVALUATOR_SECRET": SECRET}
    add("c04_seeds_nul_surrogate", ["verify", root / "c04_seeds_float", "--json", "--seeds",
                                    sf], ["verify", root / "c04_seeds_float", "--seeds", sf])

    # c05 names and special files ------------------------------------------------------
    base = bytes(root) + b"/c05_surrogate_\xed\xa0\x80_\xe2\x80\xae_\x7f"
    os.makedirs(base, exist_ok=True)
    if not os.path.exists(base + b"/agent-log.jsonl"):
        with open(base + b"/agent-log.jsonl", "wb") as fh:
            fh.write(log)
        os.link(SAMPLE / "video.mp4", base + b"/v\xed\xb2\x80\xe2\x81\xa6.mp4")
    add("c05_surrogate_folder", *std(os.fsdecode(base), "c05a", "--offset", "0"))
    deep = root / "c05_deep_path"
    if not deep.exists():
        cur = deep
        for i in range(16):
            cur = cur / (f"{i:02d}" + "\u202e" * 80)  # 16 x 242 bytes: a 4 KB path
        cur.mkdir(parents=True)
        (cur / "agent-log.jsonl").write_bytes(log)
        os.link(SAMPLE / "video.mp4", cur / "video.mp4")
    cur = deep
    for i in range(16):
        cur = cur / (f"{i:02d}" + "\u202e" * 80)
    add("c05_deep_path", *std(cur, "c05b", "--offset", "0"))
    p = root / "c05_zip_nul_surrogate_names.zip"
    if not p.exists():
        b = io.BytesIO()
        with zipfile.ZipFile(b, "w") as zf:
            zf.writestr("agent-log.jsonl", log)
            zf.writestr("video.mp4", (SAMPLE / "video.mp4").read_bytes())
            zf.writestr("x.txt", b"x")
        # the same length in both headers: NUL, an encoded surrogate, ESC
        data = b.getvalue().replace(b"x.txt", b"\x00\xed\xa0\x80\x1b", 2)
        p.write_bytes(data)
    add("c05_zip_nul_surrogate_names", *std(p, "c05c", "--offset", "0"))
    d = root / "c05_fifo_log"
    if not d.exists():
        d.mkdir()
        os.mkfifo(d / "agent-log.jsonl")
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
    add("c05_fifo_log", *std(d, "c05d"))
    d = root / "c05_socket_video"
    if not d.exists():
        _folder(root, d.name, log, video=False)
        s = socket.socket(socket.AF_UNIX)
        s.bind(str(d / "video.mp4"))
        s.close()
    add("c05_socket_video", *std(d, "c05e"))
    d = root / "c05_dir_video"
    if not d.exists():
        _folder(root, d.name, log, video=False)
        (d / "video.mp4").mkdir()
        (d / "video.mp4" / "video.mp4").write_bytes(b"\x00" * 100)
    add("c05_dir_video", *std(d, "c05f"))
    d = root / "c05_devzero_video"
    if not d.exists():
        _folder(root, d.name, log, video=False)
        os.mknod(d / "video.mp4", 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero
        os.mknod(d / "events.jsonl.zst", 0o600 | stat.S_IFCHR, os.makedev(1, 8))  # random
    add("c05_devzero_video", *std(d, "c05g"))
    d = root / "c05_proc_links"
    if not d.exists():
        _folder(root, d.name, log, video=False)
        os.symlink("/proc/self/environ", d / "video.mp4")
        os.symlink("/dev/zero", d / "events.jsonl")
    add("c05_proc_links", *std(d, "c05h"))
    ENV["c05_proc_inputs"] = {"ALE_EVALUATOR_SECRET": SECRET}
    add("c05_proc_inputs", ["verify", "/proc/self/environ", "--json"],
        ["verify", "/proc/self/environ"], ["verify", "/proc/self/fd", "--json"],
        ["verify", "/dev/zero", "--json"], ["verify", "/dev/stdin"],
        ["withhold", "/proc/self/environ", "-o", root / "c05_environ.pub"],
        ["withhold", "/dev/zero", "-o", root / "c05_zero.pub"])
    p = root / "c05_tar_special_members.tar"
    if not p.exists():
        with tarfile.open(p, "w", format=tarfile.PAX_FORMAT) as tf:
            for nm, typ, extra in (("agent-log.jsonl", tarfile.FIFOTYPE, {}),
                                   ("video.mp4", tarfile.CHRTYPE, {"devmajor": 1,
                                                                   "devminor": 5}),
                                   ("events.jsonl", tarfile.SYMTYPE,
                                    {"linkname": "/proc/self/environ"}),
                                   ("agent-log.jsonl.zst", tarfile.LNKTYPE,
                                    {"linkname": "agent-log.jsonl"})):
                ti = tarfile.TarInfo(nm)
                ti.type = typ
                ti.mtime = s25.MTIME
                for k, v in extra.items():
                    setattr(ti, k, v)
                tf.addfile(ti)
            _tar_add(tf, "\u202e\ud800".encode("utf-8", "surrogatepass").decode(
                "utf-8", "surrogateescape") + ".txt", b"x")
    add("c05_tar_special_members", *std(p, "c05i"))

    # c07 secrets in other places -----------------------------------------------------
    ev = _events()
    pem = ("-----BEGIN RSA PRIV" + "ATE KEY-----\n" + PEM_BODY + "\n-----END RSA PRIVATE KEY"
           "-----")
    placed = 0
    for e in ev:
        if e["type"] == "action" and placed == 0:
            e["data"]["args"] = {"url": f"https://deploy:{URL_PASS}@git.example.com/r.git",
                                 "headers": {"Authorization": "JWT " + JWT}}
            placed += 1
        elif e["type"] == "action" and placed == 1:
            e["data"]["args"] = {"env": f"HOME=/root\nAWS_SECRET_ACCESS_KEY={ENV_SECRET}\n"
                                        f"ALE_EVALUATOR_SECRET={SECRET}\n"}
            placed += 1
        elif e["type"] == "observation" and placed == 2:
            e["data"]["text"] = "key file:\n" + pem + "\nb64: " + SK_B64
            placed += 1
    d = _folder(root, "c07_secrets_public", _dump(ev))
    ENV["c07_secrets_public"] = {"ALE_EVALUATOR_SECRET": SECRET}
    add("c07_secrets_public", *std(d, "c07a", "--offset", "0"),
        ["withhold", d / "agent-log.jsonl", "-o", root / "c07_secrets_public.pub"])
    # one secret per log, in an action's arguments (the first refusal hides the others)
    pem_end = PEM_BODY + "\n-----END RSA PRIVATE KEY-----"
    for tag, args in (("jwt", {"headers": {"Authorization": "JWT " + JWT}}),
                      ("url", {"url": f"https://deploy:{URL_PASS}@git.example.com/r.git"}),
                      ("env", {"env": f"AWS_SECRET_ACCESS_KEY={ENV_SECRET}"}),
                      ("evsecret", {"env": "ALE_EVALUATOR_SECRET=" + SECRET}),
                      ("b64", {"k": SK_B64}), ("pem_end", {"k": pem_end})):
        ev = _events()
        for e in ev:
            if e["type"] == "action":
                e["data"]["args"] = args
                break
        p = root / f"c07_withhold_{tag}.jsonl"
        p.write_bytes(_dump(ev))
        add(f"c07_withhold_{tag}", ["withhold", p, "-o", root / f"c07_withhold_{tag}.pub"])
    # an sk- key spelled with a JSON escape, on a line with nothing to withhold
    p = root / "c07_withhold_escaped.jsonl"
    p.write_bytes(b'{"seq":0,"at":"2026-01-01T00:00:00.000Z","elapsedMs":0,"type":"run_start",'
                  b'"data":{"game":"g"}}\n{"seq":1,"at":"2026-01-01T00:00:00.000Z","elapsedMs":0,'
                  b'"type":"observation","data":{"text":"key sk\\u002dqa26abcdefghijklmnopqrs'
                  b'tuvwxyz0123"}}\n')
    add("c07_withhold_escaped", ["withhold", p, "-o", root / "c07_withhold_escaped.pub"])
    d = root / "c07_secrets_official"
    if not d.exists():
        d.mkdir()
        events = make_run_events(12, seed=11, variety=0.0)
        for e in events:
            if e["type"] == "observation":
                e["payload"]["stdout"] = (f"AWS_SECRET_ACCESS_KEY={ENV_SECRET} jwt={JWT} "
                                          f"url=https://u:{URL_PASS}@h/ " + pem)
        write_trajectory(d / "events.jsonl", events)
    add("c07_secrets_official", ["verify", d, "--json"], ["verify", d])
    ENV["c07_secret_nonutf8"] = {"ALE_EVALUATOR_SECRET": os.fsdecode(
        SECRET.encode() + b"\xff\xfe\x1b[2J")}
    add("c07_secret_nonutf8", ["verify", root / "c04_seeds_float", "--json", "--seeds",
                               root / "c04_seeds_float.txt"])

    # c08 newline and line bombs with other bytes ----------------------------------------
    import zstandard
    for name, unit in (("c08_crlf_640m", b"\r\n"), ("c08_ws_lines_640m", b" \t \n"),
                       ("c08_u2028_lines_256m", "\u2028\n".encode())):
        d = root / name
        if not (d / "agent-log.jsonl.zst").exists():
            d.mkdir(exist_ok=True)
            size = (256 if "256" in name else 640) * MIB
            with open(d / "agent-log.jsonl.zst", "wb") as fh, zstandard.ZstdCompressor(
                    level=3).stream_writer(fh) as w:
                w.write(log)
                chunk = unit * (16 * MIB // len(unit))
                for _ in range(size // len(chunk)):
                    w.write(chunk)
        add(name, ["verify", d, "--json"], ["verify", d])
    d = root / "c08_one_line_1g"
    if not (d / "events.jsonl.zst").exists():
        d.mkdir(exist_ok=True)
        with open(d / "events.jsonl.zst", "wb") as fh, zstandard.ZstdCompressor(
                level=3).stream_writer(fh) as w:
            w.write(b'{"schema":"ale-trajectory-event/v1","payload":"')
            chunk = b"a" * (16 * MIB)
            for _ in range(64):
                w.write(chunk)
            w.write(b'"}\n')
    add("c08_one_line_1g", ["verify", d, "--json"], ["verify", d])
    p = root / "c08_newlines_in_tar_xz.tar.xz"
    if not p.exists():
        lz = lzma.LZMACompressor(preset=1)
        head = s25._tar_header("agent-log.jsonl", 256 * MIB)
        parts = [lz.compress(head)]
        chunk = b"\n" * (16 * MIB)
        for _ in range(16):
            parts.append(lz.compress(chunk))
        parts.append(lz.compress(bytes(1024)))
        parts.append(lz.flush())
        p.write_bytes(b"".join(parts))
    add("c08_newlines_in_tar_xz", ["verify", p, "--json"], ["verify", p])

    # c09 bombs: other compressors, zip methods, zstd dictionaries, zip64, nesting --------
    p = root / "c09_tar_bz2_zero_1g.tar.bz2"
    if not p.exists():
        comp = bz2.BZ2Compressor(9)
        head = _tar_bytes([("agent-log.jsonl", log)])[:-1024]
        parts = [comp.compress(head + s25._tar_header("zeros.bin", GIB))]
        z = bytes(16 * MIB)
        for _ in range(64):
            parts.append(comp.compress(z))
        parts.append(comp.compress(bytes(1024)))
        parts.append(comp.flush())
        p.write_bytes(b"".join(parts))
    add("c09_tar_bz2_zero_1g", ["verify", p, "--json"], ["verify", p])
    for method, tag in ((zipfile.ZIP_BZIP2, "bz2"), (zipfile.ZIP_LZMA, "lzma")):
        p = root / f"c09_zip_{tag}_zero_1g.zip"
        if not p.exists():
            zi = zipfile.ZipInfo("agent-log.jsonl", date_time=(2026, 1, 1, 0, 0, 0))
            zi.compress_type = method
            with zipfile.ZipFile(p, "w") as zf, zf.open(zi, "w", force_zip64=True) as fh:
                fh.write(log)
                z = bytes(16 * MIB)
                for _ in range(64):
                    fh.write(z)
        add(f"c09_zip_{tag}_zero_1g", ["verify", p, "--json"], ["verify", p])
    p = root / "c09_zip_deflate64.zip"
    if not p.exists():
        data = bytearray(_zip_bytes([("agent-log.jsonl", log)]))
        for sig, off in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
            i = data.find(sig)
            struct.pack_into("<H", data, i + off, 9)  # method 9: deflate64
        p.write_bytes(bytes(data))
    add("c09_zip_deflate64", ["verify", p, "--json"], ["verify", p])
    p = root / "c09_zip64_huge_declared.zip"
    if not p.exists():
        b = io.BytesIO()
        zi = zipfile.ZipInfo("agent-log.jsonl", date_time=(2026, 1, 1, 0, 0, 0))
        zi.compress_type = zipfile.ZIP_STORED
        with zipfile.ZipFile(b, "w") as zf, zf.open(zi, "w", force_zip64=True) as fh:
            fh.write(log)
        data = bytearray(b.getvalue())
        # every zip64 extra field's sizes -> 2^62 (local header and central directory)
        i = data.find(b"\x01\x00\x10\x00")
        while i >= 0:
            struct.pack_into("<QQ", data, i + 4, 1 << 62, 1 << 62)
            i = data.find(b"\x01\x00\x10\x00", i + 1)
        i = data.find(b"\x01\x00\x18\x00")
        while i >= 0:
            struct.pack_into("<QQ", data, i + 4, 1 << 62, 1 << 62)
            i = data.find(b"\x01\x00\x18\x00", i + 1)
        p.write_bytes(bytes(data))
    add("c09_zip64_huge_declared", ["verify", p, "--json"], ["verify", p],
        ["decide", p, "--reject", "--reason", "other", "--note", "s26", "--reviewer", "qa",
         "--store", store])
    d = root / "c09_zst_dictionary"
    if not (d / "events.jsonl.zst").exists():
        d.mkdir(exist_ok=True)
        plain = _self_made(40, seed=12)
        dic = zstandard.train_dictionary(4096, [plain[i:i + 300] for i in range(0, len(plain),
                                                                               150)] * 4)
        (d / "events.jsonl.zst").write_bytes(
            zstandard.ZstdCompressor(dict_data=dic).compress(plain))
    add("c09_zst_dictionary", ["verify", d, "--json"], ["verify", d])
    d = root / "c09_zst_lying_content_size"
    if not (d / "events.jsonl.zst").exists():
        d.mkdir(exist_ok=True)
        plain = _self_made(40, seed=13)
        fr = bytes(zstandard.ZstdCompressor(write_content_size=True).compress(plain))
        fd = fr[4]
        single = (fd >> 5) & 1
        pos = 5 + (0 if single else 1)
        fcs = {0: single, 1: 2, 2: 4, 3: 8}[fd >> 6]
        # the frame content size field widened to 8 bytes and set to 2^60
        (d / "events.jsonl.zst").write_bytes(fr[:4] + bytes([(fd & 0x3F) | 0xC0]) +
                                             fr[5:pos] + struct.pack("<Q", 1 << 60) +
                                             fr[pos + fcs:])
    add("c09_zst_lying_content_size", ["verify", d, "--json"])
    p = root / "c09_nested_3.zip"
    if not p.exists():
        inner_tgz = io.BytesIO()
        with tarfile.open(fileobj=inner_tgz, mode="w:gz") as tf:
            _tar_add(tf, "agent-log.jsonl", log)
            _tar_add(tf, "zeros.bin", bytes(64 * MIB))
        mid = _tar_bytes([("inner.tar.gz", inner_tgz.getvalue()), ("agent-log.jsonl", log)])
        p.write_bytes(_zip_bytes([("mid.tar", mid), ("video.mp4",
                                                     (SAMPLE / "video.mp4").read_bytes()),
                                  ("agent-log.jsonl", log)]))
    add("c09_nested_3", *std(p, "c09n"))
    p = root / "c09_tar_lz4.tar.lz4"
    if not p.exists():
        t = root / "c09_lz4_src.tar"
        t.write_bytes(_tar_bytes([("agent-log.jsonl", log)]))
        subprocess.run(["lz4", "-q", "-f", str(t), str(p)], check=False)
        t.unlink()
    if p.exists():
        add("c09_tar_lz4", ["verify", p, "--json"], ["verify", p])

    # c11 ledger losses; c13 read-only ----------------------------------------------------
    for name, lp, expect in build_ledgers(root):
        add(name, ["decisions", "verify", "--store", lp], ["decisions", "list", "--store", lp],
            ["decisions", "export", "--store", lp, "--format", "jsonl", "--out",
             root / f"{name}.jsonl"])
        if expect is not None:
            POST_EXPECT[name] = expect
    full = root / "c11_full_tmpfs"
    add("c11_full_tmpfs", ["decide", SAMPLE, "--accept", "--note", "full", "--reviewer", "qa",
                           "--store", full / "decisions.sqlite3"],
        ["decisions", "verify", "--store", full / "decisions.sqlite3"])
    POST_EXPECT["c11_full_tmpfs"] = 0
    fifo_store = root / "c11_fifo_store"
    if not fifo_store.exists():
        os.mkfifo(fifo_store)
    add("c11_fifo_store", ["decisions", "verify", "--store", fifo_store],
        ["decide", SAMPLE, "--accept", "--note", "x", "--reviewer", "qa", "--store",
         fifo_store])

    # c12 output targets --------------------------------------------------------------
    sock = root / "c12_socket"
    if not sock.exists():
        s = socket.socket(socket.AF_UNIX)
        s.bind(str(sock))
        s.close()
    l1, l2 = root / "c12_link1", root / "c12_link2"
    if not l2.is_symlink():
        os.symlink("/dev/null", l2)
    if not l1.is_symlink():
        os.symlink(l2, l1)
    selfcopy = root / "c12_self.jsonl"
    selfcopy.write_bytes((SAMPLE / "agent-log.jsonl").read_bytes())
    lg = SAMPLE / "agent-log.jsonl"
    add("c12_out_targets", ["withhold", lg, "-o", sock], ["withhold", lg, "-o", l1],
        ["withhold", lg, "-o", "/proc/self/fd/1"], ["withhold", selfcopy, "-o", selfcopy],
        ["withhold", lg, "-o", root / "no" / "such" / "dir" / "x.pub"],
        ["withhold", lg, "-o", "/proc/self/environ"],
        ["decisions", "export", "--store", store, "--format", "csv", "--out", sock],
        ["decisions", "export", "--store", store, "--format", "jsonl", "--out", l1],
        ["frame", SAMPLE, "--time", "1", "-o", sock])
    return out


def _rec(note: str):
    return s25._rec(note)


def _ledger(lp: Path, n: int) -> None:
    from moderator_app.core.ledger.store import Ledger

    lp.parent.mkdir(parents=True, exist_ok=True)
    with Ledger(lp) as led:
        for i in range(n):
            led.append(_rec(f"d{i + 1}"))


def build_ledgers(root: Path) -> list[tuple[str, Path, int | None]]:
    """(case, store, the exit `decisions verify` must give)."""
    out: list[tuple[str, Path, int | None]] = []
    # an older copy of the database put back (its head file left at the newer head)
    d = root / "c11_older_copy"
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        _ledger(lp, 2)
        shutil.copy(lp, root / "c11_older.tmp")
        _ledger(lp, 3)
        for suffix in ("-wal", "-shm"):
            Path(str(lp) + suffix).unlink(missing_ok=True)
        shutil.copy(root / "c11_older.tmp", lp)
        (root / "c11_older.tmp").unlink()
    out.append(("c11_older_copy", lp, 1))
    # the last two records deleted and the head row fixed with SQL
    d = root / "c11_tail_deleted"
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        _ledger(lp, 5)
        con = sqlite3.connect(lp)
        h = con.execute("SELECT hash FROM decisions WHERE seq=3").fetchone()[0]
        con.execute("DELETE FROM decisions WHERE seq > 3")
        cols = [r[1] for r in con.execute("PRAGMA table_info(meta)")]
        if "seq" in cols:
            con.execute("UPDATE meta SET seq=3, hash=?", (h,))
        else:
            con.execute("UPDATE meta SET value=? WHERE key='head_hash'", (h,))
            con.execute("UPDATE meta SET value='3' WHERE key='head_seq'")
        con.commit()
        con.close()
    out.append(("c11_tail_deleted", lp, 1))
    # a WAL cut to its 32-byte header while it held the 3 newest decisions
    d = root / "c11_wal_header_only"
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        _ledger(lp, 2)
        reader = sqlite3.connect(lp)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM decisions").fetchone()
        _ledger(lp, 3)
        snap = root / "c11_wal_header_only.snap"
        snap.mkdir(exist_ok=True)
        for f in d.iterdir():
            shutil.copy(f, snap / f.name)
        reader.close()
        shutil.rmtree(d)
        snap.rename(d)
        wal = Path(str(lp) + "-wal")
        if wal.exists():
            wal.write_bytes(wal.read_bytes()[:32])
        Path(str(lp) + "-shm").unlink(missing_ok=True)
    out.append(("c11_wal_header_only", lp, 1))
    # a row's record_json swapped with another's, its copied columns left
    d = root / "c11_record_swapped"
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        _ledger(lp, 4)
        con = sqlite3.connect(lp)
        a = con.execute("SELECT record_json FROM decisions WHERE seq=2").fetchone()[0]
        b = con.execute("SELECT record_json FROM decisions WHERE seq=4").fetchone()[0]
        con.execute("UPDATE decisions SET record_json=? WHERE seq=2", (b,))
        con.execute("UPDATE decisions SET record_json=? WHERE seq=4", (a,))
        con.commit()
        con.close()
    out.append(("c11_record_swapped", lp, 1))
    # the head file a symlink to /dev/zero; the -wal a FIFO
    d = root / "c11_head_devzero"
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        _ledger(lp, 2)
        head = Path(str(lp) + ".head")
        head.unlink(missing_ok=True)
        os.symlink("/dev/zero", head)
    out.append(("c11_head_devzero", lp, 1))
    d = root / "c11_wal_fifo"
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        _ledger(lp, 2)
        wal = Path(str(lp) + "-wal")
        wal.unlink(missing_ok=True)
        os.mkfifo(wal)
    out.append(("c11_wal_fifo", lp, 1))
    # a trigger deleting each new record; the head file emptied; the main file cut short
    d = root / "c11_trigger"
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        _ledger(lp, 2)
        con = sqlite3.connect(lp)
        con.execute("CREATE TRIGGER t AFTER INSERT ON decisions BEGIN DELETE FROM decisions "
                    "WHERE seq = NEW.seq; END")
        con.commit()
        con.close()
    out.append(("c11_trigger", lp, 1))
    d = root / "c11_head_emptied"
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        _ledger(lp, 3)
        Path(str(lp) + ".head").write_bytes(b"")
    out.append(("c11_head_emptied", lp, 1))
    d = root / "c11_main_cut"
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        _ledger(lp, 40)
        data = lp.read_bytes()
        lp.write_bytes(data[: len(data) // 2])
    out.append(("c11_main_cut", lp, 1))
    # a ledger on a read-only tmpfs (c13) and one on a full tmpfs (c11_full_tmpfs)
    ro = root / "c13_ro_tmpfs"
    ro.mkdir(exist_ok=True)
    if not (ro / "decisions.sqlite3").exists():
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(ro)],
                           capture_output=True, check=False)
        if r.returncode == 0:
            _ledger(ro / "decisions.sqlite3", 3)
            subprocess.run(["mount", "-o", "remount,ro", str(ro)], check=False)
    out.append(("c13_ro_tmpfs", ro / "decisions.sqlite3", 0))
    full = root / "c11_full_tmpfs"
    full.mkdir(exist_ok=True)
    if not (full / "decisions.sqlite3").exists():
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(full)],
                           capture_output=True, check=False)
        if r.returncode == 0:
            _ledger(full / "decisions.sqlite3", 2)
            try:
                with open(full / "filler", "wb") as fh:
                    while True:
                        fh.write(bytes(4096))
                        fh.flush()
            except OSError:
                pass
    return out


def run(only: list[str]) -> None:
    from qa_common import run_hostile

    os.environ["PYTHONPATH"] = str(REPO)
    mod = sys.modules[__name__]
    results = run_hostile(mod, CACHE, only)
    bad = 0
    for r in results:
        if r["cmd"].startswith("withhold") and r["exit"] == 0:
            # the runner cut the path to 40 characters: find the case's .pub files
            for f in (CACHE / "hostile").glob(r["case"] + "*.pub"):
                if any(x.encode() in f.read_bytes() for x in SECRETS):
                    r["problems"].append(f"secret published in {f.name}")
        if r["case"] in EXPECT_NOT_PASS and r.get("verdict") == "pass":
            r["problems"].append("forged pass")
        if r["case"] in EXPECT_PASS and "--json" in r["cmd"] and r.get("verdict") != "pass":
            r["problems"].append(f"honest run {r.get('verdict')}")
        if r["case"] in POST_EXPECT and r["cmd"].startswith("decisions verify") and \
                r["exit"] != POST_EXPECT[r["case"]]:
            r["problems"].append(f"verify exit {r['exit']}, expected {POST_EXPECT[r['case']]}")
        if r["problems"]:
            bad += 1
            print("PROBLEM", r["case"], r["cmd"], r["problems"], file=sys.stderr)
    name = "results-" + "-".join(only) + ".json" if only else "results.json"
    (CACHE / name).write_text(json.dumps(results, indent=1))
    print(f"{len(results)} commands, {bad} with problems", file=sys.stderr)


#: inputs opened in the offscreen workstation (`moderator-app PATH` through
#: scripts/qa_gui_hostile_s16.py: open, rows, findings, export, a decision; one child each)
GUI = ["c01_nested_dirs", "c01_archive_in_archive.tar", "c01_two_logs_case.zip",
       "c01_dup_seq", "c02_mkv_one_frame_1e9s", "c02_webm_one_frame_1e6s",
       "c02_mov_one_frame_stts", "c02_mov_one_frame_elst", "c02_webm_three_frames_0_1_40",
       "c03_withhold_escaped_type.jsonl", "c05_fifo_log", "c05_socket_video",
       "c05_dir_video", "c05_devzero_video", "c05_proc_links", "c05_tar_special_members.tar",
       "c05_zip_nul_surrogate_names.zip", "c07_secrets_public", "c08_one_line_1g",
       "c08_crlf_640m", "c09_zip_bz2_zero_1g.zip", "c09_zip64_huge_declared.zip",
       "c09_nested_3.zip"]


def gui(names: list[str]) -> int:
    root = CACHE / "hostile"
    paths = [str(root / n) for n in (names or GUI)]
    if not names:
        paths.append(os.fsdecode(bytes(root) + b"/c05_surrogate_\xed\xa0\x80_\xe2\x80\xae_\x7f"))
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    env.pop("ALE_EVALUATOR_SECRET", None)
    r = subprocess.run([sys.executable,
                        str(REPO / "scripts" / "qa_gui_hostile_s16.py"), str(CACHE / "gui"),
                        *paths], env=env, check=False)
    return r.returncode


def app(names: list[str], hold: float = 15.0) -> int:
    """`moderator-app PATH` itself on offscreen Qt: still running after `hold` seconds (no
    crash), no traceback or raw control character on its stderr, its peak RSS (VmHWM); then
    ended by SIGTERM (its own process, by pid)."""
    import signal
    import time

    from hostile_corpus import RAW_CONTROL

    root = CACHE / "hostile"
    paths = [os.fsencode(root / n) for n in (names or GUI)]
    if not names:
        paths.append(bytes(root) + b"/c05_surrogate_\xed\xa0\x80_\xe2\x80\xae_\x7f")
    env = {k: v for k, v in os.environ.items() if k != "ALE_EVALUATOR_SECRET"}
    env.update(PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen",
               MODERATOR_APP_STORE=str(CACHE / "app-ledger.sqlite3"))
    bad = 0
    for p in paths:
        err = CACHE / "app-stderr.txt"
        with open(err, "wb") as fh:
            proc = subprocess.Popen([os.fsencode(REPO / ".venv" / "bin" / "moderator-app"), p], stdout=fh, stderr=fh,
                                    stdin=subprocess.DEVNULL, env=env)
            t0 = time.monotonic()
            hwm = 0
            while time.monotonic() - t0 < hold and proc.poll() is None:
                try:
                    for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
                        if line.startswith("VmHWM:"):
                            hwm = max(hwm, int(line.split()[1]))
                except OSError:
                    pass
                time.sleep(0.25)
            alive = proc.poll() is None
            if alive:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        text = err.read_bytes().decode("utf-8", "replace")
        problems = []
        if not alive:
            problems.append(f"exited after {time.monotonic() - t0:.1f} s: {proc.returncode}")
        if "Traceback" in text or "internal error" in text.lower():
            problems.append("traceback")
        raw = sorted({hex(ord(c)) for c in RAW_CONTROL if c in text})
        if raw:
            problems.append(f"raw control {raw}")
        if hwm > 512 * 1024:
            problems.append(f"{hwm // 1024} MB")
        bad += bool(problems)
        print(json.dumps({"input": os.fsdecode(p)[-60:].encode("ascii", "backslashreplace")
                          .decode(), "alive": alive, "max_rss_mb": hwm // 1024,
                          "problems": problems, "stderr": text[-300:]}), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "run"
    if what == "build":
        cases(CACHE / "hostile")
    elif what == "run":
        run(sys.argv[2:])
    elif what == "gui":
        sys.exit(gui(sys.argv[2:]))
    elif what == "app":
        sys.exit(app(sys.argv[2:]))
