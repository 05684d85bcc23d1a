"""Issue 15 classes of session 39's QA pass (docs/qa/session39.md): the classes session 39's
mixed / dumps / deepnest engineers work on (long lines mixing escape kinds; `od -x` word
dumps; the bound on dump-heavy logs; the official chain's nesting), each in a spelling no
earlier pass, test or bench used (grep of scripts/, tests/, bench/: no `od -t x4`, no
`base32`, no `xxd -b`, no `od -t d1`, no Ascii85, no uuencode; no Square access `sq0atp-`,
Grafana cloud `glc_`, DigitalOcean OAuth `doo_v1_`, GitHub user-to-server `ghu_`, Shopify
shared secret `shpss_` or Stripe test restricted `rk_test_` key in any QA input: all six in
the product's key table). Every spelling sits in an OBSERVATION (a tool's output), which
`withhold` keeps public:

- h39_01 log_secret_square_od_tx4: a Square access token (`sq0atp-` + 36) as `od -t x4`'s
  dump (7-digit octal offset, four 4-byte little-endian words a line: each 4 characters
  reversed in the hex);
- h39_02 log_secret_grafana_base32: a Grafana cloud token (`glc_` + 52) as `base32`'s output
  (RFC 4648, wrapped at 76: A-Z and 2-7, `=` padding);
- h39_03 log_secret_do_oauth_xxd_b: a DigitalOcean OAuth token (`doo_v1_` + 64 hex) as `xxd
  -b` (8-digit hex offset, six 8-bit binary groups a line, the text column: pieces of 6);
- h39_04 log_secret_github_ghu_od_td1: a GitHub user-to-server token (`ghu_` + 36) as `od -t
  d1` (signed decimal bytes, 16 a line, 4 columns each);
- h39_05 log_secret_shopify_ascii85: a Shopify shared secret (`shpss_` + 32 hex) as Adobe
  Ascii85 (`<~...~>`, Python's `base64.a85encode(adobe=True)`);
- h39_06 log_secret_stripe_test_uuencode: a Stripe test restricted key (`rk_test_` + 40) as a
  `uuencode` body (`begin 644`, `M`-led lines of 45 bytes, `end`);
- h39_07 log_honest_lookalikes: no secret: `od -t x4` of a greeting, `base32` of a sentence,
  `xxd -b` of a word, `od -t d1` of a word, Ascii85 of a sentence, a `uuencode` of a small
  text file; `verify` must flag nothing and `withhold` publish;
- escape (timed alone): e_odtx4_128mb (`od -t x4` dumps of honest text, the Square token
  likewise on the last line), e_base32_128mb (`base32` of honest text, the Grafana token
  likewise), e_mixlong_128mb (each observation ONE line of ~16 KiB mixing Perl `\\x{..}`,
  HTML `&#NN;`, URL `%NN`, `\\NNN` octal and literal runs word by word; the Stripe test key
  spelled the same mixed way on the last line);
- chain: `wideflat` (flat objects of 180-230 short keys written in the generator's own
  random order, a few keys from U+E000-U+FFFF and from the astral planes so that UTF-16 order
  differs from code-point order; small ints, bools, short words), 120,000 events.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import random
import re
import sys
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s33 as h33
import qa_hostile_s34 as h34
import qa_hostile_s35 as h35
import qa_hostile_s38 as h38

SAMPLE = h28.SAMPLE
EVAL_SECRET = "qa39-evaluator-secret-5e0d"


def _od_tx4(s: str) -> str:
    b = s.encode()
    b += b"\0" * (-len(b) % 4)
    words = [f"{b[i + 3]:02x}{b[i + 2]:02x}{b[i + 1]:02x}{b[i]:02x}" for i in range(0, len(b), 4)]
    return "\n".join(f"{4 * i:07o} " + " ".join(words[i:i + 4])
                     for i in range(0, len(words), 4)) + f"\n{len(s.encode()):07o}"


def _base32(s: str) -> str:
    e = base64.b32encode(s.encode()).decode()
    return "\n".join(e[i:i + 76] for i in range(0, len(e), 76))


def _xxd_b(s: str) -> str:
    b, rows = s.encode(), []
    for i in range(0, len(b), 6):
        ch = b[i:i + 6]
        bits = " ".join(f"{x:08b}" for x in ch).ljust(6 * 9 - 1)
        asc = "".join(chr(x) if 32 <= x < 127 else "." for x in ch)
        rows.append(f"{i:08x}: {bits}  {asc}")
    return "\n".join(rows)


def _od_td1(s: str) -> str:
    b = s.encode()
    return "\n".join(f"{i:07o} " + "".join(f"{(x if x < 128 else x - 256):4d}" for x in b[i:i + 16])
                     for i in range(0, len(b), 16)) + f"\n{len(b):07o}"


def _a85(s: str) -> str:
    return base64.a85encode(s.encode(), adobe=True, wrapcol=72).decode()


def _uu(s: str, name: str) -> str:
    b = s.encode()
    body = "".join(binascii.b2a_uu(b[i:i + 45], backtick=True).decode()
                   for i in range(0, len(b), 45))
    return f"begin 644 {name}\n{body}`\nend"


SQ = "sq0atp-" + "QA39odTx4words0aB1cD2eF3gH4iJ5kL6mN7"                               # h39_01
SQ_OD = "$ od -t x4 ~/.square/access_token\n" + _od_tx4(SQ)
GLC = "glc_" + "QA39base32Grafana0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1w"                  # h39_02
GLC_B32 = "$ base32 ~/.grafana/cloud.token\n" + _base32(GLC)
DOO = "doo_v1_" + "39ab0c1d2e3f405a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c"    # h39_03
DOO_XB = "$ xxd -b ~/.config/doctl/oauth\n" + _xxd_b(DOO)
GHU = "ghu_" + "QA39odTd1decimal0aB1cD2eF3gH4iJ5kL6m"                                  # h39_04
GHU_OD = "$ od -t d1 ~/.config/gh/app_token\n" + _od_td1(GHU)
SHP = "shpss_" + "39a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4"                                    # h39_05
SHP_85 = "tool python3 returned: " + _a85(SHP)
RKT = "rk_test_" + "QA39uuencode0aB1cD2eF3gH4iJ5kL6mN7oP8qR9"                           # h39_06
RKT_UU = "$ uuencode stripe.key stripe.key\n" + _uu(RKT, "stripe.key")
for _k, _rx in ((SQ, r"sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,60}"),
                (GLC, r"glc_[A-Za-z0-9_+/=]{32,400}"),
                (DOO, r"do[opr]_v1_[a-f0-9]{64}"),
                (GHU, r"gh[ousr]_[A-Za-z0-9]{36}"),
                (SHP, r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
                (RKT, r"[rs]k_test_[A-Za-z0-9]{20,247}")):
    assert re.fullmatch(_rx, _k), _k  # each key a whole match of the product's own pattern
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, SQ, GLC, DOO, GHU, SHP, RKT,
           SQ_OD.split("\n")[1][8:], GLC_B32.split("\n")[1][:40], DOO_XB.split("\n")[1][10:63],
           GHU_OD.split("\n")[1][8:], SHP_85[23:63], RKT_UU.split("\n")[2][:40]]
WHOLE = (SQ, GLC, DOO, GHU, SHP, RKT)
SECRET_IDS = ("h39_01", "h39_02", "h39_03", "h39_04", "h39_05", "h39_06")


def _honest_events() -> list[dict]:
    ev = h28._events()
    obs = h34._obs(ev)
    greet = "the porter waits at the gate, a strobe lit"
    obs[0]["data"]["summary"] = ("$ od -t x4 greet.txt\n" + _od_tx4(greet) + "\n$ base32 note.txt\n"
                                 + _base32("meet at the north tower when the bell rings twice"))
    obs[1]["data"]["summary"] = ("$ xxd -b word.txt\n" + _xxd_b("strobe\n") + "\n$ od -t d1 ok.txt\n"
                                 + _od_td1("ok, done\n"))
    obs[2]["data"]["summary"] = "tool python3 returned: " + _a85("the level is clear, score 4100")
    obs[3]["data"]["summary"] = ("$ uuencode notes.txt notes.txt\n"
                                 + _uu("level 3: the beacon blinks twice, then the gate opens\n",
                                       "notes.txt"))
    return ev


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input of the hostile harness."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa39 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    texts = [("h39_01_log_secret_square_od_tx4", 0, SQ_OD + "\n$ square-cli whoami"),
             ("h39_02_log_secret_grafana_base32", 1, GLC_B32),
             ("h39_03_log_secret_do_oauth_xxd_b", 2, DOO_XB + "\n$ doctl account get"),
             ("h39_04_log_secret_github_ghu_od_td1", 3, GHU_OD),
             ("h39_05_log_secret_shopify_ascii85", 1, SHP_85),
             ("h39_06_log_secret_stripe_test_uuencode", 2, RKT_UU + "\n$ stripe status")]
    for name, k, text in texts:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    add("h39_07_log_honest_lookalikes", _honest_events())
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings against the lines holding the spelling (h39_01-
    06); H-f: none on the honest control (h39_07)."""
    import qa_session22 as s22

    out = {}
    probes = {"h39_01_log_secret_square_od_tx4": ("od -t x4",),
              "h39_02_log_secret_grafana_base32": ("$ base32",),
              "h39_03_log_secret_do_oauth_xxd_b": ("xxd -b",),
              "h39_04_log_secret_github_ghu_od_td1": ("od -t d1",),
              "h39_05_log_secret_shopify_ascii85": ("<~",),
              "h39_06_log_secret_stripe_test_uuencode": ("begin 644",),
              "h39_07_log_honest_lookalikes": ("od -t x4", "xxd -b", "<~", "begin 644")}
    for name, parts in probes.items():
        d = root / name
        lines = h34._lines_with(d, parts)
        code, rep, _err = s22._verify(d)
        found = [x for x in rep.get("findings", [])
                 if str(x.get("rule", "")).startswith("secret")]
        got = sorted({x.get("line") for x in found if x.get("line") is not None})
        honest = name.startswith("h39_07")
        out[name[:6]] = {"exit": code, "verdict": rep.get("verdict"), "secret_lines": lines,
                         "warned_lines": got, "rules": sorted({x.get("rule") for x in found}),
                         "met": (not found) if honest else bool(set(lines) & set(got))}
    return {"check": "H-s spelled secrets flagged; H-f honest control not",
            "rows": out, "met": all(v["met"] for v in out.values())}


