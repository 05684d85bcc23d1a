"""Issue 15 classes of session 40's QA pass (docs/qa/session40.md): the classes session 40's
spell / speed engineers work on (keys in new spellings of byte dumps and base-N encodings;
escape-heavy logs and chain shapes at their floor), each in a spelling no earlier pass, test
or bench used (grep of scripts/, tests/, bench/, moderator_app/: no `-EncodedCommand`, base58,
base36,
`hexdump -C -s`, `od -t x8`, Z85, xxencode, quoted-printable, and no base64 of a gzip stream
in a secret). The key families were used by earlier passes (their spellings were not); each key
is asserted a whole match of the product's own pattern. Every spelling sits in an OBSERVATION
(a tool's output), which `withhold` keeps public:

- h40_01 log_secret_ghr_ps_encoded: a GitHub refresh token (`ghr_` + 36) inside a PowerShell
  command line run with `-EncodedCommand` (base64 of the command's UTF-16LE bytes: every
  other byte 0), as `ps -ef` shows it;
- h40_02 log_secret_linear_base58: a Linear key (`lin_api_` + 40) as base58 (Bitcoin's
  alphabet: no 0, O, I, l);
- h40_03 log_secret_vault_base36: a Vault token (`hvs.` + 90) as base36 (the bytes as one
  big-endian integer in digits 0-9a-z);
- h40_04 log_secret_gho_hexdump_skip: a GitHub OAuth token (`gho_` + 36) as `hexdump -C -s
  16` (the dump starts at offset 0x10: the file's 16-byte header skipped);
- h40_05 log_secret_asia_od_tx8: an AWS session key id (`ASIA` + 16) with its secret as `od
  -t x8` (two 8-byte little-endian words a line: each 8 characters reversed in the hex);
- h40_06 log_secret_npm_z85: an npm token (`npm_` + 36) as ZeroMQ's Z85;
- h40_07 log_secret_xai_xxencode: an xAI key (`xai-` + 80) as an xxencode body (`begin 644`,
  `h`-led lines of 45 bytes in the alphabet `+-0-9A-Za-z`, `+`, `end`);
- h40_08 log_secret_ya29_quotedprintable: a Google OAuth token (`ya29.` + 120) in a
  quoted-printable mail body: the 76-column soft line break (`=` + newline) falls inside it,
  the text around it holds `=C3=A9` escapes;
- h40_09 log_secret_xapp_b64gzip: a Slack app token (`xapp-1-` + 70) in a JSON file, gzipped
  and `base64 -w0`'d (`H4sI...` on one line);
- h40_10 log_honest_lookalikes: no secret: each of the nine spellings of honest text;
  `verify` must flag nothing and `withhold` publish;
- escape (timed alone): e_xxdi_128mb (`xxd -i` arrays of honest text, the ghr_ token likewise
  on the last line: QA s34's h34_02 C byte array's class, a shape no pass timed), e_qp_128mb (quoted-printable of accented text: an `=XX` escape every
  ~4 characters; the ya29 token likewise), e_b64gz_128mb (one ~16 KiB line of base64 of
  gzip a observation; the xapp token likewise);
- chain: `progressbars` (a terminal's progress output: `\\r` and `\\b` rewrites, block
  characters U+2580-U+259F written as `\\uXXXX` escapes by an ASCII-only writer, rates as
  floats of 1-7 digits), 120,000 events.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import gzip
import json
import quopri
import random
import re
import sys
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s33 as h33
import qa_hostile_s34 as h34
import qa_hostile_s35 as h35
import qa_hostile_s39 as h39

SAMPLE = h28.SAMPLE
EVAL_SECRET = "qa40-evaluator-secret-7c21"
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_Z85 = ("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        ".-:+=^!/*?&<>()[]{}@%$#")
_XX = "+-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _xxd_i(s: str, name: str) -> str:
    b = s.encode()
    rows = [", ".join(f"0x{x:02x}" for x in b[i:i + 12]) for i in range(0, len(b), 12)]
    return (f"unsigned char {name}[] = {{\n  " + ",\n  ".join(rows)
            + f"\n}};\nunsigned int {name}_len = {len(b)};")


def _bigint(b: bytes, alph: str) -> str:
    n, out = int.from_bytes(b, "big"), []
    while n:
        n, r = divmod(n, len(alph))
        out.append(alph[r])
    lead = len(b) - len(b.lstrip(b"\0")) if alph is _B58 else 0
    return alph[0] * lead + "".join(reversed(out))


def _unbigint(t: str, alph: str) -> bytes:
    n = 0
    for c in t:
        n = n * len(alph) + alph.index(c)
    return n.to_bytes((n.bit_length() + 7) // 8, "big")


def _b58(s: str) -> str:
    return _bigint(s.encode(), _B58)


def _b36(s: str) -> str:
    return _bigint(s.encode(), _B36)


def _hexdump_cs(s: str, skip: int = 16, head: bytes = b"KEYFILE\x00v2\x00\x00\x00\x00\x01\x00") -> str:
    """`hexdump -C -s 16` of head + s: the rows from offset 0x10."""
    b = (head + s.encode())[skip:]
    rows = []
    for i in range(0, len(b), 16):
        ch = b[i:i + 16]
        hx = " ".join(f"{x:02x}" for x in ch[:8]) + "  " + " ".join(f"{x:02x}" for x in ch[8:])
        asc = "".join(chr(x) if 32 <= x < 127 else "." for x in ch)
        rows.append(f"{skip + i:08x}  {hx:<48}  |{asc}|")
    rows.append(f"{skip + len(b):08x}")
    return "\n".join(rows)


def _od_tx8(s: str) -> str:
    b = s.encode()
    b += b"\0" * (-len(b) % 8)
    words = [b[i:i + 8][::-1].hex() for i in range(0, len(b), 8)]
    return "\n".join(f"{8 * i:07o} " + " ".join(words[i:i + 2])
                     for i in range(0, len(words), 2)) + f"\n{len(s.encode()):07o}"


def _z85(s: str) -> str:
    b = s.encode()
    assert len(b) % 4 == 0, len(b)
    out = []
    for i in range(0, len(b), 4):
        n = int.from_bytes(b[i:i + 4], "big")
        out.append("".join(_Z85[(n // 85 ** k) % 85] for k in range(4, -1, -1)))
    return "".join(out)


def _unz85(t: str) -> bytes:
    out = b""
    for i in range(0, len(t) - len(t) % 5, 5):
        n = 0
        for c in t[i:i + 5]:
            n = n * 85 + _Z85.index(c)
        out += (n % (1 << 32)).to_bytes(4, "big")
    return out


def _xxe(s: str, name: str) -> str:
    b, lines = s.encode(), []
    for i in range(0, len(b), 45):
        ch = b[i:i + 45]
        enc = []
        for j in range(0, len(ch), 3):
            g = ch[j:j + 3].ljust(3, b"\0")
            n = int.from_bytes(g, "big")
            enc.append("".join(_XX[(n >> sh) & 63] for sh in (18, 12, 6, 0)))
        lines.append(_XX[len(ch)] + "".join(enc))
    return f"begin 644 {name}\n" + "\n".join(lines) + "\n+\nend"


def _unxxe(body: str) -> bytes:
    out = b""
    for line in body.splitlines():
        if not line or line[0] not in _XX:
            continue
        n = _XX.index(line[0])
        bits = [_XX.index(c) for c in line[1:] if c in _XX]
        raw = b""
        for j in range(0, len(bits) - len(bits) % 4, 4):
            v = (bits[j] << 18) | (bits[j + 1] << 12) | (bits[j + 2] << 6) | bits[j + 3]
            raw += v.to_bytes(3, "big")
        out += raw[:n]
    return out


def _ps_enc(cmd: str) -> str:
    return base64.b64encode(cmd.encode("utf-16-le")).decode()


def _qp(text: str) -> str:
    return quopri.encodestring(text.encode("utf-8")).decode("ascii")


def _b64gz(text: str) -> str:
    return base64.b64encode(gzip.compress(text.encode(), mtime=0)).decode()


GHR = "ghr_" + "QA40xxdIarray0aB1cD2eF3gH4iJ5kL6mN7o"                                  # h40_01
GHR_XI = "$ xxd -i gh_refresh\n" + _xxd_i(GHR, "gh_refresh")   # e_xxdi's key (escape)
GHR_PS = ("$ ps -ef | grep pwsh\nqa       4242     1  0 22:10 ?        00:00:01 pwsh -NoProfile "
          "-NonInteractive -EncodedCommand "
          + _ps_enc(f"$env:GH_REFRESH_TOKEN = '{GHR}'; gh auth refresh --hostname github.com"))
LIN = "lin_api_" + "QA40base58Linear0aB1cD2eF3gH4iJ5kL6mN7oP"                          # h40_02
LIN_58 = "tool python3 returned: " + _b58(LIN)
HVS = "hvs." + "CAESIQA40base36VaultTokenX0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF6gH7iJ8k"
HVS_36 = "tool python3 returned: " + _b36(HVS)                                       # h40_03
GHO = "gho_" + "QA40hexdumpSkip0aB1cD2eF3gH4iJ5kL6mN"                                  # h40_04
GHO_HD = "$ hexdump -C -s 16 ~/.config/gh/oauth.bin\n" + _hexdump_cs(GHO)
ASIA = "ASIA" + "QA40ODTX8WORDS7K"                                                    # h40_05
ASIA_TEXT = ("[default]\naws_access_key_id = " + ASIA
             + "\naws_secret_access_key = qa40Odtx8SecretWords0aB1cD2eF3gH4iJ5kL6m\n")
ASIA_OD = "$ od -t x8 ~/.aws/credentials\n" + _od_tx8(ASIA_TEXT)
NPM = "npm_" + "QA40z85ZeroMQ0aB1cD2eF3gH4iJ5kL6mN7o"                                  # h40_06
NPM_85 = "tool python3 returned: " + _z85(NPM)
XAI = "xai-" + "QA40xxencode0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF6gH7iJ8kL9mN0oP1qR2s"
XAI_XX = "$ xxencode xai.key xai.key\n" + _xxe(XAI, "xai.key")                        # h40_07
YA = "ya29." + ("a0QA40quotedPrintable0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF6gH7iJ"
                "8kL9mN0oP1qR2sT3uV4wX5yZ6aB7cD8eF9gH0iJ1kL2mN3oP4q")                # h40_08
YA_QP = ("$ cat ~/Mail/cur/token.eml\nContent-Type: text/plain; charset=utf-8\n"
         "Content-Transfer-Encoding: quoted-printable\n\n"
         + _qp("Résumé de l'accès: le jeton est " + YA + " — valable une heure, é à ç."))
XAPP = "xapp-1-" + "A0QA40B64GZIP-1234567890-0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5e"
XAPP_GZ = ("$ gzip -c ~/.slack/app.json | base64 -w0\n"
           + _b64gz(json.dumps({"app_token": XAPP, "team": "qa40"})))                 # h40_09
for _k, _rx in ((GHR, r"gh[ousr]_[A-Za-z0-9]{36}"), (LIN, r"lin_api_[A-Za-z0-9]{40}"),
                (HVS, r"hv[sb]\.[A-Za-z0-9_\-]{24,256}"), (GHO, r"gh[ousr]_[A-Za-z0-9]{36}"),
                (ASIA, r"(?:ASIA|ABIA|ACCA)[0-9A-Z]{16}"), (NPM, r"npm_[A-Za-z0-9]{36}"),
                (XAI, r"xai-[A-Za-z0-9]{70,90}"), (YA, r"ya29\.[A-Za-z0-9_\-]{30,512}"),
                (XAPP, r"xapp-[0-9]-[A-Za-z0-9\-]{40,160}")):
    assert re.fullmatch(_rx, _k), _k  # each key a whole match of the product's own pattern
assert "=\n" in YA_QP.split(YA[:20])[-1][:80], "the soft break must fall inside the token"
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, GHR, LIN, HVS, GHO, ASIA, NPM, XAI, YA, XAPP,
           GHR_PS.split("-EncodedCommand ")[1][:40], LIN_58[23:63], HVS_36[23:63],
           GHO_HD.split("\n")[1][10:58], ASIA_OD.split("\n")[2][8:], NPM_85[23:63],
           XAI_XX.split("\n")[2][:40], YA[5:40], XAPP_GZ.split("\n")[1][:40]]
WHOLE = (GHR, LIN, HVS, GHO, ASIA, NPM, XAI, YA, XAPP)
SECRET_IDS = tuple(f"h40_0{i}" for i in range(1, 10))


def _honest_events() -> list[dict]:
    ev = h28._events()
    obs = h34._obs(ev)
    obs[0]["data"]["summary"] = ("$ ps -ef | grep pwsh\nqa 4243 1 0 22:11 ? 00:00:00 pwsh "
                                 "-EncodedCommand " + _ps_enc("Get-ChildItem C:\\games | "
                                                               "Sort-Object Name")
                                 + "\n$ od -t x8 note.txt\n"
                                 + _od_tx8("meet at the north tower when the bell rings"))
    obs[1]["data"]["summary"] = ("tool python3 returned: " + _b58("level seven cleared")
                                 + "\ntool python3 returned: " + _b36("score 8100, lives 3")
                                 + "\n$ hexdump -C -s 16 save.bin\n"
                                 + _hexdump_cs("the gauge turns green at dawn, slowly"))
    obs[2]["data"]["summary"] = ("tool python3 returned: " + _z85("the beacon blinks twice!")
                                 + "\n$ xxencode notes.txt notes.txt\n"
                                 + _xxe("level 3: the beacon blinks, then the gate opens\n",
                                        "notes.txt"))
    obs[3]["data"]["summary"] = ("$ cat ~/Mail/cur/hello.eml\nContent-Transfer-Encoding: "
                                 "quoted-printable\n\n"
                                 + _qp("Bonjour! Le niveau est terminé, à bientôt; la clé du "
                                       "château est sous la pierre près de l'entrée, voilà.")
                                 + "\n$ gzip -c level.json | base64 -w0\n"
                                 + _b64gz(json.dumps({"level": 3, "note": "the gate opens"})))
    return ev


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input of the hostile harness."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa40 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    texts = [("h40_01_log_secret_ghr_ps_encoded", 0, GHR_PS),
             ("h40_02_log_secret_linear_base58", 1, LIN_58),
             ("h40_03_log_secret_vault_base36", 2, HVS_36),
             ("h40_04_log_secret_gho_hexdump_skip", 3, GHO_HD),
             ("h40_05_log_secret_asia_od_tx8", 0, ASIA_OD + "\n$ aws sts get-caller-identity"),
             ("h40_06_log_secret_npm_z85", 1, NPM_85),
             ("h40_07_log_secret_xai_xxencode", 2, XAI_XX),
             ("h40_08_log_secret_ya29_quotedprintable", 3, YA_QP),
             ("h40_09_log_secret_xapp_b64gzip", 1, XAPP_GZ)]
    for name, k, text in texts:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    add("h40_10_log_honest_lookalikes", _honest_events())
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


_PROBES = {"h40_01_log_secret_ghr_ps_encoded": ("-EncodedCommand",),
           "h40_02_log_secret_linear_base58": ("tool python3 returned",),
           "h40_03_log_secret_vault_base36": ("tool python3 returned",),
           "h40_04_log_secret_gho_hexdump_skip": ("hexdump -C -s",),
           "h40_05_log_secret_asia_od_tx8": ("od -t x8",),
           "h40_06_log_secret_npm_z85": ("tool python3 returned",),
           "h40_07_log_secret_xai_xxencode": ("begin 644",),
           "h40_08_log_secret_ya29_quotedprintable": ("quoted-printable",),
           "h40_09_log_secret_xapp_b64gzip": ("base64 -w0",),
           "h40_10_log_honest_lookalikes": ("-EncodedCommand", "tool python3",
                                            "quoted-printable")}


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings against the lines holding the spelling (h40_01-
    09); H-f: none on the honest control (h40_10)."""
    import qa_session22 as s22

    out = {}
    for name, parts in _PROBES.items():
        d = root / name
        lines = h34._lines_with(d, parts)
        code, rep, _err = s22._verify(d)
        found = [x for x in rep.get("findings", [])
                 if str(x.get("rule", "")).startswith("secret")]
        got = sorted({x.get("line") for x in found if x.get("line") is not None})
        honest = name.startswith("h40_10")
        out[name[:6]] = {"exit": code, "verdict": rep.get("verdict"), "secret_lines": lines,
                         "warned_lines": got, "rules": sorted({x.get("rule") for x in found}),
                         "met": (not found) if honest else bool(set(lines) & set(got))}
    return {"check": "H-s spelled secrets flagged; H-f honest control not",
            "rows": out, "met": all(v["met"] for v in out.values())}


