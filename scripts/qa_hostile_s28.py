"""Issue 15 classes of session 28's QA pass (docs/qa/session28.md), archive and output classes
no earlier pass or sweep used (grep of scripts/qa_hostile_s*.py, scripts/hostile_sweep_s*.py,
tests/hostile_corpus.py: no self-extracting zip, no streamed zip with data descriptors, no
UTF-8-flagged zip name of invalid bytes, no Info-ZIP Unicode Path extra field (0x7075), no tar
type '7' or 'M' member, no two-stream .tar.gz, no pax xattr flood, no zip64 record whose count
lies, no CR-spoofing member name, no OSC 8 / DCS in zip names, no Unicode TAG characters, no
secret as a JSON member name, no ledger head that is a symlink to /dev/zero or a 300 MiB sparse
file, no backslash-separated member paths):

- h28_01 zip_sfx_stub: 64 KiB of an executable stub before a zip (a self-extracting archive)
  holding a FAILING log (a `human` action) and the video: never PASS;
- h28_02 zip_streamed_dd: a zip written to a pipe (general-purpose bit 3: sizes 0 in the
  local headers, data descriptors after the data) holding the failing log: never PASS;
- h28_03 zip_utf8flag_bad_name: the honest sample plus a member whose name has the UTF-8 flag
  (0x800) but bytes that are not UTF-8 (0xFF 0xFE, an ESC): read or refused, no traceback;
- h28_04 zip_unicode_path_extra: the honest sample plus `readme.txt` holding the failing log
  whose Info-ZIP Unicode Path extra field (0x7075) names it `agent-log.jsonl` (`unzip` writes
  it over the honest log): judged as an observation (see the doc);
- h28_05 tar_type7_dup_log: the honest log, then the failing log under the same name as a
  type '7' (contiguous file) member (`tar -x` leaves the failing one): never PASS;
- h28_06 tar_gnu_multivol: the failing log as a GNU multi-volume continuation ('M') member:
  never PASS, no traceback;
- h28_07 targz_two_streams: a .tar.gz of two gzip members: the honest sample's tar (no end
  blocks), then a tar of the failing log (`gzip -dc | tar x` leaves the failing one): never PASS;
- h28_08 tar_pax_xattr_flood: the honest sample whose log member carries a pax header of
  200,000 SCHILY.xattr records (~9 MB): bounds;
- h28_09 zip_zip64_count_lies: the honest sample in a zip whose zip64 end record says 2^40
  entries (the central directory holds 2): read or refused within the bounds;
- h28_10 tar_name_cr_spoof: the honest sample plus a member named `notes.txt` CR ESC[2K
  "PASS validated": escaped everywhere;
- h28_11 zip_name_osc8_c1: the honest sample plus members named with an OSC 8 hyperlink, a DCS
  string and a raw U+009B / U+0085 (UTF-8 flagged): escaped everywhere;
- h28_12 log_tag_smuggled_secret: the sample log whose observation holds an API key spelled in
  Unicode TAG characters (U+E0000 + ASCII: "ASCII smuggling") after visible text: the TAG run
  never printed raw (it spells the secret), withhold refuses or drops it;
- h28_13 official_secret_member_name: an official trajectory (hash chain valid) whose
  observation holds a GitHub token as a JSON member NAME: `secret.suspect` on its line (a
  POST_CHECK), never printed;
- h28_14 log_private_case_variant: a model_request with `"DATA": {"prompt": MARK}` beside its
  `data`: `withhold` never publishes MARK;
- h28_15 decide_reviewer_osc8_nel: decisions whose reviewer holds an OSC 8 hyperlink and NEL,
  whose note is 121 KB of combining marks and a DEL; then `decisions list|export|verify`;
- h28_16 ledger_head_devzero: a 3-decision ledger whose `.head` is a symlink to /dev/zero:
  `decisions verify|list` and `decide` within the bounds, no hang;
- h28_17 ledger_head_sparse_300m: the `.head` a 300 MiB sparse file of zeros: the same;
- h28_18 tar_backslash_traversal: the failing log as `..\\..\\agent-log.jsonl` and
  `run\\agent-log.jsonl` (Windows separators) + the video: never PASS, nothing written outside;
- h28_19 zip_backslash_subdir: the failing log as `sub\\agent-log.jsonl` in a zip: never PASS.

Each command under prlimit --as=512 MiB and timeout 30 s (the issue's bounds); a traceback, a
raw control character, a secret (or its TAG spelling) printed, MARK published, a temp file
left, an exit outside 0/1/2, or a PASS on a must-not-pass input is a problem. Deterministic
(fixed bytes and seeds); written under `.cache/qa-s28/hostile/`, never committed; the ledgers
of h28_15-17 are made with the product's `decide` when the run starts (after the expectations).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import struct
import subprocess
import tarfile
import zipfile
import zlib
from pathlib import Path

import qa_hostile_s14 as qh

REPO = Path(__file__).resolve().parents[1]
CLI = [str(REPO / ".venv" / "bin" / "python"), "-P", "-m", "moderator_app"]
SAMPLE = qh.SAMPLE
MARK = "QA-S28-PRIVATE"
EVAL_SECRET = "qa28-evaluator-secret-77c1"
TAG_KEY = "sk-proj-QA28tagsmuggledkey0123456789abcdefXYZ"
GH_TOKEN = "ghp_QA28membernametoken0123456789abcdefgh"
SECRETS = [EVAL_SECRET, TAG_KEY, GH_TOKEN]
#: the TAG spelling of TAG_KEY (U+E0000 + each ASCII code): printed raw, it is the secret
TAG_SPELLED = "".join(chr(0xE0000 + ord(c)) for c in TAG_KEY)
MTIME = 1764900000
ENV: dict = {}
MUST_NOT_PASS = {"h28_01", "h28_02", "h28_05", "h28_06", "h28_07", "h28_18", "h28_19"}
TIMEOUT_S = 30


def _log() -> bytes:
    return (SAMPLE / "agent-log.jsonl").read_bytes()


def _video() -> bytes:
    return (SAMPLE / "video.mp4").read_bytes()


def _events() -> list[dict]:
    return [json.loads(x) for x in _log().splitlines()]


def _dump(events: list[dict]) -> bytes:
    return b"".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
                    for e in events)


def failing_log() -> bytes:
    """The sample log with its first action's call set to `human` (a failing run)."""
    ev = _events()
    for e in ev:
        if e["type"] == "action":
            e["data"]["call"] = "human"
            break
    return _dump(ev)