def _undo39(text: str) -> list[str]:
    """This pass' spellings undone (the leak search): od -t x4 words, base32 blocks, xxd -b
    bits, od -t d1 decimals, Ascii85, uuencode bodies."""
    out = []
    t = text.replace("\\n", "\n")
    for run in re.findall(r"(?:\b[0-9a-f]{8}\b[ \t]+){2,}\b[0-9a-f]{8}\b", t):
        out.append("".join(bytes.fromhex(w)[::-1].decode("latin-1") for w in run.split()))
    for run in re.findall(r"(?:[A-Z2-7]{2,76}=*\n?)+", t):
        r = run.replace("\n", "")
        if len(r) < 16:
            continue
        with contextlib.suppress(ValueError, binascii.Error):
            out.append(base64.b32decode(r + "=" * (-len(r) % 8)).decode("latin-1"))
    bits = re.findall(r"\b[01]{8}\b", t)
    if bits:
        out.append("".join(chr(int(x, 2)) for x in bits))
    for run in re.findall(r"(?:[ \t]+-?\d{1,3}){8,}", t):
        with contextlib.suppress(ValueError):
            out.append(bytes(int(x) % 256 for x in run.split()).decode("latin-1"))
    for run in re.findall(r"<~.*?~>", t, re.S):
        with contextlib.suppress(ValueError, binascii.Error):
            out.append(base64.a85decode(run, adobe=True).decode("latin-1"))
    for run in re.findall(r"begin \d{3} \S+\n(.*?)\nend", t, re.S):
        dec = []
        for line in run.splitlines():
            with contextlib.suppress(binascii.Error):
                dec.append(binascii.a2b_uu(line).decode("latin-1"))
        out.append("".join(dec))
    out.append(_unmix(t))
    return out