def _undo40(text: str) -> list[str]:  # noqa: C901 - one decoder a spelling
    """This pass' spellings undone (the leak search): PowerShell's UTF-16LE base64, xxd -i
    arrays, base58 / base36 / Z85
    runs, hexdump -C rows from any offset, od -t x8 words, xxencode bodies, quoted-printable,
    base64 of gzip."""
    out: list[str] = []
    t = text.replace("\\n", "\n")
    for run in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", t):
        with contextlib.suppress(ValueError, binascii.Error):
            out.append(base64.b64decode(run + "=" * (-len(run) % 4)).decode("utf-16-le",
                                                                          "replace"))
    for arr in re.findall(r"\{\s*((?:0x[0-9a-fA-F]{2},?\s*)+)\}", t):
        out.append(bytes(int(x, 16) for x in re.findall(r"0x([0-9a-fA-F]{2})", arr))
                   .decode("latin-1"))
    for run in re.findall(r"[1-9A-HJ-NP-Za-km-z]{20,}", t):
        with contextlib.suppress(ValueError):
            out.append(_unbigint(run, _B58).decode("latin-1"))
    for run in re.findall(r"[0-9a-z]{20,}", t):
        with contextlib.suppress(ValueError):
            out.append(_unbigint(run, _B36).decode("latin-1"))
    for run in re.findall(r"[0-9A-Za-z.\-:+=^!/*?&<>()\[\]{}@%$#]{20,}", t):
        with contextlib.suppress(ValueError):
            out.append(_unz85(run).decode("latin-1"))
    rows = re.findall(r"^[0-9a-f]{8}  ((?:[0-9a-f]{2} {1,2}){1,16})", t, re.M)
    if rows:
        out.append(bytes.fromhex("".join(r.replace(" ", "") for r in rows)).decode("latin-1"))
    words = [w for row in re.findall(r"^[0-7]{7} ((?:[0-9a-f]{16}[ \t]*)+)$", t, re.M)
             for w in row.split()]
    if words:
        out.append("".join(bytes.fromhex(w)[::-1].decode("latin-1") for w in words))
    for run in re.findall(r"begin \d{3} \S+\n(.*?)\nend", t, re.S):
        with contextlib.suppress(ValueError):
            out.append(_unxxe(run).decode("latin-1"))
    out.append(quopri.decodestring(t.encode("utf-8", "replace")).decode("utf-8", "replace"))
    for run in re.findall(r"H4sI[A-Za-z0-9+/=]{8,}", t):
        with contextlib.suppress(ValueError, binascii.Error, OSError, EOFError):
            out.append(gzip.decompress(base64.b64decode(run + "=" * (-len(run) % 4)))
                       .decode("latin-1"))
    return out