def _tar_info(name: str, size: int, kind: bytes = tarfile.REGTYPE) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.type = size, MTIME, kind
    return info


def _tar_bytes(members: list[tuple[str, bytes]], end: bool = True, kind: dict | None = None,
               pax: dict | None = None) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT if pax else
                      tarfile.GNU_FORMAT) as tf:
        for name, data in members:
            info = _tar_info(name, len(data), (kind or {}).get(name, tarfile.REGTYPE))
            if pax and name in pax:
                info.pax_headers = pax[name]
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue() if end else _strip_end(buf.getvalue())


def _strip_end(data: bytes) -> bytes:
    """A tar without its end-of-archive blocks (and the zero padding after them)."""
    end = len(data)
    while end >= 512 and data[end - 512:end] == bytes(512):
        end -= 512
    return data[:end]


def _zip(members: list[tuple[str, bytes]], method=zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=method) as zf:
        for name, data in members:
            zi = zipfile.ZipInfo(name, date_time=(2026, 12, 5, 9, 0, 0))
            zi.compress_type = zipfile.ZIP_STORED if name.endswith(".mp4") else method
            zf.writestr(zi, data)
    return buf.getvalue()


class _Pipe(io.RawIOBase):
    """A write-only stream that cannot seek or tell: zipfile then writes data descriptors."""

    def __init__(self) -> None:
        self.buf = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        self.buf += bytes(b)
        return len(b)

    def seekable(self) -> bool:
        return False

    def tell(self) -> int:
        raise OSError("not seekable")