def _decodings(text: str) -> list[str]:
    return h38._decodings(text) + _undo39(text)


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    control's file written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h39_*.pub")):
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
    honest = (root / "h39_07.pub").exists()
    return {"check": "H-a withheld files hold no secret; H-f the honest log published",
            "published": rows, "honest_published": honest,
            "met": not any(rows.values()) and honest}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    import subprocess

    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S39-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h39_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


# -- escape-heavy logs, timed (s35's builder and s34's timer with this pass' spellings) ---------
ESCAPE = {"e_odtx4_128mb": 128 << 20, "e_base32_128mb": 128 << 20,
          "e_mixlong_128mb": 128 << 20}


def _mix(s: str) -> str:
    """Word by word, by turns: literal, Perl `\\x{..}`, HTML `&#NN;`, URL `%NN`, `\\NNN`."""
    out = []
    for i, c in enumerate(s):
        k = (i // 3) % 5
        if k == 0 and c.isalnum():
            out.append(c)
        elif k == 1:
            out.append(f"\\x{{{ord(c):x}}}")
        elif k == 2:
            out.append(f"&#{ord(c)};")
        elif k == 3:
            out.append(f"%{ord(c):02X}")
        else:
            out.append(f"\\{ord(c):03o}")
    return "".join(out)


def _unmix(t: str) -> str:
    t = re.sub(r"\\\\?x\{([0-9a-fA-F]{1,6})\}", lambda m: chr(int(m.group(1), 16)), t)
    t = re.sub(r"&#(\d{1,7});", lambda m: chr(int(m.group(1))), t)
    t = re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), t)
    return re.sub(r"\\\\?([0-3][0-7]{2})", lambda m: chr(int(m.group(1), 8)), t)


RKT_MIX = "$ perl -e 'print \"" + _mix(RKT) + "\"'"


