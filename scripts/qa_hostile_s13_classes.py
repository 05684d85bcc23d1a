"""Issue 15 inputs of session 13's hostile task (docs/qa/session13-hostile.md): classes that no
earlier pass (docs/qa/session9-12*, tests/hostile_corpus.py, scripts/qa_hostile_s12*.py) had
tried. Deterministic (fixed bytes, seeds and mtimes); written under
`.cache/qa-s13-classes/hostile/` (the video bombs need ffmpeg). Run:

    .venv/bin/python scripts/qa_hostile_s13_classes.py [ID-PREFIX...]

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
import unicodedata
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts")]

import hostile_corpus as hc  # noqa: E402
import orjson  # noqa: E402
import zstandard  # noqa: E402

SECRET = "qa-s13-evaluator-secret-81f0"
MARK = "QA-S13-PRIVATE"
SAMPLE = REPO / "resources" / "samples" / "community-sample"
OFFICIAL = REPO / "resources" / "samples" / "official-sample"
CACHE = REPO / ".cache" / "qa-s13-classes"
CLI = [str(REPO / ".venv" / "bin" / "moderator-app")]


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def _tar(entries: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tf:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), hc.MTIME
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _failing_log(log: bytes) -> bytes:
    """The sample's log with line 3 cut in half: `log.json`, a failing run."""
    lines = log.splitlines()
    lines[2] = lines[2][: len(lines[2]) // 2]
    return b"\n".join(lines) + b"\n"


# -- H.264 SPS rewriting (a tiny stream whose SPS claims a huge picture) ----------------------
class _Bits:
    def __init__(self, data: bytes) -> None:
        self.bits = "".join(f"{b:08b}" for b in data)
        self.i = 0

    def u(self, n: int) -> int:
        v = int(self.bits[self.i:self.i + n] or "0", 2)
        self.i += n
        return v

    def ue(self) -> int:
        zeros = 0
        while self.bits[self.i] == "0":
            zeros += 1
            self.i += 1
        self.i += 1  # the 1
        rest = self.u(zeros) if zeros else 0
        return (1 << zeros) - 1 + rest


def _ue_bits(v: int) -> str:
    b = bin(v + 1)[2:]
    return "0" * (len(b) - 1) + b


def _unescape(nal: bytes) -> bytes:
    return nal.replace(b"\x00\x00\x03", b"\x00\x00")


def _escape(rbsp: bytes) -> bytes:
    out = bytearray()
    zeros = 0
    for b in rbsp:
        if zeros >= 2 and b <= 3:
            out.append(3)
            zeros = 0
        out.append(b)
        zeros = zeros + 1 if b == 0 else 0
    return bytes(out)


def _patch_sps(rbsp: bytes, width_mbs: int, height_mbs: int) -> bytes:
    r = _Bits(rbsp)
    profile = r.u(8)
    r.u(16)
    r.ue()  # sps id
    if profile in (100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135):
        if r.ue() == 3:
            r.u(1)
        r.ue()
        r.ue()
        r.u(1)
        assert r.u(1) == 0, "scaling matrices not handled"
    r.ue()  # log2_max_frame_num_minus4
    poc = r.ue()
    if poc == 0:
        r.ue()
    assert poc != 1
    r.ue()  # max_num_ref_frames
    r.u(1)
    start = r.i
    r.ue()
    r.ue()
    end = r.i
    bits = (r.bits[:start] + _ue_bits(width_mbs - 1) + _ue_bits(height_mbs - 1)
            + r.bits[end:])
    bits = bits.rstrip("0")  # the old trailing bits ...
    bits = bits[:-1] + "1"  # ... the stop bit stays the last 1
    bits += "0" * (-len(bits) % 8)
    return int(bits, 2).to_bytes(len(bits) // 8, "big")


def make_h264_sps_bomb(path: Path, side: int) -> Path:
    """A 16x16 baseline H.264 stream (Annex B) whose SPS says side x side pixels."""
    if path.exists():
        return path
    raw = path.with_suffix(".src.h264")
    _ffmpeg("-f", "lavfi", "-i", "color=gray:s=16x16:r=10:d=2", "-c:v", "libx264",
            "-profile:v", "baseline", "-preset", "ultrafast", "-bsf:v", "h264_mp4toannexb",
            str(raw))
    data = raw.read_bytes()
    parts = data.split(b"\x00\x00\x01")
    out = []
    for p in parts:
        if p and (p[0] & 0x1F) == 7:
            body = _unescape(p[1:].rstrip(b"\x00"))
            p = p[:1] + _escape(_patch_sps(body, side // 16, side // 16))
            p += b"\x00"
        out.append(p)
    path.write_bytes(b"\x00\x00\x01".join(out))
    raw.unlink()
    return path


def _box_patch(data: bytearray, kind: bytes, fn) -> None:
    i = data.index(kind)
    fn(data, i + 4)  # just past the type: version/flags


def make_mp4_stts_bomb(path: Path) -> Path:
    """The sample's MP4 with stts claiming 2^31-1 samples of the first delta."""
    if not path.exists():
        data = bytearray((SAMPLE / "video.mp4").read_bytes())
        _box_patch(data, b"stts", lambda d, i: d.__setitem__(slice(i + 8, i + 12),
                                                            struct.pack(">I", 0x7FFFFFFF)))
        _write(path, bytes(data))
    return path


def make_mp4_stsz_bomb(path: Path) -> Path:
    """The sample's MP4 with stsz a constant size of 1 byte for 2^31-1 samples (no table)."""
    if not path.exists():
        data = bytearray((SAMPLE / "video.mp4").read_bytes())
        _box_patch(data, b"stsz", lambda d, i: d.__setitem__(slice(i + 4, i + 12),
                                                            struct.pack(">II", 1, 0x7FFFFFFF)))
        _write(path, bytes(data))
    return path


def make_mkv_huge_element(path: Path, element: bytes) -> Path:
    """The sample as MKV with `element`'s (Segment / Cluster) size set to 2^56 - 2."""
    if path.exists():
        return path
    src = path.with_suffix(".src.mkv")
    _ffmpeg("-i", str(SAMPLE / "video.mp4"), "-c", "copy", str(src))
    data = bytearray(src.read_bytes())
    i = data.index(element) + 4
    first = data[i]
    n = next(k for k in range(8) if first & (0x80 >> k)) + 1
    huge = (0x01 << 56) | (2 ** 56 - 2)  # an 8-byte vint: marker 0x01, value 2^56 - 2
    data[i:i + n] = huge.to_bytes(8, "big")
    _write(path, bytes(data))
    src.unlink()
    return path


def _ebml_elements(data: bytes, pos: int = 0, end: int | None = None):
    """(id bytes, payload start, payload end) of each EBML element in data[pos:end]."""
    end = len(data) if end is None else end
    while pos < end:
        n = next(k for k in range(4) if data[pos] & (0x80 >> k)) + 1
        eid = data[pos:pos + n]
        pos += n
        m = next(k for k in range(8) if data[pos] & (0x80 >> k)) + 1
        size = int.from_bytes(data[pos:pos + m], "big") & ((1 << (7 * m)) - 1)
        pos += m
        if size == (1 << (7 * m)) - 1:  # unknown size: to the end
            size = end - pos
        yield eid, pos, min(pos + size, end)
        pos += size


def _ebml(eid: bytes, payload: bytes) -> bytes:
    return eid + ((1 << 56) | len(payload)).to_bytes(8, "big") + payload


def make_many_streams(path: Path, n: int) -> Path:
    """An MKV of one 16x16 H.264 track whose Tracks element lists it `n` times (numbers 1..n,
    only track 1 has packets). FFmpeg's muxers stop at 1,000 streams (`max_streams`), so the
    file is written by hand: SeekHead and Cues dropped, the Segment of unknown size."""
    if path.exists():
        return path
    src = path.with_suffix(".src.mkv")
    _ffmpeg("-f", "lavfi", "-i", "color=gray:s=16x16:r=10:d=1", "-c:v", "libx264",
            "-preset", "ultrafast", str(src))
    data = src.read_bytes()
    out = bytearray()
    for eid, a, b in _ebml_elements(data):
        if eid != b"\x18\x53\x80\x67":  # the EBML header
            out += _ebml(eid, data[a:b])
            continue
        body = bytearray()
        for cid, ca, cb in _ebml_elements(data, a, b):
            if cid in (b"\x11\x4d\x9b\x74", b"\x1c\x53\xbb\x6b"):  # SeekHead, Cues
                continue
            if cid != b"\x16\x54\xae\x6b":  # not Tracks
                body += _ebml(cid, data[ca:cb])
                continue
            entry = next((ta, tb) for tid, ta, tb in _ebml_elements(data, ca, cb)
                         if tid == b"\xae")
            fields = [(fid, data[fa:fb]) for fid, fa, fb in _ebml_elements(data, *entry)]
            tracks = bytearray()
            for k in range(1, n + 1):
                te = bytearray()
                for fid, val in fields:
                    if fid == b"\xd7":
                        val = k.to_bytes(2, "big")
                    elif fid == b"\x73\xc5":
                        val = (0x5000_0000 + k).to_bytes(8, "big")
                    te += _ebml(fid, val)
                tracks += _ebml(b"\xae", bytes(te))
            body += _ebml(cid, bytes(tracks))
        out += eid + b"\x01\xff\xff\xff\xff\xff\xff\xff" + body  # unknown size
    path.write_bytes(bytes(out))
    src.unlink()
    return path


def make_y4m_many_frames(path: Path, frames: int) -> Path:
    """A 1x1 grey (mono) Y4M at 1000 fps: 7 bytes a frame."""
    if not path.exists():
        with open(path, "wb") as f:
            f.write(b"YUV4MPEG2 W1 H1 F1000:1 Ip A1:1 Cmono\n")
            chunk = b"FRAME\n\x80" * 100_000
            for _ in range(frames // 100_000):
                f.write(chunk)
    return path


# -- official trajectories with JCS-hard numbers in chained places ---------------------------
def official_with_number(fragment: bytes, value) -> bytes:
    """The official sample's trajectory, event 5's payload given `x`: `fragment` as written,
    the chain sealed over `value` (what the number means), so only the number is in question."""
    from moderator_app.core.formats.chain import seal

    raw = zstandard.ZstdDecompressor().decompressobj().decompress(
        (OFFICIAL / "events.jsonl.zst").read_bytes()).splitlines()
    events = [orjson.loads(x) for x in raw]
    prev = "0" * 64
    lines = []
    for i, ev in enumerate(events):
        if i == 5:
            ev["payload"]["x"] = value
        sealed = seal(ev, prev)
        prev = sealed["hash"]
        if i == 5:
            sealed["payload"]["x"] = "@@X@@"
            lines.append(orjson.dumps(sealed).replace(b'"@@X@@"', fragment))
        else:
            lines.append(orjson.dumps(sealed))
    return zstandard.ZstdCompressor(level=3).compress(b"\n".join(lines) + b"\n")


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915 - one table
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []
    log = (SAMPLE / "agent-log.jsonl").read_bytes()
    video = (SAMPLE / "video.mp4").read_bytes()
    store = root / "ledger.sqlite3"

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in c]
                           for c in cmds]))

    def all_cmds(*p) -> list[list]:
        return [["verify", *p], ["verify", "--json", *p],
                ["decide", *p, "--reject", "--reason", "other", "--note", "qa s13",
                 "--reviewer", "qa", "--store", store]]

    def with_video(name: str, vpath: Path) -> None:
        d = root / name
        d.mkdir(exist_ok=True)
        if not (d / "agent-log.jsonl").exists():
            (d / "agent-log.jsonl").write_bytes(log)
        add(name, *all_cmds(d / "agent-log.jsonl", vpath),
            ["frame", d / "agent-log.jsonl", vpath, "--line", "10", "-o", root / "f.png"])

    # t01-t06: video decoder and demuxer memory bombs (the video child must stay bounded)
    vd = root / "videos"
    vd.mkdir(exist_ok=True)
    with_video("t01_h264_sps_16384", make_h264_sps_bomb(vd / "sps16384.h264", 16384))
    with_video("t01b_h264_sps_8192", make_h264_sps_bomb(vd / "sps8192.h264", 8192))
    p = vd / "x264_8192.mp4"
    if not p.exists():
        _ffmpeg("-f", "lavfi", "-i", "color=black:s=8192x8192:r=1:d=1", "-frames:v", "1",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(p))
    with_video("t01c_real_8192x8192_frame", p)
    with_video("t02_mp4_stts_2e31", make_mp4_stts_bomb(vd / "stts.mp4"))
    with_video("t02b_mp4_stsz_const_2e31", make_mp4_stsz_bomb(vd / "stsz.mp4"))
    with_video("t03_mkv_segment_2e56", make_mkv_huge_element(vd / "seg.mkv", b"\x18\x53\x80\x67"))
    with_video("t03b_mkv_cluster_2e56",
               make_mkv_huge_element(vd / "cluster.mkv", b"\x1f\x43\xb6\x75"))
    with_video("t04_mkv_10000_streams", make_many_streams(vd / "streams10000.mkv", 10_000))
    with_video("t05_y4m_1x1_1e7_frames", make_y4m_many_frames(vd / "tiny.y4m", 10_000_000))

    # t06: FFmpeg protocol / pattern / option-like member names, as the only video of a zip
    for tag, name in (("concat", "concat:video.mp4|video.mp4"),
                      ("subfile", "subfile,,start,0,end,100,,:video.mp4"),
                      ("image2", "frame%d.mp4"), ("dash", "-i.mp4"), ("pipe", "a|b.mp4"),
                      ("file", "file:video.mp4")):
        p = root / f"t06_{tag}.zip"
        if not p.exists():
            with zipfile.ZipFile(p, "w") as zf:
                zf.writestr("agent-log.jsonl", log)
                zf.writestr(name, video)
        add(f"t06_member_name_{tag}", *all_cmds(p))

    # t07: zip whose central directory and local header disagree about the log's name
    p = root / "t07_zip_names_disagree.zip"
    if not p.exists():
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            zf.writestr("agent-log.jsonl", _failing_log(log))
            zf.writestr("video.mp4", video)
        data = bytearray(buf.getvalue())
        i = data.index(b"PK\x03\x04")  # the first local header: a name of the same length
        n = struct.unpack("<H", data[i + 26:i + 28])[0]
        assert bytes(data[i + 30:i + 30 + n]) == b"agent-log.jsonl"
        data[i + 30:i + 30 + n] = b"agent-log.jsonx"
        _write(p, bytes(data))
    add("t07_zip_cd_vs_local_names", *all_cmds(p))

    # t08: tar members differing only in Unicode normalisation (NFC vs NFD folders)
    nfc, nfd = unicodedata.normalize("NFC", "runé"), unicodedata.normalize("NFD", "runé")
    for tag, first, second in (("fail_first", _failing_log(log), log),
                               ("honest_first", log, _failing_log(log))):
        p = root / f"t08_nfc_nfd_{tag}.tar"
        if not p.exists():
            _write(p, _tar([(f"{nfc}/agent-log.jsonl", first), (f"{nfd}/agent-log.jsonl", second),
                            (f"{nfc}/video.mp4", video)]))
        add(f"t08_nfc_nfd_{tag}", *all_cmds(p))

    # t09: the same role twice at different depths (tar, zip, folder)
    for tag, top, deep in (("fail_top", _failing_log(log), log),
                           ("honest_top", log, _failing_log(log))):
        p = root / f"t09_two_logs_{tag}.tar"
        if not p.exists():
            _write(p, _tar([("agent-log.jsonl", top), ("sub/agent-log.jsonl", deep),
                            ("video.mp4", video)]))
        add(f"t09_two_logs_tar_{tag}", *all_cmds(p))
        d = root / f"t09_two_logs_dir_{tag}"
        if not d.exists():
            _write(d / "agent-log.jsonl", top)
            _write(d / "sub" / "agent-log.jsonl", deep)
            _write(d / "video.mp4", video)
        add(f"t09_two_logs_dir_{tag}", *all_cmds(d))

    # t10: JCS-hard numbers in a chained payload, both engines (the _py cases: pure Python)
    for tag, frag, value in (("1e400", b"1e400", 1.5), ("neg_zero", b"-0.0", -0.0),
                             ("1E+2", b"1E+2", 100.0), ("neg_int_zero", b"-0", 0),
                             ("1e-400", b"1e-400", 0.0), ("min_subnormal", b"5e-324", 5e-324),
                             ("0.1e1", b"0.1e1", 1.0), ("big_int", b"9007199254740993",  # sealed over 1
                                                        1)):
        d = root / f"t10_official_{tag}"
        if not (d / "events.jsonl.zst").exists():
            _write(d / "events.jsonl.zst", official_with_number(frag, value))
            os.link(OFFICIAL / "video.mp4", d / "video.mp4")
        add(f"t10_official_{tag}", ["verify", "--json", d])
        add(f"t10_official_{tag}_py", ["verify", "--json", d])

    # t11: a raw (UTF-8-encoded) lone surrogate in a line: ED A0 80, community and official
    d = root / "t11_raw_surrogate_log"
    if not d.exists():
        lines = log.splitlines()
        lines[4] = lines[4].replace(b'"', b'"\xed\xa0\x80', 1)
        _write(d / "agent-log.jsonl", b"\n".join(lines) + b"\n")
        _write(d / "video.mp4", video)
    add("t11_raw_surrogate_community", *all_cmds(d),
        ["withhold", d / "agent-log.jsonl", "-o", root / "out.pub"])
    d = root / "t11_raw_surrogate_official"
    if not d.exists():
        raw = zstandard.ZstdDecompressor().decompressobj().decompress(
            (OFFICIAL / "events.jsonl.zst").read_bytes()).splitlines()
        raw[5] = raw[5].replace(b'"text":"', b'"text":"\xed\xa0\x80', 1)
        _write(d / "events.jsonl.zst", zstandard.ZstdCompressor().compress(b"\n".join(raw)
                                                                           + b"\n"))
        os.link(OFFICIAL / "video.mp4", d / "video.mp4")
    add("t11_raw_surrogate_official", ["verify", "--json", d])
    add("t11_raw_surrogate_official_py", ["verify", "--json", d])

    # t12: --reviewer with newlines and ESC; the longest note argv allows (128 KiB - 1)
    add("t12_reviewer_newline_esc",
        ["decide", SAMPLE, "--accept", "--reviewer", "qa\nfake line\x1b[2J\x1b]0;title\x07",
         "--store", root / "t12.sqlite3"],
        ["decisions", "list", "--store", root / "t12.sqlite3"],
        ["decisions", "export", "--format", "csv", "--out", "-", "--store", root / "t12.sqlite3"])
    add("t12b_note_131071", ["decide", SAMPLE, "--reject", "--reason", "other", "--note",
                             "\x1b[31m" + "n\n" * 65_530, "--store", root / "t12b.sqlite3"])
    return out


def check_wal_symlink(root: Path) -> dict:
    """The ledger's `-wal` is a symlink (to a file elsewhere, to /dev/zero, to nothing):
    decide / list / verify must neither write through it nor hang."""
    rows = []
    for tag in ("file", "dev_zero", "dangling"):
        d = root / f"t13_wal_{tag}"
        subprocess.run(["rm", "-rf", str(d)], check=True)
        d.mkdir(parents=True)
        store = d / "decisions.sqlite3"
        subprocess.run([*CLI, "decide", str(SAMPLE), "--accept", "--store", str(store)],
                       capture_output=True, timeout=120)
        wal = Path(str(store) + "-wal")
        wal.unlink(missing_ok=True)
        target = {"file": d / "elsewhere.bin", "dev_zero": Path("/dev/zero"),
                  "dangling": d / "gone"}[tag]
        if tag == "file":
            target.write_bytes(b"precious " * 100)
        os.symlink(target, wal)
        row: dict = {"case": f"t13_wal_symlink_{tag}"}
        for name, args in (("decide", ["decide", str(SAMPLE), "--accept"]),
                           ("list", ["decisions", "list"]), ("verify", ["decisions", "verify"])):
            t0 = time.monotonic()
            try:
                r = subprocess.run(["prlimit", "--as=536870912", *CLI, *args, "--store",
                                    str(store)], capture_output=True, timeout=60)
                row[name] = (r.returncode, round(time.monotonic() - t0, 1),
                             (r.stdout + r.stderr).decode("utf-8", "replace").strip()[-200:],
                             b"Traceback" in r.stdout + r.stderr)
            except subprocess.TimeoutExpired:
                row[name] = "HANG (60 s)"
        if tag == "file":
            row["target_untouched"] = target.read_bytes() == b"precious " * 100
        row["wal_still_symlink"] = wal.is_symlink()
        rows.append(row)
    return {"case": "t13_wal_symlink", "rows": rows}


def check_sigterm_decide(root: Path) -> dict:
    """SIGTERM while `decide` verifies a 150,000-event log: exit 143 or recorded (0), the
    ledger intact after each."""
    d = root / "t14_big"
    if not (d / "agent-log.jsonl").exists():
        from moderator_app.core.samples.community import make_agent_log

        d.mkdir(parents=True, exist_ok=True)
        make_agent_log(d / "agent-log.jsonl", 150_000, 23)
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
    store = root / "t14.sqlite3"
    for suffix in ("", "-wal", "-shm", ".head"):
        Path(str(store) + suffix).unlink(missing_ok=True)
    rows = []
    for delay in (0.5, 1.2, 2.5, 4.0, 7.0):
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
                n = db.execute("select count(*) from decisions").fetchone()[0]
        rows.append({"delay": delay, "decide_exit": p.returncode,
                     "traceback": b"Traceback" in err, "verify_exit": v.returncode,
                     "verify": (v.stdout + v.stderr).strip()[-120:], "records": n})
    return {"case": "t14_sigterm_mid_decide", "rows": rows}


POST_CHECKS = [check_wal_symlink, check_sigterm_decide]


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