def _decodings(text: str) -> list[str]:
    return h39._decodings(text) + _undo40(text)


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    control's file written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h40_*.pub")):
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
        rows[p.name] = sorted(found)
    honest = (root / "h40_10.pub").exists()
    return {"check": "H-a withheld files hold no secret; H-f the honest log published",
            "published": rows, "honest_published": honest,
            "met": not any(v for k, v in rows.items() if k != "h40_10.pub") and honest}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    import subprocess

    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S40-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h40_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


# -- escape-heavy logs, timed (s35's builder and s34's timer with this pass' spellings) ---------
ESCAPE = {"e_xxdi_128mb": 128 << 20, "e_qp_128mb": 128 << 20, "e_b64gz_128mb": 128 << 20}
_ACCENTED = ("été", "forêt", "château", "élève", "où", "déjà", "Ærø", "Größe", "naïve", "ça",
             "señor", "Ελλάδα", "Москва", "über", "crème", "brûlée", "façade", "cœur")


def _escape_text(case: str, rng: random.Random) -> str:
    if case.startswith("e_xxdi"):
        words = " ".join(rng.choice(h34._WORDS) for _ in range(430))
        return "$ xxd -i chapter.txt\n" + _xxd_i(words, "chapter_txt")
    if case.startswith("e_qp"):
        words = " ".join(rng.choice(_ACCENTED) if rng.random() < 0.6 else rng.choice(h34._WORDS)
                         for _ in range(1500))
        return ("$ cat ~/Mail/cur/letter.eml\nContent-Transfer-Encoding: quoted-printable\n\n"
                + _qp(words))
    raw = " ".join(rng.choice(h34._WORDS) + str(rng.randint(0, 10 ** rng.randint(1, 9)))
                   for _ in range(4000))
    return "$ gzip -c notes.txt | base64 -w0\n" + _b64gz(raw)[:16000]


