"""Issue 15 classes of session 29's QA pass (docs/qa/session29.md), classes no earlier pass or
sweep used (grep of scripts/qa_hostile_s*.py, scripts/hostile_sweep_s*.py,
tests/hostile_corpus.py: no ledger damaged in its records or pages and then appended to, no
secret split across two events, two fields or an escaped newline, no tar member named twice
by a GNU long-name record and a pax `path`, no payload nested 150,000 deep):

- h29_01 ledger_mid_deleted_then_decide: a 4-decision ledger whose 2nd record is deleted with
  SQL (a sequence gap; the head file still agrees with the last record), then `decide`;
- h29_02 ledger_verdict_edited_then_decide: the 2nd record's `decision` column set to `accept`
  with SQL (its hash unchanged), then `decide`;
- h29_03 ledger_page_zeroed_then_decide: one 4 KiB page in the middle of the SQLite file
  zeroed (a torn write), then `decide`;
- h29_04 ledger_truncated_then_decide: the SQLite file cut to half its size, then `decide`;
- h29_05 ledger_records_swapped_then_decide: the 2nd and 3rd records' bodies (every column
  but `seq`) swapped with SQL (a reordering), then `decide`;
  for each: `decisions verify`, `decide`, `decisions verify`, `decisions list`, export.
- h29_06 log_secret_split_two_events: an API key whose first 26 characters end one
  observation's text and whose last 24 begin the next observation's (two lines);
- h29_07 log_secret_split_escaped_newline: a GitHub token wrapped at 20 characters by an
  escaped newline (`\\n`) inside one string (a PEM-like wrap);
- h29_08 log_secret_split_two_fields: an AWS secret key in two members of one object
  (`key_part1`, `key_part2`);
- h29_09 official_secret_split_lines: an official trajectory (hash chain valid) whose two
  consecutive observations each hold half of an API key;
- h29_10 tar_gnu_longname_vs_pax_path_a: the FAILING log as `agent-log.jsonl`, then ONE
  member holding the honest log with a GNU long-name record `agent-log.jsonl` THEN a pax
  header whose `path` is `archive/agent-log.jsonl.bak` (ustar name `agent-log.tmp`), the
  video (GNU tar takes the pax path: the failing log stays at `agent-log.jsonl`; Python's
  tarfile takes the long name: two `agent-log.jsonl`, the later one honest);
- h29_11 tar_gnu_longname_vs_pax_path_b: the same member with the pax header first, then the
  GNU long-name record;
  (what GNU tar's `tar -x` leaves at `agent-log.jsonl` is recorded at build, `tar_truth.json`;
  where it leaves the failing log, a PASS is forged);
- h29_12 log_deep_nested_arrays: an observation's `summary` nested 150,000 arrays deep
  (300 KB line, valid JSON);
- h29_13 official_deep_nested_objects_zst: an official trajectory (zstd) whose 5th line's
  payload is nested 60,000 objects deep (the chain broken at that line);
- h29_14 log_deep_nested_mixed_withhold: 100,000 alternating `{"k":[` in a model_request's
  `data` (private) and an observation: `withhold` and verify;
- h29_15 zip_deep_nested_log: h29_12's log inside a zip beside the video.

Each command under prlimit --as=512 MiB and timeout 30 s (the issue's bounds), through
qa_hostile_s28.run's checks (traceback, raw control, a secret or either half printed,
exit outside 0/1/2, a temp file left, a PASS on a must-not-pass input). Deterministic (fixed
bytes and seeds); written under `.cache/qa-s29/hostile/`, never committed; the ledgers of
h29_01-05 are made with the product's `decide` and damaged when the run starts (after the
expectations).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import tarfile
from pathlib import Path

import qa_hostile_s28 as h28

SAMPLE = h28.SAMPLE
CLI = h28.CLI
EVAL_SECRET = "qa29-evaluator-secret-5be3"
SPLIT_KEY = "sk-proj-QA29splitKeyAAAAbbbbCCCCddddEEEEffff0123"          # h29_06
SPLIT_A, SPLIT_B = SPLIT_KEY[:26], SPLIT_KEY[26:]
WRAP_TOKEN = "ghp_QA29wrappedTokenXYZ0123456789abcdef"                  # h29_07
WRAP_A, WRAP_B = WRAP_TOKEN[:20], WRAP_TOKEN[20:]
AWS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYQA29SPLITKEY"                  # h29_08
AWS_A, AWS_B = AWS_KEY[:21], AWS_KEY[21:]
OFF_KEY = "sk-ant-api03-QA29officialSplitKey0123456789ABCDEFGHij"      # h29_09
OFF_A, OFF_B = OFF_KEY[:27], OFF_KEY[27:]
#: every whole secret and every half of 16+ characters: printed, each is a leak
SECRETS = [EVAL_SECRET, SPLIT_KEY, SPLIT_A, SPLIT_B, WRAP_TOKEN, WRAP_A, WRAP_B, AWS_KEY,
           AWS_A, AWS_B, OFF_KEY, OFF_A, OFF_B]
MUST_NOT_PASS_BASE = set()   # h29_10 / 11 join when GNU tar leaves the failing log (tar_truth)
LEDGERS = ("h29_01", "h29_02", "h29_03", "h29_04", "h29_05")


def _events() -> list[dict]:
    return h28._events()


def _dump(events: list[dict]) -> bytes:
    return h28._dump(events)


def _observations(ev: list[dict]) -> list[dict]:
    return [e for e in ev if e["type"] == "observation"]


def _pad(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 512)


def _member(name: str, data: bytes) -> bytes:
    info = h28._tar_info(name, len(data))
    return info.tobuf(tarfile.USTAR_FORMAT) + _pad(data)


def _longname_vs_pax(data: bytes, longname: str, pax_path: str, ustar: str,
                     pax_first: bool) -> bytes:
    """One member of `data` named three ways: a GNU 'L' record, a pax 'x' header's path, the
    ustar name field; in the order `pax_first` says."""
    gnu = tarfile.TarInfo._create_gnu_long_header(longname, tarfile.GNUTYPE_LONGNAME,
                                                  "utf-8", "surrogateescape")
    pax = tarfile.TarInfo._create_pax_generic_header({"path": pax_path}, tarfile.XHDTYPE,
                                                      "utf-8")
    head = h28._tar_info(ustar, len(data)).tobuf(tarfile.USTAR_FORMAT)
    return (pax + gnu if pax_first else gnu + pax) + head + _pad(data)


def _tar_truth(p: Path, log: bytes, bad: bytes) -> dict:
    """What GNU tar's `tar -x` leaves at agent-log.jsonl (the input's truth, not the product)."""
    memo = p.with_name(p.name + ".tar_truth.json")
    if memo.exists():
        return json.loads(memo.read_text())
    d = p.with_name(p.name + ".x")
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir()
    r = subprocess.run(["tar", "-xf", str(p), "-C", str(d)], capture_output=True, text=True,
                       check=False)
    got = d / "agent-log.jsonl"
    body = got.read_bytes() if got.exists() else None
    truth = {"tar_exit": r.returncode, "stderr": r.stderr[-200:],
             "files": sorted(str(x.relative_to(d)) for x in d.rglob("*") if x.is_file()),
             "at_agent_log": None if body is None else
             "failing" if body == bad else "honest" if body == log else "other",
             "python_tarfile": _tarfile_names(p)}
    shutil.rmtree(d, ignore_errors=True)
    memo.write_text(json.dumps(truth))
    return truth


def _tarfile_names(p: Path) -> list[str]:
    with tarfile.open(p) as tf:
        return [m.name for m in tf.getmembers()]


def _deep_arrays(n: int) -> str:
    return "[" * n + "]" * n


def _deep_line(ev: dict, key_path: tuple[str, ...], raw: str) -> bytes:
    """`ev` as a line with the member at key_path replaced by raw JSON text (too deep for the
    json module to write)."""
    marker = "__QA29_DEEP__"
    cur = ev
    for k in key_path[:-1]:
        cur = cur[k]
    cur[key_path[-1]] = marker
    line = json.dumps(ev, separators=(",", ":"), ensure_ascii=False)
    return line.replace(json.dumps(marker), raw).encode() + b"\n"


def _official(d: Path, mutate) -> None:
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    path = d / "events.jsonl"
    if path.exists():
        return
    events = make_run_events(30, seed=29, run_id="run_qa29_split", variety=0.0)
    mutate(events)
    d.mkdir(parents=True, exist_ok=True)
    write_trajectory(path, events)


def _official_deep(d: Path) -> None:
    """An official trajectory, zstd, whose 5th line's payload is 60,000 objects deep."""
    import zstandard

    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    out = d / "events.jsonl.zst"
    if out.exists():
        return
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / "plain.part"
    write_trajectory(tmp, make_run_events(30, seed=291, run_id="run_qa29_deep", variety=0.0))
    lines = tmp.read_bytes().splitlines(keepends=True)
    ev = json.loads(lines[4])
    n = 60_000
    lines[4] = _deep_line(ev, ("payload",), '{"a":' * n + "1" + "}" * n)
    out.write_bytes(zstandard.ZstdCompressor(level=3).compress(b"".join(lines)))
    tmp.unlink()


