"""Issue 15's classes again with other bytes and sizes (session 25, s25-hostile): for each class
of the issue (1-13 and the speed items) variants that earlier passes (scripts/qa_hostile_s*.py,
tests/hostile_corpus.py) did not make: 10x and 100x sizes, other compressors, zstd skippable
frames and windows, names (RTL, ESC, 4 KB, non-UTF-8), video shapes (0x0, 60000x60000 declared,
1 ns frames, negative timestamps, thousands of streams), ledgers (truncated WAL, swapped rows, a
read-only bind mount), secrets in new places (URL userinfo, env dumps) and output targets (a
FIFO, a symlink to /dev/null, a directory).

Deterministic (fixed bytes, seeds and ffmpeg settings); inputs under
/work/main/.cache/s25-hostile/hostile/, never committed. Every command runs through the shared
runner (scripts/qa_common.run_hostile: prlimit 512 MiB address space, timeout 60 s, time and
peak RSS, no traceback / raw control character / secret / private text / temp file left /
over 30 s), then `EXPECT` checks what a verdict must be (no forged pass):

    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s25.py build
    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s25.py run [ID-PREFIX...]
    PYTHONPATH=. QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/hostile_sweep_s25.py gui
"""

from __future__ import annotations

import io
import json
import os
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
CACHE = Path("/work/main/.cache/s25-hostile")
SAMPLE = REPO / "resources" / "samples" / "community-sample"
OFFICIAL = REPO / "resources" / "samples" / "official-sample"
MIB = 1 << 20
GIB = 1 << 30
MARK = "QA-S25-PRIVATE"
SECRET = "qa25-evaluator-secret-4b9e"
URL_PASS = "qa25urlpassw0rdX"
ENV_SECRET = "qa25AWSsecretKEYvalue0000000000000000000"
SK_KEY = "sk-qa25abcdefghijklmnopqrstuvwxyz0123"
SECRETS = [SECRET, URL_PASS, ENV_SECRET, SK_KEY]
ESC = "\x1b]0;pwned\x07\x1b[2J\u202eqa25\u009b31m"
ENV: dict[str, dict[str, str]] = {}
#: case -> what `verify --json` must never say (a forged pass)
EXPECT_NOT_PASS: set[str] = set()
MTIME = 1_780_000_000


# -- helpers ------------------------------------------------------------------------------
def _log_bytes() -> bytes:
    return (SAMPLE / "agent-log.jsonl").read_bytes()


def _events() -> list[dict]:
    return [json.loads(x) for x in _log_bytes().splitlines()]


def _dump(events: list[dict]) -> bytes:
    return b"".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
                    for e in events)


def _folder(root: Path, name: str, log: bytes | None = None, video: bool = True) -> Path:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    if log is not None and not (d / "agent-log.jsonl").exists():
        (d / "agent-log.jsonl").write_bytes(log)
    if video and not (d / "video.mp4").exists():
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
    return d


def _tar_add(tf: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = MTIME
    tf.addfile(info, io.BytesIO(data))


def _ffmpeg(args: list[str], out: Path) -> bool:
    if out.exists():
        return True
    part = out.with_name(out.name + ".part" + out.suffix)
    r = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args, str(part)],
                       capture_output=True, check=False)
    if r.returncode != 0:
        print(f"ffmpeg failed for {out.name}: {r.stderr[-300:]!r}", file=sys.stderr)
        part.unlink(missing_ok=True)
        return False
    part.rename(out)
    return True