def _escape_key(case: str) -> str:
    return {"e_xxdi": GHR_XI, "e_qp": YA_QP, "e_b64gz": XAPP_GZ}[case.rsplit("_", 1)[0]]


def build_escape(root: Path, case: str) -> dict:
    h35._escape_text, h35._escape_key = _escape_text, _escape_key
    h35.ESCAPE.update(ESCAPE)
    return h35.build_escape(root, case)


def check_escape(root: Path, case: str) -> dict:
    """qa_hostile_s34.check_escape (CPU scaled to 512 MiB against 30 s; the key on the last
    line flagged, not published) on this pass' logs, under s37's 600 s wall (s39's _timed600):
    the leak search knows its spellings."""
    build_escape(root, case)
    h34.build_escape = build_escape
    key = {"e_xxdi": (GHR, GHR_XI.split("\n")[2][2:62]),
           "e_qp": (YA, YA[5:65]),
           "e_b64gz": (XAPP, XAPP_GZ.split("\n")[1][:60])}[case.rsplit("_", 1)[0]]
    h34.TSK, h34.TSK_U = key
    h34._decodings = _decodings
    h34._timed = h39._timed600
    h34.EVAL_SECRET = EVAL_SECRET
    return h34.check_escape(root, case)


# -- the official chain on a held-out payload shape ---------------------------------------------
_BLOCKS = "".join(chr(c) for c in range(0x2580, 0x25A0))
_PKGS = ("numpy", "torch", "ale-py", "opencv-python", "pyav", "zstandard", "orjson", "gym",
         "pillow", "scipy", "tqdm", "rich")