def _zip_streamed(members: list[tuple[str, bytes]]) -> bytes:
    pipe = _Pipe()
    with zipfile.ZipFile(pipe, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zi = zipfile.ZipInfo(name, date_time=(2026, 12, 5, 9, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            with zf.open(zi, "w") as fh:
                fh.write(data)
    return bytes(pipe.buf)


def _rename_zip_member(data: bytes, old: bytes, new: bytes, flag: int | None = None) -> bytes:
    """`old` -> `new` (same length) in every local and central header; `flag` OR-ed into the
    general-purpose bits of both."""
    assert len(old) == len(new)
    out = bytearray(data)
    for sig, name_off, flag_off, len_off in ((b"PK\x03\x04", 30, 6, 26),
                                             (b"PK\x01\x02", 46, 8, 28)):
        i = out.find(sig)
        while i >= 0:
            n = struct.unpack_from("<H", out, i + len_off)[0]
            if bytes(out[i + name_off:i + name_off + n]) == old:
                out[i + name_off:i + name_off + n] = new
                if flag is not None:
                    struct.pack_into("<H", out, i + flag_off,
                                     struct.unpack_from("<H", out, i + flag_off)[0] | flag)
            i = out.find(sig, i + 4)
    return bytes(out)


def _unicode_path_extra(data: bytes, member: bytes, upath: str) -> bytes:
    """Rebuild a stored/deflated zip with an Info-ZIP Unicode Path extra field (0x7075: version
    1, CRC-32 of the header name, the UTF-8 name) on `member`, in both headers."""
    zin = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zout:
        for zi in zin.infolist():
            new = zipfile.ZipInfo(zi.filename, date_time=zi.date_time)
            new.compress_type = zi.compress_type
            if zi.filename.encode() == member:
                body = b"\x01" + struct.pack("<I", zlib.crc32(member)) + upath.encode()
                new.extra = struct.pack("<HH", 0x7075, len(body)) + body
            zout.writestr(new, zin.read(zi.filename))
    return buf.getvalue()


def _zip64_count_lies(data: bytes) -> bytes:
    """Append a zip64 end-of-central-directory record (count 2^40) and its locator before the
    classic end record, whose counts are set to 0xFFFF (so readers take the zip64 record)."""
    eocd = data.rfind(b"PK\x05\x06")
    cd_size, cd_off = struct.unpack_from("<II", data, eocd + 12)
    z64 = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, 1 << 40, 1 << 40,
                      cd_size, cd_off)
    loc = struct.pack("<IIQI", 0x07064B50, 0, eocd, 1)
    end = bytearray(data[eocd:])
    struct.pack_into("<HH", end, 8, 0xFFFF, 0xFFFF)
    return data[:eocd] + z64 + loc + bytes(end)


def _write(p: Path, data: bytes) -> Path:
    if not p.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(p.name + ".part")
        tmp.write_bytes(data)
        tmp.rename(p)
    return p


def _official_member_name(d: Path) -> None:
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    path = d / "events.jsonl"
    if path.exists():
        return
    events = make_run_events(30, seed=28, run_id="run_qa28_member_name", variety=0.0)
    for e in events:
        if e["type"] == "observation":
            e["payload"]["env"] = {GH_TOKEN: 1, "PATH": "/usr/bin"}
            break
    d.mkdir(parents=True, exist_ok=True)
    write_trajectory(path, events)


def _folder(root: Path, name: str, log: bytes) -> Path:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    _write(d / "agent-log.jsonl", log)
    if not (d / "video.mp4").exists():
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
    return d


def _ledger(root: Path, name: str, n: int) -> Path:
    """A fresh ledger of `n` decisions on the sample, made with the product's `decide`."""
    store = root / f"{name}.store.sqlite3"
    if store.exists():
        return store
    env = {**os.environ, "MODERATOR_APP_STORE": str(store)}
    for i in range(n):
        subprocess.run([*CLI, "decide", str(SAMPLE), "--reject", "--reason", "other",
                        "--note", f"qa28 ledger {i + 1}", "--offset", "0"], env=env,
                       capture_output=True, check=False)
    return store


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915
    """(name, commands) of every input; `ledgers`: also make h28_15-17's ledgers (with the
    product: only when the run starts)."""
    root.mkdir(parents=True, exist_ok=True)
    log, bad, video = _log(), failing_log(), _video()
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa28 {tag}",
                 "--offset", "0"]]

    def arch(name: str, data: bytes, suffix: str) -> None:
        p = _write(root / f"{name}{suffix}", data)
        ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
        out.append((name, std(p, name[:6])))

    arch("h28_01_zip_sfx_stub",
         b"MZ\x90\x00" + bytes(range(256)) * 255 + b"\x00" * 252 +
         _zip([("agent-log.jsonl", bad), ("video.mp4", video)]), ".zip")
    arch("h28_02_zip_streamed_dd",
         _zip_streamed([("agent-log.jsonl", bad), ("video.mp4", video)]), ".zip")
    z = _zip([("agent-log.jsonl", log), ("video.mp4", video),
                          ("notesXX\x1bX.txt", b"hello\n")])
    arch("h28_03_zip_utf8flag_bad_name",
         _rename_zip_member(z, b"notesXX\x1bX.txt", b"notes\xff\xfe\x1b\xc3.txt", flag=0x800),
         ".zip")
    z = _zip([("agent-log.jsonl", log), ("video.mp4", video), ("readme.txt", bad)])
    arch("h28_04_zip_unicode_path_extra", _unicode_path_extra(z, b"readme.txt",
                                                              "agent-log.jsonl"), ".zip")
    arch("h28_05_tar_type7_dup_log",
         _type7(log, bad, video), ".tar")
    arch("h28_06_tar_gnu_multivol", _multivol(bad, video), ".tar")
    arch("h28_07_targz_two_streams",
         zlib_gzip(_tar_bytes([("agent-log.jsonl", log), ("video.mp4", video)], end=False)) +
         zlib_gzip(_tar_bytes([("agent-log.jsonl", bad)])), ".tar.gz")
    arch("h28_08_tar_pax_xattr_flood", _pax_flood(log, video, 200_000), ".tar")
    arch("h28_09_zip_zip64_count_lies",
         _zip64_count_lies(_zip([("agent-log.jsonl", log), ("video.mp4", video)])),
         ".zip")
    arch("h28_10_tar_name_cr_spoof",
         _tar_bytes([("agent-log.jsonl", log), ("video.mp4", video),
                     ("notes.txt\r\x1b[2KPASS \u00b7 validated \u00b7 0 errors", b"hi\n")]),
         ".tar")
    arch("h28_11_zip_name_osc8_c1",
         _zip([("agent-log.jsonl", log), ("video.mp4", video),
                           ("\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\.txt", b"a"),
                           ("\x1bPq#0;2;0;0;0\x1b\\dcs.txt", b"b"),
                           ("c1\u009b31m\u0085nel.txt", b"c")]), ".zip")
    arch("h28_18_tar_backslash_traversal",
         _tar_bytes([("..\\..\\agent-log.jsonl", bad), ("run\\agent-log.jsonl", bad),
                     ("video.mp4", video)]), ".tar")
    arch("h28_19_zip_backslash_subdir",
         _zip([("sub\\agent-log.jsonl", bad), ("video.mp4", video)]), ".zip")

    # logs and an official trajectory (folders)
    ev = _events()
    for e in ev:
        if e["type"] == "observation":
            e["data"]["summary"] = "all clear" + "\U000e0001" + TAG_SPELLED + "\U000e007f"
            break
    d = _folder(root, "h28_12_log_tag_smuggled_secret", _dump(ev))
    ENV[d.name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    out.append((d.name, [*std(d, "h28_12"),
                         ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / "h28_12.pub")]]))

    d = root / "h28_13_official_secret_member_name"
    _official_member_name(d)
    ENV[d.name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json"],
                         ["decide", str(d), "--reject", "--reason", "other", "--note", "qa28"]]))

    ev = _events()
    for e in ev:
        if e["type"] == "model_request":
            e["DATA"] = {"prompt": f"{MARK} the hidden plan", "reasoning": MARK}
            break
    d = _folder(root, "h28_14_log_private_case_variant", _dump(ev))
    ENV[d.name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json"],
                         ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / "h28_14.pub")]]))

    # decisions and ledgers
    name = "h28_15_decide_reviewer_osc8_nel"
    note = "z\u0301\u0302\u0303\u0304\u0305" * 11000 + "\x7fend"  # 121 KB: one argv string is at most 128 KiB
    reviewer = "qa\x1b]8;;https://evil.example/\x1b\\rev\u0085iewer"
    out.append((name, [["decide", str(SAMPLE), "--reject", "--reason", "other",
                        f"--note={note}", "--reviewer", reviewer, "--offset", "0"],
                       ["decide", str(SAMPLE), "--accept", "--reviewer", reviewer,
                        "--offset", "0"],
                       ["decisions", "list"], ["decisions", "verify"],
                       ["decisions", "export", "--format", "csv", "--out",
                        str(root / "h28_15.csv")],
                       ["decisions", "export", "--format", "jsonl", "--out",
                        str(root / "h28_15.jsonl")]]))
    for name, how in (("h28_16_ledger_head_devzero", "devzero"),
                      ("h28_17_ledger_head_sparse_300m", "sparse")):
        if ledgers:
            store = _ledger(root, name, 3)
            head = Path(str(store) + ".head")
            if how == "devzero" and not head.is_symlink():
                head.unlink(missing_ok=True)
                head.symlink_to("/dev/zero")
            elif how == "sparse" and (not head.exists() or head.stat().st_size < 1 << 20):
                with open(head, "wb") as fh:
                    fh.truncate(300 << 20)
        out.append((name, [["decisions", "verify"], ["decisions", "list"],
                           ["decisions", "export", "--format", "jsonl", "--out",
                            str(root / f"{name[:6]}.jsonl")],
                           ["decide", str(SAMPLE), "--reject", "--reason", "other", "--note",
                            "qa28 after", "--offset", "0"], ["decisions", "verify"]]))
    return out


