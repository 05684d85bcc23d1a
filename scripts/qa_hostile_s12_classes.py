"""Issue 15 inputs of session 12's hostile task (docs/qa/session12-hostile.md; the QA pass's
own are scripts/qa_hostile_s12.py): classes that no earlier pass (docs/qa/session9-11,
tests/hostile_corpus.py) had tried. Deterministic (fixed
bytes, seeds and mtimes); written under `.cache/qa-s12-classes/hostile/`. Run:

    .venv/bin/python scripts/qa_hostile_s12_classes.py [ID-PREFIX...]

Each command goes through the shared runner (scripts/qa_common.run_hostile): prlimit 512 MiB,
timeout 60, time and peak RSS, no traceback / raw control character / secret / temp file.
"""

from __future__ import annotations

import io
import os
import signal
import sqlite3
import struct
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts")]

import hostile_corpus as hc  # noqa: E402
import orjson  # noqa: E402
import zstandard  # noqa: E402

MIB = 1 << 20
SECRET = "qa-s12-evaluator-secret-5d1c"
MARK = "QA-S12-PRIVATE"
SAMPLE = REPO / "resources" / "samples" / "community-sample"
CACHE = REPO / ".cache" / "qa-s12-classes"
CLI = [str(REPO / ".venv" / "bin" / "moderator-app")]


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def _sample_lines() -> list[bytes]:
    return (SAMPLE / "agent-log.jsonl").read_bytes().splitlines()


def _inject(line: bytes, fragment: bytes, key: bytes = b"x") -> bytes:
    """`line` (an event) with `data.<key>` set to the raw JSON text `fragment`."""
    ev = orjson.loads(line)
    ev["data"]["@@K@@"] = "@@X@@"
    return orjson.dumps(ev).replace(b'"@@X@@"', fragment).replace(b'"@@K@@"', b'"' + key + b'"')


def _community(folder: Path, log: bytes, video: Path | None = SAMPLE / "video.mp4",
               log_name: str = "agent-log.jsonl") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / log_name).write_bytes(log)
    if video is not None and not (folder / "video.mp4").exists():
        os.link(video, folder / "video.mp4")
    return folder


