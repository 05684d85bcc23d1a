"""Issue 15 inputs of session 14's hostile task (docs/qa/session14-hostile.md): the store
paths and addresses of F5 across every command that takes a store, and session 13's new
features fed hostile input (`verify --scan-budget`, `video.several_streams`, `verify --offset
auto` with findings and no suggestion, the ledger's -wal/-shm/-journal companions).
Deterministic (fixed bytes, ffmpeg's lavfi sources); written under
`.cache/qa-s14-hostile/hostile/` (the videos need ffmpeg). Run:

    .venv/bin/python scripts/qa_hostile_s14_features.py [ID-PREFIX...]

Each command goes through the shared runner (scripts/qa_common.run_hostile): prlimit 512 MiB,
timeout 60, time and peak RSS, no traceback / raw control character / secret / temp file.
Then every command's exit code is checked against `EXPECT` (the documented one), and the
post-checks look at what the ledger companions' targets hold afterwards.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts")]

SECRET = "qa-s14-evaluator-secret-5d2c"
PASSWORD = "qa-s14-Db-Pa55word"
MARK = "QA-S14-PRIVATE"
SAMPLE = REPO / "resources" / "samples" / "community-sample"
CACHE = REPO / ".cache" / "qa-s14-features"
CLI = [str(REPO / ".venv" / "bin" / "moderator-app")]
HOSTILE_TEXT = "\x1b]0;owned\x07\x1b[2J\u202egnp.exe\u2066\r\x08\x7f\u0085"

# exit codes as documented: per case-name prefix, the codes each command may end with
EXPECT: dict[str, set[int]] = {}


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True)


def _fresh(d: Path) -> Path:
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


# -- F5: store paths and addresses ------------------------------------------------------------
def _store_commands(root: Path, store_flag: list) -> list[list]:
    out = root / "f5-export.csv"
    return [["decisions", "verify", *store_flag], ["decisions", "list", *store_flag],
            ["decisions", "export", "--format", "csv", "--out", out, *store_flag],
            ["decide", SAMPLE, "--reject", "--reason", "other", "--note", "f5", *store_flag],
            ["claim", SAMPLE, "--reviewer", "qa", *store_flag],
            ["release", SAMPLE, "--reviewer", "qa", *store_flag],
            ["queue", SAMPLE.parent, *store_flag]]


def _store_cases(root: Path) -> list[tuple[str, list]]:
    d = _fresh(root / "f5")
    (d / "afile").write_bytes(b"a regular file\n")
    nul = d / "nul.conf"
    nul.write_bytes(b"led\x00ger.sqlite3\n")
    nul.chmod(0o600)
    kinds = {
        "empty": [""], "blank": ["   "], "under_file": [d / "afile" / "ledger.sqlite3"],
        "under_file_deep": [d / "afile" / "a" / "b" / "ledger.sqlite3"],
        "sqlalchemy_url": [f"postgresql+psycopg://mod:{PASSWORD}@db.invalid/ledger"],
        "space_before_url": [f" postgresql://mod:{PASSWORD}@db.invalid/ledger"],
        "one_slash_url": [f"postgresql:/mod:{PASSWORD}@db.invalid/ledger"],
        "mysql_url": [f"mysql://mod:{PASSWORD}@db.invalid/ledger"],
        "kv_unlisted_keyword": [f"target_session_attrs=any password={PASSWORD}"],
        "kv_password_second": [f"dbname=ledger password={PASSWORD}"],
        "pg_unparsable": [f"postgresql://mod:{PASSWORD}@[::1/ledger"],
        "pg_control_chars": [f"postgresql://mod:{PASSWORD}@h{HOSTILE_TEXT}.invalid/db"],
        # QA session 14's r08 shapes (docs/qa/session14.md)
        "name_too_long": ["x" * 5000], "dev_stdout": ["/dev/stdout"],
        "loop_parent": [d / "loopa" / "ledger.sqlite3"],
    }
    for a, b in (("loopa", "loopb"), ("loopb", "loopa")):
        os.symlink(d / b, d / a)
    cases = []
    for kind, value in kinds.items():
        cmds = _store_commands(root, ["--store", *value])
        cmds.append(["decisions", "copy", "--from", *value, "--to", d / f"{kind}-copy.sqlite3"])
        cases.append((f"f5_{kind}", cmds))
        EXPECT[f"f5_{kind}"] = {1, 2} if kind == "pg_control_chars" else {2}
    cases.append(("f5_store_file_nul", _store_commands(root, ["--store-file", nul])))
    EXPECT["f5_store_file_nul"] = {2}
    # a team store that is parsed but not there: "cannot reach", the password never shown;
    # `decisions verify` keeps 1 for a store it could not read (documented), the others 2
    unreachable = [f"postgresql://mod:{PASSWORD}@127.0.0.1:1/ledger",
                   f"postgresql://mod:{PASSWORD}@127.0.0.1:99999/ledger?sslmode=bogus",
                   "postgresql://"]
    for i, dsn in enumerate(unreachable):
        cases.append((f"f5_pg_unreachable{i}", _store_commands(root, ["--store", dsn])[:4]))
        EXPECT[f"f5_pg_unreachable{i}"] = {1, 2}
    return cases


# -- verify --scan-budget ---------------------------------------------------------------------
def _budget_cases(root: Path) -> list[tuple[str, list]]:
    d = root / "budget"
    video = d / "video.mp4"
    if not video.exists():  # a video of its own: the sample's scan is cached by other runs
        d.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLE / "agent-log.jsonl", d / "agent-log.jsonl")
        _ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=10:duration=27.6",
                "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", str(video))
    cases = []
    # "-1e-300", "-nan", "-inf" look like options to argparse: "expected one argument", exit 2
    bad = ["-1", "-1e-300", "nan", "-nan", "inf", "-inf", "1e309", "abc", "", "0x10", "1 s",
           HOSTILE_TEXT, "--scan-budget=-5"]
    for i, value in enumerate(bad):
        flag = [value] if value.startswith("--") else ["--scan-budget", value]
        cases.append((f"b_bad{i:02d}", [["verify", "--scan", *flag, d]]))
        EXPECT[f"b_bad{i:02d}"] = {2}
    # Python's float() reads "1_0" as 10 and U+0663 (Arabic-Indic three) as 3
    good = ["1e308", "5e-324", "-0", "0", "1e-9", "  3  ", "1_0", "17976931348623157e292",
            "\u0663", "0.01"]
    for i, value in enumerate(good):  # a scan that stops at once is a warning, never a crash
        name = f"b_ok{i:02d}"
        cases.append((name, [["verify", "--json", "--scan", "--scan-budget", value, d],
                             ["verify", "--scan", "--sync", "--scan-budget", value, d]]))
        EXPECT[name] = {0, 1}
    return cases


# -- video.several_streams --------------------------------------------------------------------
def _streams_cases(root: Path) -> list[tuple[str, list]]:
    cases = []
    for n in (2, 9, 100):
        d = root / f"streams{n}"
        video = d / "video.mkv"
        if not video.exists():
            d.mkdir(parents=True, exist_ok=True)
            shutil.copy(SAMPLE / "agent-log.jsonl", d / "agent-log.jsonl")
            args = ["-i", str(SAMPLE / "video.mp4"), "-f", "lavfi", "-i",
                    "color=c=red:size=64x48:rate=5:duration=27.6", "-map", "0:v"]
            for _ in range(n - 1):
                args += ["-map", "1:v"]
            args += ["-c:v:0", "copy", "-c:v", "mpeg4"]
            for i in range(n):  # titles, languages and handler names with escapes and bidi
                args += [f"-metadata:s:v:{i}", f"title={HOSTILE_TEXT} {i} " + "T" * 3000,
                         f"-metadata:s:v:{i}", f"handler_name={HOSTILE_TEXT}"]
            args += ["-metadata", f"title={HOSTILE_TEXT}", "-c:v:0", "copy", str(video)]
            _ffmpeg(*args)
        name = f"s_streams{n}"
        cases.append((name, [["verify", d], ["verify", "--json", d], ["verify", "--scan", d],
                             ["verify", "--sync", "--offset", "auto", d],
                             ["frame", d / "video.mkv", "--time", "3.0", "--out", d / "frame.png"]]))
        EXPECT[name] = {0, 1, 2}  # 2 only for `--offset auto` without a suggestion
    # the checked stream is a still (a cover first, the footage second)
    d = root / "streams_cover_first"
    video = d / "video.mkv"
    if not video.exists():
        d.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLE / "agent-log.jsonl", d / "agent-log.jsonl")
        png = d / "cover.png"
        _ffmpeg("-f", "lavfi", "-i", "color=c=blue:size=64x48", "-frames:v", "1", str(png))
        _ffmpeg("-i", str(SAMPLE / "video.mp4"), "-attach", str(png), "-metadata:s:t",
                "mimetype=image/png", "-metadata:s:t", f"filename={HOSTILE_TEXT}.png",
                "-c", "copy", str(video))
    cases.append(("s_attachment_hostile_name", [["verify", "--json", d], ["verify", d]]))
    EXPECT["s_attachment_hostile_name"] = {0, 1}
    return cases


# -- verify --offset auto: findings, no suggestion --------------------------------------------
def _auto_cases(root: Path) -> list[tuple[str, list]]:
    cases = []
    # a still picture for the whole run (nothing reacts to the actions): no suggestion; the
    # scan's frozen picture is said beside the refusal. The folder's and the video's names
    # hold escapes and bidi controls (they are quoted in every finding).
    d = root / f"auto_still_{HOSTILE_TEXT}"
    video = d / f"v{HOSTILE_TEXT}.mp4"
    if not video.exists():
        d.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLE / "agent-log.jsonl", d / "agent-log.jsonl")
        _ffmpeg("-f", "lavfi", "-i", "color=c=gray:size=320x180:rate=10:duration=27.6",
                "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", str(video))
    cases.append(("a_still", [["verify", "--offset", "auto", d],
                              ["verify", "--scan", "--offset", "auto", d],
                              ["verify", "--json", "--scan", "--offset", "auto", d],
                              ["decide", d, "--reject", "--reason", "other", "--note", "x",
                               "--offset", "0"]]))
    EXPECT["a_still"] = {0, 2}  # decide --offset 0 records (0); auto: no suggestion (2)
    # noise: every frame differs, nothing matches the actions either
    d = root / "auto_noise"
    if not (d / "video.mp4").exists():
        d.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLE / "agent-log.jsonl", d / "agent-log.jsonl")
        _ffmpeg("-f", "lavfi", "-i", "nullsrc=size=160x90:rate=10:duration=27.6,"
                "geq=random(1)*255:128:128", "-c:v", "libx264", "-preset", "veryfast",
                "-pix_fmt", "yuv420p", str(d / "video.mp4"))
    cases.append(("a_noise", [["verify", "--offset", "auto", d],
                              ["verify", "--json", "--scan", "--offset", "auto", d]]))
    EXPECT["a_noise"] = {0, 1, 2}
    # --offset auto spelled oddly
    for i, value in enumerate(["AUTO", " auto ", "auto\x1b[2J", "autoo", "nan", "1e400"]):
        cases.append((f"a_arg{i}", [["verify", "--offset", value, SAMPLE]]))
        EXPECT[f"a_arg{i}"] = {0, 1, 2} if i < 2 else {2}
    return cases


# -- the ledger's companions ------------------------------------------------------------------
COMPANION_KINDS = ["wal_link_file", "shm_link_file", "journal_link_file", "wal_link_self",
                   "wal_dir", "shm_fifo", "shm_link_dev_zero", "head_link_file"]


def _companion_store(root: Path, kind: str) -> Path:
    d = _fresh(root / f"comp_{kind}")
    store = d / "decisions.sqlite3"
    subprocess.run([*CLI, "decide", str(SAMPLE), "--reject", "--reason", "other", "--note",
                    "c", "--store", str(store)], capture_output=True, check=True, timeout=120)
    suffix = {"wal": "-wal", "shm": "-shm", "journal": "-journal", "head": ".head"}[
        kind.split("_")[0]]
    other = Path(str(store) + suffix)
    target = d / "elsewhere.bin"
    target.write_bytes(b"precious " * 100)
    if kind == "head_link_file":  # keep the head's text so only the link is hostile
        target.write_bytes(other.read_bytes())
    other.unlink(missing_ok=True)
    if kind.endswith("link_file"):
        os.symlink(target, other)
    elif kind == "wal_link_self":
        os.symlink(other, other)
    elif kind == "wal_dir":
        other.mkdir()
    elif kind == "shm_fifo":
        os.mkfifo(other)
    elif kind == "shm_link_dev_zero":
        os.symlink("/dev/zero", other)
    return store


def _companion_cases(root: Path) -> list[tuple[str, list]]:
    cases = []
    for kind in COMPANION_KINDS:
        store = _companion_store(root, kind)
        cases.append((f"l_{kind}", [
            ["decisions", "verify", "--store", store], ["decisions", "list", "--store", store],
            ["decisions", "export", "--format", "jsonl", "--out", store.parent / "e.jsonl",
             "--store", store],
            ["decide", SAMPLE, "--reject", "--reason", "other", "--note", "c2", "--store",
             store]]))
        EXPECT[f"l_{kind}"] = {0, 1, 2} if kind == "head_link_file" else {1, 2}
    return cases


def check_companions(root: Path) -> dict:
    """After the l_* commands: the files the companions pointed at hold what they held."""
    rows = {}
    for kind in COMPANION_KINDS:
        target = root / f"comp_{kind}" / "elsewhere.bin"
        if kind.endswith("link_file") and kind != "head_link_file":
            rows[kind] = "untouched" if target.read_bytes() == b"precious " * 100 else "WRITTEN"
    return {"case": "l_targets", "rows": rows}


def cases(root: Path) -> list[tuple[str, list]]:
    root.mkdir(parents=True, exist_ok=True)
    out = []
    for build in (_store_cases, _budget_cases, _streams_cases, _auto_cases, _companion_cases):
        out += [(name, [[str(a) for a in cmd] for cmd in cmds]) for name, cmds in build(root)]
    return out


POST_CHECKS = [check_companions]


class _EveryCase(dict):
    """The evaluator secret is set for every command (it must never be printed)."""

    def get(self, key, default=None):
        # a scan cache of the case's own: a budget is only exercised by a scan not cached
        return {"ALE_EVALUATOR_SECRET": SECRET,
                "MODERATOR_APP_CACHE": str(CACHE / "scan-cache" / key)}


ENV = _EveryCase()
SECRETS = [SECRET, PASSWORD]


def main(only: list[str]) -> int:
    from qa_common import run_hostile

    t0 = time.monotonic()
    shutil.rmtree(CACHE / "scan-cache", ignore_errors=True)
    results = run_hostile(sys.modules[__name__], CACHE, only)
    bad = 0
    for r in results:
        allowed = EXPECT.get(r["case"], {0, 1, 2})
        if r["exit"] not in allowed:
            r["problems"].append(f"exit {r['exit']} not in {sorted(allowed)}")
        if r["problems"]:
            bad += 1
            print("PROBLEM", json.dumps(r), flush=True)
    worst_s = max((r["seconds"] or 0 for r in results), default=0)
    worst_mb = max((r["max_rss_kb"] or 0 for r in results), default=0) / 1024
    print(f"{len(results)} commands, {bad} with problems; slowest {worst_s:.1f} s, peak RSS "
          f"{worst_mb:.0f} MB; {time.monotonic() - t0:.0f} s in all", flush=True)
    return 1 if bad else 0


def gui(out: Path) -> int:
    """The workstation on the hostile videos (`xvfb-run ... qa_hostile_s14_features.py gui`): each
    folder opened, its report and first frame awaited, every text of the findings table, the
    status line and the window title checked for raw control characters, a screenshot."""
    from hostile_corpus import RAW_CONTROL
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtWidgets import QApplication

    from moderator_app.ui.main_window import MainWindow

    root = CACHE / "hostile"
    subs = [root / "streams100", root / f"auto_still_{HOSTILE_TEXT}", root / "budget"]
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    win = MainWindow(settings=QSettings(str(out / "settings.ini"), QSettings.Format.IniFormat),
                     store_path=out / "gui.sqlite3")
    win.resize(1280, 720)
    win.show()
    bad = 0
    for i, sub in enumerate(subs):
        t0 = time.monotonic()
        win.open_paths([sub])
        end = t0 + 120
        while time.monotonic() < end and not (win.session.result is not None and
                                              not win.is_verifying() and win.player.has_video
                                              and win.player.shown_frame >= 0):
            app.processEvents()
            time.sleep(0.01)
        for _ in range(50):
            app.processEvents()
            time.sleep(0.01)
        model = win.findings.model
        texts = [str(model.data(model.index(r, c), Qt.ItemDataRole.DisplayRole))
                 for r in range(model.rowCount()) for c in range(model.columnCount())]
        texts += [win.status_label.text(), win.windowTitle(), win.findings.summary.text()]
        raw = sorted({hex(ord(ch)) for t in texts for ch in RAW_CONTROL if ch in t})
        shot = out / f"gui-{i}.png"
        win.grab().save(str(shot))
        bad += bool(raw) or win.session.result is None
        print(json.dumps({"sub": sub.name, "seconds": round(time.monotonic() - t0, 1),
                          "findings": [t for t in texts if "several_streams" in t][:1],
                          "rules": sorted({t.split(" · ")[1].split()[0] for t in texts
                                           if " · " in t}),
                          "title": win.windowTitle(), "raw_control": raw, "shot": str(shot)},
                         ensure_ascii=True), flush=True)
    win.close()
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["gui"]:
        sys.exit(gui(CACHE / "gui"))
    sys.exit(main(sys.argv[1:]))