def _damage(store: Path, how: str) -> None:
    """Damage a ledger made by the product's decide (once: a marker file beside it)."""
    mark = Path(str(store) + ".damaged")
    if mark.exists():
        return
    if how in ("delete", "edit", "swap"):
        con = sqlite3.connect(store)
        if how == "delete":
            con.execute("DELETE FROM decisions WHERE seq = 2")
        elif how == "edit":
            con.execute("UPDATE decisions SET decision = 'accept' WHERE seq = 2")
        else:
            cols = [r[1] for r in con.execute("PRAGMA table_info(decisions)")
                    if r[1] != "seq"]
            rows = {r[0]: r[1:] for r in con.execute(
                f"SELECT seq, {', '.join(cols)} FROM decisions WHERE seq IN (2, 3)")}
            con.execute("UPDATE decisions SET hash = 'x' || hash WHERE seq IN (2, 3)")
            for seq, other in ((2, 3), (3, 2)):
                con.execute(f"UPDATE decisions SET {', '.join(c + ' = ?' for c in cols)} "
                            "WHERE seq = ?", (*rows[other], seq))
        con.commit()
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
    else:
        con = sqlite3.connect(store)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        size = store.stat().st_size
        with open(store, "r+b") as fh:
            if how == "zero":
                pages = size // 4096
                fh.seek((pages // 2) * 4096)
                fh.write(b"\0" * 4096)
            else:
                fh.truncate(size // 2)
    mark.write_text(how)


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915
    """(name, commands) of every input; `ledgers`: also make and damage h29_01-05's ledgers
    (with the product: only when the run starts)."""
    root.mkdir(parents=True, exist_ok=True)
    log, bad, video = h28._log(), h28.failing_log(), h28._video()
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa29 {tag}",
                 "--offset", "0"]]

    # 1. ledgers damaged, then appended to
    for name, how in (("h29_01_ledger_mid_deleted_then_decide", "delete"),
                      ("h29_02_ledger_verdict_edited_then_decide", "edit"),
                      ("h29_03_ledger_page_zeroed_then_decide", "zero"),
                      ("h29_04_ledger_truncated_then_decide", "truncate"),
                      ("h29_05_ledger_records_swapped_then_decide", "swap")):
        if ledgers:
            store = h28._ledger(root, name, 4 if how != "zero" else 40)
            _damage(store, how)
        out.append((name, [["decisions", "verify"],
                           ["decide", str(SAMPLE), "--reject", "--reason", "other", "--note",
                            "qa29 after damage", "--offset", "0"],
                           ["decisions", "verify"], ["decisions", "list"],
                           ["decisions", "export", "--format", "jsonl", "--out",
                            str(root / f"{name[:6]}.jsonl")]]))

    # 2. secrets split
    ev = _events()
    obs = _observations(ev)
    obs[1]["data"]["summary"] = f"config dump: OPENAI_API_KEY={SPLIT_A}"
    obs[2]["data"]["summary"] = f"{SPLIT_B} (continued)"
    d = h28._folder(root, "h29_06_log_secret_split_two_events", _dump(ev))
    out.append((d.name, [*std(d, "h29_06"),
                         ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / "h29_06.pub")]]))
    ev = _events()
    _observations(ev)[1]["data"]["summary"] = f"token:\n{WRAP_A}\n{WRAP_B}\n-- end"
    d = h28._folder(root, "h29_07_log_secret_split_escaped_newline", _dump(ev))
    out.append((d.name, [*std(d, "h29_07"),
                         ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / "h29_07.pub")]]))
    ev = _events()
    _observations(ev)[2]["data"]["env"] = {"key_part1": AWS_A, "key_part2": AWS_B,
                                           "region": "us-east-1"}
    d = h28._folder(root, "h29_08_log_secret_split_two_fields", _dump(ev))
    out.append((d.name, [*std(d, "h29_08"),
                         ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / "h29_08.pub")]]))

    def split_official(events: list[dict]) -> None:
        o = [e for e in events if e["type"] == "observation"]
        o[1]["payload"]["stdout"] = f"export ANTHROPIC_API_KEY={OFF_A}"
        o[2]["payload"]["stdout"] = f"{OFF_B}\n$ "
    d = root / "h29_09_official_secret_split_lines"
    _official(d, split_official)
    out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json"],
                         ["decide", str(d), "--reject", "--reason", "other", "--note", "qa29"]]))

    # 3. tar: a GNU long-name record and a pax path naming one member two ways
    for name, pax_first in (("h29_10_tar_gnu_longname_vs_pax_path_a", False),
                            ("h29_11_tar_gnu_longname_vs_pax_path_b", True)):
        data = (_member("agent-log.jsonl", bad) +
                _longname_vs_pax(log, "agent-log.jsonl", "archive/agent-log.jsonl.bak",
                                 "agent-log.tmp", pax_first) +
                _member("video.mp4", video) + b"\0" * 1024)
        p = h28._write(root / f"{name}.tar", data)
        t = _tar_truth(p, log, bad)
        if t["at_agent_log"] != "honest":
            MUST_NOT_PASS_BASE.add(name[:6])
        out.append((name, std(p, name[:6])))

    # 4. deep nesting
    ev = _events()
    lines = _dump(ev).splitlines(keepends=True)
    k = next(i for i, e in enumerate(ev) if e["type"] == "observation")
    lines[k] = _deep_line(ev[k], ("data", "summary"), _deep_arrays(150_000))
    deep_log = b"".join(lines)
    d = h28._folder(root, "h29_12_log_deep_nested_arrays", deep_log)
    out.append((d.name, [*std(d, "h29_12"),
                         ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / "h29_12.pub")]]))
    d = root / "h29_13_official_deep_nested_objects_zst"
    _official_deep(d)
    out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json"],
                         ["decide", str(d), "--reject", "--reason", "other", "--note", "qa29"]]))
    ev = _events()
    lines = _dump(ev).splitlines(keepends=True)
    n = 100_000
    mixed = '{"k":[' * n + "0" + "]}" * n
    k = next(i for i, e in enumerate(ev) if e["type"] == "model_request")
    lines[k] = _deep_line(ev[k], ("data",), mixed)
    k = next(i for i, e in enumerate(ev) if e["type"] == "observation")
    lines[k] = _deep_line(ev[k], ("data", "summary"), mixed)
    d = h28._folder(root, "h29_14_log_deep_nested_mixed_withhold", b"".join(lines))
    out.append((d.name, [*std(d, "h29_14"),
                         ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / "h29_14.pub")]]))
    p = h28._write(root / "h29_15_zip_deep_nested_log.zip",
                   h28._zip([("agent-log.jsonl", deep_log), ("video.mp4", video)]))
    out.append(("h29_15_zip_deep_nested_log", std(p, "h29_15")))
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


