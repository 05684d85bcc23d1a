"""Issue 15 inputs of session 13's QA pass (docs/qa/session13.md): ten classes that no earlier
pass (docs/qa/session9-12*, tests/hostile_corpus.py) nor s13-hostile's list had tried.
Deterministic (fixed bytes); written under `.cache/qa-s13/hostile/`. Run through the shared
runner (scripts/qa_common.run_hostile: prlimit 512 MiB, timeout 60, time and peak RSS, no
traceback / raw control character / secret / temp file):

    .venv/bin/python scripts/qa_session13.py hostile [ID-PREFIX...]
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "resources" / "samples" / "community-sample"
MARK = "QA-S13-PRIVATE"
SECRETS: list[str] = []
ENV: dict[str, dict[str, str]] = {}
GIB = 1 << 30


def _lines() -> list[dict]:
    return [json.loads(x) for x in (SAMPLE / "agent-log.jsonl").read_bytes().splitlines()]


def _dump(events: list[dict]) -> bytes:
    return b"".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
                    for e in events)


def _private(events: list[dict]) -> list[dict]:
    """The sample's events with MARK in every response's reasoning (withhold must drop it)."""
    for e in events:
        if e["type"] == "model_response" and "reasoning" in e["data"]:
            e["data"]["reasoning"] = f"{MARK} {e['data']['reasoning']}"
    return events


def _folder(root: Path, name: str, log: bytes, video: Path | None = SAMPLE / "video.mp4",
            video_name: str = "video.mp4") -> Path:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "agent-log.jsonl").write_bytes(log)
    if video is not None and not (d / video_name).exists():
        os.link(video, d / video_name)
    return d


def _ghost(type_name: str) -> bytes:
    """The sample with an extra press (answering no response) whose `type` is `type_name`, seq
    renumbered: a human input hidden under a type that looks like "action"."""
    ev = _lines()
    at = next(i for i, e in enumerate(ev) if e["type"] == "action")
    ghost = json.loads(json.dumps(ev[at]))
    ghost["type"] = type_name
    ghost["data"]["call"] = "c-ghost"
    ghost["elapsedMs"] += 40
    ev.insert(at + 1, ghost)
    for i, e in enumerate(ev):
        e["seq"] = i
    return _dump(ev)


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915 - one table
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []
    log = (SAMPLE / "agent-log.jsonl").read_bytes()
    store = root / "ledger.sqlite3"

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in c]
                           for c in cmds]))

    def all_cmds(p, name: str, *extra: str) -> list[list]:
        return [["verify", p, *extra], ["verify", p, "--json", *extra],
                ["decide", p, "--reject", "--reason", "other", "--note", "qa s13",
                 "--reviewer", "qa", "--store", store, *extra]]

    # q01: a plain folder whose video.mp4 is the sample's video followed by a 32 GiB hole
    d = root / "q01_sparse"
    v = d / "video.mp4"
    if not v.exists():
        d.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLE / "video.mp4", v)
        os.truncate(v, 32 * GIB)
        (d / "agent-log.jsonl").write_bytes(log)
    add("q01_sparse_video_folder", *all_cmds(d, "q01"), ["verify", d, "--scan", "--json"],
        ["frame", d, "--line", "5", "-o", root / "q01.png"])

    # q02: non-finite and huge numbers on the command line
    s = SAMPLE
    add("q02_nonfinite_numbers_cli",
        ["verify", s, "--offset", "nan"], ["verify", s, "--offset=inf", "--json"],
        ["verify", s, "--offset=-inf"], ["verify", s, "--offset", "1e308", "--json"],
        ["verify", s, "--offset", "0x10"], ["verify", s, "--offset", "1_0"],
        ["decide", s, "--accept", "--offset", "nan", "--reviewer", "qa", "--store", store],
        ["decide", s, "--accept", "--offset", "1e308", "--reviewer", "qa", "--store", store],
        ["frame", s, "--time", "nan", "-o", root / "q02a.png"],
        ["frame", s, "--time", "1e308", "-o", root / "q02b.png"],
        ["frame", s, "--time", "99:99:99.999", "-o", root / "q02c.png"],
        ["frame", s, "--line", "99999999999999999999", "-o", root / "q02d.png"],
        ["frame", s, "--line=-3", "-o", root / "q02e.png"],
        ["frame", s, "--line", "5", "--offset", "nan", "-o", root / "q02f.png"])

    # q03: later events at elapsedMs 2e15 (63,000 years into the run)
    ev = _private(_lines())
    for e in ev[-12:]:
        e["elapsedMs"] = 2_000_000_000_000_000 + e["seq"]
    d = _folder(root, "q03_elapsed", _dump(ev))
    add("q03_elapsed_2e15", *all_cmds(d, "q03"),
        ["verify", d, "--json", "--scan", "--offset", "auto"],
        ["verify", d, "--json", "--scan", "--sync", "--offset", "0.5"],
        ["frame", d, "--line", str(len(ev)), "--offset", "0", "-o", root / "q03.png"],
        ["withhold", d / "agent-log.jsonl", "-o", root / "q03.pub"])

    # q04: a ghost press under a type that looks like "action" (Cyrillic a; a trailing ZWSP)
    for tag, typ in (("cyrillic", "\u0430ction"), ("zwsp", "action\u200b"),
                     ("bidi", "\u202eaction")):
        d = _folder(root, f"q04_{tag}", _ghost(typ))
        add(f"q04_homoglyph_type_{tag}", *all_cmds(d, "q04"))

    # q05: zip members that are Unix symlinks (S_IFLNK in the external attributes)
    for tag, member, target in (("video", "video.mp4", "/etc/passwd"),
                                ("log", "agent-log.jsonl", "../../../../etc/passwd")):
        p = root / f"q05_{tag}.zip"
        if not p.exists():
            with zipfile.ZipFile(p, "w") as zf:
                for name in ("agent-log.jsonl", "video.mp4"):
                    if name == member:
                        zi = zipfile.ZipInfo(name, (2026, 5, 1, 0, 0, 0))
                        zi.create_system = 3
                        zi.external_attr = (stat.S_IFLNK | 0o777) << 16
                        zf.writestr(zi, target)
                    elif name == "video.mp4":
                        zf.write(SAMPLE / "video.mp4", name)
                    else:
                        zf.writestr(name, log)
        add(f"q05_zip_symlink_{tag}", *all_cmds(p, "q05"),
            ["frame", p, "--line", "5", "-o", root / "q05.png"])

    # q06: two logs whose names differ only in case: a passing one and a failing one
    p = root / "q06_case_twins.zip"
    if not p.exists():
        with zipfile.ZipFile(p, "w") as zf:
            zf.writestr("agent-log.jsonl", log)
            zf.writestr("Agent-Log.JSONL", _ghost("action"))
            zf.write(SAMPLE / "video.mp4", "video.mp4")
    add("q06_case_twin_roles", *all_cmds(p, "q06"))

    # q07: frame -o at a device that is always full, a directory, a missing folder, ESC
    add("q07_frame_out_bad",
        ["frame", SAMPLE, "--line", "5", "-o", "/dev/full"],
        ["frame", SAMPLE, "--line", "5", "-o", root],
        ["frame", SAMPLE, "--line", "5", "-o", root / "no" / "such" / "dir" / "x.png"],
        ["frame", SAMPLE, "--line", "5", "-o", root / "q07_\x1b[2J\x07.png"],
        ["frame", SAMPLE, "--line", "5", "-o", root / "q07.jpg"])

    # q08: a ledger path under a regular file; an empty path
    f = root / "q08_afile"
    f.write_bytes(b"not a folder\n")
    add("q08_store_under_file",
        ["decide", SAMPLE, "--accept", "--reviewer", "qa", "--store", f / "ledger.sqlite3"],
        ["decisions", "list", "--store", f / "ledger.sqlite3"],
        ["decisions", "verify", "--store", f / "ledger.sqlite3"],
        ["decide", SAMPLE, "--accept", "--reviewer", "qa", "--store", ""],
        ["decisions", "list", "--store", ""])

    # q09: audio bombs beside the sample's video: FLAC 384,000 Hz x 8 channels x 60 s; 3 h mono FLAC
    for tag, src in (("wide", "anullsrc=r=384000:cl=7.1"), ("long", "anullsrc=r=8000:cl=mono")):
        d = root / f"q09_{tag}"
        v = d / "video.mkv"
        if not v.exists():
            d.mkdir(parents=True, exist_ok=True)
            dur = "60" if tag == "wide" else "10800"
            subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i",
                            str(SAMPLE / "video.mp4"), "-f", "lavfi", "-t", dur, "-i", src,
                            "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "flac",
                            str(v)], check=True)
            (d / "agent-log.jsonl").write_bytes(log)
        add(f"q09_audio_bomb_{tag}", *all_cmds(d, "q09"),
            ["verify", d, "--scan", "--json", "--offset", "0"],
            ["frame", d, "--line", "5", "-o", root / "q09.png"])

    # q10: calendar-edge `at` values
    ev = _private(_lines())
    ev[1]["at"] = "0001-01-01T00:00:00.000Z"
    ev[2]["at"] = "9999-12-31T23:59:60.000Z"
    ev[3]["at"] = "2026-02-30T18:00:03.126Z"
    ev[4]["at"] = "2026-10-22T18:00:03.384+99:99"
    ev[5]["at"] = "+275760-09-13T00:00:00.000Z"
    d = _folder(root, "q10_calendar", _dump(ev))
    add("q10_calendar_edge_at", *all_cmds(d, "q10"),
        ["withhold", d / "agent-log.jsonl", "-o", root / "q10.pub"])
    # q11 (added after the q03 fix, 08:45): other shapes of elapsedMs far from the footage
    for tag, how in (("negative", "neg"), ("one_middle", "mid"), ("float_1e300", "f300"),
                     ("beyond_2p53", "b53"), ("alternating", "alt")):
        ev = _private(_lines())
        n = len(ev)
        for i, e in enumerate(ev):
            if how == "neg" and i >= n - 12:
                e["elapsedMs"] = -2_000_000_000_000_000 - i
            elif how == "mid" and i == n // 2:
                e["elapsedMs"] = 2_000_000_000_000_000
            elif how == "f300" and i >= n - 12:
                e["elapsedMs"] = 1e300
            elif how == "b53" and i >= n - 12:
                e["elapsedMs"] = 9_007_199_254_740_993 + i
            elif how == "alt" and i % 2 and i > 2:
                e["elapsedMs"] = 10 ** (9 + i % 7) + i
        d = _folder(root, f"q11_{tag}", _dump(ev))
        add(f"q11_elapsed_{tag}", ["verify", d, "--json"],
            ["verify", d, "--json", "--scan", "--offset", "auto"],
            ["verify", d, "--json", "--scan", "--sync", "--offset", "0.5"],
            ["decide", d, "--accept", "--offset", "0.5", "--reviewer", "qa", "--store", store])
    # q12 (added 08:50): `queue`/`claim`/`release` over a hostile folder of submissions
    q = root / "q12_queue"
    if not q.exists():
        q.mkdir()
        esc = q / "run\x1b]0;pwn\x07\u202e"
        esc.mkdir()
        (esc / "agent-log.jsonl").write_bytes(log)
        os.link(SAMPLE / "video.mp4", esc / "video.mp4")
        os.mkfifo(q / "fifo.zip")
        os.symlink("loop", q / "loop")
        os.symlink("/etc", q / "etc")
        with open(q / "big.zip", "wb") as fh:
            fh.truncate(16 * GIB)
        for i in range(300):
            (q / f"empty{i:03d}").mkdir()
        bad = q / "elapsed"
        bad.mkdir()
        ev = _lines()
        for e in ev[-12:]:
            e["elapsedMs"] = 2_000_000_000_000_000 + e["seq"]
        (bad / "agent-log.jsonl").write_bytes(_dump(ev))
        os.link(SAMPLE / "video.mp4", bad / "video.mp4")
    cache = root / "q12.cache"
    esc = next(p for p in q.iterdir() if p.name.startswith("run"))
    add("q12_queue_hostile_folder",
        ["queue", q, "--cache", cache], ["queue", q, "--json", "--cache", cache],
        ["queue", q, "--workers", "1", "--time-limit", "5", "--cache", cache],
        ["claim", esc, "--reviewer", "qa\x1b[2J\nroot", "--minutes", "30", "--store", store],
        ["claim", esc, "--reviewer", "qa", "--minutes", "99999", "--store", store],
        ["claim", esc, "--reviewer", "qa", "--minutes", "nan", "--store", store],
        ["release", esc, "--reviewer", "qa\x1b[2J\nroot", "--store", store],
        ["queue", q, "--state", "claimed", "--cache", cache, "--store", store])
    return out


def check_full_still_device(root: Path) -> dict:
    """q07: /dev/full must still be a character device."""
    return {"check": "q07 /dev/full still a char device",
            "ok": stat.S_ISCHR(os.stat("/dev/full").st_mode)}


def check_no_links(root: Path) -> dict:
    """q05: no symlink was made anywhere under the hostile root."""
    links = [str(p) for p in root.rglob("*") if p.is_symlink()]
    return {"check": "q05 no symlink created", "ok": not links, "links": links[:5]}


POST_CHECKS = [check_full_still_device, check_no_links]
