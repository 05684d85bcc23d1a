"""Issue 15 classes of session 30's QA pass (docs/qa/session30.md), classes no earlier pass or
sweep used (grep of scripts/qa_hostile_s*.py, scripts/hostile_sweep_s*.py,
tests/hostile_corpus.py, tests/: no secret split over three members at different depths, into
array chunks, spelled entirely in `\\u` escapes, wrapped by escaped CRLF with escapes inside,
or split between two different members of two events; no unclosed bracket flood, no deep
nesting under long keys or in a tar.gz; no damaged team-mode (PostgreSQL) ledger appended to):

- h30_01 log_secret_split_three_nested: an OpenAI project key in three parts (17 characters
  each) in three members at three depths of one observation (`creds.a`, `creds.b.c[0]`,
  `creds.d.e.f`);
- h30_02 log_secret_split_array_chunks: a GitHub fine-grained token (`github_pat_...`, 93
  characters) as four chunks of an array (`data.token_chunks`, a config's wrapped value);
- h30_03 log_secret_all_u_escaped: a Slack bot token whose every character is written as a
  `\\uXXXX` escape in the JSON line (the decoded string is the token; the bytes hold none of
  it);
- h30_04 log_secret_crlf_wrapped_escaped: an AWS secret key wrapped every 16 characters by an
  escaped `\\r\\n`, its `/` and `+` written `\\u002f` / `\\u002b`;
- h30_05 log_secret_split_summary_then_ocr: a Google API key (`AIza...`), its first 20
  characters ending one observation's `summary`, its last 19 the first item of the NEXT
  observation's `ocr` list (two events, two different members);
- h30_06 official_secret_split_two_members: an official trajectory (chain valid) whose
  observation payload holds an Anthropic key's halves in `stdout` and `stderr`;
- h30_07 log_unclosed_bracket_flood: an observation's text followed by 400,000 `[` never
  closed (a 400 KB malformed line);
- h30_08 log_deep_nested_long_keys: 20,000 objects deep, each key 40 characters (a ~900 KB
  valid line) in an observation, `withhold` too;
- h30_09 targz_deep_nested_log: h30_08's log in a .tar.gz beside the video;
- h30_10 official_deep_arrays_plain: a plain (not zstd) official trajectory whose 3rd line's
  payload is 200,000 arrays deep (the chain broken at that line);
- h30_11 ledger_team_row_deleted_then_decide: **team mode** (PostgreSQL, tests/pghelp's
  server): a 4-decision ledger whose 2nd row is deleted with SQL, then `decide`;
- h30_12 ledger_team_record_edited_then_decide: team mode, the 2nd row's `record_json` edited
  (`reject` -> `accept`, its hash column unchanged), then `decide`;
- h30_13 ledger_team_tail_deleted_then_decide: team mode, the LAST row deleted (the head row
  left pointing at it), then `decide`;
  for each: `decisions verify`, `decide`, `decisions verify`, `decisions list`, export.

Each command under prlimit --as=512 MiB and timeout 30 s (the issue's bounds), through
qa_hostile_s28.run's checks (traceback, raw control, a secret or any part printed, exit
outside 0/1/2, a temp file left, a PASS on a must-not-pass input); the PostgreSQL password
is one of the secrets (it must never be printed). Deterministic bytes and seeds; written
under `.cache/qa-s30/hostile/`, never committed; the ledgers of h30_11-13 are made with the
product's `decide` when the run starts (after the expectations) and damaged then.
"""

from __future__ import annotations

import json
import os
import subprocess as _subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s29 as h29

SAMPLE = h28.SAMPLE
CLI = h28.CLI
EVAL_SECRET = "qa30-evaluator-secret-9d41"
KEY3 = "sk-proj-QA30threeDeepAAAAbbbbCCCCddddEEEEffff012345"       # h30_01 (51)
KEY3_PARTS = [KEY3[:17], KEY3[17:34], KEY3[34:]]
PAT = ("github_pat_11QA30CHUNKS0abcdefghij_" + "QA30chunkedFineGrainedTokenValue0123456789"
       "abcdefXYZ")[:93]                                                 # h30_02
