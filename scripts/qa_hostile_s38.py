"""Issue 15 classes of session 38's QA pass (docs/qa/session38.md): the classes session 38's
odc / views / chain engineers work on (`od -c` of binary, `od -b` octal dumps, `$'...'`
strings mixing literals, octal and hex; the escape-heavy bound; the official chain), each in
a spelling no earlier pass, test or bench used (grep of scripts/, tests/, bench/: no `od -t
x1`, no `od -x` byte-swapped words, no `hexdump -C` canonical dump, no `od -b -w8`, no
PowerShell `` `u{..} `` escapes, no fish unquoted `\\xNN` / `\\XNN` escapes; no GitLab
runner / deploy, Slack app, Stripe restricted, Google OAuth or Atlassian token in any QA
input: all six in the product's key table). Every spelling sits in an OBSERVATION (a tool's
output), which `withhold` keeps public:

- h38_01 log_secret_gitlab_runner_od_tx1: a GitLab runner token (`glrt-` + 40) as `od -t
  x1`'s dump (a 7-digit octal offset, then 16 two-digit hex bytes a line);
- h38_02 log_secret_slack_app_hexdump_c: a Slack app token (`xapp-1-` + 60) as `hexdump
  -C`'s canonical dump (8-digit hex offset, two groups of 8 hex bytes, the `|...|` column:
  the token's text in pieces of 16);
- h38_03 log_secret_stripe_rk_od_x: a Stripe restricted key (`rk_live_` + 40) as `od -x`'s
  2-byte words (little-endian: each pair of characters swapped in the hex);
- h38_04 log_secret_google_oauth_od_b_w8: a Google OAuth token (`ya29.` + 60) as `od -An -b
  -w8` (octal bytes, 8 a line, no offsets: `od -b` at another width);
- h38_05 log_secret_gitlab_deploy_powershell: a GitLab deploy token (`gldt-` + 30) as a
  PowerShell 7 string of `` `u{67}`u{6c}... `` escapes;
- h38_06 log_secret_atlassian_fish_mixed: an Atlassian token (`ATATT3` + 120) as a fish
  `set -gx` with unquoted escapes mixing literal runs, `\\xNN`, `\\XNN` and `\\NNN`... no
  quotes (fish's own escapes: outside quotes);
- h38_07 log_honest_lookalikes: no secret: `hexdump -C` of a PNG header, `od -t x1` and
  `od -x` of a greeting, `od -An -b -w8` of a word, PowerShell `` "`e[32mOK`e[0m" ``, fish
  `echo \\x1b\\[1mbold`; `verify` must flag nothing and `withhold` publish;
- escape (timed alone): e_hexdumpc_128mb, 128 MiB of observations each a `hexdump -C` of
  honest text (~16 KiB), the Slack app token dumped the same way on the last line;
  e_odx_128mb, 128 MiB of `od -x` dumps of honest text, the Stripe key on the last line;
- chain: `deepnest` (game-state trees nested 24-40 deep: objects of 1-3 short keys written
  in reverse order, arrays of one child, small ints / bools / null at the leaves) written
  compact by a writer that reverses every object's keys, 120,000 events.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s33 as h33
import qa_hostile_s34 as h34
import qa_hostile_s35 as h35
import qa_hostile_s37 as h37

SAMPLE = h28.SAMPLE
EVAL_SECRET = "qa38-evaluator-secret-71c2"


def _od_tx1(s: str, width: int = 16) -> str:
    b = s.encode()
    return "\n".join(f"{i:07o} " + " ".join(f"{x:02x}" for x in b[i:i + width])
                     for i in range(0, len(b), width)) + f"\n{len(b):07o}"


def _hexdump_c(s: str) -> str:
    b, rows = s.encode(), []
    for i in range(0, len(b), 16):
        ch = b[i:i + 16]
        hx = [f"{x:02x}" for x in ch] + ["  "] * (16 - len(ch))
        asc = "".join(chr(x) if 32 <= x < 127 else "." for x in ch)
        rows.append(f"{i:08x}  {' '.join(hx[:8])}  {' '.join(hx[8:])}  |{asc}|")
    return "\n".join(rows) + f"\n{len(b):08x}"


def _od_x(s: str) -> str:
    b = s.encode()
    if len(b) % 2:
        b += b"\0"
    words = [f"{b[i + 1]:02x}{b[i]:02x}" for i in range(0, len(b), 2)]
    return "\n".join(f"{2 * i:07o} " + " ".join(words[i:i + 8])
                     for i in range(0, len(words), 8)) + f"\n{len(s.encode()):07o}"


def _od_b_w8(s: str) -> str:
    b = s.encode()
    return "\n".join(" " + " ".join(f"{x:03o}" for x in b[i:i + 8]) for i in range(0, len(b), 8))


GLR = "glrt-" + "QA38odTx1dump0aB1cD2eF3gH4iJ5kL6mN7oP8q"                           # h38_01
GLR_OD = "$ od -t x1 /etc/gitlab-runner/token\n" + _od_tx1(GLR)
XAP = "xapp-1-" + "A0QA38HEXDUMPC-4711-0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3a"      # h38_02
XAP_HD = "$ hexdump -C ~/.slack/app-token\n" + _hexdump_c(XAP)
RKL = "rk_live_" + "QA38odXwords0aB1cD2eF3gH4iJ5kL6mN7oP8qR9"                        # h38_03
RKL_OX = "$ od -x stripe.key\n" + _od_x(RKL)
YA2 = "ya29." + "QA38odBw8octal_0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5e"       # h38_04
YA2_OB = "$ od -An -b -w8 ~/.config/gcloud/token\n" + _od_b_w8(YA2)
GLD = "gldt-" + "QA38pwshUnicode0aB1cD2eF3gH4i"                                      # h38_05
GLD_PS = 'PS> $env:CI_DEPLOY_TOKEN = "' + "".join(f"`u{{{ord(c):x}}}" for c in GLD) + '"'
ATL = "ATATT3" + ("xFfGF0QA38fishMixedEscapes0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3a"
                  "B4cD5eF6gH7iJ8kL9mN0oP1qR2sT3uV4wX5yZ6a=7B8C9D0E")                # h38_06


def _fish(s: str) -> str:
    """Fish's escapes outside quotes, by turns: 2 literal, `\\xNN`, `\\XNN`, `\\NNN` (octal)."""
    out = []
    for i, c in enumerate(s):
        k = i % 5
        if k < 2 and c.isalnum():
            out.append(c)
        elif k == 2:
            out.append(f"\\x{ord(c):02x}")
        elif k == 3:
            out.append(f"\\X{ord(c):02X}")
        else:
            out.append(f"\\{ord(c):03o}")
    return "".join(out)