def _bar(rng: random.Random, pct: float, width: int) -> str:
    full = int(pct * width)
    part = rng.choice(_BLOCKS) if full < width else ""
    return "\u2588" * full + part + " " * (width - full - len(part))


def _progressbars_payload(rng: random.Random, size: int) -> dict:
    """A terminal's progress output captured raw: tqdm / pip bars redrawn with `\\r`, spinners
    backed over with `\\b`, block characters U+2580-U+259F (written as `\\uXXXX` by the
    ASCII-only writer, CHAIN_ENCODE40), rates as floats of 1-7 digits; a few numbers apart."""
    out, used = [], 0
    while used < size - 80:
        pkg, total = rng.choice(_PKGS), rng.randint(50, 5000)
        for _ in range(rng.randint(2, 5)):
            done = rng.randint(0, total)
            pct = done / total
            rate = round(rng.uniform(0.1, 900.0), rng.randint(1, 7))
            s = (f"\r{pkg}: {int(pct * 100):3d}%|{_bar(rng, pct, rng.randint(10, 24))}| "
                 f"{done}/{total} [00:{rng.randint(0, 59):02d}<00:{rng.randint(0, 59):02d}, "
                 f"{rate}it/s]")
            if rng.random() < 0.3:
                s += "".join(rng.choice("|/-\\") + "\b" for _ in range(rng.randint(2, 6)))
            out.append(s)
            used += len(s) * 2
    return {"stream": "stderr", "tty": True, "cols": rng.choice((80, 120, 132)),
            "elapsed_s": round(rng.uniform(0, 3600), rng.randint(1, 6)), "out": "".join(out)}


CHAIN_SHAPES40 = {"progressbars": _progressbars_payload}
#: an ASCII-only writer (every non-ASCII character a \\uXXXX escape, \\r and \\b as JSON's
#: short escapes), keys in the generator's order: not canonical (RFC 8785 writes raw UTF-8)
CHAIN_ENCODE40 = {"progressbars": lambda ev: json.dumps(ev, separators=(",", ":")).encode()}


def _chain_install() -> None:
    import qa_session26 as s26
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES40)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE40)


def build_chain40(shape: str) -> Path:
    import qa_session26 as s26
    _chain_install()
    return s26.build_chain(shape)


def check_chain40(shape: str) -> dict:
    import qa_session26 as s26
    _chain_install()
    return s26.check_chain(shape)


def jcs_check40(shape: str, n: int = 2000) -> dict:
    """The chain's truth apart from the product: qa_session35's RFC 8785 writer against the
    product's `canonical_json` on the first n payloads."""
    import qa_session35 as s35
    s35.CHAIN_SHAPES35.update(CHAIN_SHAPES40)
    s35.build_chain35 = lambda s: build_chain40(s)
    return s35.jcs_check(shape, n)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session40 as s40
    run(s40.CACHE, sys.argv[1:])
