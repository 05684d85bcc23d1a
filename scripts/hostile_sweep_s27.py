"""Issue 15 a fourth time: classes no earlier sweep (s25, s26, the QA passes) used (session 27,
s27-hostile). Thinking as a cheater and as a fuzzer:

- zstd: an honest trajectory as 120 concatenated frames with skippable frames between them, a
  skippable frame holding another (forged) trajectory, a frame needing a dictionary after valid
  ones, a frame whose content-size header lies, a million empty frames;
- JSON members repeated at depth (in an official line whose hash is valid for the last value,
  in an agent log's action and observation), in a small and a 5,000-event trajectory (the
  native block path);
- numbers in chain lines: 1e400, -0, 1e-400, a 30-digit integer, an exponent written with 40
  digits, `producer_sequence` spelled 1.0 / -0; an agent log's `elapsedMs` of 1e400;
- secrets spelled with JSON escapes in an official trajectory (`sk\\u002d...`, `\\u0073k-`,
  `Bearer\\u0020...`): `verify` must warn with the line, never print the secret;
- names: a failing agent log named `agent-log.jsonl` + ZERO WIDTH SPACE, or with a Cyrillic
  `а`, beside a self-made chain; notes and reviewer names with BiDi, zero-width, U+2028 and a
  128 KiB note through the CLI; a 10 MB note in the ledger (list / export / verify);
- videos whose container lies: an MP4 stts entry of 2^32-1 samples, an stsz count of 2^32-1, a
  moov whose 64-bit size says 2^62, an MKV with 20 million EBML Void elements before its
  first cluster and one with a Void declaring 2^56 bytes, a fragmented MP4 of 100,000
  fragments;
- tar: a hard link named `agent-log.jsonl` to a regular member holding a failing log, a
  symlink to a directory followed by a member through it, a 1 GiB GNU long name in 1 MB of
  gzip, a pax header of 2 GiB declared, a 4,096-byte member path;
- a submission path past PATH_MAX (4,200 bytes);
- ledgers: the database, its `.head`, its `-wal` replaced by a directory; the `.head` by a FIFO;
- withhold of a 256 MiB flood of short valid lines (issue 15's open ~4.3 us a line).

Each case's expectation is written here first (EXPECT, and the machine checks EXPECT_NOT_PASS,
EXPECT_PASS, EXPECT_RULE, POST_EXPECT), then `run` gives the result. Deterministic (fixed
bytes, seeds and ffmpeg settings); inputs under /work/main/.cache/s27-hostile/hostile/, never
committed. Every command goes through scripts/qa_common.run_hostile (prlimit 512 MiB, timeout
60 s; a traceback, a raw control character, a secret printed, a temp file left, > 30 s is a
problem).

    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s27.py build
    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s27.py run [ID-PREFIX...]
    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s27.py gui
"""

from __future__ import annotations

import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "scripts"), str(REPO / "tests"), str(REPO)]

import hostile_sweep_s25 as s25  # noqa: E402
import hostile_sweep_s26 as s26  # noqa: E402

CACHE = Path("/work/main/.cache/s27-hostile")
SAMPLE, OFFICIAL = s25.SAMPLE, s25.OFFICIAL
MIB, GIB = 1 << 20, 1 << 30
MARK = "QA-S27-PRIVATE"
SK = "sk-proj-qa27abcdefghijklmnopqrstuvwxyz0123"
BEARER = "qa27BearerTokenValueABCDEFGHIJKLMNOPQRSTUV"
SECRETS = [SK, SK.replace("-", "\\u002d", 1), "\\u0073k-proj-qa27", BEARER]
ENV: dict[str, dict[str, str]] = {}
#: case -> what is expected, in words (written before the run)
EXPECT: dict[str, str] = {}
EXPECT_NOT_PASS: set[str] = set()
EXPECT_PASS: set[str] = set()
#: case -> a rule id `verify --json` must report
EXPECT_RULE: dict[str, str] = {}
POST_EXPECT: dict[str, int] = {}
_dump, _tar_add, _zstd = s25._dump, s25._tar_add, s26._zstd


