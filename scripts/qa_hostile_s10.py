"""Issue 15 QA inputs of session 10 (docs/qa/session10.md): hostile submissions of the issue's
classes with bytes neither the tests nor session 9's QA had used. Deterministic (fixed bytes,
seeds and mtimes); written under `.cache/qa-s10/hostile/`. `cases(root)` returns (id, commands)
where a command is a CLI argument list (run by scripts/qa_session10.py under prlimit and
timeout); `POST_CHECKS` inspect what the commands left (a device still a device, a ledger).
"""

from __future__ import annotations

import gzip
import io
import os
import sqlite3
import stat
import struct
import subprocess
import tarfile
import zipfile
import zlib
from pathlib import Path

import hostile_corpus as hc
import orjson
import zstandard

from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

MIB = 1 << 20
SECRET = "qa-s10-evaluator-secret-c41e"
ESC_SECRET = "qa\x1b]0;s10\x07sec-9b1d"
MARK = "QA-S10-PRIVATE"


def _events(n: int = 14, seed: int = 10) -> list[dict]:
    return [orjson.loads(x) for x in hc.valid_log_bytes(n, seed).splitlines()]


def _log_bytes(events: list[dict]) -> bytes:
    return b"".join(orjson.dumps(e) + b"\n" for e in events)


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def _video(out: Path, seconds: int = 30) -> Path:
    """A real H.264 recording (mandelbrot: not the testsrc2 of session 9)."""
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        _ffmpeg("-f", "lavfi", "-i", f"mandelbrot=size=256x192:rate=25,trim=duration={seconds}",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(out))
    return out