ATL_FISH = "$ cat ~/.config/fish/conf.d/jira.fish\nset -gx JIRA_API_TOKEN " + _fish(ATL)
for _k, _rx in ((GLR, r"glrt-[A-Za-z0-9_\-]{20,64}"),
                (XAP, r"xapp-[0-9]-[A-Za-z0-9\-]{40,160}"),
                (RKL, r"rk_live_[A-Za-z0-9]{20,247}"),
                (YA2, r"ya29\.[A-Za-z0-9_\-]{30,512}"),
                (GLD, r"gldt-[A-Za-z0-9_\-]{20,64}"),
                (ATL, r"ATATT3[A-Za-z0-9_\-=]{100,250}")):
    assert re.fullmatch(_rx, _k), _k  # each key a whole match of the product's own pattern
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
_XAP_ASCII = [XAP[i:i + 16] for i in range(0, len(XAP), 16) if len(XAP[i:i + 16]) == 16]
SECRETS = [EVAL_SECRET, GLR, XAP, RKL, YA2, GLD, ATL, *_XAP_ASCII,
           GLR_OD.split("\n")[1][8:], XAP_HD.split("\n")[1][10:58], RKL_OX.split("\n")[1][8:],
           YA2_OB.split("\n")[1], GLD_PS[29:89], ATL_FISH.split("\n")[1][23:83]]
WHOLE = (GLR, XAP, RKL, YA2, GLD, ATL)
SECRET_IDS = ("h38_01", "h38_02", "h38_03", "h38_04", "h38_05", "h38_06")