def zlib_gzip(data: bytes) -> bytes:
    """One gzip member (fixed mtime) of `data`."""
    import gzip
    return gzip.compress(data, mtime=MTIME)


def _type7(log: bytes, bad: bytes, video: bytes) -> bytes:
    """The honest log, the video, then the failing log under the same name as type '7'."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
        for name, data, kind in (("agent-log.jsonl", log, tarfile.REGTYPE),
                                 ("video.mp4", video, tarfile.REGTYPE),
                                 ("agent-log.jsonl", bad, tarfile.CONTTYPE)):
            tf.addfile(_tar_info(name, len(data), kind), io.BytesIO(data))
    return buf.getvalue()


def _pax_record(key: str, value: str) -> bytes:
    """One pax record, `LEN key=value\\n`, LEN counting itself."""
    body = f" {key}={value}\n".encode()
    n = len(body) + 1
    while len(str(n)) + len(body) != n:
        n = len(str(n)) + len(body)
    return str(n).encode() + body


def _pax_flood(log: bytes, video: bytes, n: int) -> bytes:
    """The log member preceded by a pax extended header ('x') of `n` SCHILY.xattr records
    (written by hand: tarfile builds such a header in quadratic time), then the video."""
    records = b"".join(_pax_record(f"SCHILY.xattr.user.qa28_{i:06d}", "x" * 8)
                       for i in range(n))
    x = bytearray(_tar_info("PaxHeader/agent-log.jsonl", len(records)).tobuf(
        format=tarfile.USTAR_FORMAT))
    x[156:157] = b"x"
    x[148:156] = b" " * 8
    x[148:156] = b"%06o\0 " % sum(x)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        tf.addfile(_tar_info("agent-log.jsonl", len(log)), io.BytesIO(log))
        tf.addfile(_tar_info("video.mp4", len(video)), io.BytesIO(video))
    return bytes(x) + records + bytes(-len(records) % 512) + buf.getvalue()


def _multivol(bad: bytes, video: bytes) -> bytes:
    """The video, then the failing log as a GNU multi-volume continuation header ('M'): its
    offset field (bytes 369-380 of the GNU header) says 512, its real size the whole log."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
        tf.addfile(_tar_info("video.mp4", len(video)), io.BytesIO(video))
    data = bytearray(_strip_end(buf.getvalue()))
    hdr = bytearray(_tar_info("agent-log.jsonl", len(bad)).tobuf(format=tarfile.GNU_FORMAT))
    hdr[156:157] = b"M"
    hdr[369:381] = b"%011o\0" % 512
    hdr[148:156] = b" " * 8
    hdr[148:156] = b"%06o\0 " % sum(hdr)
    data += hdr + bad + bytes(-len(bad) % 512) + bytes(1024)
    return bytes(data)


