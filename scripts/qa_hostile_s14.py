"""Issue 15 inputs of session 14's QA pass (docs/qa/session14.md): classes that no earlier
pass (docs/qa/session9-13*, tests/hostile_corpus.py, scripts/qa_hostile_s1*.py) had tried.
Deterministic (fixed bytes); written under `.cache/qa-s14/hostile/`. Run through the shared
runner (scripts/qa_common.run_hostile: prlimit 512 MiB, timeout 60, time and peak RSS, no
traceback / raw control character / secret / temp file):

    .venv/bin/python scripts/qa_session14.py hostile [ID-PREFIX...]
"""

from __future__ import annotations

import json
import os
import struct
import zipfile
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "resources" / "samples" / "community-sample"
MARK = "QA-S14-PRIVATE"
SECRET = "qa14-evaluator-secret-7f3d9c"
SECRETS = [SECRET]
#: r03's /proc/self/environ link reads the verifier's own environment: a secret there
ENV: dict[str, dict[str, str]] = {"r03_role_links": {"ALE_EVALUATOR_SECRET": SECRET,
                                                       "QA14_TOKEN": SECRET}}
MIB = 1 << 20


def _lines() -> list[dict]:
    return [json.loads(x) for x in (SAMPLE / "agent-log.jsonl").read_bytes().splitlines()]


def _dump(events: list[dict]) -> bytes:
    return b"".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
                    for e in events)


def _folder(root: Path, name: str, log: bytes | None, video: bool = True) -> Path:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    if log is not None:
        (d / "agent-log.jsonl").write_bytes(log)
    if video and not (d / "video.mp4").exists():
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
    return d


def _ghost_after(events: list[dict], at: int) -> list[dict]:
    """`events` with a copy of the first action inserted at index `at` (a press answering no
    response: must fail), seq renumbered."""
    act = next(e for e in events if e["type"] == "action")
    ghost = json.loads(json.dumps(act))
    ghost["data"]["call"] = "c-ghost"
    ghost["elapsedMs"] = events[at - 1]["elapsedMs"] + 5
    out = [*events[:at], ghost, *events[at:]]
    for i, e in enumerate(out):
        e["seq"] = i
    return out