def _gzip_zeros(tar_head: bytes, size: int, tail: bytes) -> bytes:
    """A gzip stream of `tar_head`, `size` zero bytes and `tail`, made in seconds for any size:
    the zeros as one full-flushed deflate block of 1 MiB repeated (each block stands alone);
    the trailer's CRC left wrong on purpose past 1 GiB (a reader learns it at the very end)."""
    c = zlib.compressobj(1, zlib.DEFLATED, -15)
    head = c.compress(tar_head) + c.flush(zlib.Z_FULL_FLUSH)
    block = c.compress(bytes(MIB)) + c.flush(zlib.Z_FULL_FLUSH)
    again = c.compress(bytes(MIB)) + c.flush(zlib.Z_FULL_FLUSH)
    end = c.compress(tail) + c.flush()
    body = head + block + again * (size // MIB - 1) + end  # (block: the first, 2nd on)
    crc = zlib.crc32(tar_head)
    if size <= GIB:
        z = bytes(MIB)
        for _ in range(size // MIB):
            crc = zlib.crc32(z, crc)
    crc = zlib.crc32(tail, crc)
    total = (len(tar_head) + size + len(tail)) & 0xFFFFFFFF
    return b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + body + struct.pack("<II", crc, total)


def _tar_header(name: str, size: int) -> bytes:
    info = tarfile.TarInfo(name)
    info.size = size
    info.mtime = MTIME
    return info.tobuf(format=tarfile.GNU_FORMAT)


def _avi(path: Path, width: int, height: int, frames: list[bytes], rate: int = 25,
         scale: int = 1, bits: int = 24, fourcc: bytes = b"\x00\x00\x00\x00") -> None:
    """A minimal AVI (one video stream, uncompressed unless `fourcc`) with the header values
    given as they are (a hostile header: 0x0, 60000x60000, dwRate/dwScale of 1e9)."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return tag + struct.pack("<I", len(data)) + data + (b"\x00" if len(data) % 2 else b"")

    def lst(kind: bytes, data: bytes) -> bytes:
        return b"LIST" + struct.pack("<I", len(data) + 4) + kind + data

    big = max((len(f) for f in frames), default=0)
    avih = struct.pack("<14I", int(1e6 * scale / rate) & 0xFFFFFFFF, 0, 0, 0x10, len(frames),
                       0, 1, big, width & 0xFFFFFFFF, height & 0xFFFFFFFF, 0, 0, 0, 0)
    strh = struct.pack("<4s4sIHHIIIIIIIIhhhh", b"vids", fourcc, 0, 0, 0, 0, scale, rate, 0,
                       len(frames), big, 0xFFFFFFFF, 0, 0, 0, 0, 0)
    strf = struct.pack("<IiiHHIIiiII", 40, width, height, 1, bits, struct.unpack(
        "<I", fourcc)[0], big, 0, 0, 0, 0)
    hdrl = lst(b"hdrl", chunk(b"avih", avih) + lst(b"strl", chunk(b"strh", strh) +
                                                     chunk(b"strf", strf)))
    movi_items = b"".join(chunk(b"00dc", f) for f in frames)
    movi = lst(b"movi", movi_items)
    idx = b""
    off = 4
    for f in frames:
        idx += struct.pack("<4sIII", b"00dc", 0x10, off, len(f))
        off += 8 + len(f) + (len(f) % 2)
    body = b"AVI " + hdrl + movi + chunk(b"idx1", idx)
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)


# -- the cases ----------------------------------------------------------------------------
def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915 - one table
    import zstandard
    from hostile_corpus import (
        make_line_flood,
        make_newline_bomb_zst,
        make_tar_many,
        make_tar_sparse,
        make_tar_zst_zero,
        make_zip_many,
    )

    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    root.mkdir(parents=True, exist_ok=True)
    store = root / "ledger.sqlite3"
    out: list[tuple[str, list[list[str]]]] = []

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in c]
                           for c in cmds]))

    def std(p, tag: str, *extra: str) -> list[list]:
        return [["verify", p, *extra], ["verify", p, "--json", *extra],
                ["decide", p, "--reject", "--reason", "other", "--note", f"s25 {tag}",
                 "--reviewer", "qa", "--store", store, *extra]]

    def failing_log() -> bytes:
        ev = _events()
        for e in ev:
            if e["type"] == "action":
                e["data"]["call"] = "human"
                break
        return _dump(ev)

    # c01 forged official: a failing community log + a self-made chain, in new shapes
    d = _folder(root, "c01_forged_zst", failing_log())
    if not (d / "events.jsonl.zst").exists():
        write_trajectory(d / "events.jsonl.zst", make_run_events(8, seed=5))
    add("c01_forged_zst", *std(d, "c01a"))
    p = root / "c01_forged_nested.tar.gz"
    if not p.exists():
        with tarfile.open(p, "w:gz", format=tarfile.GNU_FORMAT) as tf:
            _tar_add(tf, "run/agent-log.jsonl", failing_log())
            tmp = root / "c01_tmp.jsonl"
            write_trajectory(tmp, make_run_events(8, seed=6))
            _tar_add(tf, "deep/er/events.jsonl", tmp.read_bytes())
            tmp.unlink()
            _tar_add(tf, "video.mp4", (SAMPLE / "video.mp4").read_bytes())
    add("c01_forged_nested", *std(p, "c01b"))
    d = root / "c01_official_plus_failing_log"
    d.mkdir(exist_ok=True)
    for f in ("events.jsonl.zst", "video.mp4"):
        if not (d / f).exists():
            os.link(OFFICIAL / f, d / f)
    if not (d / "AGENT-LOG.JSONL").exists():
        (d / "AGENT-LOG.JSONL").write_bytes(failing_log())
    add("c01_official_plus_failing_log", *std(d, "c01c"))
    d = _folder(root, "c01_two_logs", _log_bytes())
    if not (d / "logs").exists():
        (d / "logs").mkdir()
        (d / "logs" / "agent-log.jsonl").write_bytes(failing_log())
    add("c01_two_logs", *std(d, "c01d"))
    EXPECT_NOT_PASS.update({"c01_forged_zst", "c01_forged_nested",
                            "c01_official_plus_failing_log", "c01_two_logs"})

    # c02 coverage: footage counted, not the time between timestamps
    src = str(SAMPLE / "video.mp4")
    vids = {
        # two frames, 1,000,000 s apart
        "c02_two_frames_1e6s.mkv": ["-i", src, "-vf", "select='lt(n,2)',setpts=N*1000000/TB",
                                    "-fps_mode", "passthrough", "-c:v", "mjpeg", "-threads",
                                    "1"],
        # 100 frames 1 ns apart (1e9 fps)
        "c02_1e9fps.mp4": ["-i", src, "-vf", "select='lt(n,100)',settb=1/1000000000,setpts=N",
                           "-fps_mode", "passthrough", "-c:v", "mjpeg", "-enc_time_base",
                           "1:1000000000", "-video_track_timescale",
                           "1000000000", "-threads", "1"],
        # the whole video shifted to start at -100 s
        "c02_negative_ts.mkv": ["-i", src, "-c", "copy", "-output_ts_offset", "-100"],
        # 10 frames at 60 fps, then one at 3,000 s / 30,000 s (180,000 / 1,800,000 periods)
        "c02_span_3000.mkv": ["-i", src, "-vf", "settb=1/1000,select='lt(n,11)',setpts='if("
                              "lt(N,10),N*1000/60,3000000)'", "-fps_mode", "passthrough",
                              "-enc_time_base", "1:1000", "-c:v", "mjpeg"],
        "c02_span_30000.mkv": ["-i", src, "-vf", "settb=1/1000,select='lt(n,11)',setpts='if("
                               "lt(N,10),N*1000/60,30000000)'", "-fps_mode", "passthrough",
                               "-enc_time_base", "1:1000", "-c:v", "mjpeg"],
    }
    for name, args in vids.items():
        d = root / name.split(".")[0]
        d.mkdir(exist_ok=True)
        if _ffmpeg(args, d / ("video." + name.split(".")[1])):
            _folder(root, d.name, _log_bytes(), video=False)
            add(d.name, *std(d, d.name[:8], "--offset", "0"),
                ["verify", d, "--json", "--scan", "--offset", "0"],
                ["verify", d, "--sync", "--offset", "0"], ["verify", d, "--offset", "auto"],
                ["frame", d, "--time", "5", "--offset", "0", "-o", root / f"{d.name}.png"])
    EXPECT_NOT_PASS.update({"c02_two_frames_1e6s", "c02_1e9fps", "c02_span_3000",
                            "c02_span_30000"})
    # hand-made AVIs: 0x0, 60000x60000 declared over 64x64 frames, dwRate 1e9, dwScale 1e9
    frame64 = bytes(64 * 64 * 3)
    avis = {"c02_avi_0x0": dict(width=0, height=0, frames=[frame64] * 50),
            "c02_avi_huge": dict(width=60000, height=60000, frames=[frame64] * 50),
            "c02_avi_huge_neg": dict(width=60000, height=-60000, frames=[frame64] * 50),
            "c02_avi_rate1e9": dict(width=64, height=64, frames=[frame64] * 50,
                                    rate=1_000_000_000),
            "c02_avi_scale1e9": dict(width=64, height=64, frames=[frame64] * 3, rate=1,
                                     scale=1_000_000_000),
            "c02_avi_bottomup_640": dict(width=640, height=640,
                                         frames=[bytes(640 * 640 * 3)] * 30),
            "c02_avi_pal8_nopal": dict(width=64, height=64, frames=[bytes(64 * 64)] * 30,
                                       bits=8)}
    for name, kw in avis.items():
        d = _folder(root, name, _log_bytes(), video=False)
        if not (d / "video.avi").exists():
            _avi(d / "video.avi", **kw)
        add(name, ["verify", d, "--json", "--offset", "0"],
            ["verify", d, "--json", "--scan", "--offset", "0"],
            ["verify", d, "--json", "--sync", "--offset", "0"],
            ["frame", d, "--time", "5", "--offset", "0", "-o", root / f"{name}.png"],
            ["decide", d, "--reject", "--reason", "other", "--note", "s25", "--reviewer", "qa", "--store",
             store, "--offset", "0"])
    EXPECT_NOT_PASS.update(set(avis))
    # thousands of streams (999: past 1,000 FFmpeg refuses to write them)
    d = root / "c02_streams_999"
    d.mkdir(exist_ok=True)
    tiny = root / "tiny16.mkv"
    _ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=16x16:r=5:d=2", "-c:v", "mpeg4", "-threads",
             "1"], tiny)
    maps = [a for _ in range(999) for a in ("-map", "0:v")]
    if _ffmpeg(["-i", str(tiny), *maps, "-c", "copy"],
               d / "video.mkv"):
        _folder(root, d.name, _log_bytes(), video=False)
        add(d.name, ["verify", d, "--json", "--offset", "0"],
            ["verify", d, "--json", "--scan", "--offset", "0"],
            ["frame", d, "--time", "1", "--offset", "0", "-o", root / f"{d.name}.png"])

    # c03 withhold: private text through duplicate keys, escapes, key names, depth
    ev = _events()
    lines = []
    for e in ev:
        raw = json.dumps(e, separators=(",", ":"), ensure_ascii=False)
        if e["type"] == "model_request":
            # a duplicate "data" (the last wins in every parser used here), escaped MARK
            raw = raw[:-1] + ',"data":{"messages":[{"role":"system","content":"\\u0051A-S25-' \
                             'PRIVATE sys"}]},"' + MARK + '-key":1}'
        elif e["type"] == "model_response":
            raw = raw[:-1] + ',"\\u0072easoning":"' + MARK + ' thoughts"}'
        lines.append(raw.encode())
    lines.append(b'{"type":"model_request","data":' + b'[' * 200_000 + b']' * 200_000 + b'}')
    p = root / "c03_withhold_dupes.jsonl"
    p.write_bytes(b"\n".join(lines) + b"\n")
    add("c03_withhold_dupes", ["withhold", p, "-o", root / "c03_withhold_dupes.pub"],
        ["verify", p, "--json"])

    # c04 seeds: an honest official run with seeds 0 and 1, and a seed of 64 digits
    for tag, seeds, payload in (("tiny", ("0", "1"), {"frame": 1, "score": 0, "lives": 1}),
                                ("neg", ("-1", "1e3"), {"frame": -1, "stdout": "dx -1 1e3"})):
        d = root / f"c04_seeds_{tag}"
        d.mkdir(exist_ok=True)
        if not (d / "events.jsonl").exists():
            events = make_run_events(12, seed=9, run_id=f"run_{tag}", seeds=seeds,
                                     secret=SECRET, variety=0.0)
            for e in events:
                if e["type"] == "observation":
                    e["payload"].update(payload)
            write_trajectory(d / "events.jsonl", events)
        sf = root / f"c04_seeds_{tag}.txt"
        sf.write_text("\r\n".join(seeds) + "\r\n")
        ENV[f"c04_seeds_{tag}"] = {"ALE_EVALUATOR_SECRET": SECRET}
        add(f"c04_seeds_{tag}", ["verify", d, "--json", "--seeds", sf],
            ["verify", d, "--seeds", sf])
    sf = root / "c04_seeds_binary.txt"
    sf.write_bytes(b"4\x002\n\xff\xfe\x1b[2J\n" + b"9" * 4096 + b"\n")
    ENV["c04_seeds_binary"] = {"ALE_EVALUATOR_SECRET": SECRET}
    add("c04_seeds_binary", ["verify", root / "c04_seeds_tiny", "--json", "--seeds", sf],
        ["verify", root / "c04_seeds_tiny", "--seeds", sf])

    # c05 names: RTL/ESC + non-UTF-8 folder, 4 KB member names, NUL in a pax path
    base = bytes(root) + b"/c05_name_\xe9\xff\x1b[2J\xe2\x80\xae"
    os.makedirs(base, exist_ok=True)
    if not os.path.exists(base + b"/agent-log.jsonl"):
        with open(base + b"/agent-log.jsonl", "wb") as fh:
            fh.write(_log_bytes())
        os.link(SAMPLE / "video.mp4", base + b"/vid\xe9\x1b[31m.mp4")
    add("c05_folder_escape_latin1", *std(os.fsdecode(base), "c05a", "--offset", "0"))
    p = root / "c05_long_names.zip"
    if not p.exists():
        with zipfile.ZipFile(p, "w") as zf:
            zf.writestr("agent-log.jsonl", _log_bytes())
            zf.writestr(("a" * 4000) + ".txt", b"x")
            zf.writestr(("\u202e" * 1300) + "gpj.mp4", b"not a video")
            zf.writestr(("d/" * 2000) + "video.mp4", (SAMPLE / "video.mp4").read_bytes())
    add("c05_long_names_zip", *std(p, "c05b", "--offset", "0"))
    p = root / "c05_pax_nul.tar"
    if not p.exists():
        with tarfile.open(p, "w", format=tarfile.PAX_FORMAT) as tf:
            for nm in ("agent-log.jsonl\x00../../etc/passwd", "x" * 4096 + "/agent-log.jsonl",
                       "\x1b]0;t\x07.txt", "video.mp4"):
                data = (SAMPLE / "video.mp4").read_bytes() if nm == "video.mp4" else _log_bytes()
                _tar_add(tf, nm, data)
    add("c05_pax_nul_and_long", *std(p, "c05c", "--offset", "0"))

    # c06 video members inside archives under odd names (the decoder in its own process)
    p = root / "c06_avi_in_tar.tar"
    if not p.exists():
        with tarfile.open(p, "w", format=tarfile.GNU_FORMAT) as tf:
            _tar_add(tf, "agent-log.jsonl", _log_bytes())
            _tar_add(tf, "v\xe9\x1b[2J.avi", (root / "c02_avi_huge" / "video.avi").read_bytes())
    add("c06_avi_in_tar", *std(p, "c06a", "--offset", "0"))

    # c07 secrets: evaluator secret with a newline / 1 MB; secrets in the log's lines
    ENV["c07_secret_newline"] = {"ALE_EVALUATOR_SECRET": SECRET + "\n\x1b[2J"}
    add("c07_secret_newline", ["verify", root / "c04_seeds_tiny", "--json", "--seeds",
                               root / "c04_seeds_tiny.txt"])
    ENV["c07_secret_huge"] = {"ALE_EVALUATOR_SECRET": SECRET + "z" * 100_000}
    add("c07_secret_huge", ["verify", root / "c04_seeds_tiny", "--seeds",
                            root / "c04_seeds_tiny.txt"])
    ev = _events()
    for e in ev:
        if e["type"] == "model_response":
            e["data"]["text"] = (f"fetch https://qa:{URL_PASS}@api.example.com/v1 env: "
                                 f"AWS_SECRET_ACCESS_KEY={ENV_SECRET} OPENAI_API_KEY={SK_KEY}")
            break
    raw = _dump(ev)
    bad = (f'{{"type":"note","url":"https://u:{URL_PASS}@h/","env":"AWS_SECRET_ACCESS_KEY='
           f'{ENV_SECRET}","k":"{SK_KEY}"').encode()  # not JSON: cut
    d = _folder(root, "c07_log_secrets", raw.replace(b"\n", b"\n" + bad + b"\n", 1))
    add("c07_log_secrets", *std(d, "c07c", "--offset", "0"),
        ["withhold", d / "agent-log.jsonl", "-o", root / "c07_log_secrets.pub"])

    # c08 newline bombs 10x / 100x, CR-only and spaces
    d = root / "c08_newlines_640m"
    if not (d / "events.jsonl.zst").exists():
        make_newline_bomb_zst(root, 640 * MIB).rename(d)
    add("c08_newlines_640m", ["verify", d, "--json"], ["verify", d])
    d = root / "c08_newlines_6g"
    if not (d / "events.jsonl.zst").exists():
        d.mkdir(exist_ok=True)
        cctx = zstandard.ZstdCompressor(level=3)
        with open(d / "events.jsonl.zst", "wb") as fh, cctx.stream_writer(fh) as w:
            chunk = b"\n" * (16 * MIB)
            for _ in range(6400 // 16):
                w.write(chunk)
    add("c08_newlines_6g", ["verify", d, "--json"])
    # the same flood in archives: a zipped agent log (deflate, 650 KB) and a tar of the zstd
    p = root / "c08_zip_log_newlines_640m.zip"
    if not p.exists():
        zi = zipfile.ZipInfo("agent-log.jsonl", date_time=(2026, 1, 1, 0, 0, 0))
        zi.compress_type = zipfile.ZIP_DEFLATED
        with zipfile.ZipFile(p, "w") as zf, zf.open(zi, "w", force_zip64=True) as fh:
            fh.write(_log_bytes())
            for _ in range(640):
                fh.write(b"\n" * MIB)
    p2 = root / "c08_tar_zst_newlines_640m.tar"
    if not p2.exists():
        with tarfile.open(p2, "w", format=tarfile.GNU_FORMAT) as tf:
            _tar_add(tf, "events.jsonl.zst",
                     (root / "c08_newlines_640m" / "events.jsonl.zst").read_bytes())
    add("c08_archived_newlines", ["verify", p, "--json"], ["verify", p2, "--json"],
        ["decide", p, "--reject", "--reason", "other", "--note", "s25", "--reviewer", "qa",
         "--store", store])
    d = root / "c08_cr_log"
    d.mkdir(exist_ok=True)
    if not (d / "agent-log.jsonl").exists():
        with open(d / "agent-log.jsonl", "wb") as fh:
            fh.write(_log_bytes())
            for _ in range(640):
                fh.write(b"\r" * MIB)
    add("c08_cr_log", ["verify", d, "--json"], ["withhold", d / "agent-log.jsonl", "-o",
                                                root / "c08_cr_log.pub"])

    # c09 archives 10x / 100x, other compressors, zstd frames and windows
    for n in (20_000, 200_000):
        p = root / f"tar-{n}.tar"
        if not p.exists():
            make_tar_many(root, n)
        add(f"c09_tar_{n}", ["verify", p, "--json"], ["verify", p])
    for n in (90_000, 199_990):
        p = root / f"zip-{n}.zip"
        if not p.exists():
            make_zip_many(root, n)
        add(f"c09_zip_{n}", ["verify", p, "--json"])
    # an end record that says 5 entries over 600,000 (the cap is on the record's count)
    p = root / "c09_zip_600k_says_5.zip"
    if not p.exists():
        log = _log_bytes()
        body, cd = bytearray(), bytearray()
        for i in range(600_001):
            name = b"agent-log.jsonl" if i == 0 else b"e/%07d.txt" % i
            data = log if i == 0 else b""
            off, crc = len(body), zlib.crc32(data)
            body += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0x21, crc, len(data),
                                len(data), len(name), 0) + name + data
            cd += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0x21, crc,
                              len(data), len(data), len(name), 0, 0, 0, 0, 0o100644 << 16,
                              off) + name
        p.write_bytes(bytes(body) + bytes(cd) + struct.pack(
            "<IHHHHIIH", 0x06054B50, 0, 0, 5, 5, len(cd), len(body), 0))
    add("c09_zip_600k_says_5", ["verify", p, "--json"], ["verify", p],
        ["decide", p, "--reject", "--reason", "other", "--note", "s25", "--reviewer", "qa",
         "--store", store])
    p = root / "zero-member.tar.zst"
    if not p.exists():
        make_tar_zst_zero(root, 640 * MIB)
    add("c09_tar_zst_640m", ["verify", p, "--json"])
    for tag, size in (("10g", 10 * GIB), ("100g", 100 * GIB)):
        p = root / f"c09_tar_gz_zero_{tag}.tar.gz"
        if not p.exists():
            log = _log_bytes()
            head = _tar_header("agent-log.jsonl", len(log)) + log + bytes(-len(log) % 512) + \
                _tar_header("zeros.bin", size)
            p.write_bytes(_gzip_zeros(head, size, bytes(1024)))
        add(f"c09_tar_gz_zero_{tag}", ["verify", p, "--json"], ["verify", p])
    p = root / "sparse.tar"
    if not p.exists():
        make_tar_sparse(root, 1600 << 30)
    add("c09_tar_sparse_1600g", ["verify", p, "--json"])
    # xz / bz2 / lz4 bytes inside a .tar, a .tar.gz that is bzip2, a .tar.xz
    import bz2
    import lzma
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tf:
        _tar_add(tf, "agent-log.jsonl", _log_bytes())
    for name, data in (("c09_xz_as.tar", lzma.compress(raw.getvalue())),
                       ("c09_bz2_as.tar.gz", bz2.compress(raw.getvalue())),
                       ("c09_real.tar.xz", lzma.compress(raw.getvalue())),
                       ("c09_lz4_as.tar.zst", b"\x04\x22\x4d\x18" + raw.getvalue()[:4000])):
        p = root / name
        p.write_bytes(data)
        add(name.split(".")[0] + "_" + name.split(".")[-1], ["verify", p, "--json"],
            ["verify", p])
    # members compressed inside a tar: agent-log.jsonl holding xz/bz2 of 1 GiB of newlines
    p = root / "c09_member_bz2_newlines.tar"
    if not p.exists():
        comp = bz2.BZ2Compressor(9)
        body = b"".join(comp.compress(b"\n" * (16 * MIB)) for _ in range(64)) + comp.flush()
        with tarfile.open(p, "w", format=tarfile.GNU_FORMAT) as tf:
            _tar_add(tf, "agent-log.jsonl", body)
            _tar_add(tf, "events.jsonl.zst", lzma.compress(_log_bytes()))
    add("c09_member_bz2_newlines", ["verify", p, "--json"])
    # zstd: 200,000 skippable frames before the data; one skippable frame declaring 4 GiB;
    # a frame header declaring window 2^31 in single segment
    d = root / "c09_zst_skippable"
    d.mkdir(exist_ok=True)
    tmp = root / "c09_plain.jsonl"
    write_trajectory(tmp, make_run_events(20, seed=2))
    plain = tmp.read_bytes()
    tmp.unlink()
    frame = zstandard.ZstdCompressor(level=3).compress(plain)
    skip = struct.pack("<II", 0x184D2A50, 0)
    (d / "events.jsonl.zst").write_bytes(skip * 200_000 + frame + skip * 200_000)
    add("c09_zst_skippable", ["verify", d, "--json"], ["verify", d])
    d = root / "c09_zst_skippable_4g"
    d.mkdir(exist_ok=True)
    (d / "events.jsonl.zst").write_bytes(frame + struct.pack("<II", 0x184D2A5F, 0xFFFFFFFF) +
                                         b"x" * 1000)
    add("c09_zst_skippable_4g", ["verify", d, "--json"])
    d = root / "c09_zst_long30_ldm"
    d.mkdir(exist_ok=True)
    if not (d / "events.jsonl.zst").exists():
        params = zstandard.ZstdCompressionParameters.from_level(
            3, window_log=30, enable_ldm=True)
        events = make_run_events(400, seed=4, text_bytes=4000)
        tmp = root / "c09_l30.jsonl"
        write_trajectory(tmp, events)
        with open(tmp, "rb") as src, open(d / "events.jsonl.zst", "wb") as dst:
            zstandard.ZstdCompressor(compression_params=params).copy_stream(src, dst)
        tmp.unlink()
    add("c09_zst_long30_ldm", ["verify", d, "--json"])
    # nesting: zip in zip 30 deep; tar.gz of 10,000 nested folders
    p = root / "c09_zip_nest30.zip"
    if not p.exists():
        inner = _log_bytes()
        name = "agent-log.jsonl"
        for i in range(30):
            b = io.BytesIO()
            with zipfile.ZipFile(b, "w") as zf:
                zf.writestr(name, inner)
            inner, name = b.getvalue(), f"n{i}.zip"
        p.write_bytes(inner)
    add("c09_zip_nest30", ["verify", p, "--json"])
    p = root / "c09_deep_paths.tar.gz"
    if not p.exists():
        with tarfile.open(p, "w:gz", format=tarfile.PAX_FORMAT) as tf:
            _tar_add(tf, "/".join(["d"] * 5000) + "/agent-log.jsonl", _log_bytes())
            for i in range(2000):
                _tar_add(tf, "/".join(["e"] * (i % 200 + 1)) + f"/f{i}.txt", b"")
    add("c09_deep_paths", ["verify", p, "--json"], ["verify", p])

    # speed items 10x: floods of invalid and tiny lines (640 MiB plain)
    for kind in ("invalid", "tiny"):
        d = root / f"flood-{kind}"
        if not (d / "events.jsonl").exists() or (d / "events.jsonl").stat().st_size < 600 * MIB:
            make_line_flood(root, kind, 640 * MIB)
        add(f"c09_flood_{kind}_640m", ["verify", d, "--json"])

    # c10 escapes in what the log says (shown in findings)
    ev = _events()
    ev[3]["type"] = "act\x1b]8;;http://x\x07ion" + "\u202e\u2066"
    ev[4]["seq"] = "\x1b[2J"
    d = _folder(root, "c10_escapes_in_log", _dump(ev))
    add("c10_escapes_in_log", *std(d, "c10", "--offset", "0"),
        ["withhold", d / "agent-log.jsonl", "-o", root / "c10.pub"])

    # c11/c13 ledgers: truncated WAL, swapped rows, a read-only bind mount, an escaped name
    for name, lp, expect in build_ledgers(root):
        add(name, ["decisions", "verify", "--store", lp], ["decisions", "list", "--store", lp],
            ["decisions", "export", "--store", lp, "--format", "jsonl", "--out",
             root / f"{name}.jsonl"])
        if expect is not None:
            POST_EXPECT[name] = expect

    # c12 output targets: a FIFO, a symlink to /dev/null, a directory, /dev/full
    fifo = root / "c12_fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    link = root / "c12_devnull_link"
    if not link.is_symlink():
        os.symlink("/dev/null", link)
    log = SAMPLE / "agent-log.jsonl"
    add("c12_out_targets", ["withhold", log, "-o", fifo], ["withhold", log, "-o", link],
        ["withhold", log, "-o", root], ["withhold", log, "-o", "/dev/full"],
        ["decisions", "export", "--store", store, "--format", "csv", "--out", fifo],
        ["decisions", "export", "--store", store, "--format", "jsonl", "--out", "/dev/full"])
    return out


POST_EXPECT: dict[str, int] = {}


def _rec(note: str):
    from types import SimpleNamespace

    from moderator_app.core.ledger.records import build_record
    from moderator_app.core.verify.report import FileDigest, Report

    r = Report(kind="community", input_name="sub")
    r.files = [FileDigest("agent-log.jsonl", "agent_log", 1, "1" * 64)]
    return build_record(SimpleNamespace(report=r, submission=SimpleNamespace(
        display_name="sub" + ESC)), "accept", note=note, reviewer="alice" + ESC)


def build_ledgers(root: Path) -> list[tuple[str, Path, int | None]]:
    """(case, store, the exit `decisions verify` must give): a WAL cut in the middle of a
    frame while a reader held the checkpoint back (3 decisions only there), two rows' contents
    swapped (every column), a ledger on a read-only bind mount, a store whose name and notes
    hold terminal escapes."""
    import shutil

    from moderator_app.core.ledger.store import Ledger

    out: list[tuple[str, Path, int | None]] = []
    d = root / "c11_wal_cut"
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        d.mkdir(parents=True, exist_ok=True)
        with Ledger(lp) as led:
            for i in range(2):
                led.append(_rec(f"d{i + 1}"))
        reader = sqlite3.connect(lp)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM decisions").fetchone()
        with Ledger(lp) as led:
            for i in range(3):
                led.append(_rec(f"d{i + 3}"))
        snap = root / "c11_wal_cut.snap"
        snap.mkdir(exist_ok=True)
        for f in d.iterdir():
            shutil.copy(f, snap / f.name)
        reader.close()
        shutil.rmtree(d)
        snap.rename(d)
        wal = Path(str(lp) + "-wal")
        if wal.exists():
            data = wal.read_bytes()
            wal.write_bytes(data[: len(data) // 2 + 100])
        Path(str(lp) + "-shm").unlink(missing_ok=True)
    out.append(("c11_wal_cut", lp, 1))
    d = root / "c11_swapped"
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        d.mkdir(parents=True, exist_ok=True)
        with Ledger(lp) as led:
            for i in range(5):
                led.append(_rec(f"d{i + 1}"))
        con = sqlite3.connect(lp)
        cols = [r[1] for r in con.execute("PRAGMA table_info(decisions)") if r[1] != "seq"]
        a = con.execute(f"SELECT {','.join(cols)} FROM decisions WHERE seq=2").fetchone()
        b = con.execute(f"SELECT {','.join(cols)} FROM decisions WHERE seq=3").fetchone()
        sets = ",".join(f"{c}=?" for c in cols)
        con.execute("UPDATE decisions SET hash='x' WHERE seq=2")
        con.execute(f"UPDATE decisions SET {sets} WHERE seq=3", a)
        con.execute(f"UPDATE decisions SET {sets} WHERE seq=2", b)
        con.commit()
        con.close()
    out.append(("c11_swapped", lp, 1))
    d = root / "c13_ro_src"
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        d.mkdir(parents=True, exist_ok=True)
        with Ledger(lp) as led:
            for i in range(4):
                led.append(_rec(f"d{i + 1}"))
    mnt = root / "c13_ro_mount"
    mnt.mkdir(exist_ok=True)
    if not (mnt / "decisions.sqlite3").exists():
        r = subprocess.run(["mount", "--bind", "-o", "ro", str(d), str(mnt)],
                           capture_output=True, check=False)
        if r.returncode == 0:
            subprocess.run(["mount", "-o", "remount,bind,ro", str(mnt)], check=False)
    out.append(("c13_read_only_mount", mnt / "decisions.sqlite3", 0))
    d = Path(os.fsdecode(bytes(root) + b"/c11_esc_\x1b[2J\xe2\x80\xae"))
    lp = d / "decisions.sqlite3"
    if not lp.exists():
        d.mkdir(parents=True, exist_ok=True)
        with Ledger(lp) as led:
            led.append(_rec("note " + ESC))
    out.append(("c11_escaped_store", lp, 0))
    return out


def run(only: list[str]) -> None:
    from qa_common import run_hostile

    os.environ["PYTHONPATH"] = str(REPO)
    mod = sys.modules[__name__]
    results = run_hostile(mod, CACHE, only)
    bad = 0
    for r in results:
        if r["case"] in EXPECT_NOT_PASS and r.get("verdict") == "pass":
            r["problems"].append("forged pass")
        if r["case"] in POST_EXPECT and r["cmd"].startswith("decisions verify") and \
                r["exit"] != POST_EXPECT[r["case"]]:
            r["problems"].append(f"verify exit {r['exit']}, expected {POST_EXPECT[r['case']]}")
        if r["problems"]:
            bad += 1
            print("PROBLEM", r["case"], r["cmd"], r["problems"], file=sys.stderr)
    (CACHE / "results.json").write_text(json.dumps(results, indent=1))
    print(f"{len(results)} commands, {bad} with problems", file=sys.stderr)


#: inputs opened in the offscreen workstation (one child process each, through
#: scripts/qa_gui_hostile_s16.py: open, report, rows, findings, export, a decision)
GUI = ["c01_forged_zst", "c02_two_frames_1e6s", "c02_avi_huge", "c02_avi_0x0",
       "c02_streams_999", "c02_1e9fps", "c05_long_names.zip", "c05_pax_nul.tar",
       "c06_avi_in_tar.tar", "c07_log_secrets", "c08_newlines_640m", "c09_zst_skippable",
       "c09_tar_gz_zero_10g.tar.gz", "tar-200000.tar", "c10_escapes_in_log",
       "c03_withhold_dupes.jsonl", "c02_span_3000", "c02_span_30000",
       "c08_zip_log_newlines_640m.zip"]


def gui() -> int:
    root = CACHE / "hostile"
    paths = [str(root / n) for n in GUI]
    paths.append(os.fsdecode(bytes(root) + b"/c05_name_\xe9\xff\x1b[2J\xe2\x80\xae"))
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([sys.executable, str(REPO / "scripts" / "qa_gui_hostile_s16.py"),
                        str(CACHE / "gui"), *paths], env=env, check=False)
    return r.returncode


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "run"
    if what == "build":
        cases(CACHE / "hostile")
    elif what == "run":
        run(sys.argv[2:])
    elif what == "gui":
        sys.exit(gui())