def _raw_control() -> list[str]:
    from hostile_corpus import RAW_CONTROL
    return RAW_CONTROL


def run(cache: Path, only: list[str]) -> list[dict]:
    """Every command under prlimit (512 MiB address space) and timeout 30 s, in a fresh TMPDIR,
    each input with its own ledger (MODERATOR_APP_STORE): exit, time, peak memory and what
    must never appear."""
    root = cache / "hostile"
    raw_control = _raw_control()
    results = []
    for name, cmds in cases(root, ledgers=True):
        if only and not any(name.startswith(o) for o in only):
            continue
        for cmd in cmds:
            tmp = cache / "tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            env = {k: v for k, v in os.environ.items() if k != "ALE_EVALUATOR_SECRET"}
            env.update(ENV.get(name, {}), TMPDIR=str(tmp),
                       MODERATOR_APP_STORE=str(root / f"{name}.store.sqlite3"))
            tfile = cache / "time.txt"
            tfile.unlink(missing_ok=True)
            argv = ["prlimit", "--as=536870912", "timeout", str(TIMEOUT_S), "/usr/bin/time",
                    "-o", str(tfile), "-f", "%e %M", *CLI, *cmd]
            r = subprocess.run([os.fsencode(a) for a in argv], capture_output=True,
                               env={os.fsencode(k): os.fsencode(v) for k, v in env.items()},
                               stdin=subprocess.DEVNULL, cwd=str(tmp.parent))
            o = r.stdout.decode("utf-8", "replace")
            e = r.stderr.decode("utf-8", "replace")
            both = o + e
            t = tfile.read_text().split() if tfile.exists() else []
            problems = []
            if "Traceback" in both or "internal error" in both.lower():
                problems.append("traceback")
            raw = sorted({hex(ord(c)) for c in raw_control if c in both})
            if raw:
                problems.append(f"raw control {raw}")
            if any(s in both for s in SECRETS) or TAG_SPELLED[:12] in both:
                problems.append("secret printed")
            if any(0xE0000 <= ord(c) <= 0xE007F for c in both):
                problems.append("raw TAG characters printed")
            if MARK in both:
                problems.append("private text printed")
            if r.returncode == 124:
                problems.append("timeout (30 s)")
            elif r.returncode not in (0, 1, 2):
                problems.append(f"exit {r.returncode}")
            left = list(tmp.iterdir())
            if left:
                problems.append(f"temp left: {[p.name for p in left]}")
            for arg in cmd:
                if arg.endswith(".pub") and Path(arg).exists():
                    body = Path(arg).read_text("utf-8", "replace")
                    if MARK in body:
                        problems.append(f"withheld output holds {MARK}")
                    if TAG_SPELLED[:12] in body or TAG_KEY in body:
                        problems.append("withheld output holds the TAG-spelled key")
            verdict = level = None
            if "--json" in cmd:
                try:
                    j = json.loads(o)
                    verdict, level = j.get("verdict"), j.get("verification_level")
                except ValueError:
                    problems.append("--json output is not one JSON object")
            if cmd[0] == "verify" and name[:6] in MUST_NOT_PASS and (
                    verdict == "PASS" or ("--json" not in cmd and r.returncode == 0)):
                problems.append("FORGED PASS")
            secs = float(t[-2]) if len(t) >= 2 else None
            rss = int(t[-1]) if len(t) >= 2 else None
            res = {"case": name, "cmd": " ".join(cmd[:1] + [c[-40:] for c in cmd[1:]])[:200],
                   "exit": r.returncode, "seconds": secs, "max_rss_kb": rss,
                   "verdict": verdict, "level": level, "problems": problems,
                   "stderr": e[-300:].encode("unicode_escape").decode()[:400],
                   "stdout": o[:300].encode("unicode_escape").decode()[:400]}
            print(json.dumps(res), flush=True)
            results.append(res)
    for check in POST_CHECKS:
        print(json.dumps(check(root)), flush=True)
    outside = [p.name for p in (root.parent).glob("agent-log.jsonl")] + \
        [p.name for p in root.parent.parent.glob("agent-log.jsonl")]
    print(json.dumps({"check": "nothing written outside", "found": outside,
                      "met": not outside}), flush=True)
    return results


