"""Issue 15 classes of session 32's QA pass (docs/qa/session32.md), classes no earlier pass or
sweep used (grep of scripts/qa_hostile_s*.py, scripts/hostile_sweep_s*.py,
tests/hostile_corpus.py, tests/: no npm, Shopify, PyPI, DigitalOcean, Azure storage or
Databricks key at all; no secret in a streamed tool call's argument deltas, base64-encoded in
a Kubernetes Secret, percent-encoded in a URL, split between a model request and its
response, wrapped at a terminal's width inside one official `stdout`, or over four events;
no bidi-control flood, no 40 MB single line of high-entropy text, no tar.gz with two members
of the log's name; no ledger with two records' bodies swapped, no older copy put back):

- h32_01 log_secret_npm_stream_deltas: an npm token (`npm_` + 36) in a model response's
  streamed tool-call argument deltas (`data.stream`: seven JSON-in-JSON fragments of <= 10
  characters, as an OpenAI-style stream delivers `arguments`);
- h32_02 log_secret_shopify_base64_k8s: a Shopify admin token (`shpat_` + 32 hex), BASE64
  in a Kubernetes Secret's YAML (`kubectl get secret -o yaml`) in an observation summary;
- h32_03 log_secret_pypi_percent_encoded: a PyPI API token (`pypi-AgEIcHlwaS5vcmc...`) with
  every character PERCENT-ENCODED in a URL's query (an action's `args.url`);
- h32_04 log_secret_do_request_then_response: a DigitalOcean token (`dop_v1_` + 64 hex), its
  first 30 characters ending a model REQUEST's user message (OCR of the screen), the other
  41 starting the model RESPONSE's text (the model completes what it read);
- h32_05 official_secret_azure_wrapped_stdout: an official trajectory (chain valid) whose
  observation `stdout` holds an Azure storage connection string whose `AccountKey` (88
  base64 characters) is WRAPPED at the terminal's 80th column (a `\\n` inside the key);
- h32_06 log_secret_databricks_four_events: a Databricks token (`dapi` + 32 hex) split into
  four parts of 10 characters over FOUR consecutive observations' `summary`;
- h32_07 log_bidi_flood: an observation summary of 120,000 bidi controls (U+202E, U+2066-
  U+2069, U+200F) between file names, JSON-escaped (`\\u202e`...);
- h32_08 log_40mb_high_entropy_line: one observation whose `summary` is 40 MB of random
  base64 text (a screenshot a harness pasted as text): one line, high entropy everywhere;
- h32_09 targz_two_logs_same_name: a .tar.gz with TWO members named `agent-log.jsonl`, the
  first the passing sample, the second a failing log (`tar -x` keeps the failing one; must
  not pass);
- h32_10 ledger_bodies_swapped: a 4-decision SQLite ledger whose rows 2 and 3 have every
  column but `seq` swapped (two bodies swapped), then `decide`;
- h32_11 ledger_older_copy_put_back: a 2-decision copy of a ledger put back over it after 2
  more decisions (the head file ahead of the database), then `decide`;
  for h32_10-11: `decisions verify`, `decide`, `decisions verify`, `decisions list`, export.

Each command under prlimit --as=512 MiB and timeout 30 s (the issue's bounds), through
qa_hostile_s28.run's checks (traceback, raw control, a secret or any part printed, exit
outside 0/1/2, a temp file left, a PASS on a must-not-pass input). Deterministic bytes and
seeds; written under `.cache/qa-s32/hostile/`, never committed; the ledgers of h32_10-11 are
made with the product's `decide` when the run starts (after the expectations) and damaged
then.
"""

from __future__ import annotations

import base64
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s29 as h29
import qa_hostile_s31 as h31