def _chain_lines(n: int, seed: int, edit=None) -> bytes:
    """A self-made valid chain of `n` events as bytes; `edit(i, ev, line) -> line` may respell
    a sealed line (its hash stays the sealed one: the respelling must parse to the same
    event for the chain to hold)."""
    import orjson

    from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

    out = []
    for i, ev in enumerate(chain_events(make_run_events(n, seed=seed, variety=0.0))):
        line = orjson.dumps(ev)
        if edit is not None:
            line = edit(i, ev, line)
        out.append(line + b"\n")
    return b"".join(out)


def _first_obs(ev: dict, i: int, want: int = 3) -> bool:
    return ev["type"] == "observation" and i >= want


def _custom_chain(n: int, seed: int, payload: dict, spell: list[tuple[bytes, bytes]],
                  at: int = 5) -> bytes:
    """A valid chain whose first observation at/after line `at` carries `payload` (sealed as
    parsed), its line respelled by the byte replacements `spell` (each must keep the parsed
    event equal, or the hash breaks: that is the point of some cases)."""
    import orjson

    from moderator_app.core.formats.chain import ZERO_HASH, seal
    from moderator_app.core.samples.trajectory_writer import make_run_events

    events = make_run_events(n, seed=seed, variety=0.0)
    target = next(i for i, e in enumerate(events) if _first_obs(e, i, at))
    events[target]["payload"] = dict(events[target]["payload"], **payload)
    prev = ZERO_HASH
    out = []
    for i, ev in enumerate(events):
        sealed = seal(ev, prev)
        prev = sealed["hash"]
        line = orjson.dumps(sealed)
        if i == target:
            for a, b in spell:
                assert a in line, (a, line[:200])
                line = line.replace(a, b, 1)
        out.append(line + b"\n")
    return b"".join(out)


def _official(root: Path, name: str, data: bytes, zst: bool = True) -> Path:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    f = d / ("events.jsonl.zst" if zst else "events.jsonl")
    if not f.exists():
        f.write_bytes(_zstd(data) if zst else data)
    if not (d / "video.mp4").exists():
        os.link(OFFICIAL / "video.mp4", d / "video.mp4")
    return d


def _skippable(payload: bytes, magic: int = 0x184D2A50) -> bytes:
    return struct.pack("<II", magic, len(payload)) + payload


def _frame_content_size_lie(data: bytes) -> bytes:
    """A zstd frame of `data` whose header's content size is patched to 10 bytes."""
    import zstandard

    f = bytearray(zstandard.ZstdCompressor(level=3, write_content_size=True)
                  .compress(data))
    fhd = f[4]
    fcs_flag, single = fhd >> 6, (fhd >> 5) & 1
    pos = 5 + (0 if single else 1) + (0, 1, 2, 4)[fhd & 3]
    width = (1 if single else 0, 2, 4, 8)[fcs_flag]
    value = 10 - (256 if width == 2 else 0)
    f[pos:pos + width] = max(value, 10).to_bytes(width, "little")
    return bytes(f)


def _patch_box(data: bytearray, tag: bytes, off: int, value: int, fmt: str = ">I") -> None:
    i = data.find(tag)
    if i >= 0:
        struct.pack_into(fmt, data, i + off, value)


def _mkv(root: Path) -> Path | None:
    p = root / "base.mkv"
    ok = s25._ffmpeg(["-i", str(SAMPLE / "video.mp4"), "-c", "copy"], p)
    return p if ok else None