def _failing_log() -> bytes:
    ev = _events()
    for e in ev:
        if e["type"] == "action":
            e["data"]["call"] = "c-nobody"  # no response asked for it: a human press
            break
    return _log_bytes(ev)


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915 - one table
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[str(a) if not isinstance(a, bytes) else os.fsdecode(a) for a in c]
                           for c in cmds]))

    def both(p) -> tuple[list, list]:
        return ["verify", p], ["verify", p, "--json"]

    # n01: a valid trajectory, then 80 MiB of LF, in events.jsonl.zst
    d = root / "n01"
    p = d / "events.jsonl.zst"
    if not p.exists():
        d.mkdir(parents=True, exist_ok=True)
        plain = root / "n01-plain.jsonl"
        write_trajectory(plain, make_run_events(6, seed=101))
        with open(p, "wb") as fh, zstandard.ZstdCompressor(level=19).stream_writer(fh) as w:
            w.write(plain.read_bytes())
            for _ in range(80):
                w.write(b"\n" * MIB)
    add("n01_lf_bomb_after_valid_zst", *both(d))

    # n02: a zip of 9,500 empty members with 200-byte names, the log first
    p = root / "n02.zip"
    if not p.exists():
        with zipfile.ZipFile(p, "w") as zf:
            hc._zip_add(zf, "agent-log.jsonl", hc.valid_log_bytes(14, 10))
            for i in range(9_500):
                hc._zip_add(zf, f"d{i % 13}/" + f"{i:06d}".ljust(196, "x"), b"")
    add("n02_zip_9500_long_names", *both(p))

    # n03: a tar of 3,000 directory entries and 50 hard links to the log
    p = root / "n03.tar"
    if not p.exists():
        with tarfile.open(p, "w", format=tarfile.USTAR_FORMAT) as tf:
            hc._tar_add(tf, "agent-log.jsonl", hc.valid_log_bytes(14, 10))
            for i in range(3_000):
                info = tarfile.TarInfo(f"dirs/{i:05d}")
                info.type, info.mtime, info.mode = tarfile.DIRTYPE, hc.MTIME, 0o755
                tf.addfile(info)
            for i in range(50):
                info = tarfile.TarInfo(f"links/events{i}.jsonl")
                info.type, info.linkname, info.mtime = tarfile.LNKTYPE, "agent-log.jsonl", hc.MTIME
                tf.addfile(info)
    add("n03_tar_3000_dirs_hardlinks", *both(p))

    # n04: .tar.zst with an 80 MiB zero member `notes.bin` before a valid log
    p = root / "n04.tar.zst"
    if not p.exists():
        raw = io.BytesIO()
        with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tf:
            info = tarfile.TarInfo("notes.bin")
            info.size, info.mtime = 80 * MIB, hc.MTIME
            tf.addfile(info, io.BytesIO(bytes(80 * MIB)))
            hc._tar_add(tf, "agent-log.jsonl", hc.valid_log_bytes(14, 10))
        p.write_bytes(zstandard.ZstdCompressor(level=10).compress(raw.getvalue()))
    add("n04_tar_zst_80mib_zero_member", *both(p))

    # n05: GNU tar --sparse (format 1.0, PAX) of a 24 GiB hole named video.mp4, and a log
    p = root / "n05.tar"
    if not p.exists():
        src = root / "n05-src"
        src.mkdir(parents=True, exist_ok=True)
        (src / "agent-log.jsonl").write_bytes(hc.valid_log_bytes(14, 10))
        with open(src / "video.mp4", "wb") as fh:
            fh.truncate(24 << 30)
            fh.seek((24 << 30) - 4096)
            fh.write(b"\x00\x00\x00\x18ftypisom" + b"Q" * 4084)
        subprocess.run(["tar", "--sparse", "--format=posix", "--sparse-version=1.0",
                        "--mtime=@1780000000", "--owner=0", "--group=0", "--numeric-owner",
                        "--pax-option=delete=atime,delete=ctime", "-cf", str(p), "-C", str(src),
                        "agent-log.jsonl", "video.mp4"], check=True)
        (src / "video.mp4").unlink()
    add("n05_tar_sparse_24gib", *both(p))

    # n06: a zip whose 4,000 central-directory entries all point at one 1 MiB deflated member
    # of `{"a":1}` lines (an overlap bomb of JSON, not of newlines)
    p = root / "n06.zip"
    if not p.exists():
        body = b'{"a":1}\n' * (MIB // 8)
        comp = zlib.compressobj(9, zlib.DEFLATED, -15)
        kdata = comp.compress(body) + comp.flush()
        crc = zlib.crc32(body)
        buf = io.BytesIO()
        local = b"x.jsonl"
        buf.write(struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0x21, crc, len(kdata),
                              len(body), len(local), 0) + local + kdata)
        cd = io.BytesIO()
        n = 4_000
        for i in range(n):
            nm = (b"agent-log.jsonl" if i == n - 1 else f"p/{i:04d}.jsonl".encode())
            cd.write(struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 8, 0, 0x21, crc,
                                 len(kdata), len(body), len(nm), 0, 0, 0, 0, 0o100644 << 16, 0)
                     + nm)
        cdb = cd.getvalue()
        start = buf.tell()
        buf.write(cdb)
        buf.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, n, n, len(cdb), start, 0))
        p.write_bytes(buf.getvalue())
    add("n06_zip_overlap_json", *both(p))

    # n07: a plain log, valid start, then 40 MiB of `{}` lines
    p = root / "n07" / "agent-log.jsonl"
    if not p.exists():
        _write(p, hc.valid_log_bytes(14, 10))
        with open(p, "ab") as fh:
            for _ in range(40):
                fh.write(b"{}\n" * (MIB // 3))
    add("n07_tiny_object_flood", *both(p.parent), ["withhold", p, "-o", root / "n07.pub"])

    # n08: .tar.gz with non-UTF-8 member names beside the log; decide on it
    p = root / "n08.tar.gz"
    if not p.exists():
        raw = io.BytesIO()
        with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT,
                          encoding="latin-1", errors="strict") as tf:
            hc._tar_add(tf, "vid\xe9o.mp4", b"\x00" * 64)
            hc._tar_add(tf, "\xff\xfe.txt", b"hello")
            hc._tar_add(tf, "agent-log.jsonl", hc.valid_log_bytes(14, 10))
        p.write_bytes(gzip.compress(raw.getvalue(), mtime=0))
    add("n08_tar_gz_nonutf8_names", *both(p),
        ["decide", p, "--accept", "--store", root / "n08.sqlite3"],
        ["decisions", "list", "--store", root / "n08.sqlite3"])

    # n09: a folder with ESC, newline in its name holding a non-UTF-8 video name with OSC
    base = bytes(root) + b"/n09-run\x1b[31m\n-red"
    vid = base + b"/v\xe9\x1b]0;t\x07.mp4"
    if not os.path.exists(vid):
        os.makedirs(base, exist_ok=True)
        with open(vid, "wb") as fh:
            fh.write(_video(root / "src25.mp4").read_bytes())
        with open(base + b"/agent-log.jsonl", "wb") as fh:
            fh.write(hc.valid_log_bytes(40, 6))
    add("n09_ctrl_in_folder_names", ["verify", base], ["verify", base, "--json"],
        ["verify", base, "--scan", "--json"],
        ["frame", base, "--line", "9", "-o", root / "n09.png"],
        ["decide", base, "--accept", "--store", root / "n09.sqlite3"],
        ["decisions", "list", "--store", root / "n09.sqlite3"])

    # n10: a rawvideo bgr24 AVI 96x40 whose biHeight is patched to -1,000,000 and whose
    # '00db' chunk sizes are garbled
    d = root / "n10"
    v = d / "run.avi"
    if not v.exists():
        d.mkdir(parents=True, exist_ok=True)
        good = root / "n10-good.avi"
        _ffmpeg("-f", "lavfi", "-i", "mandelbrot=size=96x40:rate=10,trim=duration=3",
                "-c:v", "rawvideo", "-pix_fmt", "bgr24", str(good))
        data = bytearray(good.read_bytes())
        i = data.find(b"strf")
        struct.pack_into("<i", data, i + 8 + 8, -1_000_000)  # BITMAPINFOHEADER.biHeight
        j = 0
        k = 0
        while True:
            j = data.find(b"00db", j + 4)
            if j < 0:
                break
            k += 1
            if k % 3 == 0:
                struct.pack_into("<I", data, j + 4, 0x7FFFFFF0)
        v.write_bytes(bytes(data))
        (d / "agent-log.jsonl").write_bytes(hc.valid_log_bytes(40, 6))
    add("n10_avi_bad_height", *both(d), ["verify", d, "--scan", "--json"],
        ["frame", v, "--time", "1", "-o", root / "n10.png"])

    # n11: MP4 (VFR): frames every 0.1 s up to 10 s, then one at 29 s; a 25 s log
    d = root / "n11"
    v = d / "gap.mp4"
    if not v.exists():
        d.mkdir(parents=True, exist_ok=True)
        _ffmpeg("-f", "lavfi", "-i", "mandelbrot=size=128x96:rate=10", "-frames:v", "102",
                "-vf", "setpts='if(lt(N\\,101)\\,N*0.1\\,29)/TB'", "-fps_mode", "passthrough",
                "-video_track_timescale", "1000", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                str(v))
        from moderator_app.core.samples.community import make_agent_log
        make_agent_log(d / "agent-log.jsonl", 60, 11, min_duration_s=25.0)
    add("n11_mp4_gap_10_to_29", *both(d), ["verify", d, "--offset", "0.2", "--json"])

    # n12: private text in members the format does not list (new names: thinking, trace)
    p = root / "n12" / "agent-log.jsonl"
    if not p.exists():
        ev = _events()
        for e in ev:
            if e["type"] == "model_response":
                e["thinking"] = f"{MARK}-THINKING"
                e["data"]["provider_trace"] = {"raw": f"{MARK}-TRACE"}
                e["data"]["usage"]["note"] = f"{MARK}-USAGE"
            elif e["type"] == "observation":
                e["system"] = f"{MARK}-OBS-SYSTEM"
                e["data"]["debug"] = [f"{MARK}-DEBUG"]
            elif e["type"] == "run_end":
                e["data"]["operator_notes"] = f"{MARK}-END"
        _write(p, _log_bytes(ev))
    add("n12_withhold_thinking_members", ["withhold", p, "-o", root / "n12.pub"])

    # n13: an honest official run with integer seeds 1 and 12 (commitments matching), where
    # 1 and 12 are lives and score, and "1"/"12" appear in free text
    d = root / "n13"
    seeds = root / "n13-seeds.txt"
    if not seeds.exists():
        d.mkdir(parents=True, exist_ok=True)
        events = make_run_events(16, seed=113, run_id="run_qa_s10_tiny", seeds=("1", "12"),
                                 secret=SECRET, variety=0.0)
        for e in events:
            if e["type"] == "observation":
                e["payload"].update(lives=1, score=12, level="12",
                                    stdout="level 12, 1 life left, step 112")
        write_trajectory(d / "events.jsonl", events)
        seeds.write_text("1\n12\n")
    add("n13_small_seeds_1_12", ["verify", d, "--seeds", seeds],
        ["verify", d, "--seeds", seeds, "--json"])

    # n14: the evaluator secret is valid UTF-8 but holds an OSC sequence (see ENV)
    add("n14_secret_with_escape", ["verify", d, "--seeds", seeds, "--json"],
        ["verify", d, "--seeds", seeds])

    # n15: --note '--', an empty note with reason other, a C1 reviewer
    lg = root / "n15" / "agent-log.jsonl"
    if not lg.exists():
        _write(lg, hc.valid_log_bytes(14, 10))
    st = root / "n15.sqlite3"
    add("n15_note_dashdash",
        ["decide", lg.parent, "--reject", "--reason", "other", "--note", "--", "--store", st],
        ["decide", lg.parent, "--reject", "--reason", "other", "--note", "", "--store", st],
        ["decide", lg.parent, "--reject", "--reason", "other", "--note", "   ", "--store", st],
        ["decide", lg.parent, "--accept", "--reviewer", "\u009b", "--store", st],
        ["decisions", "list", "--store", st])

    # n16: OSC 52 (clipboard write) in an action's button, U+202E in a response text
    p = root / "n16" / "agent-log.jsonl"
    if not p.exists():
        ev = _events()
        for e in ev:
            if e["type"] == "action":
                e["data"]["args"]["button"] = "\x1b]52;c;cHduZWQ=\x07A"
            elif e["type"] == "model_response":
                e["data"]["text"] = "ok \u202egnp.exe\u202c \x1b[8m hidden"
        _write(p, _log_bytes(ev))
    add("n16_osc52_in_log", *both(p.parent),
        ["decide", p.parent, "--reject", "--reason", "other", "--note", "osc52", "--store",
         root / "n16.sqlite3"],
        ["decisions", "list", "--store", root / "n16.sqlite3"],
        ["decisions", "export", "--format", "csv", "--out", root / "n16.csv", "--store",
         root / "n16.sqlite3"])

    # n17: a self-made valid events.jsonl at the top, a failing agent log in logs/
    d = root / "n17"
    if not (d / "events.jsonl").exists():
        d.mkdir(parents=True, exist_ok=True)
        write_trajectory(d / "events.jsonl", make_run_events(12, seed=117))
        _write(d / "logs" / "agent-log.jsonl", _failing_log())
    add("n17_forged_official_logs_dir", *both(d),
        ["decide", d, "--accept", "--store", root / "n17.sqlite3"])
    # n17b: the same in a zip, the agent log deflated and the trajectory stored
    p = root / "n17b.zip"
    if not p.exists():
        with zipfile.ZipFile(p, "w") as zf:
            hc._zip_add(zf, "events.jsonl", (d / "events.jsonl").read_bytes())
            hc._zip_add(zf, "x/y/agent-log.jsonl", _failing_log(), zipfile.ZIP_DEFLATED)
    add("n17b_forged_official_zip", *both(p))

    # n18: export and withhold aimed at /dev/full (a character device that is always full)
    st = root / "n18.sqlite3"
    add("n18_export_to_dev_full",
        ["decide", lg.parent, "--accept", "--store", st],
        ["decisions", "export", "--format", "jsonl", "--out", "/dev/full", "--store", st],
        ["withhold", lg, "-o", "/dev/full"])

    # n19: a ledger of 4 decisions (see POST_CHECKS: its -wal cut in half, then verify)
    st = root / "n19" / "decisions.sqlite3"
    add("n19_ledger_four", *[["decide", lg.parent, "--accept", "--note", f"n{i}", "--store", st]
                             for i in range(4)],
        ["decisions", "verify", "--store", st])

    # n20: an honest trajectory compressed by the zstd CLI with --long=31 --ultra -22
    d = root / "n20"
    p = d / "events.jsonl.zst"
    if not p.exists():
        d.mkdir(parents=True, exist_ok=True)
        plain = root / "n20-plain.jsonl"
        write_trajectory(plain, make_run_events(30, seed=120))
        with open(plain, "rb") as src, open(p, "wb") as dst:  # from a pipe: no content size
            subprocess.run(["zstd", "-q", "--long=31", "--ultra", "-22", "-c", "-"], stdin=src,
                           stdout=dst, check=True)
    add("n20_zst_long31_cli", *both(d))

    # n21: a .tar.zst whose agent-log.jsonl is one 600 MiB line of 'a' (then a newline)
    p = root / "n21.tar.zst"
    if not p.exists():
        size = 600 * MIB

        class _Line(io.RawIOBase):
            def __init__(self) -> None:
                self.left = size

            def readable(self) -> bool:
                return True

            def readinto(self, b) -> int:
                n = min(len(b), self.left)
                b[:n] = b"a" * n if self.left > n else b"a" * (n - 1) + b"\n"
                self.left -= n
                return n

        with open(p, "wb") as fh, zstandard.ZstdCompressor(level=3).stream_writer(fh) as w, \
                tarfile.open(fileobj=w, mode="w|", format=tarfile.GNU_FORMAT) as tf:
            info = tarfile.TarInfo("agent-log.jsonl")
            info.size, info.mtime = size, hc.MTIME
            tf.addfile(info, io.BufferedReader(_Line(), 1 << 20))
    add("n21_one_line_600mib_zst", *both(p))

    # n22: official events.jsonl whose payload nests 100,000 objects deep (under the line cap)
    d = root / "n22"
    if not (d / "events.jsonl").exists():
        d.mkdir(parents=True, exist_ok=True)
        write_trajectory(d / "events.jsonl", make_run_events(8, seed=122))
        lines = (d / "events.jsonl").read_bytes().splitlines()
        lines.insert(3, b'{"x":' * 100_000 + b"0" + b"}" * 100_000)
        (d / "events.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    add("n22_deep_official_line", *both(d))
    return out


def check_dev_full(root: Path) -> dict:
    """n18: /dev/full must still be a character device."""
    return {"check": "n18 /dev/full still a char device",
            "ok": stat.S_ISCHR(os.stat("/dev/full").st_mode)}


def check_wal_truncated(root: Path) -> dict:
    """n19: hold a reader open (so the checkpoint cannot complete), record one more decision,
    then cut the -wal in half on a copy: `decisions verify` on the copy must not say intact."""
    import shutil

    st = root / "n19" / "decisions.sqlite3"
    cli = str(Path(__file__).resolve().parents[1] / ".venv" / "bin" / "moderator-app")
    lg = root / "n15"
    res: dict = {"check": "n19 -wal cut in half while a reader held it"}
    if not st.exists():
        return {**res, "ok": None, "why": "ledger not built"}
    reader = sqlite3.connect(st)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM decisions").fetchone()
    r = subprocess.run([cli, "decide", str(lg), "--accept", "--note", "n4", "--store", str(st)],
                       capture_output=True, text=True)
    copy = root / "n19c"
    shutil.rmtree(copy, ignore_errors=True)
    copy.mkdir()
    for f in st.parent.iterdir():
        shutil.copy(f, copy / f.name)
    reader.rollback()
    reader.close()
    wal = copy / "decisions.sqlite3-wal"
    res["wal_bytes"] = wal.stat().st_size if wal.exists() else None
    if wal.exists():
        data = wal.read_bytes()
        wal.write_bytes(data[: len(data) // 2])
    v = subprocess.run([cli, "decisions", "verify", "--store", str(copy / "decisions.sqlite3")],
                       capture_output=True, text=True)
    res.update(decide_exit=r.returncode, verify_exit=v.returncode,
               verify_out=(v.stdout + v.stderr)[-300:],
               ok=v.returncode != 0 or "intact" not in v.stdout.lower())
    return res


POST_CHECKS = [check_dev_full, check_wal_truncated]
ENV = {"n13_small_seeds_1_12": {"ALE_EVALUATOR_SECRET": SECRET},
       "n14_secret_with_escape": {"ALE_EVALUATOR_SECRET": ESC_SECRET}}
SECRETS = [SECRET, ESC_SECRET, "s10\x07sec"]