def _ledger_judge(results: list[dict]) -> list[dict]:
    """H-l: on each damaged ledger, `decisions verify` says damaged before (exit 1), `decide`
    records nothing (exit not 0), `decisions verify` still says damaged after."""
    rows = []
    for pre in LEDGERS:
        rs = [r for r in results if r["case"].startswith(pre)]
        if len(rs) < 3:
            continue
        v1, dec, v2 = rs[0], rs[1], rs[2]
        rows.append({"check": f"{pre} H-l", "verify_before": v1["exit"],
                     "decide": dec["exit"], "verify_after": v2["exit"],
                     "decide_said": dec["stderr"][-160:] or dec["stdout"][-160:],
                     "met": v1["exit"] == 1 and dec["exit"] not in (0,) and v2["exit"] == 1})
    return rows


def _secret_lines(root: Path) -> dict:
    """h29_09 (official) and h29_06-08 (logs): `verify --json`'s secret findings and lines."""
    import qa_session22 as s22

    out = {}
    for name, parts in (("h29_06_log_secret_split_two_events", (SPLIT_A, SPLIT_B)),
                        ("h29_07_log_secret_split_escaped_newline", (WRAP_A,)),
                        ("h29_08_log_secret_split_two_fields", (AWS_A,)),
                        ("h29_09_official_secret_split_lines", (OFF_A, OFF_B))):
        d = root / name
        f = next(p for p in (d / "agent-log.jsonl", d / "events.jsonl") if p.exists())
        with open(f, encoding="utf-8") as fh:
            lines = [n for n, line in enumerate(fh, 1) if any(p in line for p in parts)]
        code, rep, _err = s22._verify(d)
        found = [x for x in rep.get("findings", [])
                 if str(x.get("rule", "")).startswith("secret")]
        got = sorted({x.get("line") for x in found if x.get("line") is not None})
        out[name[:6]] = {"exit": code, "verdict": rep.get("verdict"), "secret_lines": lines,
                         "warned_lines": got, "rules": sorted({x.get("rule") for x in found}),
                         "met": bool(set(lines) & set(got))}
    return {"check": "H-s split secrets flagged", "rows": out,
            "met": all(v["met"] for v in out.values())}


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret nor either half of a split one published (a
    JSON-escaped newline inside a token is still the token: both spellings searched)."""
    rows = {}
    for p in sorted(root.glob("h29_*.pub")):
        body = p.read_text("utf-8", "replace")
        rows[p.name] = sorted({s for s in SECRETS if s in body})
    return {"check": "H-a withheld files hold no secret", "published": rows,
            "met": not any(rows.values())}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S29-PRIVATE-NOT-USED"
    h28.cases = cases
    root = cache / "hostile"
    cases(root)  # builds the tar truth (MUST_NOT_PASS) before the harness reads it
    h28.MUST_NOT_PASS = set(MUST_NOT_PASS_BASE)
    print(json.dumps({"must_not_pass": sorted(MUST_NOT_PASS_BASE),
                      "tar_truth": {p.name: json.loads(p.read_text())
                                    for p in sorted(root.glob("*.tar_truth.json"))}}),
          flush=True)
    for p in (cache / "hostile").glob("h29_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    results = h28.run(cache, only)
    for row in _ledger_judge(results):
        print(json.dumps(row), flush=True)
    return results


if __name__ == "__main__":
    import sys
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here)]
    import qa_session29 as s29
    run(s29.CACHE, sys.argv[1:])
