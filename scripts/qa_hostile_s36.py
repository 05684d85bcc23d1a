"""Issue 15 classes of session 36's QA pass (docs/qa/session36.md): the classes session 36's
secrets / escape / chain engineers work on (decimal byte arrays, adjacent quotes, `\\u{..}`,
joins, dumps; escape-heavy logs; the official chain's fast path), each in a spelling no
earlier pass, test or bench used (grep of scripts/, tests/, bench/: no `String.fromCharCode`,
no `od -c` dump, no bash `$'\\NNN'` octal escapes, no `+` concatenation of a key over lines, no
HTML decimal character references of a key, no percent-encoding of a key; no PlanetScale,
RubyGems, age, Grafana service-account, Netlify or Groq key in any QA input (nfp_ / gsk_
only in a test's table, none spelled): all six in the product's key table). Every spelling
sits in an OBSERVATION (a tool's output), which `withhold` keeps public:

- h36_01 log_secret_planetscale_fromcharcode: a PlanetScale password (`pscale_pw_` + 43) as
  JS `String.fromCharCode(112, 115, ...)`, 12 codes a line (decimal codes, not a byte list);
- h36_02 log_secret_rubygems_od_c: a RubyGems key (`rubygems_` + 48 hex) as `od -An -c`'s
  character dump (each character right-aligned in a 4-wide column, 16 a line);
- h36_03 log_secret_age_bash_octal: an age secret key (`AGE-SECRET-KEY-1` + 58) as a bash
  ANSI-C string of octal escapes (`export AGE_KEY=$'\\101\\107\\105...'`);
- h36_04 log_secret_grafana_plus_concat: a Grafana service-account token (`glsa_` + 40) as a
  Java string concatenation over lines (`"glsa_" +` / `"abcd..." +` / ... `;`);
- h36_05 log_secret_netlify_html_entities: a Netlify token (`nfp_` + 36) as HTML decimal
  character references (`&#110;&#102;&#112;&#95;...`) in a page a tool fetched;
- h36_06 log_secret_groq_percent: a Groq key (`gsk_` + 52) percent-encoded byte by byte
  (`%67%73%6B%5F...`) in a curl trace's query string;
- h36_07 log_honest_lookalikes: no secret: fromCharCode of a greeting, an `od -c` of a text
  file, bash `$'\\n\\t'` octal escapes of whitespace, a `+` concatenation of words, `&#233;`
  entities, a percent-encoded URL path; `verify` must flag nothing and `withhold` publish;
- escape (timed alone): e_percent_128mb, 128 MiB of observations whose text is a
  percent-encoded query (every byte `%XX`, honest words), a Tailscale key percent-encoded on
  the last line; e_charcodes_128mb, 128 MiB of `String.fromCharCode(...)` lists of honest
  text (decimal codes, 12 a line), a PlanetScale token spelled the same way on the last line.
- chain: `rlediff` (a replay's per-frame run-length diff: nested arrays 4-5 deep of small ints
  `[[row, [[x, len, colour], ...]], ...]`, a HUD object of ints and a short string with `"`,
  `\\` and a newline), 120,000 events written by the product's default writer.
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

SAMPLE = h28.SAMPLE
EVAL_SECRET = "qa36-evaluator-secret-5c2d"
PSC = "pscale_pw_" + "QA36fromCharCode0aB1cD2eF3gH4iJ5kL6mN7oP8q"                 # h36_01
PSC_JS = ("const pw = String.fromCharCode(\n" + "".join(
    "  " + ", ".join(str(ord(c)) for c in PSC[i:i + 12]) + ",\n"
    for i in range(0, len(PSC), 12)).rstrip(",\n") + "\n);")
RGM = "rubygems_" + "3f6a9c0e2b4d8f1a7c5e3b9d0f2a4c6e8b1d3f5a7c9e0b2d"                # h36_02
RGM_OD = "$ od -An -c ~/.gem/key\n" + "\n".join(
    "".join(f"{c:>4}" for c in RGM[i:i + 16]) for i in range(0, len(RGM), 16)) + "\n  \\n"
AGE = "AGE-SECRET-KEY-1" + "QA36BASHOCTAL0ABCDEFGHJKLMNPQRSTUVWXYZ23456789ACDEFGHJKLMN"   # h36_03
AGE_OCT = "export AGE_KEY=$'" + "".join(f"\\{ord(c):03o}" for c in AGE) + "'"
GLSA = "glsa_" + "QA36plusConcat0aB1cD2eF3gH4iJ5kL6mN7oP8q"                          # h36_04
GLSA_PARTS = [GLSA[0:5], GLSA[5:15], GLSA[15:25], GLSA[25:35], GLSA[35:]]
GLSA_JAVA = ("private static final String GRAFANA_TOKEN =\n" + " +\n".join(
    f'    "{p}"' for p in GLSA_PARTS) + ";")
NFP = "nfp_" + "QA36htmlEntities0aB1cD2eF3gH4iJ5kL6m"                                 # h36_05
NFP_HTML = "".join(f"&#{ord(c)};" for c in NFP)
GSK = "gsk_" + "QA36percentEncoded0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV"                 # h36_06
GSK_PCT = "".join(f"%{ord(c):02X}" for c in GSK)
TSK = "tskey-" + "auth-" + "kQA36pctHeavy01" + "-" + "QA36percentTail0aB1cD2eF3gH4iJ5kL6"  # escape
TSK_PCT = "".join(f"%{ord(c):02X}" for c in TSK)
PSC2 = "pscale_tkn_" + "QA36charCodesHeavyTail0aB1cD2eF3gH4iJ5kL6mN"                 # escape
PSC2_JS = ("String.fromCharCode(\n" + ",\n".join(
    "  " + ", ".join(str(ord(c)) for c in PSC2[i:i + 12]) for i in range(0, len(PSC2), 12))
    + "\n)")
for _k, _rx in ((PSC, r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{32,64}"),
                (RGM, r"rubygems_[a-f0-9]{48}"), (AGE, r"AGE-SECRET-KEY-1[0-9A-Z]{58}"),
                (GLSA, r"glsa_[A-Za-z0-9_]{32,64}"), (NFP, r"nfp_[A-Za-z0-9]{36}"),
                (GSK, r"gsk_[A-Za-z0-9]{48,52}"),
                (TSK, r"tskey-[a-z]{3,8}-[A-Za-z0-9]{8,20}-[A-Za-z0-9]{20,40}"),
                (PSC2, r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{32,64}")):
    assert re.fullmatch(_rx, _k), _k  # each key a whole match of the product's own pattern
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, PSC, RGM, AGE, GLSA, NFP, GSK, TSK, PSC2, NFP_HTML[:60], GSK_PCT[:60],
           AGE_OCT[:60], TSK_PCT[:60]]
SPLITS = {GLSA: tuple(GLSA_PARTS)}
WHOLE = (PSC, RGM, AGE, GLSA, NFP, GSK, TSK, PSC2)
SECRET_IDS = ("h36_01", "h36_02", "h36_03", "h36_04", "h36_05", "h36_06")


def _honest_events() -> list[dict]:
    ev = h28._events()
    obs = h34._obs(ev)
    hello = "Hello, player one!"
    obs[0]["data"]["summary"] = (
        "tool read_file banner.js returned: const msg = String.fromCharCode(\n  "
        + ", ".join(str(ord(c)) for c in hello[:12]) + ",\n  "
        + ", ".join(str(ord(c)) for c in hello[12:]) + "\n);")
    txt = "level 3 unlocked: the porter waits at the gate"
    obs[1]["data"]["summary"] = ("$ od -An -c notes.txt\n" + "\n".join(
        "".join(f"{c:>4}" for c in txt[i:i + 16]) for i in range(0, len(txt), 16))
        + "\n$ printf $'\\n\\t\\101\\102'")
    obs[2]["data"]["summary"] = ('tool read_file Title.java returned: String t =\n'
                                 '    "Space " +\n    "War " +\n    "Deluxe Edition";')
    obs[3]["data"]["summary"] = ("tool fetch returned: <p>Caf&#233; cr&#232;me &#8212; "
                                 "&#60;b&#62;</p>\n> GET /games/space%20war/high%2Dscores"
                                 "?q=caf%C3%A9&page=2")
    return ev


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input of the hostile harness."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa36 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    texts = [("h36_01_log_secret_planetscale_fromcharcode", 0,
              "tool read_file db.js returned:\n" + PSC_JS + "\nconnect({password: pw});"),
             ("h36_02_log_secret_rubygems_od_c", 1, RGM_OD),
             ("h36_03_log_secret_age_bash_octal", 2,
              "$ cat ~/.config/sops/env.sh\n" + AGE_OCT + "\nsops -d secrets.enc.yaml"),
             ("h36_04_log_secret_grafana_plus_concat", 3,
              "tool read_file Metrics.java returned:\n" + GLSA_JAVA),
             ("h36_05_log_secret_netlify_html_entities", 1,
              "tool fetch https://ci.example/settings returned: <input type=\"hidden\" "
              "name=\"token\" value=\"" + NFP_HTML + "\">"),
             ("h36_06_log_secret_groq_percent", 2,
              "$ curl -v 'https://proxy.example/v1/chat?model=llama&api_key=" + GSK_PCT
              + "'\n> GET /v1/chat?model=llama&api_key=" + GSK_PCT + " HTTP/1.1")]
    for name, k, text in texts:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    add("h36_07_log_honest_lookalikes", _honest_events())
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings against the lines holding the spelling (h36_01-
    06); H-f: none on the honest control (h36_07)."""
    import qa_session22 as s22

    out = {}
    probes = {"h36_01_log_secret_planetscale_fromcharcode": ("112, 115, 99, 97",),
              "h36_02_log_secret_rubygems_od_c": ("   r   u   b   y",),
              "h36_03_log_secret_age_bash_octal": ("\\\\101\\\\107\\\\105",),
              "h36_04_log_secret_grafana_plus_concat": (GLSA_PARTS[2],),
              "h36_05_log_secret_netlify_html_entities": ("&#110;&#102;&#112;",),
              "h36_06_log_secret_groq_percent": ("%67%73%6B%5F",),
              "h36_07_log_honest_lookalikes": ("fromCharCode",)}
    for name, parts in probes.items():
        d = root / name
        lines = h34._lines_with(d, parts)
        code, rep, _err = s22._verify(d)
        found = [x for x in rep.get("findings", [])
                 if str(x.get("rule", "")).startswith("secret")]
        got = sorted({x.get("line") for x in found if x.get("line") is not None})
        honest = name.startswith("h36_07")
        out[name[:6]] = {"exit": code, "verdict": rep.get("verdict"), "secret_lines": lines,
                         "warned_lines": got, "rules": sorted({x.get("rule") for x in found}),
                         "met": (not found) if honest else bool(set(lines) & set(got))}
    return {"check": "H-s spelled / split secrets flagged; H-f honest control not",
            "rows": out, "met": all(v["met"] for v in out.values())}