def _zip_method(path: Path, method: int, data: bytes) -> None:
    """A zip whose agent-log.jsonl declares compression `method` (deflate bytes stored under
    another method's number: a reader must refuse the method, not guess)."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = comp.compress(data) + comp.flush()
    name = b"agent-log.jsonl"
    crc = zlib.crc32(data)
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0x5A21, crc, len(body),
                        len(data), len(name), 0) + name + body
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0x5A21, crc,
                          len(body), len(data), len(name), 0, 0, 0, 0, 0, 0) + name
    entries = [(local, central)]
    blob = b""
    cds = b""
    for loc, cen in entries:
        off = len(blob)
        blob += loc
        cds += cen[:42] + struct.pack("<I", off) + cen[46:]
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(cds),
                      len(blob), 0)
    path.write_bytes(blob + cds + end)


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915 - one table
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []
    store = root / "ledger.sqlite3"

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in c]
                           for c in cmds]))

    def all_cmds(p, tag: str, *extra: str) -> list[list]:
        return [["verify", p, *extra], ["verify", p, "--json", *extra],
                ["decide", p, "--reject", "--reason", "other", "--note", f"qa s14 {tag}",
                 "--reviewer", "qa", "--store", store, *extra]]

    # r01: JSON type confusion in integer fields (Python's bool is an int; 2.0 == 2; "3")
    for tag, field, value in (("seq_true", "seq", True), ("elapsed_true", "elapsedMs", True),
                              ("elapsed_str", "elapsedMs", "3125"),
                              ("seq_float", "seq", 3.0), ("elapsed_exp", "elapsedMs", 3.125e3),
                              ("elapsed_negzero", "elapsedMs", -0.0)):
        ev = _lines()
        target = 1 if field == "seq" and value is True else 3
        if tag == "elapsed_negzero":
            target = 0
        ev[target][field] = value
        d = _folder(root, f"r01_{tag}", _dump(ev))
        add(f"r01_type_confusion_{tag}", *all_cmds(d, tag),
            ["withhold", d / "agent-log.jsonl", "-o", root / f"r01_{tag}.pub"])

    # r02: Unicode line separators raw inside JSON strings (valid JSON), then a ghost press on
    # physical line 30: its finding must name line 30 (a reader that splits on U+2028/U+2029/
    # U+0085/VT/FF/FS would count more lines)
    ev = _lines()
    resp = next(e for e in ev if e["type"] == "model_response")
    resp["data"]["text"] = "a\u2028b\u2029c\u0085d e\u2028\u2028f"
    req = next(e for e in ev if e["type"] == "model_request")
    req["data"]["messages"][1]["content"] += "\u2028row\u2029row\u0085"
    ev = _ghost_after(ev, 29)  # the ghost is line 30
    d = _folder(root, "r02_line_separators", _dump(ev))
    add("r02_line_separators", *all_cmds(d, "r02"),
        ["frame", d, "--line", "30", "--offset", "0", "-o", root / "r02.png"],
        ["withhold", d / "agent-log.jsonl", "-o", root / "r02.pub"])
    # the same with raw VT/FF/FS inside a string (control characters: invalid JSON)
    raw = _dump(_lines()).replace(b"Pressing DOWN", b"Pressing\x0b\x0c\x1cDOWN", 1)
    d = _folder(root, "r02_raw_vt_ff", raw)
    add("r02_raw_vt_ff_in_string", *all_cmds(d, "r02b"))

    # r03: a plain folder whose role files are links to devices, to /proc, or directories
    log = (SAMPLE / "agent-log.jsonl").read_bytes()
    links = {"r03_log_environ": ("agent-log.jsonl", "/proc/self/environ"),
             "r03_log_urandom": ("agent-log.jsonl", "/dev/urandom"),
             "r03_video_zero": ("video.mp4", "/dev/zero"),
             "r03_log_outside": ("agent-log.jsonl", str(SAMPLE / "agent-log.jsonl"))}
    for tag, (member, target) in links.items():
        d = root / tag
        if not d.exists():
            d.mkdir(parents=True)
            for m in ("agent-log.jsonl", "video.mp4"):
                if m == member:
                    os.symlink(target, d / m)
                elif m == "video.mp4":
                    os.link(SAMPLE / "video.mp4", d / m)
                else:
                    (d / m).write_bytes(log)
    for tag, member in (("r03_log_is_dir", "agent-log.jsonl"), ("r03_video_is_dir", "video.mp4")):
        d = root / tag
        if not d.exists():
            d.mkdir(parents=True)
            (d / member).mkdir()
            (d / member / "x").write_bytes(b"x")
            other = "video.mp4" if member == "agent-log.jsonl" else "agent-log.jsonl"
            if other == "video.mp4":
                os.link(SAMPLE / "video.mp4", d / other)
            else:
                (d / other).write_bytes(log)
    add("r03_role_links",
        *[c for tag in (*links, "r03_log_is_dir", "r03_video_is_dir")
          for c in ([["verify", root / tag, "--json"], ["verify", root / tag, "--scan"]] +
                    ([["decide", root / tag, "--accept", "--reviewer", "qa", "--store", store]]
                     if tag in ("r03_log_environ", "r03_video_zero") else []))])

    # r04: a folder nested 400 deep (a path of ~4,400 bytes, past PATH_MAX) holding the
    # submission at the bottom; a submission folder beside 100,000 empty files
    d = root / "r04_deep"
    deep = d
    if not d.exists():
        d.mkdir(parents=True)
        fd = os.open(d, os.O_RDONLY)
        for _ in range(400):
            os.mkdir("d" * 10, dir_fd=fd)
            nfd = os.open("d" * 10, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = nfd
        lfd = os.open("agent-log.jsonl", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(lfd, log)
        os.close(lfd)
        os.close(fd)
    w = root / "r04_wide"
    if not w.exists():
        w.mkdir(parents=True)
        (w / "agent-log.jsonl").write_bytes(log)
        os.link(SAMPLE / "video.mp4", w / "video.mp4")
        for i in range(100_000):
            (w / f"f{i:06d}.txt").touch()
    deep_path = d / "/".join(["d" * 10] * 60)  # a path the CLI can still be given (~660 B)
    add("r04_deep_and_wide", ["verify", d, "--json"], ["verify", deep_path, "--json"],
        ["verify", w], ["verify", w, "--json"],
        ["decide", w, "--accept", "--reviewer", "qa", "--store", store],
        ["queue", root / "r04_deep", "--cache", root / "r04.cache"])
    del deep

    # r05: zip compression methods nobody sent: bzip2 of 256 MiB of newlines (a blank-line
    # bomb through another decompressor), and methods 9 (Deflate64), 93 (zstd), 98 (PPMd)
    p = root / "r05_bzip2_newlines.zip"
    if not p.exists():
        with zipfile.ZipFile(p, "w", zipfile.ZIP_BZIP2) as zf:
            with zf.open("agent-log.jsonl", "w") as fh:
                fh.write(log)
                chunk = b"\n" * (16 * MIB)
                for _ in range(16):
                    fh.write(chunk)
            zf.write(SAMPLE / "video.mp4", "video.mp4", zipfile.ZIP_STORED)
    add("r05_zip_bzip2_newlines", *all_cmds(p, "r05"))
    for method in (9, 93, 98):
        p = root / f"r05_method{method}.zip"
        if not p.exists():
            _zip_method(p, method, log)
        add(f"r05_zip_method_{method}", ["verify", p], ["verify", p, "--json"])

    # r06 (TMPDIR pointing at a file, a missing folder, a name with ESC) needs its own
    # environment: scripts/qa_session14.py tmpdir (the runner sets TMPDIR itself)

    # r08: ledger paths of kinds not tried: /dev/stdout, a procfs file, a parent that is a
    # symlink loop, 5,000 bytes, a name with ESC and a newline
    loop = root / "r08_loop"
    if not loop.is_symlink():
        os.symlink("r08_loop", loop)
    for tag, sp in (("stdout", "/dev/stdout"), ("procfs", "/proc/version"),
                    ("loop_parent", loop / "ledger.sqlite3"),
                    ("long", root / ("L" * 200) / ("x" * 4800)),
                    ("esc", root / "r08_\x1b[2J\nledger.sqlite3")):
        add(f"r08_store_{tag}",
            ["decide", SAMPLE, "--accept", "--reviewer", "qa", "--store", sp],
            ["decisions", "list", "--store", sp], ["decisions", "verify", "--store", sp])

    # r09: verify --scan-budget values (session 13's new option)
    add("r09_scan_budget_values",
        *[["verify", SAMPLE, "--scan", "--scan-budget", v] for v in
          ("-1", "nan", "inf", "1e308", "abc", "0x10", "1e-9", "")])
    # r10 (added 10:07): a 41 MB log, a response whose text is 24 MiB of one string ending in
    # U+202E and ESC[2J, a request with 16 MB of prompt in 20,000 lines (also opened in the
    # workstation: scripts/qa_session14.py gui-select)
    d = root / "r10_gui_huge_text"
    if not (d / "agent-log.jsonl").exists():
        ev = _lines()
        resp = next(e for e in ev if e["type"] == "model_response")
        resp["data"]["text"] = "A" * (24 << 20) + "\u202e\x1b[2J"
        req = next(e for e in ev if e["type"] == "model_request")
        req["data"]["messages"][1]["content"] = ("row " * 200 + "\n") * 20000
        _folder(root, "r10_gui_huge_text", _dump(ev))
    add("r10_huge_strings", *all_cmds(d, "r10"),
        ["withhold", d / "agent-log.jsonl", "-o", root / "r10.pub"])
    # r11 (added 10:12): one model_response listing 200,000 actions, answered by 200,000 action
    # lines (all valid, 1 ms apart): a quadratic match of actions to the response's list
    d = root / "r11_action_flood"
    if not (d / "agent-log.jsonl").exists():
        ev = _lines()
        head = ev[:3]  # run_start, model_request, model_response c1
        n = 200_000
        head[2]["data"]["actions"] = [{"name": "press", "args": {"button": "DOWN"}}] * n
        t0 = head[2]["elapsedMs"] + 10
        acts = [{"seq": 3 + i, "at": "2026-10-22T18:00:03.087Z", "elapsedMs": t0 + i,
                 "type": "action", "data": {"call": "c1", "name": "press",
                                            "args": {"button": "DOWN"}}} for i in range(n)]
        end = {"seq": 3 + n, "at": "2026-10-22T18:03:23.087Z", "elapsedMs": t0 + n,
               "type": "run_end", "data": {"reason": "time limit"}}
        for a in acts:  # `at` consistent with elapsedMs (1 ms apart)
            ms = a["elapsedMs"]
            a["at"] = f"2026-10-22T18:{ms // 60000:02d}:{ms % 60000 // 1000:02d}.{ms % 1000:03d}Z"
        ms = end["elapsedMs"]
        end["at"] = f"2026-10-22T18:{ms // 60000:02d}:{ms % 60000 // 1000:02d}.{ms % 1000:03d}Z"
        d.mkdir(parents=True, exist_ok=True)
        (d / "agent-log.jsonl").write_bytes(_dump([*head, *acts, end]))
    add("r11_action_flood", ["verify", d], ["verify", d, "--json"],
        ["withhold", d / "agent-log.jsonl", "-o", root / "r11.pub"])
    # r12 (added 10:21): 100,000 calls left pending (request + response c0..cN), then their
    # 100,000 actions in order: a lookup of pending calls that walks a list would be N^2
    d = root / "r12_pending_calls"
    if not (d / "agent-log.jsonl").exists():
        ev = _lines()
        start, req, resp, act, end = ev[0], ev[1], ev[2], ev[3], ev[-1]

        def at(ms: int) -> str:
            h, rest = divmod(ms, 3_600_000)
            return f"2026-10-22T{18 + h:02d}:{rest // 60000:02d}:{rest % 60000 // 1000:02d}." \
                f"{ms % 1000:03d}Z"

        out_ev, t = [start], 100
        for i in range(100_000):
            for src in (req, resp):
                e = json.loads(json.dumps(src))
                e["elapsedMs"], e["at"] = t, at(t)
                if src is resp:
                    e["data"]["id"] = f"c{i}"
                out_ev.append(e)
                t += 1
        for i in range(100_000):
            e = json.loads(json.dumps(act))
            e["elapsedMs"], e["at"] = t, at(t)
            e["data"]["call"] = f"c{i}"
            out_ev.append(e)
            t += 1
        e = dict(end)
        e["elapsedMs"], e["at"] = t, at(t)
        out_ev.append(e)
        for i, e in enumerate(out_ev):
            e["seq"] = i
        d.mkdir(parents=True, exist_ok=True)
        (d / "agent-log.jsonl").write_bytes(_dump(out_ev))
    add("r12_pending_calls", ["verify", d, "--json"])
    return out


def check_no_ledger_elsewhere(root: Path) -> dict:
    """r08: no ledger written into the current folder or under a refused path's stand-in."""
    stray = [str(p) for p in (Path.cwd() / "decisions.sqlite3", Path("/proc/version.bak"))
             if p.exists()]
    return {"check": "r08 no stray ledger", "ok": not stray, "stray": stray}


POST_CHECKS = [check_no_ledger_elsewhere]