PAT_PARTS = [PAT[i:i + 24] for i in range(0, len(PAT), 24)]
SLACK = "xoxb-3030303030-4040404040-QA30AllEscapedSlackTok"               # h30_03
AWS30 = "Qa30+CRLF/wrappedSecretKeyAbCdEfGh+IjKl/MnOp"                    # h30_04 (44)
AWS30_PARTS = [AWS30[i:i + 16] for i in range(0, len(AWS30), 16)]
GKEY = "AIzaSyQA30_summaryThenOcrKey-0123456789"                          # h30_05 (39)
GKEY_A, GKEY_B = GKEY[:20], GKEY[20:]
OFF30 = "sk-ant-api03-QA30stdoutStderrSplitKey0123456789ABCDEFGH"        # h30_06
OFF30_A, OFF30_B = OFF30[:28], OFF30[28:]
#: every whole secret and every part of 16+ characters: printed or published, each is a leak
SECRETS = [EVAL_SECRET, KEY3, *KEY3_PARTS, PAT, *[p for p in PAT_PARTS if len(p) >= 16],
           SLACK, AWS30, *AWS30_PARTS[:2], GKEY, GKEY_A, GKEY_B, OFF30, OFF30_A, OFF30_B]
LEDGERS = ("h30_11", "h30_12", "h30_13")
PG: dict = {}   # the server and each ledger's DSN, when the run starts
DAMAGED: set = set()  # the team ledgers made and damaged in this run


def _events() -> list[dict]:
    return h28._events()


def _dump(events: list[dict]) -> bytes:
    return h28._dump(events)


def _obs(ev: list[dict]) -> list[dict]:
    return [e for e in ev if e["type"] == "observation"]


def _u_all(s: str) -> str:
    """`s` as JSON string text with every character a \\uXXXX escape."""
    return "".join(f"\\u{ord(c):04x}" for c in s)


def _line_with_raw(ev: dict, key_path: tuple[str, ...], raw_string_text: str) -> bytes:
    """`ev` as a line whose member at key_path is the JSON string whose text (between the
    quotes) is `raw_string_text` (escapes as written)."""
    return h29._deep_line(ev, key_path, '"' + raw_string_text + '"')


def _targz(members: list[tuple[str, bytes]]) -> bytes:
    buf = BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.USTAR_FORMAT) as tf:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), h28.MTIME, 0o644
            tf.addfile(info, BytesIO(data))
    return buf.getvalue()


def _deep_keys(n: int, klen: int) -> str:
    parts, tail = [], []
    for i in range(n):
        k = (f"k{i % 97:02d}_" + "nested_member_name_" * 3)[:klen]
        parts.append('{"' + k + '":')
        tail.append("}")
    return "".join(parts) + "0" + "".join(tail)


def _official_deep_plain(d: Path) -> None:
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    out = d / "events.jsonl"
    if out.exists():
        return
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / "plain.part"
    write_trajectory(tmp, make_run_events(30, seed=301, run_id="run_qa30_deep", variety=0.0))
    lines = tmp.read_bytes().splitlines(keepends=True)
    ev = json.loads(lines[2])
    lines[2] = h29._deep_line(ev, ("payload",), h29._deep_arrays(200_000))
    out.write_bytes(b"".join(lines))
    tmp.unlink()


# -- team mode (PostgreSQL) ------------------------------------------------------------------------
def _pg_start(root: Path) -> None:
    """tests/pghelp's server (initdb + pg_ctl, a SCRAM password, loopback), a database per
    ledger; its password is one of the secrets."""
    if PG:
        return
    import pghelp

    bindir = pghelp.pg_bindir()
    if bindir is None:
        PG["error"] = "no PostgreSQL binaries"
        return
    server = pghelp.PgServer(bindir)
    server.init()
    server.start()
    PG["server"] = server
    SECRETS.append(pghelp.PASSWORD)
    for pre in LEDGERS:
        PG[pre] = server.dsn(server.create_db())


def _pg_ledger_and_damage(pre: str, how: str) -> None:
    import psycopg

    dsn = PG[pre]
    env = {**os.environ, "MODERATOR_APP_STORE": dsn}
    for i in range(4):
        _subprocess.run([*CLI, "decide", str(SAMPLE), "--reject", "--reason", "other",
                         "--note", f"qa30 team ledger {i + 1}", "--offset", "0"], env=env,
                        capture_output=True, check=False)
    with psycopg.connect(dsn, autocommit=True) as c:
        if how == "delete":
            c.execute("DELETE FROM moderator_decisions WHERE seq = 2")
        elif how == "edit":
            row = c.execute("SELECT record_json FROM moderator_decisions WHERE seq = 2").fetchone()
            body = bytes(row[0]).replace(b'"reject"', b'"accept"')
            c.execute("UPDATE moderator_decisions SET decision = 'accept', record_json = %s "
                      "WHERE seq = 2", (body,))
        else:
            top = c.execute("SELECT max(seq) FROM moderator_decisions").fetchone()[0]
            c.execute("DELETE FROM moderator_decisions WHERE seq = %s", (top,))