def _decodings(text: str) -> list[str]:
    """h35's decodings plus this pass' spellings undone: decimal code lists, `od -c` columns,
    octal escapes, `+` concatenation over lines, `&#NN;` references, `%XX` bytes."""
    out = h35._decodings(text)
    for run in re.findall(r"(?:\d{2,3}\s*,\s*(?:\\n)?\s*){8,}\d{2,3}", text):
        vals = [int(x) for x in re.findall(r"\d+", run)]
        if all(v < 0x110000 for v in vals):
            out.append("".join(chr(v) for v in vals))
    out.append(re.sub(r"(?:\\n)?\s{1,4}", "", text))
    out.append(re.sub(r"\\\\?([0-7]{3})", lambda m: chr(int(m.group(1), 8)), text))
    out.append(re.sub(r'"\s*\+\s*(?:\\n)?\s*"', "", text.replace('\\"', '"')))
    out.append(re.sub(r"&#(\d+);", lambda m: chr(int(m.group(1))), text))
    out.append(re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), text))
    return out


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    control's file written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h36_*.pub")):
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
        found |= {f"{s} (all {len(ps)} parts)" for s, ps in SPLITS.items()
                  if all(any(x in t for t in texts) for x in ps)}
        rows[p.name] = sorted(found)
    honest = (root / "h36_07.pub").exists()
    return {"check": "H-a withheld files hold no secret; H-f the honest log published",
            "published": rows, "honest_published": honest,
            "met": not any(rows.values()) and honest}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    import subprocess

    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S36-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h36_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


