"""Issue 15 classes of session 37's QA pass (docs/qa/session37.md): the classes session 37's
secrets / unescape / chain engineers work on (`od -c` character dumps, bash `$'\\NNN'` octal
and its siblings; one marker pass per line for the escape shapes; the official chain's
object path and number parsing), each in a spelling no earlier pass, test or bench used
(grep of scripts/, tests/, bench/: no `od -b` octal dump, no bash `$'\\xNN'` / `$'\\uNNNN'`,
no `printf '\\NNN'` octal format, no `echo -e '\\0NNN'`, no `$'...'` mixing literal
characters with octal and hex escapes; no Sentry, Telegram bot, Vault batch, Square or
Alibaba key in any QA input: all five in the product's key table). Every spelling sits in an
OBSERVATION (a tool's output), which `withhold` keeps public:

- h37_01 log_secret_sentry_od_b: a Sentry token (`sntrys_` + 64) as `od -b`'s octal byte
  dump (a 7-digit octal offset, then 16 three-digit octal bytes a line);
- h37_02 log_secret_telegram_bash_hex: a Telegram bot token (`123456789:AA` + 33) as a bash
  ANSI-C string of hex escapes (`export TG_TOKEN=$'\\x31\\x32...'`);
- h37_03 log_secret_vault_printf_octal: a Vault batch token (`hvb.` + 40) as a printf
  format of octal escapes without `$` (`printf '\\150\\166\\142...' > ~/.vault-token`);
- h37_04 log_secret_square_echo_e: a Square secret (`sq0csp-` + 43) as `echo -e` with its
  four-digit octal escapes (`echo -e "\\0163\\0161..."`);
- h37_05 log_secret_alibaba_bash_mixed: an Alibaba key id (`LTAI` + 20) as a bash `$'...'`
  mixing literal characters, octal and hex escapes (`$'LT\\101I5\\x66...'`);
- h37_06 log_secret_docker_bash_unicode: a Docker token (`dckr_pat_` + 40) as bash
  `$'\\u0064\\u0063...'` four-hex unicode escapes;
- h37_07 log_honest_lookalikes: no secret: `od -b` of a text file, `$'\\x1b[1m'` colours,
  `printf '\\t\\101\\102\\n'`, `echo -e "\\033[0m done"`, a `$'...'` of words and a `\\u00e9`;
  `verify` must flag nothing and `withhold` publish;
- escape (timed alone): e_odb_128mb, 128 MiB of observations holding `od -b` dumps of honest
  text (16 octal bytes a line, ~16 KiB an observation), the Sentry token dumped the same way
  on the last line; e_bashhex_128mb, 128 MiB of `$'\\xNN...'` strings of honest words, the
  Telegram token spelled the same way on the last line;
- chain: `sensorjcs` (a sensor log: objects whose keys are out of order and non-ASCII, some
  beyond the BMP, numbers in every form Python writes: exponents, -0.0, 21.0, ints to 2**53,
  many digits) written by Python's default `json.dumps` (`", "` / `": "` separators and
  `\\uXXXX` escapes, surrogate pairs beyond the BMP), 120,000 events.
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
import qa_hostile_s36 as h36

SAMPLE = h28.SAMPLE
EVAL_SECRET = "qa37-evaluator-secret-9e4b"
SNT = "sntrys_" + "QA37odOctalDump0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF6g"   # h37_01
SNT_OD = "$ od -b ~/.sentryclirc.token\n" + "\n".join(
    f"{i:07o} " + " ".join(f"{ord(c):03o}" for c in SNT[i:i + 16])
    for i in range(0, len(SNT), 16)) + f"\n{len(SNT):07o}"
TGM = "123456789:AA" + "QA37bashHexEsc0aB1cD2eF3gH4iJ5kL6"                         # h37_02
TGM_HEX = "export TG_TOKEN=$'" + "".join(f"\\x{ord(c):02x}" for c in TGM) + "'"
HVB = "hvb." + "QA37printfOctal0aB1cD2eF3gH4iJ5kL6mN7oP8q"                           # h37_03
HVB_PF = "$ printf '" + "".join(f"\\{ord(c):03o}" for c in HVB) + "' > ~/.vault-token"
SQC = "sq0csp-" + "QA37echoEOctal0aB1cD2eF3gH4iJ5kL6mN7oP8qR9s"                     # h37_04
SQC_ECHO = '$ echo -e "' + "".join(f"\\0{ord(c):03o}" for c in SQC) + '" >> .env'
LTA = "LTAI" + "5fQA37mixedEsc0aB1cD"                                                 # h37_05


def _mixed(s: str) -> str:
    """Every third character literal, the others octal or hex by turns."""
    out = []
    for i, c in enumerate(s):
        out.append(c if i % 3 == 0 else (f"\\{ord(c):03o}" if i % 3 == 1 else f"\\x{ord(c):02x}"))
    return "".join(out)


LTA_MIX = "export ALIBABA_CLOUD_ACCESS_KEY_ID=$'" + _mixed(LTA) + "'"
DCK = "dckr_pat_" + "QA37bashUnicode0aB1cD2eF3gH4iJ5kL6mN7oP8"                         # h37_06
DCK_U = "export DOCKER_PAT=$'" + "".join(f"\\u{ord(c):04x}" for c in DCK) + "'"
for _k, _rx in ((SNT, r"sntrys_[A-Za-z0-9_+/=]{60,300}"),
                (TGM, r"(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}"),
                (HVB, r"hv[sb]\.[A-Za-z0-9_\-]{24,256}"),
                (SQC, r"sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,60}"),
                (LTA, r"(?<![A-Za-z0-9])LTAI[A-Za-z0-9]{12,20}(?![A-Za-z0-9])"),
                (DCK, r"dckr_pat_[A-Za-z0-9_\-]{27,64}")):
    assert re.fullmatch(_rx, _k), _k  # each key a whole match of the product's own pattern
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, SNT, TGM, HVB, SQC, LTA, DCK, TGM_HEX[18:78], HVB_PF[10:70],
           SQC_ECHO[9:69], DCK_U[19:79], SNT_OD.split("\n")[1][8:]]
WHOLE = (SNT, TGM, HVB, SQC, LTA, DCK)
SPLITS: dict[str, tuple[str, ...]] = {}
SECRET_IDS = ("h37_01", "h37_02", "h37_03", "h37_04", "h37_05", "h37_06")


def _honest_events() -> list[dict]:
    ev = h28._events()
    obs = h34._obs(ev)
    txt = "level 3 unlocked: the porter waits at the gate"
    obs[0]["data"]["summary"] = ("$ od -b notes.txt\n" + "\n".join(
        f"{i:07o} " + " ".join(f"{ord(c):03o}" for c in txt[i:i + 16])
        for i in range(0, len(txt), 16)) + f"\n{len(txt):07o}")
    obs[1]["data"]["summary"] = ("$ PS1=$'\\x1b[1m\\u@\\h\\x1b[0m $ '\n"
                                 "$ printf '\\t\\101\\102\\n' | cat -A")
    obs[2]["data"]["summary"] = ('$ echo -e "\\033[32mok\\033[0m done\\n\\0101 grade"\n'
                                 "ok done")
    obs[3]["data"]["summary"] = ("$ export GREETING=$'Caf\\u00e9 cr\\xe8me\\tnow open'\n"
                                 "$ echo \"$GREETING\"")
    return ev


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input of the hostile harness."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa37 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    texts = [("h37_01_log_secret_sentry_od_b", 0, SNT_OD),
             ("h37_02_log_secret_telegram_bash_hex", 1,
              "$ cat ~/bots/env.sh\n" + TGM_HEX + "\npython bot.py --poll"),
             ("h37_03_log_secret_vault_printf_octal", 2,
              "$ history | tail -3\n  501  " + HVB_PF + "\n  502  vault status"),
             ("h37_04_log_secret_square_echo_e", 3,
              "$ cat deploy.sh\n#!/bin/sh\n" + SQC_ECHO + "\nnpm run deploy"),
             ("h37_05_log_secret_alibaba_bash_mixed", 1,
              "$ cat ~/.aliyunrc\n" + LTA_MIX + "\nexport REGION=cn-hangzhou"),
             ("h37_06_log_secret_docker_bash_unicode", 2,
              "$ grep DOCKER ~/.bashrc\n" + DCK_U)]
    for name, k, text in texts:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    add("h37_07_log_honest_lookalikes", _honest_events())
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings against the lines holding the spelling (h37_01-
    06); H-f: none on the honest control (h37_07)."""
    import qa_session22 as s22

    out = {}
    probes = {"h37_01_log_secret_sentry_od_b": ("163 156 164 162",),
              "h37_02_log_secret_telegram_bash_hex": ("\\\\x31\\\\x32\\\\x33",),
              "h37_03_log_secret_vault_printf_octal": ("\\\\150\\\\166\\\\142",),
              "h37_04_log_secret_square_echo_e": ("\\\\0163\\\\0161",),
              "h37_05_log_secret_alibaba_bash_mixed": ("ALIBABA_CLOUD",),
              "h37_06_log_secret_docker_bash_unicode": ("\\\\u0064\\\\u0063",),
              "h37_07_log_honest_lookalikes": ("od -b",)}
    for name, parts in probes.items():
        d = root / name
        lines = h34._lines_with(d, parts)
        code, rep, _err = s22._verify(d)
        found = [x for x in rep.get("findings", [])
                 if str(x.get("rule", "")).startswith("secret")]
        got = sorted({x.get("line") for x in found if x.get("line") is not None})
        honest = name.startswith("h37_07")
        out[name[:6]] = {"exit": code, "verdict": rep.get("verdict"), "secret_lines": lines,
                         "warned_lines": got, "rules": sorted({x.get("rule") for x in found}),
                         "met": (not found) if honest else bool(set(lines) & set(got))}
    return {"check": "H-s spelled secrets flagged; H-f honest control not",
            "rows": out, "met": all(v["met"] for v in out.values())}