SAMPLE = h28.SAMPLE
CLI = h28.CLI
EVAL_SECRET = "qa32-evaluator-secret-a9d4"
NPM = "npm_QA32streamDeltaTok0aB1cD2eF3gH4iJ5k"                           # h32_01 (40)
NPM_ARGS = json.dumps({"registry": "https://registry.npmjs.org", "token": NPM})
NPM_DELTAS = [NPM_ARGS[i:i + 10] for i in range(0, len(NPM_ARGS), 10)]
_AT = NPM_ARGS.index(NPM)
#: the fragments holding a part of the token, as the log's bytes spell them (JSON-escaped)
NPM_FRAGS = tuple(json.dumps(x)[1:-1] for i, x in enumerate(NPM_DELTAS)
                  if i * 10 + 10 > _AT and i * 10 < _AT + len(NPM))
SHOPIFY = "shpat_" + "3f9a0c2be71d4a58b6c09e1f2d7a3b4c"                    # h32_02 (38)
SHOPIFY_B64 = base64.b64encode(SHOPIFY.encode()).decode()
PYPI = ("pypi-AgEIcHlwaS5vcmcCJDQa32PercentEncodedTokenBody0123456789abcdefAAIq"
        "J3sicGVybWlzc2lvbnMiOiAidXNlciJ9")                                 # h32_03
PYPI_PCT = "".join(f"%{b:02X}" for b in PYPI.encode())
DO = "dop_v1_" + "8c1e5f0a9b3d47e2a6f1c0d9e8b7a6f5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9"  # h32_04
DO_A, DO_B = DO[:30], DO[30:]
AZ_KEY = ("QA32azureAccountKey0wrappedAtEightyColumns+AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
          "/abcdef==")                                                     # h32_05 (88)
AZ = ("DefaultEndpointsProtocol=https;AccountName=qa32store;AccountKey=" + AZ_KEY +
      ";EndpointSuffix=core.windows.net")
AZ_A, AZ_B = AZ[:80], AZ[80:]   # the terminal wraps at column 80: inside the key
DBX = "dapi" + "QA32b7e4c19f0a6d28e5b3c71f4a9d0e6b2c8"                     # h32_06 (40)
DBX_PARTS = [DBX[i:i + 10] for i in range(0, 40, 10)]
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, NPM, SHOPIFY, SHOPIFY_B64, PYPI, PYPI_PCT[:48], DO, DO_A, DO_B,
           AZ_KEY, AZ_KEY[:40], AZ_KEY[40:], DBX]
#: each split secret's parts as the input cuts it: every part present in a published file
#: is the secret published (parts of 10 characters included: the reader joins them)
NPM_PIECES = tuple(NPM_ARGS[max(i * 10, _AT):min(i * 10 + 10, _AT + len(NPM))]
                   for i in range(len(NPM_DELTAS)) if i * 10 + 10 > _AT and i * 10 < _AT + len(NPM))
_AZ_CUT = 80 - AZ.index(AZ_KEY)
SPLITS = {NPM: NPM_PIECES, DO: (DO_A, DO_B), AZ_KEY: (AZ_KEY[:_AZ_CUT], AZ_KEY[_AZ_CUT:]),
          DBX: tuple(DBX_PARTS)}
LEDGERS = ("h32_10", "h32_11")
MADE: set = set()


def _events() -> list[dict]:
    return h28._events()


def _dump(events: list[dict]) -> bytes:
    return h28._dump(events)


def _obs(ev: list[dict]) -> list[dict]:
    return [e for e in ev if e["type"] == "observation"]


def _bidi_flood(n: int) -> str:
    """JSON string text of n bidi controls between short file names, each escaped."""
    cs = ("\\u202e", "\\u2066", "\\u2067", "\\u2068", "\\u2069", "\\u200f")
    return "".join(f"{cs[i % 6]}f{i % 97}.txt" for i in range(n))


