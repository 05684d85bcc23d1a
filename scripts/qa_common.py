"""What the QA passes share (scripts/qa_session*.py): the hostile runner, each command under
the issue's bounds (512 MiB address space, 60 s), checked for what must never appear."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CLI = [str(REPO / ".venv" / "bin" / "moderator-app")]


def run_hostile(qh, cache: Path, only: list[str]) -> list[dict]:
    """Every hostile command under prlimit (512 MiB address space) and timeout 60: exit code,
    time, peak memory, and what must never appear (a traceback, a raw control character, the
    secret, a withheld private text, a temp file left, over 30 s). `qh`: a session's hostile
    module (its `cases`, `ENV`, `SECRETS`, `MARK` and optional `POST_CHECKS`)."""
    from hostile_corpus import RAW_CONTROL

    root = cache / "hostile"
    results = []
    for name, cmds in qh.cases(root):
        if only and not any(name.startswith(o) for o in only):
            continue
        for cmd in cmds:
            tmp = cache / "tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            env = {k: v for k, v in os.environ.items() if k != "ALE_EVALUATOR_SECRET"}
            env.update(qh.ENV.get(name, {}), TMPDIR=str(tmp), MODERATOR_APP_STORE=str(
                root / f"{name}.store.sqlite3"))
            tfile = cache / "time.txt"
            tfile.unlink(missing_ok=True)
            argv = ["prlimit", "--as=536870912", "timeout", "60", "/usr/bin/time", "-o",
                    str(tfile), "-f", "%e %M", *CLI, *cmd]
            r = subprocess.run([os.fsencode(a) for a in argv], capture_output=True, env={
                os.fsencode(k): os.fsencode(v) for k, v in env.items()}, stdin=subprocess.DEVNULL)
            out = r.stdout.decode("utf-8", "replace")
            err = r.stderr.decode("utf-8", "replace")
            t = tfile.read_text().split() if tfile.exists() else []
            both = out + err
            problems = []
            if "Traceback" in both or "internal error" in both.lower():
                problems.append("traceback")
            raw = sorted({hex(ord(c)) for c in RAW_CONTROL if c in both})
            if raw:
                problems.append(f"raw control {raw}")
            if any(s in both for s in qh.SECRETS):
                problems.append("secret printed")
            if qh.MARK in both:
                problems.append("private text printed")
            if r.returncode not in (0, 1, 2):
                problems.append(f"exit {r.returncode}")
            if list(tmp.iterdir()):
                problems.append(f"temp left: {[p.name for p in tmp.iterdir()]}")
            for arg in cmd:
                if arg.endswith(".pub") and Path(arg).exists() and \
                        qh.MARK.encode() in Path(arg).read_bytes():
                    problems.append(f"withheld output holds {qh.MARK}")
            verdict = level = None
            if "--json" in cmd:
                try:
                    j = json.loads(out)
                    verdict, level = j.get("verdict"), j.get("verification_level")
                except ValueError:
                    problems.append("--json output is not one JSON object")
            secs = float(t[-2]) if len(t) >= 2 else None
            rss = int(t[-1]) if len(t) >= 2 else None
            if secs is not None and secs > 30:
                problems.append(f"{secs} s")
            res = {"case": name, "cmd": " ".join(cmd[:1] + [c[-40:] for c in cmd[1:]]),
                   "exit": r.returncode, "seconds": secs, "max_rss_kb": rss,
                   "verdict": verdict, "level": level, "problems": problems,
                   "stderr": err[-300:], "stdout": out[:300]}
            print(json.dumps(res), flush=True)
            results.append(res)
    for check in getattr(qh, "POST_CHECKS", ()):
        print(json.dumps(check(root)), flush=True)
    return results