# -- escape-heavy logs, timed (s35's builder and s34's timer with this pass' spellings) ---------
ESCAPE = {"e_percent_128mb": 128 << 20, "e_charcodes_128mb": 128 << 20}


def _escape_text(case: str, rng: random.Random) -> str:
    words = " ".join(rng.choice(h34._WORDS) for _ in range(1000))
    if case.startswith("e_percent"):
        return ("> GET /search?q=" + "".join(f"%{b:02X}" for b in words.encode())
                + " HTTP/1.1")
    return "String.fromCharCode(\n" + ",\n".join(
        "  " + ", ".join(str(ord(c)) for c in words[i:i + 12])
        for i in range(0, len(words), 12)) + "\n)"


def _escape_key(case: str) -> str:
    return ("> GET /auth?key=" + TSK_PCT) if case.startswith("e_percent") else PSC2_JS


def build_escape(root: Path, case: str) -> dict:
    h35._escape_text, h35._escape_key = _escape_text, _escape_key
    h35.ESCAPE.update(ESCAPE)
    return h35.build_escape(root, case)


def check_escape(root: Path, case: str) -> dict:
    """qa_hostile_s34.check_escape (CPU scaled to 512 MiB against 30 s; the key on the last
    line flagged, not published) on this pass' logs: the leak search knows its spellings."""
    build_escape(root, case)
    h34.build_escape = build_escape
    h34.TSK, h34.TSK_U = (TSK, TSK_PCT[:60]) if case.startswith("e_percent") else (
        PSC2, PSC2_JS.split("\n")[1].strip()[:40])
    h34._decodings = _decodings
    h34.EVAL_SECRET = EVAL_SECRET
    return h34.check_escape(root, case)