def _honest_events() -> list[dict]:
    ev = h28._events()
    obs = h34._obs(ev)
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000010000000100806000000")
    rows = []
    for i in range(0, len(png), 16):
        ch = png[i:i + 16]
        hx = [f"{x:02x}" for x in ch] + ["  "] * (16 - len(ch))
        asc = "".join(chr(x) if 32 <= x < 127 else "." for x in ch)
        rows.append(f"{i:08x}  {' '.join(hx[:8])}  {' '.join(hx[8:])}  |{asc}|")
    obs[0]["data"]["summary"] = "$ hexdump -C icon.png | head -2\n" + "\n".join(rows)
    greet = "the porter waits at the gate, lantern lit"
    obs[1]["data"]["summary"] = ("$ od -t x1 greet.txt\n" + _od_tx1(greet) + "\n$ od -x greet.txt\n"
                                 + _od_x(greet))
    obs[2]["data"]["summary"] = ("$ od -An -b -w8 word.txt\n" + _od_b_w8("lantern\n") +
                                 '\nPS> Write-Host "`e[32mOK`e[0m `u{2714} done"')
    obs[3]["data"]["summary"] = ("$ echo \\x1b\\[1mbold\\x1b\\[0m \\X41\\X42 \\101\\102\n"
                                 "bold AB AB")
    return ev


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input of the hostile harness."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa38 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    texts = [("h38_01_log_secret_gitlab_runner_od_tx1", 0, GLR_OD + "\n$ gitlab-runner verify"),
             ("h38_02_log_secret_slack_app_hexdump_c", 1, XAP_HD),
             ("h38_03_log_secret_stripe_rk_od_x", 2, RKL_OX + "\n$ stripe status"),
             ("h38_04_log_secret_google_oauth_od_b_w8", 3, YA2_OB),
             ("h38_05_log_secret_gitlab_deploy_powershell", 1,
              "PS> Get-History | Select -Last 2\n" + GLD_PS + "\nPS> git push deploy main"),
             ("h38_06_log_secret_atlassian_fish_mixed", 2, ATL_FISH + "\nfunk jira-sync")]
    for name, k, text in texts:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    add("h38_07_log_honest_lookalikes", _honest_events())
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings against the lines holding the spelling (h38_01-
    06); H-f: none on the honest control (h38_07)."""
    import qa_session22 as s22

    out = {}
    probes = {"h38_01_log_secret_gitlab_runner_od_tx1": ("od -t x1",),
              "h38_02_log_secret_slack_app_hexdump_c": ("hexdump -C",),
              "h38_03_log_secret_stripe_rk_od_x": ("od -x",),
              "h38_04_log_secret_google_oauth_od_b_w8": ("od -An -b",),
              "h38_05_log_secret_gitlab_deploy_powershell": ("CI_DEPLOY_TOKEN",),
              "h38_06_log_secret_atlassian_fish_mixed": ("JIRA_API_TOKEN",),
              "h38_07_log_honest_lookalikes": ("hexdump -C",)}
    for name, parts in probes.items():
        d = root / name
        lines = h34._lines_with(d, parts)
        code, rep, _err = s22._verify(d)
        found = [x for x in rep.get("findings", [])
                 if str(x.get("rule", "")).startswith("secret")]
        got = sorted({x.get("line") for x in found if x.get("line") is not None})
        honest = name.startswith("h38_07")
        out[name[:6]] = {"exit": code, "verdict": rep.get("verdict"), "secret_lines": lines,
                         "warned_lines": got, "rules": sorted({x.get("rule") for x in found}),
                         "met": (not found) if honest else bool(set(lines) & set(got))}
    return {"check": "H-s spelled secrets flagged; H-f honest control not",
            "rows": out, "met": all(v["met"] for v in out.values())}


def _hexruns(text: str) -> list[str]:
    """Runs of 8+ two-digit hex bytes (od -t x1, hexdump -C columns; offsets and `|..|` cut)."""
    out = []
    t = re.sub(r"\|[^|\n]{0,16}\|", " ", text.replace("\\n", "\n"))
    t = re.sub(r"(?m)^[0-7]{7} |^[0-9a-f]{8} ", " ", t)
    for run in re.findall(r"(?:\b[0-9a-f]{2}\b\s+){8,}\b[0-9a-f]{2}\b", t):
        out.append(bytes.fromhex("".join(run.split())).decode("latin-1"))
    for run in re.findall(r"(?:\b[0-9a-f]{4}\b\s+){4,}\b[0-9a-f]{4}\b", t):   # od -x words
        out.append("".join(chr(int(w[2:], 16)) + chr(int(w[:2], 16)) for w in run.split()))
    return out


def _decodings(text: str) -> list[str]:
    """h37's decodings plus this pass' spellings undone: hex byte columns, od -x's swapped
    words, od -b at any width without offsets, PowerShell `u{..}, fish \\XNN."""
    out = h37._decodings(text)
    out += _hexruns(text)
    t = text.replace("\\n", "\n")
    for run in re.findall(r"(?:\b[0-3][0-7]{2}\b\s+){8,}\b[0-3][0-7]{2}\b", t):
        out.append("".join(chr(int(x, 8)) for x in run.split()))
    out.append(re.sub(r"`u\{([0-9a-fA-F]{1,6})\}", lambda m: chr(int(m.group(1), 16)), text))
    f = re.sub(r"\\\\?[xX]([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), text)
    out.append(re.sub(r"\\\\?([0-7]{3})", lambda m: chr(int(m.group(1), 8)), f))
    out.append(re.sub(r"\s*\|\n?[0-9a-f]{8}(?:\s+[0-9a-f]{2}){1,16}\s+\|", "", text))
    return out


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    control's file written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h38_*.pub")):
        body = p.read_text("utf-8", "replace")
        strs: list[str] = []
        for line in body.splitlines():
            try:
                strs += h33._strings(json.loads(line))
            except (ValueError, RecursionError):
                continue
        joined = "".join(strs)
        texts = [body, "\n".join(strs), joined, *_decodings(joined), *_decodings(body),
                 *_decodings("\n".join(strs))]
        found = {s for s in SECRETS if any(s in t for t in texts)}
        found |= {s for s in WHOLE if any(s in t for t in texts)}
        rows[p.name] = sorted(found)
    honest = (root / "h38_07.pub").exists()
    return {"check": "H-a withheld files hold no secret; H-f the honest log published",
            "published": rows, "honest_published": honest,
            "met": not any(rows.values()) and honest}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    import subprocess

    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S38-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h38_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


# -- escape-heavy logs, timed (s35's builder and s34's timer with this pass' spellings) ---------
ESCAPE = {"e_hexdumpc_128mb": 128 << 20, "e_odx_128mb": 128 << 20}


def _escape_text(case: str, rng: random.Random) -> str:
    words = " ".join(rng.choice(h34._WORDS) for _ in range(700))
    if case.startswith("e_hexdumpc"):
        return "$ hexdump -C chapter.txt\n" + _hexdump_c(words)
    return "$ od -x chapter.txt\n" + _od_x(words)


def _escape_key(case: str) -> str:
    return XAP_HD if case.startswith("e_hexdumpc") else RKL_OX


def build_escape(root: Path, case: str) -> dict:
    h35._escape_text, h35._escape_key = _escape_text, _escape_key
    h35.ESCAPE.update(ESCAPE)
    return h35.build_escape(root, case)


def check_escape(root: Path, case: str) -> dict:
    """qa_hostile_s34.check_escape (CPU scaled to 512 MiB against 30 s; the key on the last
    line flagged, not published) on this pass' logs: the leak search knows its spellings."""
    build_escape(root, case)
    h34.build_escape = build_escape
    h34.TSK, h34.TSK_U = (XAP, XAP_HD.split("\n")[1][10:58]) if case.startswith(
        "e_hexdumpc") else (RKL, RKL_OX.split("\n")[1][8:])
    h34._decodings = _decodings
    h34.EVAL_SECRET = EVAL_SECRET
    return h34.check_escape(root, case)


# -- the official chain on a held-out payload shape ---------------------------------------------
_NK = ("n", "k", "c", "id", "v", "hp", "xy", "t", "on", "L")


def _tree(rng: random.Random, depth: int):
    """One branch nested `depth` deep: an object of 1-3 short keys, one of them a list of one
    child (the next level); leaves small ints, bools, null, short words."""
    if depth == 0:
        return rng.choice((rng.randint(-9, 99), True, False, None, rng.choice(("a", "ok", "x"))))
    keys = rng.sample(_NK, rng.randint(1, 3))
    node = {k: rng.choice((rng.randint(0, 9), None, True)) for k in keys[1:]}
    node[keys[0]] = [_tree(rng, depth - 1)] if rng.random() < 0.7 else _tree(rng, depth - 1)
    return node


def _deepnest_payload(rng: random.Random, size: int) -> dict:
    """A game-state tree nested 24-40 deep (objects of 1-3 short keys, arrays of one child),
    as many branches as fit the size. No pass' payload nested past ~6 (a11ytree: wide trees)."""
    branches, used = [], 40
    while used < size - 80:
        b = _tree(rng, rng.randint(24, 40))
        branches.append(b)
        used += len(json.dumps(b, separators=(",", ":")))
    return {"state": branches, "tick": rng.randint(0, 10 ** 6)}


def _reverse_keys(o):
    if isinstance(o, dict):
        return {k: _reverse_keys(o[k]) for k in sorted(o, reverse=True)}
    if isinstance(o, list):
        return [_reverse_keys(x) for x in o]
    return o


CHAIN_SHAPES38 = {"deepnest": _deepnest_payload}
#: a compact writer that emits every object's keys in reverse order (not canonical: each line
#: re-ordered 24-40 levels deep)
CHAIN_ENCODE38 = {"deepnest": lambda ev: json.dumps(_reverse_keys(ev), separators=(",", ":"),
                                                    ensure_ascii=False).encode()}


def _chain_install() -> None:
    import qa_session26 as s26
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES38)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE38)


def build_chain38(shape: str) -> Path:
    import qa_session26 as s26
    _chain_install()
    return s26.build_chain(shape)


def check_chain38(shape: str) -> dict:
    import qa_session26 as s26
    _chain_install()
    return s26.check_chain(shape)


def jcs_check38(shape: str, n: int = 2000) -> dict:
    """The chain's truth apart from the product: qa_session35's RFC 8785 writer against the
    product's `canonical_json` on the first n payloads."""
    import qa_session35 as s35
    s35.CHAIN_SHAPES35.update(CHAIN_SHAPES38)
    s35.build_chain35 = lambda s: build_chain38(s)
    return s35.jcs_check(shape, n)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session38 as s38
    run(s38.CACHE, sys.argv[1:])