def _entropy_line(ev: dict, mb: int) -> bytes:
    """`ev` with its summary replaced by `mb` MB of random base64 text (seeded)."""
    rng = random.Random(3240)
    body = base64.b64encode(rng.randbytes(mb * 3 * 1024 * 1024 // 4)).decode()
    return h29._deep_line(ev, ("data", "summary"), '"' + body + '"')


def _make_ledger(path: Path, tag: str, n: int) -> None:
    env = {**os.environ, "MODERATOR_APP_STORE": str(path)}
    for i in range(n):
        subprocess.run([*CLI, "decide", str(SAMPLE), "--reject", "--reason", "other",
                        "--note", f"qa32 {tag} {i + 1}", "--offset", "0"], env=env,
                       capture_output=True, check=False)


def _ledger_damage(root: Path, pre: str, how: str) -> None:
    """A ledger made with the product's `decide`, then damaged: `swap` swaps every column
    but `seq` of rows 2 and 3; `older` copies the database after 2 decisions, records 2
    more, then puts the copy back (its -wal / -shm removed; the head file left ahead)."""
    store = root / f"{pre}_{how}.store.sqlite3"
    for p in root.glob(f"{pre}_*"):
        if p.is_file() and ".store.sqlite3" in p.name:
            p.unlink()
    if how == "swap":
        _make_ledger(store, pre, 4)
        with sqlite3.connect(store) as c:
            cols = [r[1] for r in c.execute("PRAGMA table_info(decisions)") if r[1] != "seq"]
            r2 = c.execute(f"SELECT {', '.join(cols)} FROM decisions WHERE seq = 2").fetchone()
            r3 = c.execute(f"SELECT {', '.join(cols)} FROM decisions WHERE seq = 3").fetchone()
            # deleted and put back swapped (an UPDATE in place trips the hash's UNIQUE)
            c.execute("DELETE FROM decisions WHERE seq IN (2, 3)")
            put = (f"INSERT INTO decisions (seq, {', '.join(cols)}) "
                   f"VALUES (?, {', '.join('?' * len(cols))})")
            c.execute(put, (2, *r3))
            c.execute(put, (3, *r2))
    else:
        _make_ledger(store, pre, 2)
        copy = root / f"{pre}_copy.sqlite3"
        with sqlite3.connect(store) as src, sqlite3.connect(copy) as dst:
            src.backup(dst)
        _make_ledger(store, f"{pre} later", 2)
        for suf in ("-wal", "-shm"):
            Path(str(store) + suf).unlink(missing_ok=True)
        shutil.copyfile(copy, store)
        copy.unlink()


class _StoreShim:
    """qa_hostile_s28.run sets each input's MODERATOR_APP_STORE to `<name>.store.sqlite3`;
    for the ledger inputs it is swapped here for the damaged ledger's file."""

    def __getattr__(self, k):
        return getattr(subprocess, k)

    def run(self, argv, *a, **kw):
        env = kw.get("env")
        if env:
            store = env.get(b"MODERATOR_APP_STORE", b"").decode()
            pre = Path(store).name[:6]
            if pre in LEDGERS:
                how = "swap" if pre == "h32_10" else "older"
                env[b"MODERATOR_APP_STORE"] = str(
                    Path(store).parent / f"{pre}_{how}.store.sqlite3").encode()
        return subprocess.run(argv, *a, **kw)


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:  # noqa: PLR0915
    """(name, commands) of every input; `ledgers`: also make and damage h32_10-11's ledgers
    (with the product: only when the run starts)."""
    root.mkdir(parents=True, exist_ok=True)
    video = h28._video()
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa32 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    # 1. secrets split / spelled, families no pass used
    ev = _events()
    resp = next(e for e in ev if e["type"] == "model_response")
    resp["data"]["stream"] = [{"index": 0, "delta": {"tool_calls": [
        {"function": {"name": "npm_login", "arguments": ""}}]}}] + [
        {"index": 0, "delta": {"tool_calls": [{"function": {"arguments": x}}]}}
        for x in NPM_DELTAS]
    d = h28._folder(root, "h32_01_log_secret_npm_stream_deltas", _dump(ev))
    out.append((d.name, [*std(d, "h32_01"), wh(d, "h32_01")]))
    ev = _events()
    _obs(ev)[1]["data"]["summary"] = (
        "$ kubectl get secret shop-api -o yaml\napiVersion: v1\ndata:\n  token: "
        f"{SHOPIFY_B64}\nkind: Secret\nmetadata:\n  name: shop-api\ntype: Opaque")
    d = h28._folder(root, "h32_02_log_secret_shopify_base64_k8s", _dump(ev))
    out.append((d.name, [*std(d, "h32_02"), wh(d, "h32_02")]))
    ev = _events()
    k = next(i for i, e in enumerate(ev) if e["type"] == "action")
    ev[k]["data"]["args"] = {**ev[k]["data"].get("args", {}),
                             "url": "https://upload.pypi.org/legacy/?user=__token__&pass="
                                    + PYPI_PCT}
    d = h28._folder(root, "h32_03_log_secret_pypi_percent_encoded", _dump(ev))
    out.append((d.name, [*std(d, "h32_03"), wh(d, "h32_03")]))
    ev = _events()
    k = next(i for i, e in enumerate(ev) if e["type"] == "model_request")
    ev[k]["data"]["messages"] = [*ev[k]["data"].get("messages", []), {
        "role": "user", "content": f"Screen text: 'export DIGITALOCEAN_TOKEN={DO_A}"}]
    r = next(e for e in ev[k + 1:] if e["type"] == "model_response")
    r["data"]["text"] = f"{DO_B}' is cut off at the screen's edge; I will scroll right."
    d = h28._folder(root, "h32_04_log_secret_do_request_then_response", _dump(ev))
    out.append((d.name, [*std(d, "h32_04"), wh(d, "h32_04")]))

    def wrapped_official(events: list[dict]) -> None:
        ob = [e for e in events if e["type"] == "observation"]
        ob[2]["payload"]["stdout"] = (f"$ az storage account show-connection-string\n{AZ_A}\n"
                                      f"{AZ_B}\n$ ")
    d = root / "h32_05_official_secret_azure_wrapped_stdout"
    h29._official(d, wrapped_official)
    out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json"],
                         ["decide", str(d), "--reject", "--reason", "other", "--note", "qa32"]]))
    ev = _events()
    for i, part in enumerate(DBX_PARTS):
        _obs(ev)[i]["data"]["summary"] = f"line {i + 1} of the token panel: {part}"
    d = h28._folder(root, "h32_06_log_secret_databricks_four_events", _dump(ev))
    out.append((d.name, [*std(d, "h32_06"), wh(d, "h32_06")]))

    # 2. bounds: bidi controls, one 40 MB line, two members of one name
    ev = _events()
    lines = _dump(ev).splitlines(keepends=True)
    k = next(i for i, e in enumerate(ev) if e["type"] == "observation")
    lines[k] = h29._deep_line(ev[k], ("data", "summary"), '"' + _bidi_flood(120_000) + '"')
    d = h28._folder(root, "h32_07_log_bidi_flood", b"".join(lines))
    out.append((d.name, [*std(d, "h32_07"), wh(d, "h32_07")]))
    big = root / "h32_08_log_40mb_high_entropy_line"
    if not (big / "agent-log.jsonl").exists():
        ev = _events()
        lines = _dump(ev).splitlines(keepends=True)
        k = [i for i, e in enumerate(ev) if e["type"] == "observation"][1]
        lines[k] = _entropy_line(ev[k], 40)
        h28._folder(root, big.name, b"".join(lines))
    out.append((big.name, [*std(big, "h32_08"), wh(big, "h32_08")]))
    p = h28._write(root / "h32_09_targz_two_logs_same_name.tar.gz",
                   h31._targz([("agent-log.jsonl", h28._log()), ("video.mp4", video),
                               ("agent-log.jsonl", h28.failing_log())]))
    out.append(("h32_09_targz_two_logs_same_name", std(p, "h32_09")))

    # 3. ledgers damaged, then appended to
    for name, how in (("h32_10_ledger_bodies_swapped", "swap"),
                      ("h32_11_ledger_older_copy_put_back", "older")):
        if ledgers and name[:6] not in MADE:
            _ledger_damage(root, name[:6], how)
            MADE.add(name[:6])
        out.append((name, [["decisions", "verify"],
                           ["decide", str(SAMPLE), "--reject", "--reason", "other", "--note",
                            "qa32 after damage", "--offset", "0"],
                           ["decisions", "verify"], ["decisions", "list"],
                           ["decisions", "export", "--format", "jsonl", "--out",
                            str(root / f"{name[:6]}.jsonl")]]))
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings against the lines holding a part or spelling."""
    import qa_session22 as s22

    out = {}
    for name, parts in (("h32_01_log_secret_npm_stream_deltas", NPM_FRAGS),
                        ("h32_02_log_secret_shopify_base64_k8s", (SHOPIFY_B64,)),
                        ("h32_03_log_secret_pypi_percent_encoded", (PYPI_PCT[:30],)),
                        ("h32_04_log_secret_do_request_then_response", (DO_A, DO_B)),
                        ("h32_05_official_secret_azure_wrapped_stdout", SPLITS[AZ_KEY]),
                        ("h32_06_log_secret_databricks_four_events", tuple(DBX_PARTS))):
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


def _strings(x) -> list[str]:
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for v in x.values() for s in _strings(v)]
    if isinstance(x, list):
        return [s for v in x for s in _strings(v)]
    return []


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published, in the bytes, in
    the decoded strings, in all of a line's strings joined (a split over members or
    fragments), in the file's strings joined (a split over events) and with percent-escapes,
    base64 runs and line breaks undone."""
    import re
    from urllib.parse import unquote

    rows = {}
    whole = (NPM, SHOPIFY, PYPI, DO, AZ_KEY, DBX)
    for p in sorted(root.glob("h32_*.pub")):
        body = p.read_text("utf-8", "replace")
        strs: list[str] = []
        for line in body.splitlines():
            try:
                strs += _strings(json.loads(line))
            except (ValueError, RecursionError):
                continue
        joined = "".join(strs)
        texts = [body, "\n".join(strs), joined, joined.replace("\n", ""), unquote(joined)]
        for run in re.findall(r"[A-Za-z0-9+/]{24,}={0,2}", joined):
            try:
                texts.append(base64.b64decode(run + "=" * (-len(run) % 4)).decode("latin-1"))
            except ValueError:
                continue
        found = {s for s in SECRETS if any(s in t for t in texts)}
        found |= {s for s in whole if any(s in t for t in texts)}
        found |= {f"{s} (all {len(ps)} parts)" for s, ps in SPLITS.items()
                  if all(any(x in t for t in texts) for x in ps)}
        rows[p.name] = sorted(found)
    return {"check": "H-a withheld files hold no secret", "published": rows,
            "met": not any(rows.values())}


def _ledger_judge(results: list[dict]) -> list[dict]:
    rows = []
    for pre in LEDGERS:
        rs = [r for r in results if r["case"].startswith(pre)]
        if len(rs) < 3:
            continue
        v1, dec, v2 = rs[0], rs[1], rs[2]
        rows.append({"check": f"{pre} H-l", "verify_before": v1["exit"],
                     "decide": dec["exit"], "verify_after": v2["exit"],
                     "decide_said": dec["stderr"][-200:] or dec["stdout"][-200:],
                     "verify_said": v1["stdout"][-200:] or v1["stderr"][-200:],
                     "met": v1["exit"] == 1 and dec["exit"] != 0 and v2["exit"] == 1})
    return rows


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S32-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = {"h32_09"}
    h28.subprocess = _StoreShim()
    root = cache / "hostile"
    for p in root.glob("h32_*.pub"):
        p.unlink()
    MADE.clear()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    results = h28.run(cache, only)
    for row in _ledger_judge(results):
        print(json.dumps(row), flush=True)
    return results


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session32 as s32
    run(s32.CACHE, sys.argv[1:])