def _decodings(text: str) -> list[str]:
    """h36's decodings plus this pass' spellings undone: `od -b` octal columns, `\\xNN`,
    `\\0NNN`, `\\uNNNN` escapes and the mixed `$'...'`."""
    out = h36._decodings(text)
    for run in re.findall(r"(?:[0-3][0-7]{2}(?:\s|\\n)+(?:[0-7]{7}\s)?){8,}[0-3][0-7]{2}", text):
        out.append("".join(chr(int(x, 8)) for x in re.findall(r"(?<![0-7])[0-3][0-7]{2}(?![0-7])",
                                                                 run)))
    def esc(t: str) -> str:
        t = re.sub(r"\\\\?u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), t)
        t = re.sub(r"\\\\?x([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), t)
        t = re.sub(r"\\\\?0([0-7]{3})", lambda m: chr(int(m.group(1), 8)), t)
        return re.sub(r"\\\\?([0-7]{3})", lambda m: chr(int(m.group(1), 8)), t)
    out.append(esc(text))
    return out


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    control's file written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h37_*.pub")):
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
    honest = (root / "h37_07.pub").exists()
    return {"check": "H-a withheld files hold no secret; H-f the honest log published",
            "published": rows, "honest_published": honest,
            "met": not any(rows.values()) and honest}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    import subprocess

    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S37-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h37_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


# -- escape-heavy logs, timed (s35's builder and s34's timer with this pass' spellings) ---------
ESCAPE = {"e_odb_128mb": 128 << 20, "e_bashhex_128mb": 128 << 20}


def _escape_text(case: str, rng: random.Random) -> str:
    words = " ".join(rng.choice(h34._WORDS) for _ in range(700))
    if case.startswith("e_odb"):
        raw = words.encode()
        return "$ od -b chapter.txt\n" + "\n".join(
            f"{i:07o} " + " ".join(f"{b:03o}" for b in raw[i:i + 16])
            for i in range(0, len(raw), 16)) + f"\n{len(raw):07o}"
    return ("$ cat motd.sh\nexport MOTD=$'" + "".join(f"\\x{b:02x}" for b in words.encode())
            + "'")


def _escape_key(case: str) -> str:
    return SNT_OD if case.startswith("e_odb") else TGM_HEX


def build_escape(root: Path, case: str) -> dict:
    h35._escape_text, h35._escape_key = _escape_text, _escape_key
    h35.ESCAPE.update(ESCAPE)
    return h35.build_escape(root, case)


def check_escape(root: Path, case: str) -> dict:
    """qa_hostile_s34.check_escape (CPU scaled to 512 MiB against 30 s; the key on the last
    line flagged, not published) on this pass' logs: the leak search knows its spellings."""
    build_escape(root, case)
    h34.build_escape = build_escape
    h34.TSK, h34.TSK_U = (SNT, SNT_OD.split("\n")[1][8:]) if case.startswith("e_odb") else (
        TGM, TGM_HEX[18:78])
    h34._decodings = _decodings
    h34.EVAL_SECRET = EVAL_SECRET
    return h34.check_escape(root, case)


# -- the official chain on a held-out payload shape ---------------------------------------------
_KEYS = ("temp_c", "Δp_hPa", "µg_m3", "ｚ_axis", "\U0001d6fc_rad", "rh", "CO₂", "lux", "é",
         "e", "\U0001f321_state", "ver", "z", "A", "_n")


def _number(rng: random.Random):
    k = rng.randrange(9)
    if k == 0:
        return rng.uniform(-1, 1) * 10 ** rng.randint(-9, -5)      # 1e-05 .. exponent forms
    if k == 1:
        return rng.uniform(1, 9.99) * 10 ** rng.randint(21, 40)    # 1e+21 and up
    if k == 2:
        return -0.0
    if k == 3:
        return float(rng.randint(-500, 500))                       # 21.0 -> "21"
    if k == 4:
        return rng.randint(2 ** 40, 2 ** 53)                       # big, still exact
    if k == 5:
        return round(rng.uniform(-90, 90), rng.randint(1, 17))    # many digits
    if k == 6:
        return rng.randint(-99, 99)
    if k == 7:
        return rng.uniform(0, 1) * 10 ** rng.randint(-7, -1)       # 0.000035 forms
    return rng.choice((0.1 + 0.2, 1 / 3, 2 ** -1074, 1.7976931348623157e308, 5e-324 * 3))


def _sensorjcs_payload(rng: random.Random, size: int) -> dict:
    """A sensor log: objects with keys out of order, non-ASCII (some beyond the BMP, whose
    UTF-16 order differs from code point order: U+1D6FC and U+1F321 before U+FF5A), numbers in
    every form a Python writer spells differently from RFC 8785 (exponents, -0.0, 21.0, ints
    to 2**53, 17 digits); nested 2-3 deep. No pass used keys beyond the BMP or numbers as the
    bulk of a payload (logprobs: floats in lists; keymap: maps of mixed scalars)."""
    readings, used = [], 40
    while used < size - 60:
        keys = rng.sample(_KEYS, rng.randint(3, 7))
        obj = {k: _number(rng) for k in keys}
        if rng.random() < 0.3:
            obj["cal"] = {rng.choice(_KEYS): _number(rng) for _ in range(2)}
        readings.append(obj)
        used += len(json.dumps(obj))
    return {"sensor": f"s-{rng.randint(1, 64)}", "t": rng.uniform(1.7e9, 1.8e9),
            "readings": readings, "ok": rng.random() < 0.9}


CHAIN_SHAPES37 = {"sensorjcs": _sensorjcs_payload}
#: Python's default writer: `", "` / `": "` and ASCII escapes (surrogate pairs beyond the BMP)
CHAIN_ENCODE37 = {"sensorjcs": lambda ev: json.dumps(ev).encode()}


def _chain_install() -> None:
    import qa_session26 as s26
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES37)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE37)


def build_chain37(shape: str) -> Path:
    import qa_session26 as s26
    _chain_install()
    return s26.build_chain(shape)


def check_chain37(shape: str) -> dict:
    import qa_session26 as s26
    _chain_install()
    return s26.check_chain(shape)


def jcs_check37(shape: str, n: int = 2000) -> dict:
    """The chain's truth apart from the product: qa_session35's RFC 8785 writer against the
    product's `canonical_json` on the first n payloads."""
    import qa_session35 as s35
    s35.CHAIN_SHAPES35.update(CHAIN_SHAPES37)
    s35.build_chain35 = lambda s: build_chain37(s)
    return s35.jcs_check(shape, n)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session37 as s37
    run(s37.CACHE, sys.argv[1:])