# -- the official chain on a held-out payload shape ---------------------------------------------
def _rlediff_payload(rng: random.Random, size: int) -> dict:
    """A replay's per-frame run-length diff: `{"frame": n, "diff": [[row, [[x, len, colour],
    ...]], ...], "hud": {...}}`: nested arrays 4-5 deep of small ints (0-255), a HUD of ints
    and a short string with a quote, a backslash and a newline. No pass used nested small-int
    arrays (tuplelog: flat mixed tuples; boolgrid: bools; geofloats: float pairs)."""
    rows, used, frame = [], 60, rng.randint(1, 9999)
    while used < size - 80:
        runs = [[rng.randint(0, 159), rng.randint(1, 24), rng.randint(0, 127) * 2]
                for _ in range(rng.randint(1, 6))]
        row = [rng.randint(0, 209), runs]
        rows.append(row)
        used += len(json.dumps(row, separators=(",", ":")))
    return {"frame": frame, "diff": rows,
            "hud": {"score": rng.randint(0, 99999), "lives": rng.randint(0, 5),
                    "msg": rng.choice(("ok", 'say "go"', "a\\b", "line1\nline2"))}}


CHAIN_SHAPES36 = {"rlediff": _rlediff_payload}


def _chain_install() -> None:
    import qa_session26 as s26
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES36)


def build_chain36(shape: str) -> Path:
    import qa_session26 as s26
    _chain_install()
    return s26.build_chain(shape)


def check_chain36(shape: str) -> dict:
    import qa_session26 as s26
    _chain_install()
    return s26.check_chain(shape)


def jcs_check36(shape: str, n: int = 2000) -> dict:
    """The chain's truth apart from the product: qa_session35's RFC 8785 writer against the
    product's `canonical_json` on the first n payloads."""
    import qa_session35 as s35
    s35.CHAIN_SHAPES35.update(CHAIN_SHAPES36)
    s35.build_chain35 = lambda s: build_chain36(s)
    return s35.jcs_check(shape, n)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session36 as s36
    run(s36.CACHE, sys.argv[1:])
