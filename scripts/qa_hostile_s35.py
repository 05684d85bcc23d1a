"""Issue 15 classes of session 35's QA pass (docs/qa/session35.md): the classes session 35's
secrets and escape engineers close (keys spelled as escapes, as byte arrays, as hex dumps, as
joined literals), each spelled differently from QA s34's h34_01-05, s33's h33_01-03 and s32's
h32_01-06 (grep of scripts/qa_hostile_s*.py, scripts/hostile_sweep_s*.py, tests/: no `\\x`
byte escapes of a key, no DECIMAL byte list, no openssl-style colon hex, no multi-line
`"".join([...])` of a Python list, no shell adjacency of mixed quotes, no ES6 `\\u{..}`; no
Replicate, Supabase, New Relic, Google OAuth client secret, Hugging Face org, xAI, Vault or
Brevo key in any QA input: all eight in the product's key table). Every spelling sits in an
OBSERVATION (a tool's output), which `withhold` keeps public (s34's h34_01 / h34_04 sat in
model-response text, which withhold drops). Then an honest control of look-alikes, and two
escape-heavy logs large enough to time:

- h35_01 log_secret_replicate_x_escapes: a Replicate token (`r8_` + 37) as a Python bytes
  literal with EVERY byte a `\\xNN` escape (`b"\\x72\\x38\\x5f..."`), a tool's repr;
- h35_02 log_secret_supabase_decimal_bytes: a Supabase token (`sbp_` + 40 hex) as a DECIMAL
  byte list (`bytes([115, 98, 112, 95, ...]).decode()`), 16 numbers a line;
- h35_03 log_secret_newrelic_openssl_colon_hex: a New Relic key (`NRAK-` + 27) as openssl's
  `-text` hex (lower-case pairs joined by `:`, 15 bytes a line, 4-space indent, a trailing
  `:` on every line but the last);
- h35_04 log_secret_google_oauth_join_lines: a Google OAuth client secret (`GOCSPX-` + 28)
  as a Python `"".join([` list with ONE literal a line `])`;
- h35_05 log_secret_hf_org_shell_quotes: a Hugging Face org token (`api_org_` + 34) as a
  shell assignment of ADJACENT quoted parts mixing single and double quotes
  (`export HF_TOKEN='api_org_'"QA35..."'...'`), `cat .envrc`'s output;
- h35_06 log_secret_xai_es6_brace_escapes: an xAI key (`xai-` + 80) as a JS string whose
  every character is an ES6 brace escape (`"\\u{78}\\u{61}\\u{69}..."`);
- h35_07 log_honest_lookalikes: no secret; a PNG signature as `\\x` bytes and as a decimal
  byte list, a certificate's SHA-256 fingerprint in openssl colon hex, `"".join([...])` of
  words over lines, a shell greeting of adjacent quotes, `"caf\\u{e9}"`, a 40-hex git id:
  `verify` must flag nothing and `withhold` must publish;
- escape (timed alone, `check_escape`): e_xescape_128mb, 128 MiB of observations whose text is
  a Python bytes repr with EVERY byte a `\\xNN` escape (honest words), a Vault token
  (`hvs.` + 90) spelled the same way on the LAST line; e_colonhex_128mb, 128 MiB of openssl-
  style colon hex of seeded random bytes (15 bytes a line), a Brevo key
  (`xkeysib-` + 64 hex + `-` + 16) spelled the same way on the last line; e_listjoin_128mb
  (added in session 36 by its escape engineer, so the shape stays timed), 128 MiB of tiny
  listed joins (`["ab", "cd"].join("")`, 780 an observation), a Google OAuth client secret as
  a listed join on the last line. `verify --json` and
  `withhold` each under prlimit --as=512 MiB, timeout 300 s; CPU (user + sys) scaled x4 to 512
  MiB against the 30 s bar; the key flagged and not published.

Each hostile command under prlimit --as=512 MiB and timeout 30 s (the issue's bounds),
through qa_hostile_s28.run's checks via qa_hostile_s34's harness. Deterministic bytes and
seeds; written under `.cache/qa-s35/`, never committed.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s33 as h33
import qa_hostile_s34 as h34

SAMPLE = h28.SAMPLE
_DECODINGS34 = h34._decodings
CLI = h28.CLI
EVAL_SECRET = "qa35-evaluator-secret-91e4"
R8 = "r8_" + "QA35xEscapes0aB1cD2eF3gH4iJ5kL6mN7oP8"                              # h35_01 (40)
R8_X = 'b"' + "".join(f"\\x{b:02x}" for b in R8.encode()) + '"'
SBP = "sbp_" + "3a5f0c1e9d7b2a4c6e8f0a1b3c5d7e9f1a2b4c6d"                          # h35_02 (44)
SBP_DEC = ("bytes([\n" + "".join("    " + ", ".join(str(b) for b in SBP.encode()[i:i + 16])
                                + ",\n" for i in range(0, len(SBP), 16)) + "]).decode()")
NRAK = "NRAK-" + "QA35COLONHEX0A1B2C3D4E5F6G7"                                     # h35_03 (32)
NRAK_COLON = ":\n".join("    " + ":".join(f"{b:02x}" for b in NRAK.encode()[i:i + 15])
                        for i in range(0, len(NRAK), 15))
GOC = "GOCSPX-" + "QA35joinLines0aB1cD2eF3gH4iJ"                                     # h35_04 (35)
GOC_LITS = [GOC[0:7], GOC[7:14], GOC[14:21], GOC[21:28], GOC[28:]]
GOC_CODE = ("CLIENT_SECRET = \"\".join([\n" + "".join(f'    "{p}",\n' for p in GOC_LITS)
            + "])\nflow = Flow.from_client_config(cfg, client_secret=CLIENT_SECRET)")
HFO = "api_org_" + "QA35shellQuotes0aB1cD2eF3gH4iJ5kL6"                            # h35_05 (42)
HFO_SH = ("export HF_TOKEN='" + HFO[0:8] + "'\"" + HFO[8:20] + "\"'" + HFO[20:31] + "'\""
          + HFO[31:] + "\"")
XAI = "xai-" + "QA35es6Brace" + "0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3" * 1 + \
      "a4b5c6d7e8f9g0h1i2j3k4l5m6n7o8"                                                 # h35_06
XAI_U = "".join(f"\\u{{{ord(c):x}}}" for c in XAI)
HVS = "hvs." + "QA35xEscapeHeavyTail" + "0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3" + \
      "abcdefghij0123456789ABCDEFGHIJ"                                                  # escape
HVS_X = 'b"' + "".join(f"\\x{b:02x}" for b in HVS.encode()) + '"'
XKS = "xkeysib-" + "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0" + \
      "-" + "QA35colonHexTail"                                                          # escape
XKS_COLON = ":\n".join("    " + ":".join(f"{b:02x}" for b in XKS.encode()[i:i + 15])
                       for i in range(0, len(XKS), 15))
_LETTERS = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
GOC_LISTED = "const s = [" + ", ".join(f'"{p}"' for p in GOC_LITS) + '].join("")'  # escape
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, R8, R8_X[:60], SBP, NRAK, NRAK_COLON.split("\n")[0].strip()[:40], GOC,
           HFO, XAI, XAI_U[:60], HVS, HVS_X[:60], XKS, XKS_COLON.split("\n")[0].strip()[:40]]
SPLITS = {GOC: tuple(GOC_LITS), HFO: (HFO[0:8], HFO[8:20], HFO[20:31], HFO[31:])}
WHOLE = (R8, SBP, NRAK, GOC, HFO, XAI, HVS, XKS)
SECRET_IDS = ("h35_01", "h35_02", "h35_03", "h35_04", "h35_05", "h35_06")

_PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452")
_FPR = bytes.fromhex("5e8c2f3a91b07d44c6a1e02f9b3d78c5a4e61f0b2d9c83a7e5f10d6b4c2a8e93")


def _honest_events() -> list[dict]:
    rng = random.Random(3507)
    ev = h28._events()
    git = "".join(rng.choice("0123456789abcdef") for _ in range(40))
    obs = h34._obs(ev)
    obs[0]["data"]["summary"] = ("tool read_header returned: magic = b\"" + "".join(
        f"\\x{b:02x}" for b in _PNG[:8]) + "\"; sig = bytes([" + ", ".join(
        str(b) for b in _PNG[:8]) + "])")
    obs[1]["data"]["summary"] = ("$ openssl x509 -noout -fingerprint -sha256 -in cert.pem\n"
                                 "sha256 Fingerprint=" + ":".join(f"{b:02X}" for b in _FPR)
                                 + "\n$ openssl x509 -noout -text | sed -n 12,14p\n"
                                 + ":\n".join("    " + ":".join(f"{b:02x}" for b in
                                                                 _FPR[i:i + 15])
                                              for i in range(0, len(_FPR), 15)))
    obs[2]["data"]["summary"] = ('tool read_file title.py returned: TITLE = "".join([\n'
                                 '    "Space ",\n    "War ",\n    "Deluxe",\n])\n'
                                 f"# commit {git}")
    obs[3]["data"]["summary"] = ("$ cat greet.sh\necho 'Hello, '\"$USER\"'! Level '\"$LEVEL\"\n"
                                 'const s = "caf\\u{e9} cr\\u{e8}me";')
    return ev


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input of the hostile harness."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa35 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    texts = [("h35_01_log_secret_replicate_x_escapes", 0,
              "tool env_dump returned: {'REPLICATE_API_TOKEN': " + R8_X + "}"),
             ("h35_02_log_secret_supabase_decimal_bytes", 1,
              "tool read_file keys.py returned:\nSUPABASE_TOKEN = " + SBP_DEC),
             ("h35_03_log_secret_newrelic_openssl_colon_hex", 2,
              "$ openssl asn1parse -in nr.der -dump | sed -n 4,6p\n" + NRAK_COLON),
             ("h35_04_log_secret_google_oauth_join_lines", 3,
              "tool read_file oauth.py returned:\n" + GOC_CODE),
             ("h35_05_log_secret_hf_org_shell_quotes", 1,
              "$ cat .envrc\nexport HF_HOME=~/.hf\n" + HFO_SH + "\n"),
             ("h35_06_log_secret_xai_es6_brace_escapes", 2,
              "tool read_file client.js returned: const XAI_KEY = \"" + XAI_U
              + "\"; fetch(url, {headers: {Authorization: `Bearer ${XAI_KEY}`}});")]
    for name, k, text in texts:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    add("h35_07_log_honest_lookalikes", _honest_events())
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings against the lines holding the spelling (h35_01-
    06); H-f: none on the honest control (h35_07)."""
    import qa_session22 as s22

    out = {}
    probes = {"h35_01_log_secret_replicate_x_escapes": ("\\\\x72\\\\x38\\\\x5f",),
              "h35_02_log_secret_supabase_decimal_bytes": ("115, 98, 112, 95",),
              "h35_03_log_secret_newrelic_openssl_colon_hex": ("4e:52:41:4b:2d",),
              "h35_04_log_secret_google_oauth_join_lines": (GOC_LITS[2],),
              "h35_05_log_secret_hf_org_shell_quotes": (HFO[8:20],),
              "h35_06_log_secret_xai_es6_brace_escapes": ("\\\\u{78}\\\\u{61}",),
              "h35_07_log_honest_lookalikes": ("Fingerprint",)}
    for name, parts in probes.items():
        d = root / name
        lines = h34._lines_with(d, parts)
        code, rep, _err = s22._verify(d)
        found = [x for x in rep.get("findings", [])
                 if str(x.get("rule", "")).startswith("secret")]
        got = sorted({x.get("line") for x in found if x.get("line") is not None})
        honest = name.startswith("h35_07")
        out[name[:6]] = {"exit": code, "verdict": rep.get("verdict"), "secret_lines": lines,
                         "warned_lines": got, "rules": sorted({x.get("rule") for x in found}),
                         "met": (not found) if honest else bool(set(lines) & set(got))}
    return {"check": "H-s spelled / split secrets flagged; H-f honest control not",
            "rows": out, "met": all(v["met"] for v in out.values())}