def _insert_before_cluster(src: Path, blob: bytes) -> bytes:
    data = src.read_bytes()
    i = data.find(b"\x1f\x43\xb6\x75")
    seg = data.find(b"\x18\x53\x80\x67")
    out = bytearray(data[:i] + blob + data[i:])
    # the segment's size made "unknown" (8 bytes of 0x01FF..): its own size no longer adds up
    size_len = 8
    out[seg + 4:seg + 4 + size_len] = b"\x01" + b"\xff" * 7
    return bytes(out)


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915 - one table
    import zstandard

    root.mkdir(parents=True, exist_ok=True)
    store = root / "ledger.sqlite3"
    out: list[tuple[str, list[list[str]]]] = []

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in c]
                           for c in cmds]))

    def std(p, tag: str, *extra: str) -> list[list]:
        return [["verify", p, *extra], ["verify", p, "--json", *extra],
                ["decide", p, "--reject", "--reason", "other", "--note", f"s27 {tag}",
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

    official = zstandard.ZstdDecompressor().stream_reader(
        (OFFICIAL / "events.jsonl.zst").read_bytes()).read()
    off_lines = official.splitlines(keepends=True)
    failing = s26._failing_log()

    # h01 zstd frames --------------------------------------------------------------------
    cctx = zstandard.ZstdCompressor(level=3)
    name = "h01_zstd_frames_skippable"
    d = root / name
    if not d.exists():
        d.mkdir()
        blob = b"".join(cctx.compress(line) + _skippable(b"pad%d" % k)
                        for k, line in enumerate(off_lines))
        (d / "events.jsonl.zst").write_bytes(blob)
        os.link(OFFICIAL / "video.mp4", d / "video.mp4")
    expect(name, "the official sample as 120 frames, a skippable frame after each: PASS "
                 "(validated), as the sample", passes=True)
    add(name, *std(d, name))
    name = "h01_zstd_skippable_forgery"
    d = root / name
    if not d.exists():
        d.mkdir()
        forged = _custom_chain(12, 3, {"note": "forged"}, [])
        (d / "events.jsonl.zst").write_bytes(_skippable(cctx.compress(failing)) +
                                             cctx.compress(official) +
                                             _skippable(cctx.compress(forged), 0x184D2A5F))
        os.link(OFFICIAL / "video.mp4", d / "video.mp4")
    expect(name, "skippable frames holding a failing agent log and another chain around the "
                 "sample: their bytes are never events; PASS as the sample, 120 events",
           passes=True)
    add(name, *std(d, name))
    name = "h01_zstd_dict_after_valid"
    d = root / name
    if not d.exists():
        d.mkdir()
        zd = zstandard.train_dictionary(4096, [line for line in off_lines] * 4)
        dict_frame = zstandard.ZstdCompressor(dict_data=zd).compress(b"".join(off_lines[60:]))
        (d / "events.jsonl.zst").write_bytes(cctx.compress(b"".join(off_lines[:60])) +
                                             dict_frame)
        os.link(OFFICIAL / "video.mp4", d / "video.mp4")
    expect(name, "60 lines, then a frame needing a dictionary: FAIL traj.zstd_corrupt, never "
                 "a pass on the first 60", not_pass=True, rule="traj.zstd_corrupt")
    add(name, *std(d, name))
    name = "h01_zstd_content_size_lie"
    d = root / name
    if not d.exists():
        d.mkdir()
        (d / "events.jsonl.zst").write_bytes(_frame_content_size_lie(official))
        os.link(OFFICIAL / "video.mp4", d / "video.mp4")
    expect(name, "a frame whose header says 10 bytes: FAIL (corrupt), no crash", not_pass=True)
    add(name, *std(d, name))
    name = "h01_zstd_million_empty_frames"
    d = root / name
    if not d.exists():
        d.mkdir()
        empty = cctx.compress(b"")
        with open(d / "events.jsonl.zst", "wb") as fh:
            fh.write(cctx.compress(b"".join(off_lines[:10])))
            fh.write(empty * 1_000_000)
            fh.write(cctx.compress(b"".join(off_lines[10:])))
        os.link(OFFICIAL / "video.mp4", d / "video.mp4")
    expect(name, "the sample split by a million empty frames (~9 MB): honest, PASS within "
                 "30 s", passes=True)
    add(name, *std(d, name))

    # h02 members repeated at depth ------------------------------------------------------
    for n, tag in ((40, "small"), (5000, "large")):
        name = f"h02_dup_deep_official_{tag}"
        data = _custom_chain(n, 11, {"deep": {"a": {"b": {"c": {"score": 99}}}}},
                             [(b'"c":{"score":99}', b'"c":{"score":1,"score":99}')],
                             at=n // 2)
        d = _official(root, name, data)
        expect(name, "a member repeated 5 levels deep in an observation (hash valid for the "
                     "last value): FAIL traj.duplicate_member", not_pass=True,
               rule="traj.duplicate_member")
        add(name, *std(d, name))
    ev = s25._events()
    act = next(i for i, e in enumerate(ev) if e["type"] == "action")
    lines = _dump(ev).splitlines(keepends=True)
    name = "h02_dup_call_community"
    log = lines.copy()
    log[act] = lines[act].replace(b'"call":"c1"', b'"call":"human","call":"c1"', 1)
    assert log[act] != lines[act]
    d = s25._folder(root, name, b"".join(log))
    expect(name, "an action's data repeats `call` (human, then c1; last-wins parsers see "
                 "c1): FAIL log.duplicate_member", not_pass=True, rule="log.duplicate_member")
    add(name, *std(d, name))
    obs = next(i for i, e in enumerate(ev) if e["type"] == "observation")
    name = "h02_dup_deep_observation"
    log = lines.copy()
    log[obs] = lines[obs].replace(b'"data":{', b'"data":{"x":{"y":{"z":{"w":[{"k":1,"k":2}]}}},',
                                  1)
    d = s25._folder(root, name, b"".join(log))
    expect(name, "an observation with a member repeated 6 levels deep inside a list: FAIL "
                 "log.duplicate_member", not_pass=True, rule="log.duplicate_member")
    add(name, *std(d, name))

    # h03 numbers in chain lines ---------------------------------------------------------
    nums = {
        "h03_num_1e400": ({"v": 7}, [(b'"v":7', b'"v":1e400')], "FAIL (1e400 is infinite: "
                          "traj.number_unrepresentable or traj.json), no crash", True),
        "h03_num_neg_zero": ({"v": 0}, [(b'"v":0', b'"v":-0')], "-0 parses as 0, JCS writes "
                             "0: the hash holds, PASS", False),
        "h03_num_1e_minus_400": ({"v": 7}, [(b'"v":7', b'"v":1e-400')], "FAIL (not zero but "
                                 "below the smallest double: traj.number_unrepresentable)",
                                 True),
        "h03_num_30_digits": ({"v": 7}, [(b'"v":7', b'"v":123456789012345678901234567890')],
                              "FAIL (an integer that is not exactly a double)", True),
        "h03_num_40_digit_exponent": ({"v": 10}, [(b'"v":10', b'"v":1E+' + b"0" * 40 + b"1")],
                                      "1E+000...01 is exactly 10: the hash holds, PASS (or a "
                                      "spelling warning), no crash", False),
        "h03_num_long_mantissa": ({"v": 0.1}, [(b'"v":0.1', b'"v":0.1' + b"0" * 100_000)],
                                  "0.1 followed by 100,000 zeros is 0.1: PASS, no hang",
                                  False),
    }
    for name, (payload, spell, words, bad) in nums.items():
        d = _official(root, name, _custom_chain(40, 13, payload, spell))
        expect(name, words, not_pass=bad, passes=not bad)
        add(name, *std(d, name))
    name = "h03_seq_spelled_float"
    data = _chain_lines(40, 14, edit=lambda i, ev, line: line.replace(
        b'"producer_sequence":2,', b'"producer_sequence":2.0,', 1) if i == 6 else line)
    d = _official(root, name, data)
    expect(name, "producer_sequence 2.0 (parsed as a float, hashed by JCS as 2): the same "
                 "verdict from the line and block paths; no crash (PASS or traj.field_type)")
    add(name, *std(d, name))
    name = "h03_elapsed_1e400"
    log = lines.copy()
    log[3] = lines[3].replace(b'"elapsedMs":', b'"elapsedMs":1e400,"x":', 1)
    d = s25._folder(root, name, b"".join(log))
    expect(name, "an agent log's elapsedMs of 1e400: FAIL (log.json: infinite), no crash",
           not_pass=True)
    add(name, *std(d, name))

    # h04 secrets spelled with escapes in an official trajectory ------------------------
    esc = {
        "h04_secret_escaped_dash": ({"text": "key " + SK}, [(b"sk-proj", b"sk\\u002dproj")]),
        "h04_secret_escaped_s": ({"text": "key " + SK}, [(b"sk-proj", b"\\u0073k-proj")]),
        "h04_secret_escaped_bearer": ({"text": "Authorization: Bearer " + BEARER},
                                      [(b"Bearer ", b"Bearer\\u0020")]),
    }
    for name, (payload, spell) in esc.items():
        for n, tag in ((40, ""), (5000, "_large")):
            case = name + tag
            d = _official(root, case, _custom_chain(n, 15, payload, spell, at=n // 2))
            expect(case, "a secret spelled with JSON escapes (any parser decodes it): "
                         "secret.suspect warning naming the line, the secret never printed",
                   rule="secret.suspect")
            add(case, ["verify", d], ["verify", d, "--json"])

    # h05 names: a log that looks like agent-log.jsonl; notes with BiDi/ZW ---------------
    for name, logname in (("h05_zwsp_log_name", "agent-log.jsonl\u200b"),
                          ("h05_cyrillic_log_name", "\u0430gent-log.jsonl"),
                          ("h05_log_name_txt", "agent-log.jsonl.txt")):
        d = root / name
        if not d.exists():
            d.mkdir()
            (d / logname).write_bytes(failing)
            (d / "events.jsonl.zst").write_bytes(_zstd(_chain_lines(8, 5)))
            os.link(SAMPLE / "video.mp4", d / "video.mp4")
        expect(name, f"a failing agent log named {logname!a} beside a self-made chain: never a "
                     "pass (input.ambiguous_kind)", not_pass=True)
        add(name, *std(d, name))
    name = "h05_note_bidi_zw"
    note = "ok\u202e\u2066\u200b\u2028\u2029\ufeff\u00ad\u061c note " + "\u200f" * 100
    expect(name, "a decision whose note and reviewer hold BiDi, zero-width, U+2028/9, BOM, "
                 "soft hyphen: recorded (exit 0); list and CSV export escape them (no raw "
                 "control character)")
    st = root / "h05_store.sqlite3"
    add(name, ["decide", SAMPLE, "--accept", "--note", note, "--reviewer", "r\u202eev\u200b",
               "--store", st],
        ["decisions", "list", "--store", st],
        ["decisions", "export", "--store", st, "--format", "csv", "--out", root / "h05.csv"],
        ["decisions", "export", "--store", st, "--format", "jsonl", "--out", root / "h05.jsonl"])
    name = "h05_note_128k"
    expect(name, "a 130,000-byte note through argv (its limit is 128 KiB an argument): "
                 "recorded or refused with a message; list bounded")
    st2 = root / "h05_store_big.sqlite3"
    add(name, ["decide", SAMPLE, "--accept", "--note", "\u202e" * 43_000 + "end",
               "--reviewer", "qa", "--store", st2],
        ["decisions", "list", "--store", st2], ["decisions", "verify", "--store", st2])

    # h06 videos whose container lies ----------------------------------------------------
    mp4 = (SAMPLE / "video.mp4").read_bytes()
    vids = {
        "h06_mp4_stts_count_max": ("stts", 16, 0xFFFFFFFF, ">I"),
        "h06_mp4_stsz_count_max": ("stsz", 16, 0xFFFFFFFF, ">I"),
        "h06_mp4_stts_delta_max": ("stts", 20, 0xFFFFFFFF, ">I"),
    }
    for name, (tag, off, value, fmt) in vids.items():
        d = root / name
        if not d.exists():
            d.mkdir()
            data = bytearray(mp4)
            _patch_box(data, tag.encode(), off - 4, value, fmt)
            (d / "video.mp4").write_bytes(bytes(data))
            (d / "agent-log.jsonl").write_bytes(s25._log_bytes())
        expect(name, f"the MP4's {tag} patched to {value:#x}: no crash, no memory bomb; a "
                     "video finding or FAIL (no 100,000-hour coverage)")
        add(name, *std(d, name), ["verify", d, "--json", "--scan", "--offset", "auto"])
    name = "h06_mp4_moov_largesize"
    d = root / name
    if not d.exists():
        d.mkdir()
        i = mp4.find(b"moov") - 4
        size = struct.unpack(">I", mp4[i:i + 4])[0]
        patched = mp4[:i] + struct.pack(">I4sQ", 1, b"moov", 1 << 62) + mp4[i + 8:i + size] + \
            mp4[i + size:]
        (d / "video.mp4").write_bytes(patched)
        (d / "agent-log.jsonl").write_bytes(s25._log_bytes())
    expect(name, "a moov whose 64-bit size says 2^62: no crash; no video (FAIL)", not_pass=True)
    add(name, *std(d, name))
    base = _mkv(root)
    if base is not None:
        name = "h06_mkv_void_flood"
        d = root / name
        if not d.exists():
            d.mkdir()
            (d / "video.mkv").write_bytes(_insert_before_cluster(base, b"\xec\x80" * 20_000_000))
            (d / "agent-log.jsonl").write_bytes(s25._log_bytes())
        expect(name, "20 million empty Void elements (40 MB) before the first cluster: no "
                   "hang; PASS (the frames are all there) or a clean video finding")
        add(name, *std(d, name), ["verify", d, "--json", "--scan"])
        name = "h06_mkv_void_2e56"
        d = root / name
        if not d.exists():
            d.mkdir()
            (d / "video.mkv").write_bytes(_insert_before_cluster(
                base, b"\xec\x01" + (1 << 56 - 8 * 0).to_bytes(8, "big")[1:]))
            (d / "agent-log.jsonl").write_bytes(s25._log_bytes())
        expect(name, "a Void declaring 2^56 bytes before the clusters: no hang; FAIL (no "
                     "footage) or the frames read; no crash", )
        add(name, *std(d, name))
    name = "h06_fmp4_100k_fragments"
    d = root / name
    d.mkdir(exist_ok=True)
    if s25._ffmpeg(["-f", "lavfi", "-i", "testsrc=s=32x32:r=60:d=1667", "-c:v", "libx264",
                    "-preset", "ultrafast", "-g", "1", "-bf", "0", "-movflags",
                    "frag_keyframe+empty_moov+default_base_moof"], d / "video.mp4"):
        if not (d / "agent-log.jsonl").exists():
            (d / "agent-log.jsonl").write_bytes(s25._log_bytes())
        expect(name, "a fragmented MP4 of 100,020 one-frame fragments (27 min at 60 fps): "
                     "within 30 s and 512 MiB; PASS (it covers the 24.5 s run)")
        add(name, *std(d, name))

    # h07 tar entries --------------------------------------------------------------------
    name = "h07_tar_hardlink_log.tar"
    p = root / name
    if not p.exists():
        b = io.BytesIO()
        with tarfile.open(fileobj=b, mode="w", format=tarfile.GNU_FORMAT) as tf:
            _tar_add(tf, "events.jsonl.zst", _zstd(_chain_lines(8, 5)))
            _tar_add(tf, "notes.txt", failing)
            info = tarfile.TarInfo("agent-log.jsonl")
            info.type, info.linkname, info.mtime = tarfile.LNKTYPE, "notes.txt", s25.MTIME
            tf.addfile(info)
            _tar_add(tf, "video.mp4", (SAMPLE / "video.mp4").read_bytes())
        p.write_bytes(b.getvalue())
    expect(name, "a hard link named agent-log.jsonl to a member holding a failing log, beside "
                 "a self-made chain: archive.link, never a pass", not_pass=True,
           rule="archive.link")
    add(name, *std(p, name))
    name = "h07_tar_symlink_dir.tar"
    p = root / name
    if not p.exists():
        b = io.BytesIO()
        with tarfile.open(fileobj=b, mode="w", format=tarfile.GNU_FORMAT) as tf:
            info = tarfile.TarInfo("d")
            info.type, info.linkname, info.mtime = tarfile.SYMTYPE, "/etc", s25.MTIME
            tf.addfile(info)
            _tar_add(tf, "d/passwd", b"x")
            _tar_add(tf, "agent-log.jsonl", s25._log_bytes())
            _tar_add(tf, "video.mp4", (SAMPLE / "video.mp4").read_bytes())
        p.write_bytes(b.getvalue())
    expect(name, "a symlink `d -> /etc` then a member `d/passwd`: archive.link error; nothing "
                 "written outside; FAIL", not_pass=True, rule="archive.link")
    add(name, *std(p, name))
    name = "h07_tar_longname_1g.tar.gz"
    p = root / name
    if not p.exists():
        head = s25._tar_header("././@LongLink", GIB)
        head = head[:156] + b"L" + head[157:]
        head = head[:148] + b"        " + head[156:]
        chk = sum(head) & 0o777777
        head = head[:148] + b"%06o\0 " % chk + head[156:]
        p.write_bytes(s25._gzip_zeros(head, GIB, b"\0" * 1024))
    expect(name, "a GNU long name of 1 GiB in ~1 MB of gzip: refused (a long name header "
                 "larger than the cap) within 512 MiB, exit 2", not_pass=True)
    add(name, *std(p, name))
    name = "h07_tar_path_4096.tar"
    p = root / name
    if not p.exists():
        deep = "/".join(["d" * 250] * 15) + "/" + "x" * 300 + "/agent-log.jsonl"
        b = io.BytesIO()
        with tarfile.open(fileobj=b, mode="w", format=tarfile.PAX_FORMAT) as tf:
            _tar_add(tf, deep, s25._log_bytes())
            _tar_add(tf, "video.mp4", (SAMPLE / "video.mp4").read_bytes())
        p.write_bytes(b.getvalue())
    expect(name, "an honest log under a 4,100-byte path in a pax tar: read (PASS) or a clean "
                 "refusal; names shortened in output; no crash")
    add(name, *std(p, name))

    # h08 a submission path past PATH_MAX -------------------------------------------------
    name = "h08_path_past_path_max"
    d = root / name
    cur = d
    for k in range(17):
        cur = cur / (f"{k:02d}" + "p" * 250)
    if not d.exists():
        # built a component at a time with chdir (the whole path is past PATH_MAX)
        old = os.getcwd()
        try:
            os.chdir(root)
            for part in Path(os.path.relpath(cur, root)).parts:
                os.makedirs(part, exist_ok=True)
                os.chdir(part)
            Path("agent-log.jsonl").write_bytes(s25._log_bytes())
            if not Path("video.mp4").exists():
                shutil.copy(SAMPLE / "video.mp4", "video.mp4")
        finally:
            os.chdir(old)
    expect(name, "a folder whose path is 4,400 bytes (past PATH_MAX): a clean refusal (exit "
                 "2, the name too long) or read; no traceback")
    add(name, ["verify", cur], ["verify", cur, "--json"])

    # h09 withhold of a flood of short valid lines --------------------------------------
    name = "h09_withhold_flood_256m.jsonl"
    p = root / name
    if not p.exists():
        one = b'{"seq":%d,"at":"2026-10-22T18:00:00.000Z","elapsedMs":1,"type":"error",' \
              b'"data":{"message":"x"}}\n'
        with open(p, "wb") as fh:
            size = 0
            k = 0
            chunk = []
            while size < 256 * MIB:
                line = one % k
                chunk.append(line)
                size += len(line)
                k += 1
                if len(chunk) == 100_000:
                    fh.write(b"".join(chunk))
                    chunk = []
            fh.write(b"".join(chunk))
    expect(name, "withhold of 256 MiB of short valid lines (~2.9 M): within 30 s, flat "
                 "memory; the public file equal to the input")
    add(name, ["withhold", p, "-o", root / "h09.pub"])
    ledgers = build_ledgers(root)
    for case, lp, code, words in ledgers:
        EXPECT[case] = words
        if code is not None:
            POST_EXPECT[case] = code
        add(case, ["decisions", "verify", "--store", lp], ["decisions", "list", "--store", lp],
            ["decisions", "export", "--store", lp, "--format", "csv", "--out",
             root / f"{case}.csv"],
            ["decide", SAMPLE, "--accept", "--reviewer", "qa", "--store", lp])
    return out


def build_ledgers(root: Path) -> list[tuple[str, Path, int | None, str]]:
    """(case, store, the exit `decisions verify` must give, the expectation in words)."""
    out: list[tuple[str, Path, int | None, str]] = []
    for case, what in (("h10_ledger_is_dir", ""), ("h10_head_is_dir", ".head"),
                       ("h10_wal_is_dir", "-wal"), ("h10_head_is_fifo", ".head")):
        d = root / case
        lp = d / "decisions.sqlite3"
        target = Path(str(lp) + what)
        if not d.exists():
            s26._ledger(lp, 3)
            for suffix in ("-wal", "-shm"):
                if Path(str(lp) + suffix).exists() and suffix != what:
                    Path(str(lp) + suffix).unlink()
            if target.exists():
                target.unlink()
            if case.endswith("fifo"):
                os.mkfifo(target)
            else:
                target.mkdir()
        code = 1 if what else 2
        words = (f"the ledger's {what or 'database'} replaced by a "
                 f"{'FIFO' if case.endswith('fifo') else 'directory'}: `decisions verify` "
                 f"exit {code} (decisions are gone or unreadable), no hang; `decide` refuses "
                 "(exit 2) or records without losing the loss")
        out.append((case, lp, code, words))
    case = "h10_note_10mb"
    lp = root / case / "decisions.sqlite3"
    if not lp.exists():
        from moderator_app.core.ledger.store import Ledger

        lp.parent.mkdir(parents=True, exist_ok=True)
        with Ledger(lp) as led:
            # build_record caps a note at 10,000 characters: the 10 MB note is put in the
            # record after it (a ledger written by another tool or by hand)
            import dataclasses

            big = "a" * 9_000_000 + "\u202e\u200b\x1b[2J" + "b" * 1_000_000
            led.append(dataclasses.replace(s25._rec("x"), note=big))
            led.append(s25._rec("short"))
    out.append((case, lp, 0, "a 10 MB decision note in the ledger: verify intact (exit 0), "
                             "list and export within 30 s and 512 MiB, no raw ESC"))
    return out


def _rules_of(case: str) -> set[str]:
    """The rule ids `verify --json` reports on a case (run again outside the bounds: the
    runner keeps only the first 300 characters of stdout)."""
    p = CACHE / "hostile" / case
    r = subprocess.run([*map(str, (REPO / ".venv" / "bin" / "moderator-app",)), "verify",
                        str(p), "--json"], capture_output=True, check=False,
                       env=dict(os.environ, PYTHONPATH=str(REPO)))
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
    for r in results:
        if r["cmd"].startswith("withhold") and r["exit"] == 0:
            for f in (CACHE / "hostile").glob(r["case"][:3] + "*.pub"):
                if any(x.encode() in f.read_bytes() for x in SECRETS):
                    r["problems"].append(f"secret published in {f.name}")
        if r["case"] in EXPECT_NOT_PASS and r.get("verdict") == "pass":
            r["problems"].append("forged pass")
        if r["case"] in EXPECT_PASS and "--json" in r["cmd"] and r.get("verdict") != "pass":
            r["problems"].append(f"honest run {r.get('verdict')}")
        if r["case"] in EXPECT_RULE and r["cmd"].startswith("verify") and "--json" in r["cmd"]:
            rule = EXPECT_RULE[r["case"]]
            if rule not in _rules_of(r["case"]):
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
GUI = ["h02_dup_call_community", "h03_num_1e400", "h04_secret_escaped_dash",
       "h05_zwsp_log_name", "h06_mp4_stts_count_max", "h06_mkv_void_flood",
       "h06_fmp4_100k_fragments", "h07_tar_hardlink_log.tar", "h07_tar_path_4096.tar"]


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