def _escape_text(case: str, rng: random.Random) -> str:
    if case.startswith("e_mixlong"):
        words = " ".join(rng.choice(h34._WORDS) for _ in range(1500))
        return "$ perl -e 'print \"" + _mix(words) + "\"'"
    words = " ".join(rng.choice(h34._WORDS) for _ in range(700))
    if case.startswith("e_odtx4"):
        return "$ od -t x4 chapter.txt\n" + _od_tx4(words)
    return "$ base32 chapter.txt\n" + _base32(words)


def _escape_key(case: str) -> str:
    return {"e_odtx4": SQ_OD, "e_base32": GLC_B32, "e_mixlong": RKT_MIX}[case.rsplit("_", 1)[0]]


def build_escape(root: Path, case: str) -> dict:
    h35._escape_text, h35._escape_key = _escape_text, _escape_key
    h35.ESCAPE.update(ESCAPE)
    return h35.build_escape(root, case)


def _timed600(argv: list[str], env: dict) -> dict:
    """qa_hostile_s34._timed with s37's judge note 1: 600 s wall (the machine's load made
    e_mixlong's `withhold` hit 300 s wall at 18 CPU s, before eae10f8; CPU is what is timed)."""
    import resource
    import subprocess
    import time

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(["prlimit", "--as=536870912", "timeout", "600", *h34.CLI, *argv],
                       env=env, capture_output=True, text=True, check=False)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"exit": p.returncode, "cpu_s": round(cpu, 2), "wall_s": round(wall, 2),
            "peak_mib": round(after.ru_maxrss / 1024, 1), "stdout": p.stdout[-4000:],
            "stderr": p.stderr[-600:]}


def check_escape(root: Path, case: str) -> dict:
    """qa_hostile_s34.check_escape (CPU scaled to 512 MiB against 30 s; the key on the last
    line flagged, not published) on this pass' logs: the leak search knows its spellings."""
    build_escape(root, case)
    h34.build_escape = build_escape
    key = {"e_odtx4": (SQ, SQ_OD.split("\n")[1][8:]),
           "e_base32": (GLC, GLC_B32.split("\n")[1][:40]),
           "e_mixlong": (RKT, RKT_MIX[20:60])}[case.rsplit("_", 1)[0]]
    h34.TSK, h34.TSK_U = key
    h34._decodings = _decodings
    h34._timed = _timed600
    h34.EVAL_SECRET = EVAL_SECRET
    return h34.check_escape(root, case)


# -- the official chain on a held-out payload shape ---------------------------------------------
_ASCII_KEYS = [a + b for a in "abcdefghijklmnopqrstuvwxyz" for b in "0123456789_xyz"]
#: keys whose UTF-16 order differs from their code-point order: U+FF41.. (BMP, above the
#: surrogates) sort AFTER U+1D400.. (astral: UTF-16 high surrogates D835) in RFC 8785
_ODD_KEYS = ["\uff41", "\uff42x", "\ue000k", "\U0001d400", "\U0001d401z", "\U0001f600",
             "\u00e9t\u00e9", "\u4e2d"]


def _wideflat_payload(rng: random.Random, size: int) -> dict:
    """One flat object of 180-230 short keys in the generator's own random order (a game
    board's cells as a map, say), 6 of them from _ODD_KEYS; small ints, bools, short words.
    No pass' payload was one object of more than ~40 keys (keymap / uuidmap: one level of
    ~20-40)."""
    n = rng.randint(180, 230)
    keys = rng.sample(_ASCII_KEYS, n - 6) + rng.sample(_ODD_KEYS, 6)
    rng.shuffle(keys)
    vals = (lambda: rng.randint(0, 99), lambda: rng.random() < 0.5,
            lambda: rng.choice(("a", "ok", "x", "hp")), lambda: None)
    return {k: rng.choice(vals)() for k in keys}


CHAIN_SHAPES39 = {"wideflat": _wideflat_payload}
#: a compact writer that keeps the generator's order (not canonical: each line's 180-230 keys
#: sorted by UTF-16 code units to verify it)
CHAIN_ENCODE39 = {"wideflat": lambda ev: json.dumps(ev, separators=(",", ":"),
                                                    ensure_ascii=False).encode()}


def _chain_install() -> None:
    import qa_session26 as s26
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES39)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE39)


def build_chain39(shape: str) -> Path:
    import qa_session26 as s26
    _chain_install()
    return s26.build_chain(shape)


def check_chain39(shape: str) -> dict:
    import qa_session26 as s26
    _chain_install()
    return s26.check_chain(shape)


def jcs_check39(shape: str, n: int = 2000) -> dict:
    """The chain's truth apart from the product: qa_session35's RFC 8785 writer against the
    product's `canonical_json` on the first n payloads."""
    import qa_session35 as s35
    s35.CHAIN_SHAPES35.update(CHAIN_SHAPES39)
    s35.build_chain35 = lambda s: build_chain39(s)
    return s35.jcs_check(shape, n)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session39 as s39
    run(s39.CACHE, sys.argv[1:])
