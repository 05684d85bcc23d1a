"""Issue 15 classes of session 31's QA pass (docs/qa/session31.md), classes no earlier pass or
sweep used (grep of scripts/qa_hostile_s*.py, scripts/hostile_sweep_s*.py,
tests/hostile_corpus.py, tests/: no secret split between a member's NAME and its VALUE, from an
action's arguments into the next observation, broken by zero-width spaces, a JSON web token
split at its dots into three members, a private key's lines as array items, a key split
over two events of an official trajectory; no Stripe, GitLab or SendGrid key at all; no ANSI
escape flood, no 200,000-event log, no swapped member names in a tar.gz; no ledger beside
the head file of its twin, no ledger renumbered after a deletion):

- h31_01 log_secret_hf_name_then_value: a Hugging Face token, its first 18 characters the
  NAME of a member (`data.env`), the other 19 that member's value;
- h31_02 log_secret_stripe_action_then_observation: a Stripe live secret key (`sk_live_`, a
  family the product's list does not hold: underscore, not `sk-`), its first 24 characters
  ending an action's typed text (`args.text`), the other 28 the start of the NEXT
  observation's `summary`;
- h31_03 log_secret_glpat_zero_width: a GitLab personal access token (`glpat-`) in an `ocr`
  item with a ZERO WIDTH SPACE (U+200B, written `\\u200b`) after every 4 characters (as OCR
  of a screen and copy from a web page give);
- h31_04 log_secret_jwt_three_members: a JSON web token split at its two dots into
  `auth.header`, `auth.claims`, `auth.signature` of one observation;
- h31_05 log_secret_pem_lines_array: an RSA private key block as an array of its lines
  (`data.file_lines`: `cat id_rsa` output a harness split into lines), the BEGIN line in
  item 0, six 64-character body lines after;
- h31_06 official_secret_sendgrid_two_events: an official trajectory (chain valid) whose
  3rd observation's `stdout` ends with a SendGrid key's first part (`SG.` + 22, to its
  second dot) and whose 4th observation's `stdout` starts with the rest (43);
- h31_07 log_ansi_osc_flood: an observation summary of 150,000 ANSI sequences (OSC title
  sets `ESC ] 0 ; ... BEL`, CSI colours, C1 CSI U+009B), all JSON-escaped;
- h31_08 log_200k_events: 200,000 events (observations of 60 bytes and actions), 24 MB;
- h31_09 targz_names_swapped: a .tar.gz whose `agent-log.jsonl` member holds the VIDEO's
  bytes and whose `video.mp4` member holds a failing log (must not pass);
- h31_10 ledger_head_of_twin: a 4-decision SQLite ledger with the head file of another
  4-decision ledger (the same seq, another hash) put beside it, then `decide`;
- h31_11 ledger_deleted_and_renumbered: a 4-decision SQLite ledger whose 2nd row is
  deleted, rows 3-4 renumbered 2-3 and the head file rewritten to "3 <the last hash>",
  then `decide`;
  for h31_10-11: `decisions verify`, `decide`, `decisions verify`, `decisions list`, export.

Each command under prlimit --as=512 MiB and timeout 30 s (the issue's bounds), through
qa_hostile_s28.run's checks (traceback, raw control, a secret or any part printed, exit
outside 0/1/2, a temp file left, a PASS on a must-not-pass input). Deterministic bytes and
seeds; written under `.cache/qa-s31/hostile/`, never committed; the ledgers of h31_10-11 are
made with the product's `decide` when the run starts (after the expectations) and damaged
then.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s29 as h29

SAMPLE = h28.SAMPLE
CLI = h28.CLI
EVAL_SECRET = "qa31-evaluator-secret-5e07"
HF = "hf_QA31nameValueSplitTokenAbCdEf012345"                             # h31_01 (37)
HF_A, HF_B = HF[:18], HF[18:]
STRIPE = "sk_live_51QA31ActionThenObsKeyAbCdEfGhIjKlMnOpQrSt0123"          # h31_02 (52)
STRIPE_A, STRIPE_B = STRIPE[:24], STRIPE[24:]
GLPAT = "glpat-QA31zeroWidthTok9xYz"                                        # h31_03 (26)
JWT_H = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
JWT_C = "eyJzdWIiOiJxYTMxLXNwbGl0LWp3dCIsImFkbWluIjp0cnVlfQ"
JWT_S = "QA31SignaturePartOfAJwtSplitThreeWays0123xy"
JWT = f"{JWT_H}.{JWT_C}.{JWT_S}"                                            # h31_04
PEM_BODY = [("MIIEpAIBAAKCAQEAqa31PemLinesArrayKey" + "QA31" * 10)[:64],
            ("r7Kd02mXqa31BodyLineTwoOfTheKeyAbCdEfGhIjKlMnOp" + "x31y" * 8)[:64],
            ("Zq9Lm3Nqa31BodyLineThreeOfTheKeyQrStUvWxYz0123" + "k31l" * 8)[:64],
            ("Pp4Tt8Uuqa31BodyLineFourOfTheKeyAaBbCcDdEeFfGg" + "m31n" * 8)[:64],
            ("Ww1Xx5Yyqa31BodyLineFiveOfTheKeyHhIiJjKkLlMmNn" + "p31q" * 8)[:64],
            ("Cc6Vv0Bbqa31BodyLineSixOfTheKeyOoPpQqRrSsTtUuV" + "r31s" * 8)[:64]]
PEM = ["-----BEGIN RSA PRIVATE KEY-----", *PEM_BODY, "-----END RSA PRIVATE KEY-----"]
SG = "SG.QA31sendgridPartOne0a.QA31sendgridSecondPartAcrossTwoEventsXyZ0123"  # h31_06
SG_A, SG_B = SG[:SG.index(".", 3) + 1], SG[SG.index(".", 3) + 1:]
#: every whole secret and every part of 16+ characters: printed or published, each is a leak
SECRETS = [EVAL_SECRET, HF, HF_A, HF_B, STRIPE, STRIPE_A, STRIPE_B, GLPAT, JWT, JWT_H, JWT_C,
           JWT_S, *PEM_BODY, SG, SG_A, SG_B]
LEDGERS = ("h31_10", "h31_11")
MADE: set = set()  # the ledgers made and damaged in this run (per process)


def _events() -> list[dict]:
    return h28._events()


def _dump(events: list[dict]) -> bytes:
    return h28._dump(events)


def _obs(ev: list[dict]) -> list[dict]:
    return [e for e in ev if e["type"] == "observation"]


def _targz(members: list[tuple[str, bytes]]) -> bytes:
    buf = BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.USTAR_FORMAT) as tf:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), h28.MTIME, 0o644
            tf.addfile(info, BytesIO(data))
    return buf.getvalue()


def _zw(s: str) -> str:
    """`s` as JSON string text with `\\u200b` (zero width space) after every 4 characters."""
    return "\\u200b".join(s[i:i + 4] for i in range(0, len(s), 4))


def _ansi_flood(n: int) -> str:
    """JSON string text of n ANSI sequences, each escaped as JSON writes control
    characters."""
    seqs = ("\\u001b]0;qa31 title {i}\\u0007", "\\u001b[3{k}mgreen{i}\\u001b[0m",
            "\\u009b2J", "\\u001b[{i};1H", "\\u001bP+q{i}\\u001b\\\\")
    return "".join(seqs[i % 5].format(i=i % 1000, k=i % 8) for i in range(n))


def _many_events(n: int) -> bytes:
    """The sample log with its observations repeated to n events: each model request answered,
    pressed, observed (seq and elapsedMs counting on)."""
    ev = _events()
    head, body = ev[:1], ev[1:]
    out, seq, t = [], 0, 0
    for e in head:
        out.append(e)
        seq += 1
    step = [e for e in body if e["type"] in ("model_request", "model_response", "action",
                                             "observation")][:4]
    k = 0
    while seq < n:
        for e in step:
            e2 = json.loads(json.dumps(e))
            e2["seq"], t = seq, t + 7
            e2["elapsedMs"] = t
            if e2["type"] == "model_response":
                e2["data"]["id"] = f"c{k}"
            if e2["type"] == "action":
                e2["data"]["call"] = f"c{k}"
            if e2["type"] == "model_request":
                e2["data"]["messages"] = [{"role": "user", "content": f"step {k}"}]
            if e2["type"] == "observation":
                e2["data"] = {"summary": f"frame {k}"}
            out.append(e2)
            seq += 1
        k += 1
    return _dump(out)


def _ledger_twin(root: Path, pre: str, how: str) -> None:
    """A 4-decision ledger made with the product's `decide`, then damaged: `twin` puts the
    head file of a second 4-decision ledger beside it; `renumber` deletes row 2, renumbers
    3-4 to 2-3 and rewrites the head file to the last row."""
    store = root / f"{pre}_{how}.store.sqlite3"
    for p in root.glob(f"{pre}_*"):
        if p.is_file() and ".store.sqlite3" in p.name:
            p.unlink()

    def make(path: Path, tag: str) -> None:
        env = {**os.environ, "MODERATOR_APP_STORE": str(path)}
        for i in range(4):
            subprocess.run([*CLI, "decide", str(SAMPLE), "--reject", "--reason", "other",
                            "--note", f"qa31 {tag} {i + 1}", "--offset", "0"], env=env,
                           capture_output=True, check=False)

    make(store, pre)
    head = Path(str(store) + ".head")
    if how == "twin":
        twin = root / f"{pre}_twin.sqlite3"
        for p in root.glob(f"{pre}_twin.sqlite3*"):
            p.unlink()
        make(twin, f"{pre} twin")
        shutil.copyfile(str(twin) + ".head", head)
    else:
        with sqlite3.connect(store) as c:
            c.execute("DELETE FROM decisions WHERE seq = 2")
            c.execute("UPDATE decisions SET seq = seq - 1 WHERE seq > 2")
            last = c.execute("SELECT seq, hash FROM decisions ORDER BY seq DESC").fetchone()
        head.write_text(f"{last[0]} {last[1]}\n")


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
                how = "twin" if pre == "h31_10" else "renumber"
                env[b"MODERATOR_APP_STORE"] = str(
                    Path(store).parent / f"{pre}_{how}.store.sqlite3").encode()
        return subprocess.run(argv, *a, **kw)


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:  # noqa: PLR0915
    """(name, commands) of every input; `ledgers`: also make and damage h31_10-11's ledgers
    (with the product: only when the run starts)."""
    root.mkdir(parents=True, exist_ok=True)
    video = h28._video()
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa31 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    # 1. secrets split / spelled, families no pass split
    ev = _events()
    _obs(ev)[1]["data"]["env"] = {HF_A: HF_B, "HOME": "/home/agent"}
    d = h28._folder(root, "h31_01_log_secret_hf_name_then_value", _dump(ev))
    out.append((d.name, [*std(d, "h31_01"), wh(d, "h31_01")]))
    ev = _events()
    k = next(i for i, e in enumerate(ev) if e["type"] == "action")
    ev[k]["data"]["args"] = {**ev[k]["data"].get("args", {}),
                             "text": f"export STRIPE_KEY={STRIPE_A}"}
    nxt = next(e for e in ev[k + 1:] if e["type"] == "observation")
    nxt["data"]["summary"] = f"{STRIPE_B} typed; the shell waits"
    d = h28._folder(root, "h31_02_log_secret_stripe_action_then_observation", _dump(ev))
    out.append((d.name, [*std(d, "h31_02"), wh(d, "h31_02")]))
    ev = _events()
    lines = _dump(ev).splitlines(keepends=True)
    k = [i for i, e in enumerate(ev) if e["type"] == "observation"][1]
    ev[k]["data"]["ocr"] = ["__QA31_ZW__", "Settings > Access Tokens"]
    lines[k] = json.dumps(ev[k], separators=(",", ":"), ensure_ascii=False).replace(
        '"__QA31_ZW__"', '"token: ' + _zw(GLPAT) + '"').encode() + b"\n"
    d = h28._folder(root, "h31_03_log_secret_glpat_zero_width", b"".join(lines))
    out.append((d.name, [*std(d, "h31_03"), wh(d, "h31_03")]))
    ev = _events()
    _obs(ev)[2]["data"]["auth"] = {"header": JWT_H, "claims": JWT_C, "signature": JWT_S}
    d = h28._folder(root, "h31_04_log_secret_jwt_three_members", _dump(ev))
    out.append((d.name, [*std(d, "h31_04"), wh(d, "h31_04")]))
    ev = _events()
    _obs(ev)[3]["data"]["file_lines"] = PEM
    d = h28._folder(root, "h31_05_log_secret_pem_lines_array", _dump(ev))
    out.append((d.name, [*std(d, "h31_05"), wh(d, "h31_05")]))

    def split_official(events: list[dict]) -> None:
        ob = [e for e in events if e["type"] == "observation"]
        ob[2]["payload"]["stdout"] = f"mail config written: SENDGRID_API_KEY={SG_A}"
        ob[3]["payload"]["stdout"] = f"{SG_B}\nretrying in 2 s"
    d = root / "h31_06_official_secret_sendgrid_two_events"
    h29._official(d, split_official)
    out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json"],
                         ["decide", str(d), "--reject", "--reason", "other", "--note", "qa31"]]))

    # 2. bounds: escapes, size, names
    ev = _events()
    lines = _dump(ev).splitlines(keepends=True)
    k = next(i for i, e in enumerate(ev) if e["type"] == "observation")
    lines[k] = h29._deep_line(ev[k], ("data", "summary"), '"' + _ansi_flood(150_000) + '"')
    d = h28._folder(root, "h31_07_log_ansi_osc_flood", b"".join(lines))
    out.append((d.name, [*std(d, "h31_07"), wh(d, "h31_07")]))
    big = root / "h31_08_log_200k_events"
    if not (big / "agent-log.jsonl").exists():
        h28._folder(root, big.name, _many_events(200_000))
    out.append((big.name, [*std(big, "h31_08"), wh(big, "h31_08")]))
    p = h28._write(root / "h31_09_targz_names_swapped.tar.gz",
                   _targz([("agent-log.jsonl", video), ("video.mp4", h28.failing_log())]))
    out.append(("h31_09_targz_names_swapped", std(p, "h31_09")))

    # 3. ledgers damaged, then appended to
    for name, how in (("h31_10_ledger_head_of_twin", "twin"),
                      ("h31_11_ledger_deleted_and_renumbered", "renumber")):
        if ledgers and name[:6] not in MADE:
            _ledger_twin(root, name[:6], how)
            MADE.add(name[:6])
        out.append((name, [["decisions", "verify"],
                           ["decide", str(SAMPLE), "--reject", "--reason", "other", "--note",
                            "qa31 after damage", "--offset", "0"],
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
    for name, parts in (("h31_01_log_secret_hf_name_then_value", (HF_A, HF_B)),
                        ("h31_02_log_secret_stripe_action_then_observation",
                         (STRIPE_A, STRIPE_B)),
                        ("h31_03_log_secret_glpat_zero_width", (_zw(GLPAT)[:20],)),
                        ("h31_04_log_secret_jwt_three_members", (JWT_H, JWT_S)),
                        ("h31_05_log_secret_pem_lines_array", (PEM_BODY[0],)),
                        ("h31_06_official_secret_sendgrid_two_events", (SG_A, SG_B))):
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
    bytes or in the decoded strings (a token in `\\u` escapes or broken by zero width spaces
    is still the token)."""
    rows = {}
    for p in sorted(root.glob("h31_*.pub")):
        body = p.read_text("utf-8", "replace")
        decoded = []
        for line in body.splitlines():
            try:
                decoded.append(json.dumps(json.loads(line), ensure_ascii=False))
            except (ValueError, RecursionError):
                continue
        text = body + "\n".join(decoded)
        flat = text.replace("\\u200b", "").replace("\u200b", "")
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
    h28.MARK = "QA-S31-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = {"h31_09"}
    h28.subprocess = _StoreShim()
    root = cache / "hostile"
    for p in root.glob("h31_*.pub"):
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
    import qa_session31 as s31
    run(s31.CACHE, sys.argv[1:])