class _StoreShim:
    """qa_hostile_s28.run sets each input's MODERATOR_APP_STORE to a SQLite file of its name;
    for the team-mode inputs the file's name is swapped for the input's DSN here (the rest of
    the harness as it is)."""

    def __getattr__(self, k):
        return getattr(_subprocess, k)

    def run(self, argv, *a, **kw):
        env = kw.get("env")
        if env:
            store = env.get(b"MODERATOR_APP_STORE", b"").decode()
            pre = Path(store).name[:6]
            if pre in LEDGERS and pre in PG:
                env[b"MODERATOR_APP_STORE"] = PG[pre].encode()
        return _subprocess.run(argv, *a, **kw)


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:  # noqa: PLR0915
    """(name, commands) of every input; `ledgers`: also start PostgreSQL and make and damage
    h30_11-13's ledgers (with the product: only when the run starts)."""
    root.mkdir(parents=True, exist_ok=True)
    video = h28._video()
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa30 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    # 1. secrets split / spelled
    ev = _events()
    _obs(ev)[1]["data"]["creds"] = {"a": KEY3_PARTS[0], "b": {"c": [KEY3_PARTS[1]]},
                                    "d": {"e": {"f": KEY3_PARTS[2]}}}
    d = h28._folder(root, "h30_01_log_secret_split_three_nested", _dump(ev))
    out.append((d.name, [*std(d, "h30_01"), wh(d, "h30_01")]))
    ev = _events()
    _obs(ev)[2]["data"]["token_chunks"] = PAT_PARTS
    d = h28._folder(root, "h30_02_log_secret_split_array_chunks", _dump(ev))
    out.append((d.name, [*std(d, "h30_02"), wh(d, "h30_02")]))
    ev = _events()
    lines = _dump(ev).splitlines(keepends=True)
    k = next(i for i, e in enumerate(ev) if e["type"] == "observation")
    lines[k] = _line_with_raw(ev[k], ("data", "summary"), _u_all(SLACK))
    d = h28._folder(root, "h30_03_log_secret_all_u_escaped", b"".join(lines))
    out.append((d.name, [*std(d, "h30_03"), wh(d, "h30_03")]))
    ev = _events()
    lines = _dump(ev).splitlines(keepends=True)
    k = [i for i, e in enumerate(ev) if e["type"] == "observation"][2]
    wrapped = "\\r\\n".join(p.replace("/", "\\u002f").replace("+", "\\u002b")
                            for p in AWS30_PARTS)
    lines[k] = _line_with_raw(ev[k], ("data", "summary"), "aws_secret_access_key =\\r\\n"
                              + wrapped + "\\r\\n")
    d = h28._folder(root, "h30_04_log_secret_crlf_wrapped_escaped", b"".join(lines))
    out.append((d.name, [*std(d, "h30_04"), wh(d, "h30_04")]))
    ev = _events()
    o = _obs(ev)
    o[3]["data"]["summary"] = f"maps config: key={GKEY_A}"
    o[4]["data"]["ocr"] = [GKEY_B, "Level 2"]
    d = h28._folder(root, "h30_05_log_secret_split_summary_then_ocr", _dump(ev))
    out.append((d.name, [*std(d, "h30_05"), wh(d, "h30_05")]))

    def split_official(events: list[dict]) -> None:
        ob = [e for e in events if e["type"] == "observation"]
        ob[2]["payload"]["stdout"] = f"ANTHROPIC_API_KEY={OFF30_A}"
        ob[2]["payload"]["stderr"] = f"{OFF30_B}: not found"
    d = root / "h30_06_official_secret_split_two_members"
    h29._official(d, split_official)
    out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json"],
                         ["decide", str(d), "--reject", "--reason", "other", "--note", "qa30"]]))

    # 2. deep / malformed nesting
    ev = _events()
    lines = _dump(ev).splitlines(keepends=True)
    k = next(i for i, e in enumerate(ev) if e["type"] == "observation")
    lines[k] = lines[k].rstrip(b"\n")[:-2] + b',"x":' + b"[" * 400_000 + b"\n"
    d = h28._folder(root, "h30_07_log_unclosed_bracket_flood", b"".join(lines))
    out.append((d.name, [*std(d, "h30_07"), wh(d, "h30_07")]))
    ev = _events()
    lines = _dump(ev).splitlines(keepends=True)
    k = next(i for i, e in enumerate(ev) if e["type"] == "observation")
    lines[k] = h29._deep_line(ev[k], ("data", "summary"), _deep_keys(20_000, 40))
    deep_log = b"".join(lines)
    d = h28._folder(root, "h30_08_log_deep_nested_long_keys", deep_log)
    out.append((d.name, [*std(d, "h30_08"), wh(d, "h30_08")]))
    p = h28._write(root / "h30_09_targz_deep_nested_log.tar.gz",
                   _targz([("agent-log.jsonl", deep_log), ("video.mp4", video)]))
    out.append(("h30_09_targz_deep_nested_log", std(p, "h30_09")))
    d = root / "h30_10_official_deep_arrays_plain"
    _official_deep_plain(d)
    out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json"],
                         ["decide", str(d), "--reject", "--reason", "other", "--note", "qa30"]]))

    # 3. team-mode ledgers damaged, then appended to
    if ledgers:
        _pg_start(root)
    for name, how in (("h30_11_ledger_team_row_deleted_then_decide", "delete"),
                      ("h30_12_ledger_team_record_edited_then_decide", "edit"),
                      ("h30_13_ledger_team_tail_deleted_then_decide", "tail")):
        if ledgers and name[:6] in PG and name[:6] not in DAMAGED:
            _pg_ledger_and_damage(name[:6], how)  # each run's server is new: made every run
            DAMAGED.add(name[:6])
        out.append((name, [["decisions", "verify"],
                           ["decide", str(SAMPLE), "--reject", "--reason", "other", "--note",
                            "qa30 after damage", "--offset", "0"],
                           ["decisions", "verify"], ["decisions", "list"],
                           ["decisions", "export", "--format", "jsonl", "--out",
                            str(root / f"{name[:6]}.jsonl")]]))
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings against the lines holding a part."""
    import qa_session22 as s22

    out = {}
    for name, parts in (("h30_01_log_secret_split_three_nested", KEY3_PARTS),
                        ("h30_02_log_secret_split_array_chunks", PAT_PARTS[:1]),
                        ("h30_03_log_secret_all_u_escaped", (_u_all(SLACK)[:60],)),
                        ("h30_04_log_secret_crlf_wrapped_escaped", ("aws_secret_access_key",)),
                        ("h30_05_log_secret_split_summary_then_ocr", (GKEY_A, GKEY_B)),
                        ("h30_06_official_secret_split_two_members", (OFF30_A,))):
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
    return {"check": "H-s split / spelled secrets flagged", "rows": out,
            "met": all(v["met"] for v in out.values())}


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret nor any part of 16+ characters published, in the
    bytes or in the decoded strings (a token in `\\u` escapes is still the token)."""
    rows = {}
    for p in sorted(root.glob("h30_*.pub")):
        body = p.read_text("utf-8", "replace")
        decoded = []
        for line in body.splitlines():
            try:
                decoded.append(json.dumps(json.loads(line), ensure_ascii=False))
            except (ValueError, RecursionError):
                continue
        text = body + "\n".join(decoded)
        flat = text.replace("\\r\\n", "").replace("\r\n", "")
        rows[p.name] = sorted({s for s in SECRETS if s in text or s in flat})
    return {"check": "H-a withheld files hold no secret", "published": rows,
            "met": not any(rows.values())}


def _ledger_judge(results: list[dict]) -> list[dict]:
    rows = []
    for pre in LEDGERS:
        rs = [r for r in results if r["case"].startswith(pre)]
        if len(rs) < 3:
            continue
        v1, dec, v2 = rs[0], rs[1], rs[2]
        rows.append({"check": f"{pre} H-l (team mode)", "verify_before": v1["exit"],
                     "decide": dec["exit"], "verify_after": v2["exit"],
                     "decide_said": dec["stderr"][-200:] or dec["stdout"][-200:],
                     "verify_said": v1["stdout"][-200:] or v1["stderr"][-200:],
                     "met": v1["exit"] == 1 and dec["exit"] != 0 and v2["exit"] == 1})
    return rows


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S30-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = _StoreShim()
    root = cache / "hostile"
    for p in root.glob("h30_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    try:
        results = h28.run(cache, only)
        for row in _ledger_judge(results):
            print(json.dumps(row), flush=True)
        print(json.dumps({"check": "PostgreSQL", "started": "server" in PG,
                          "error": PG.get("error")}), flush=True)
    finally:
        if "server" in PG:
            PG["server"].cleanup()
    return results


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session30 as s30
    run(s30.CACHE, sys.argv[1:])