def _secret_warning(root: Path) -> dict:
    """h28_13: `verify --json`'s secret.suspect findings against the line holding the token as
    a member name."""
    import qa_session22 as s22

    d = root / "h28_13_official_secret_member_name"
    code, rep, _err = s22._verify(d)
    with open(d / "events.jsonl", encoding="utf-8") as fh:
        lines = [n for n, line in enumerate(fh, 1) if GH_TOKEN in line]
    found = [f for f in rep.get("findings", []) if f.get("rule") == "secret.suspect"]
    got = sorted({f.get("line") for f in found if f.get("line") is not None})
    return {"check": "h28_13 secret.suspect", "exit": code, "verdict": rep.get("verdict"),
            "secret_lines": lines, "warned_lines": got,
            "messages": [str(f.get("message", ""))[:120] for f in found][:4],
            "met": bool(lines) and set(lines) <= set(got)}


def _tag_warning(root: Path) -> dict:
    """h28_12: what `verify --json` says of the TAG-spelled key (observed, not a bar)."""
    import qa_session22 as s22

    d = root / "h28_12_log_tag_smuggled_secret"
    code, rep, _err = s22._verify(d)
    found = [(f.get("rule"), f.get("line"), str(f.get("message", ""))[:120])
             for f in rep.get("findings", []) if str(f.get("rule", "")).startswith(
                 ("secret", "text", "log.invisible", "invisible"))]
    return {"check": "h28_12 findings", "exit": code, "verdict": rep.get("verdict"),
            "findings": found[:6]}


POST_CHECKS = (_secret_warning, _tag_warning)