def _tar_bytes(entries: list[tuple[tarfile.TarInfo, bytes | None]]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
        for info, data in entries:
            info.mtime = hc.MTIME
            tf.addfile(info, io.BytesIO(data) if data is not None else None)
    return buf.getvalue()


def _reg(name: str, data: bytes) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info, data


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915 - one table
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []
    log = (SAMPLE / "agent-log.jsonl").read_bytes()
    video = (SAMPLE / "video.mp4").read_bytes()
    store = root / "ledger.sqlite3"

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in c]
                           for c in cmds]))

    def all_cmds(p, withhold: Path | None = None) -> list[list]:
        cmds = [["verify", p], ["verify", p, "--json"],
                ["decide", p, "--reject", "--reason", "other", "--note", "qa s12",
                 "--reviewer", "qa", "--store", store]]
        if withhold is not None:
            cmds.append(["withhold", withhold, "-o", root / "out.pub"])
        return cmds

    # s01: nested archives: zip { inner.tar { inner.zip { agent-log, video } } }
    p = root / "s01_nested.zip"
    if not p.exists():
        inner = io.BytesIO()
        with zipfile.ZipFile(inner, "w") as zf:
            zf.writestr("agent-log.jsonl", log)
            zf.writestr("video.mp4", video)
        tar = _tar_bytes([_reg("inner.zip", inner.getvalue())])
        with zipfile.ZipFile(p, "w") as zf:
            zf.writestr("inner.tar", tar)
    add("s01_nested_zip_tar_zip", *all_cmds(p))

    # s02: zip whose data descriptors / central sizes lie: the log claims half its size,
    # the video 1000x its size (written to a non-seekable stream: data descriptors)
    for tag, factor in (("half", 0.5), ("x1000", 1000)):
        p = root / f"s02_zip_dd_{tag}.zip"
        if not p.exists():
            class Unseekable(io.RawIOBase):
                def __init__(self) -> None:
                    self.buf = bytearray()

                def writable(self) -> bool:
                    return True

                def write(self, b) -> int:
                    self.buf += b
                    return len(b)

            sink = Unseekable()
            with zipfile.ZipFile(sink, "w", zipfile.ZIP_DEFLATED) as zf:  # type: ignore[arg-type]
                zf.writestr("agent-log.jsonl", log)
                zf.writestr("video.mp4", video)
            data = bytearray(sink.buf)
            target = b"agent-log.jsonl" if factor < 1 else b"video.mp4"
            at = 0
            while (at := data.find(b"PK\x01\x02", at)) >= 0:
                nlen = struct.unpack_from("<H", data, at + 28)[0]
                if bytes(data[at + 46:at + 46 + nlen]) == target:
                    usize = struct.unpack_from("<I", data, at + 24)[0]
                    struct.pack_into("<I", data, at + 24, min(int(usize * factor), 0xFFFFFFFE))
                at += 4
            p.write_bytes(bytes(data))
        add(f"s02_zip_descriptor_size_{tag}", *all_cmds(p))

    # s03: tar whose log size field is base-256 and NEGATIVE (0xff prefix)
    p = root / "s03_tar_b256_negative.tar"
    if not p.exists():
        data = bytearray(_tar_bytes([_reg("agent-log.jsonl", log), _reg("video.mp4", video)]))
        data[124:136] = b"\xff" * 11 + b"\xf0"  # -16
        chk = sum(data[:148]) + 8 * 32 + sum(data[156:512])
        data[148:156] = b"%06o\x00 " % chk
        p.write_bytes(bytes(data))
    add("s03_tar_base256_negative_size", *all_cmds(p))

    # s04: tar with device nodes and a FIFO under the role names, a hard link to the log
    p = root / "s04_tar_devices.tar"
    if not p.exists():
        ents = []
        for name, typ in (("video.mp4", tarfile.CHRTYPE), ("agent-log.jsonl", tarfile.FIFOTYPE),
                          ("clip.mkv", tarfile.BLKTYPE)):
            info = tarfile.TarInfo(name)
            info.type = typ
            info.devmajor, info.devminor = 1, 3
            ents.append((info, None))
        link = tarfile.TarInfo("logs/agent-log.jsonl")
        link.type = tarfile.LNKTYPE
        link.linkname = "/etc/shadow"
        ents.append((link, None))
        p.write_bytes(_tar_bytes(ents))
    add("s04_tar_devices_fifo_hardlink", *all_cmds(p))

    lines = _sample_lines()

    # s05: a valid line nested 100,000 deep (arrays) and one nested 100,000 deep (objects)
    d = root / "s05_deep"
    lines5 = list(lines)
    lines5[1] = _inject(lines[1], b"[" * 100_000 + b"]" * 100_000)
    lines5[3] = _inject(lines[3], b'{"a":' * 100_000 + b"1" + b"}" * 100_000)
    _community(d, b"\n".join(lines5) + b"\n")
    add("s05_valid_json_nested_100k", *all_cmds(d, d / "agent-log.jsonl"))

    # s06: numbers of 10^6 digits (integer, fraction) and a 10-digit exponent
    d = root / "s06_numbers"
    lines6 = list(lines)
    lines6[1] = _inject(lines[1], b"9" * 1_000_000)
    lines6[2] = _inject(lines[2], b"0." + b"3" * 1_000_000)
    lines6[3] = _inject(lines[3], b"1e9999999999")
    lines6[4] = _inject(lines[4], b"-" + b"1" * 999_999 + b"e-999999999")
    _community(d, b"\n".join(lines6) + b"\n")
    add("s06_numbers_1e6_digits", *all_cmds(d, d / "agent-log.jsonl"))

    # s07: escaped lone and reversed surrogates, in keys and values
    d = root / "s07_surrogates"
    lines7 = list(lines)
    lines7[1] = _inject(lines[1], b'"\\udfff\\ud800x"', key=b"\\ud800")
    lines7[2] = _inject(lines[2], b'["\\ud800", "\\udc00\\udc00", "\\ud83d"]')
    _community(d, b"\n".join(lines7) + b"\n")
    add("s07_lone_surrogates", *all_cmds(d, d / "agent-log.jsonl"))

    # s08: a UTF-8 BOM at the start of the file and of two other lines
    d = root / "s08_bom"
    lines8 = list(lines)
    for i in (0, 5, 9):
        lines8[i] = b"\xef\xbb\xbf" + lines8[i]
    _community(d, b"\n".join(lines8) + b"\n")
    add("s08_bom_line_starts", *all_cmds(d, d / "agent-log.jsonl"))

    # s09: zstd frames whose header claims a 2 GiB content size over a small log
    d = root / "s09_zstd_fcs"
    p = d / "agent-log.jsonl.zst"
    if not p.exists():
        d.mkdir(parents=True, exist_ok=True)
        frame = bytearray(zstandard.ZstdCompressor(level=3, write_content_size=True)
                          .compress(log * 8))  # > 64 KiB: a 4-byte size field
        desc = frame[4]
        assert desc >> 6 == 2, hex(desc)
        off = 5 + (0 if desc & 0x20 else 1)
        struct.pack_into("<I", frame, off, 0x80000000)
        p.write_bytes(bytes(frame))
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
    add("s09_zstd_claims_2gib", *all_cmds(d))

    # s10: CR, CRLF and LF mixed line ends
    d = root / "s10_crlf"
    ends = [b"\r\n", b"\r", b"\n", b"\r\r\n", b"\n\r"]
    _community(d, b"".join(x + ends[i % len(ends)] for i, x in enumerate(lines)))
    add("s10_cr_crlf_mix", *all_cmds(d, d / "agent-log.jsonl"))

    # s11: NUL in strings: escaped \u0000 (valid) in a value and a key; a raw NUL (invalid)
    d = root / "s11_nul"
    lines11 = list(lines)
    lines11[1] = _inject(lines[1], b'"a\\u0000b"', key=b"k\\u0000")
    lines11[2] = _inject(lines[2], b'"raw\x00nul"')
    _community(d, b"\n".join(lines11) + b"\n")
    add("s11_nul_in_strings", *all_cmds(d, d / "agent-log.jsonl"))

    # s12: the video is a PNG; s12b: an animated GIF (two frames 60 s apart) named .mp4
    d = root / "s12_png"
    if not (d / "video.mp4").exists():
        d.mkdir(parents=True, exist_ok=True)
        _ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=1", "-frames:v", "1",
                "-f", "image2", "-c:v", "png", str(d / "video.mp4"))
    _community(d, log, video=None)
    add("s12_video_is_png", *all_cmds(d))
    d = root / "s12b_gif"
    if not (d / "video.mp4").exists():
        d.mkdir(parents=True, exist_ok=True)
        _ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x90:rate=1/60", "-frames:v", "2",
                "-f", "gif", str(d / "video.mp4"))
    _community(d, log, video=None)
    add("s12b_video_is_gif_2_frames_60s", *all_cmds(d))
    d = root / "s12c_gif_honest"
    if not (d / "video.mp4").exists():
        d.mkdir(parents=True, exist_ok=True)
        _ffmpeg("-i", str(SAMPLE / "video.mp4"), "-f", "gif", str(d / "video.mp4"))
    _community(d, log, video=None)
    add("s12c_video_is_gif_of_the_sample", *all_cmds(d))

    # s13: an MKV with 1,000 video streams (a 16x16 one-second stream mapped 1,000 times)
    d = root / "s13_mkv_1000"
    if not (d / "video.mkv").exists():
        d.mkdir(parents=True, exist_ok=True)
        small = d / "small.mkv"
        _ffmpeg("-f", "lavfi", "-i", "testsrc2=size=16x16:rate=10,trim=duration=1",
                "-c:v", "libx264", "-preset", "ultrafast", str(small))
        maps = [a for _ in range(1000) for a in ("-map", "0:v:0")]
        _ffmpeg("-i", str(small), *maps, "-c", "copy", str(d / "video.mkv"))
        small.unlink()
    _community(d, log, video=None)
    add("s13_mkv_1000_video_streams", *all_cmds(d))

    # s14: decision notes and reviewer at the argv limit (128 KiB), full of escapes and lines
    d = _community(root / "s14_note", log)
    big = ("\x1b[2J\u202e" + "line\n" * 8 + "\x07") * 2500  # ~ 120 KiB (one argument may hold 128 KiB)
    add("s14_note_120k", ["decide", d, "--reject", "--reason", "other", "--note", big,
                          "--reviewer", "\x1b]0;x\x07" + "r" * 100_000, "--store", store],
        ["decisions", "list", "--store", store],
        ["decisions", "export", "--format", "csv", "--store", store, "--out", root / "s14.csv"],
        ["decisions", "verify", "--store", store])

    # s15: the ledger is a FIFO (nobody writes it): decide, list, verify, export
    fifo = root / "s15_fifo.sqlite3"
    if not fifo.exists():
        os.mkfifo(fifo)
    add("s15_ledger_is_fifo",
        ["decide", d, "--accept", "--store", fifo],
        ["decisions", "list", "--store", fifo],
        ["decisions", "verify", "--store", fifo],
        ["decisions", "export", "--format", "csv", "--store", fifo, "--out", root / "s15.csv"])

    # s16: the ledger's folder is read-only (a read-only bind mount; root ignores modes)
    ro = root / "s16_ro"
    ro.mkdir(exist_ok=True)
    add("s16_ledger_dir_readonly",
        ["decide", d, "--accept", "--store", ro / "ledger.sqlite3"],
        ["decisions", "list", "--store", ro / "ledger.sqlite3"],
        ["decisions", "verify", "--store", ro / "ledger.sqlite3"])

    # s17: the submission path is a symlink loop; a folder whose log is a symlink loop
    loop = root / "s17_loop"
    if not loop.is_symlink():
        os.symlink(root / "s17_loop2", loop)
        os.symlink(loop, root / "s17_loop2")
    d = root / "s17_folder"
    d.mkdir(exist_ok=True)
    if not (d / "agent-log.jsonl").is_symlink():
        os.symlink(d / "agent-log.jsonl", d / "agent-log.jsonl")
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
    add("s17_symlink_loop", *all_cmds(loop), *all_cmds(d), ["withhold", loop, "-o",
                                                            root / "out.pub"])

    # s18: the secret is set and appears in the log (a leak the product must not echo)
    d = root / "s18_secret_in_log"
    lines18 = list(lines)
    lines18[1] = _inject(lines[1], orjson.dumps(f"{SECRET} and {MARK}"))
    _community(d, b"\n".join(lines18) + b"\n")
    add("s18_secret_in_log_text", *all_cmds(d, d / "agent-log.jsonl"))
    # s20: the official sample's trajectory with hostile payloads (each case: its own
    # folder), through the C engine and the pure-Python one (MODERATOR_APP_NATIVE=0)
    official = zstandard.ZstdDecompressor().decompressobj().decompress(
        (REPO / "resources/samples/official-sample/events.jsonl.zst").read_bytes()).splitlines()
    payloads = {
        "deep_arrays_100k": b"[" * 100_000 + b"]" * 100_000,
        "deep_objects_100k": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        "int_1e6_digits": b"7" * 1_000_000,
        "frac_1e6_digits": b"0." + b"1" * 1_000_000,
        "exp_huge": b"1e9999999999",
        "surrogates": b'["\\ud800", "\\udfff\\ud800", {"\\udc00": 1}]',
        "nul": b'"a\\u0000b"',
        "raw_nul": b'"a\x00b"',
    }
    for tag, frag in payloads.items():
        d = root / f"s20_official_{tag}"
        p = d / "events.jsonl.zst"
        if not p.exists():
            lines20 = list(official)
            ev = orjson.loads(lines20[5])
            ev["payload"]["@@K@@"] = "@@X@@"
            lines20[5] = orjson.dumps(ev).replace(b'"@@X@@"', frag)
            _write(p, zstandard.ZstdCompressor(level=3).compress(b"\n".join(lines20) + b"\n"))
            os.link(REPO / "resources/samples/official-sample/video.mp4", d / "video.mp4")
        add(f"s20_official_{tag}", ["verify", d], ["verify", d, "--json"],
            ["decide", d, "--reject", "--reason", "other", "--note", "n", "--store", store])
        add(f"s20_official_{tag}_py", ["verify", d, "--json"])  # the pure-Python engine
    # BOM and CR line ends in an official trajectory
    d = root / "s20_official_bom_cr"
    p = d / "events.jsonl.zst"
    if not p.exists():
        lines20 = list(official)
        lines20[0] = b"\xef\xbb\xbf" + lines20[0]
        lines20[7] = b"\xef\xbb\xbf" + lines20[7]
        body = b"".join(x + (b"\r\n" if i % 3 == 0 else b"\r" if i % 3 == 1 else b"\n")
                        for i, x in enumerate(lines20))
        _write(p, zstandard.ZstdCompressor(level=3).compress(body))
        os.link(REPO / "resources/samples/official-sample/video.mp4", d / "video.mp4")
    add("s20_official_bom_cr", ["verify", d], ["verify", d, "--json"])
    add("s20_official_bom_cr_py", ["verify", d, "--json"])
    return out