def _decodings(text: str) -> list[str]:
    """h34's decodings plus this pass' spellings undone: `\\xNN` escapes, decimal byte lists,
    colon hex (indent, line ends and colons dropped), `\\u{..}` escapes, joined list
    literals over lines, adjacent shell quotes."""
    out = _DECODINGS34(text)
    out.append(re.sub(r"\\\\?x([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), text))
    for run in re.findall(r"(?:\d{1,3}\s*,\s*){8,}\d{1,3}", text):
        vals = [int(x) for x in re.findall(r"\d+", run)]
        if all(v < 256 for v in vals):
            out.append(bytes(vals).decode("latin-1"))
    flat = re.sub(r":\s*(?:\\n)?\s*", ":", text)
    for run in re.findall(r"(?:[0-9A-Fa-f]{2}:){8,}[0-9A-Fa-f]{2}", flat):
        out.append(bytes.fromhex(run.replace(":", "")).decode("latin-1"))
    out.append(re.sub(r"\\\\?u\{([0-9a-fA-F]{1,6})\}", lambda m: chr(int(m.group(1), 16)),
                      text))
    out.append(re.sub(r'"\s*,\s*(?:\\n)?\s*"', "", text))
    out.append(re.sub(r"""['"]\\?['"]""", "", text.replace('\\"', '"')))
    return out


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    control's file written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h35_*.pub")):
        body = p.read_text("utf-8", "replace")
        strs: list[str] = []
        for line in body.splitlines():
            try:
                strs += h33._strings(__import__("json").loads(line))
            except (ValueError, RecursionError):
                continue
        joined = "".join(strs)
        texts = [body, "\n".join(strs), joined, *_decodings(joined), *_decodings(body),
                 *_decodings("\n".join(strs))]
        found = {s for s in SECRETS if any(s in t for t in texts)}
        found |= {s for s in WHOLE if any(s in t for t in texts)}
        found |= {f"{s} (all {len(ps)} parts)" for s, ps in SPLITS.items()
                  if all(any(x in t for t in texts) for x in ps)}
        rows[p.name] = sorted(found)
    honest = (root / "h35_07.pub").exists()
    return {"check": "H-a withheld files hold no secret; H-f the honest log published",
            "published": rows, "honest_published": honest,
            "met": not any(rows.values()) and honest}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    import subprocess

    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S35-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h35_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


# -- escape-heavy logs, timed (s34's builder and timer with this pass' spellings) ---------------
ESCAPE = {"e_xescape_128mb": 128 << 20, "e_colonhex_128mb": 128 << 20,
          # session 36 (escape): the listed-join shape, timed since (45 s per 512 MiB at b38cb16)
          "e_listjoin_128mb": 128 << 20}


def _escape_text(case: str, rng: random.Random) -> str:
    if case.startswith("e_listjoin"):  # tiny lists of two 2-letter literals, joined empty
        pair = [bytes(rng.choices(_LETTERS, k=2)).decode() for _ in range(2 * 780)]
        return "tool read_file gen.js returned: " + "; ".join(
            f'["{pair[i]}", "{pair[i + 1]}"].join("")' for i in range(0, len(pair), 2))
    if case.startswith("e_xescape"):
        words = " ".join(rng.choice(h34._WORDS) for _ in range(1400)).encode()
        return "tool read_bytes returned: b\"" + "".join(f"\\x{b:02x}" for b in words) + "\""
    return "$ openssl asn1parse -dump -in blob.der\n" + ":\n".join(
        "    " + ":".join(f"{b:02x}" for b in rng.randbytes(15)) for _ in range(360))


def _escape_key(case: str) -> str:
    if case.startswith("e_listjoin"):
        return GOC_LISTED
    return HVS_X if case.startswith("e_xescape") else XKS_COLON


def build_escape(root: Path, case: str) -> dict:
    """As qa_hostile_s34.build_escape (~16 KiB observations up to the size, the key spelled
    the same way on the last observation), with this pass' two spellings. Written once."""
    import os
    from datetime import datetime, timedelta

    from moderator_app.core.samples.community import format_at

    d = root / case
    log = d / "agent-log.jsonl"
    if log.exists():
        return {"folder": str(d), "bytes": log.stat().st_size}
    d.mkdir(parents=True, exist_ok=True)
    rng = random.Random(case)
    ev = h28._events()
    head = [e for e in ev if e["type"] == "run_start"]
    tail = [e for e in ev if e["type"] == "run_end"]
    t0 = datetime.fromisoformat(head[0]["at"].replace("Z", "+00:00")) - timedelta(
        milliseconds=head[0]["elapsedMs"])

    def at_of(ms: int) -> str:
        return format_at(t0 + timedelta(milliseconds=ms))
    tmp = d / "agent-log.jsonl.part"
    seq, at, written = 1, 1000, 0
    with open(tmp, "wb") as fh:
        fh.write(h28._dump(head))
        while written < ESCAPE[case]:
            line = h28._dump([{"seq": seq, "at": at_of(at), "elapsedMs": at,
                               "type": "observation",
                               "data": {"summary": _escape_text(case, rng)}}])
            fh.write(line)
            written += len(line)
            seq += 1
            at += 10
        fh.write(h28._dump([{"seq": seq, "at": at_of(at), "elapsedMs": at, "type": "observation",
                             "data": {"summary": "tool env returned: {\"KEY\": \""
                                      + _escape_key(case) + "\"}"}}]))
        for e in tail:
            fh.write(h28._dump([{**e, "seq": seq + 1, "at": at_of(at + 10),
                                 "elapsedMs": at + 10}]))
    tmp.rename(log)
    if not (d / "video.mp4").exists():
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
    return {"folder": str(d), "bytes": log.stat().st_size}


def check_escape(root: Path, case: str) -> dict:
    """qa_hostile_s34.check_escape (CPU scaled to 512 MiB against 30 s; the key on the last
    line flagged, not published) on this pass' logs: the leak search knows its spellings."""
    build_escape(root, case)
    h34.build_escape = build_escape
    h34.TSK, h34.TSK_U = (HVS, HVS_X[:60]) if case.startswith("e_xescape") else (
        XKS, XKS_COLON.split("\n")[0].strip()[:40])
    if case.startswith("e_listjoin"):
        h34.TSK, h34.TSK_U = GOC, GOC

    h34._decodings = _decodings
    h34.EVAL_SECRET = EVAL_SECRET
    return h34.check_escape(root, case)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session35 as s35
    run(s35.CACHE, sys.argv[1:])