def check_readonly(root: Path) -> dict:
    """s16 again inside a private mount namespace where the folder is read-only (root
    ignores file modes): decide must refuse cleanly; list/verify must read."""
    ro = root / "s16_ro"
    store = ro / "ledger.sqlite3"
    d = root / "s14_note"
    subprocess.run([*CLI, "decide", str(d), "--accept", "--store", str(store)],
                   capture_output=True)
    script = (f"mount --bind {ro} {ro} && mount -o remount,bind,ro {ro} && "
              f"{CLI[0]} decide {d} --accept --store {store}; echo rc=$?; "
              f"{CLI[0]} decisions list --store {store}; echo rc=$?; "
              f"{CLI[0]} decisions verify --store {store}; echo rc=$?")
    r = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True)
    return {"case": "s16_ro_mount", "stdout": r.stdout[-600:], "stderr": r.stderr[-600:],
            "traceback": "Traceback" in r.stdout + r.stderr}


def check_sigterm_decide(root: Path) -> dict:
    """SIGTERM while `decide` verifies a large log (40 MB), at 8 moments; after each, the
    ledger must be intact and hold either the decision or nothing of it."""
    d = root / "s19_big"
    if not (d / "agent-log.jsonl").exists():
        from moderator_app.core.samples.community import make_agent_log

        d.mkdir(parents=True, exist_ok=True)
        make_agent_log(d / "agent-log.jsonl", 150_000, 19)
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
    store = root / "s19.sqlite3"
    for suffix in ("", "-wal", "-shm", ".head"):
        Path(str(store) + suffix).unlink(missing_ok=True)
    rows = []
    for delay in (0.3, 0.6, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0):
        p = subprocess.Popen([*CLI, "decide", str(d), "--reject", "--reason", "other",
                              "--note", "n", "--store", str(store)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(delay)
        p.send_signal(signal.SIGTERM)
        _out, err = p.communicate(timeout=120)
        v = subprocess.run([*CLI, "decisions", "verify", "--store", str(store)],
                           capture_output=True, text=True)
        n = 0
        if store.exists():
            with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
                n = db.execute("select count(*) from sqlite_master").fetchone()[0]
        rows.append({"delay": delay, "decide_exit": p.returncode,
                     "traceback": b"Traceback" in err, "verify_exit": v.returncode,
                     "verify": (v.stdout + v.stderr).strip()[-160:], "tables": n})
    return {"case": "s19_sigterm_mid_decide", "rows": rows}


POST_CHECKS = [check_readonly, check_sigterm_decide]


class _EveryCase(dict):
    """The evaluator secret is set for every command (it must never be printed)."""

    def get(self, key, default=None):
        env = {"ALE_EVALUATOR_SECRET": SECRET}
        if key.endswith("_py"):  # the pure-Python engine (the C accelerator switched off)
            env["MODERATOR_APP_NATIVE"] = "0"
        return env


ENV = _EveryCase()
SECRETS = [SECRET]


if __name__ == "__main__":
    from qa_common import run_hostile

    run_hostile(sys.modules[__name__], CACHE, sys.argv[1:])
