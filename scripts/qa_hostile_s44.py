"""Issue 15 classes of session 44's QA pass (docs/qa/session44.md): the classes session 44's
redact / spell / speed engineers work on, each in a spelling or shape no earlier pass, test or
bench used (grep of scripts/, tests/, bench/ at 14:45 UTC: no `hexdump -d`, `hexdump -o`,
`rev`, a Caesar shift but 13 / 18 / 47, base64 of gzip of base64, lzma-alone
(`FORMAT_ALONE`), 60-column base64, `application/zip`, `application/zstd`,
`application/x-bzip2`, a key glued into PHP-escaped base64, `ATATT3` / `ABIA` chance runs,
80-column base64; `od -t o4`, `od --endian=big` and basE91 were found in tests / s41 and
dropped). Each key is asserted a whole match of the product's own pattern (secrets.py /
secrets_read.FAMILIES at 97c1811). Every spelling sits in an OBSERVATION (a tool's output),
which `withhold` keeps public:

- h44_01 Linear key (`lin_api_`) as `hexdump -o` (two-byte little-endian words in zero-padded
  OCTAL, hex offsets: `od -o`'s words in hexdump's layout);
- h44_02 Groq key (`gsk_`) as `hexdump -d` (two-byte UNSIGNED decimal words, zero-padded
  to 5, hex offsets);
- h44_03 Perplexity key (`pplx-`) REVERSED (`rev pplx.env`: the line backwards);
- h44_04 Figma token (`figd_`) as a Caesar shift of 7 on letters (`tr 'A-Za-z'
  'H-ZA-Gh-za-g'`: rot13's family at another n);
- h44_05 Replicate token (`r8_`) as base64 of gzip of base64 (`base64 | gzip | base64`:
  three layers, each a family read);
- h44_06 Supabase token (`sbp_`) in an .env compressed with LZMA-ALONE (`lzma -c`, the .lzma
  container xz replaced), base64'd;
- h44_07 RubyGems key (`rubygems_`) in a gzip'd .env base64'd in 60-column `\\r\\n` lines;
- h44_08 Netlify token (`nfp_`) after 101 KiB of text in a bzip2 stream, base64'd (review s43
  R3's bound held out: past 64 KiB and 100 KiB, in bzip2);
- h44_09 Fly.io token (`fo1_`) in a ZIP (raw deflate behind a local file header) as a
  `data:application/zip;base64,` URI;
- h44_10 Postman key (`PMAK-`) as base32 of zlib (two families, layered);
- h44_11 Anthropic key (`sk-ant-api03-`) glued inside a JPEG's MIME base64 (76 columns,
  `\\r\\n`), a letter either side, the key STRADDLING a line break;
- h44_12 Hugging Face token (`hf_`) glued inside a PNG's base64 printed by PHP's json_encode
  (every `/` written `\\/`: the run cut by backslashes), a letter either side;
- h44_13 OpenAI project key (`sk-proj-`) glued at the END of a GIF's base64, a letter
  before it, `==` padding after;
- h44_14 verify = withhold on compressed data URIs: a Grafana service token (`glsa_`) in
  `data:application/zstd;base64,` (3 KB of noise, the key, 9 KB of noise) and an xAI key
  (`xai-`) in `data:application/x-bzip2;base64,` (the same shape);
- h44_15 honest control: each spelling above of honest text, an honest lzma-alone blob, 1.5 KB
  of random bytes base64'd (an encrypted save), base58 and basE91 of plain text, a zip URI;
- h44_16 honest look-alikes at scale: 240 tool outputs, each holding a key-shaped run by
  construction in the ENCODED text, 60 each: in the MIDDLE of a SMALL blob (600-900 bytes: under
  1 KiB of binary on either side), GLUED after a letter inside 3-6 KiB of base64URL of binary
  (`hf_`, `sk-`, `sk-proj-`, `ghp_`, `npm_`, `glpat-`: the alphabet holds `-` and `_`), across
  a 60-column `\\r\\n` break and across an 80-column `\\n` break (`AIza`, `AKIA`, `ASIA`,
  `ATATT3`, `ABIA`: base64's own alphabet); nothing in the decoded bytes;
- escape (timed alone): e_mime60_128mb (gzip'd mail text, base64 in 60-column `\\r\\n` lines: an
  escape pair every 62 bytes; one line in eight holding a chance run across a break; the key an
  `xai-` key in the last blob, spelled the same way);
- chain: `jsoninjson` (tool outputs that hold JSON text holding JSON text, 2-4 levels: runs of
  `\\\\\\"` and `\\\\\\\\`, written by Python's json.dumps with ensure_ascii, so every non-ASCII
  character is a `\\uXXXX` escape (lower-case hex) and surrogate pairs: the rewrite path).
"""

from __future__ import annotations

import base64
import binascii
import bz2
import contextlib
import gzip
import io
import json
import lzma
import random
import re
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s34 as h34
import qa_hostile_s35 as h35
import qa_hostile_s41 as h41
import qa_hostile_s42 as h42
import qa_hostile_s43 as h43
import zstandard

SAMPLE = h28.SAMPLE
EVAL_SECRET = "qa44-evaluator-secret-7c31"
_ALNUM = h42._ALNUM
_wrapn = h43._wrapn
_HEX = "0123456789abcdef"


def _hexdump_o(b: bytes) -> str:
    """`hexdump -o`: 7-digit hex offsets, eight 2-byte little-endian words a row as 6-digit
    zero-padded OCTAL (each in 6 columns after two spaces), the end offset."""
    n = len(b)
    b = b + b"\0" * (len(b) % 2)
    rows = []
    for i in range(0, len(b), 16):
        ws = [struct.unpack("<H", b[j:j + 2])[0] for j in range(i, min(i + 16, len(b)), 2)]
        rows.append(f"{i:07x}" + "".join(f"  {w:06o}" for w in ws))
    return "\n".join([*rows, f"{n:07x}"])


def _un_hexdump_o(t: str) -> bytes:
    out = bytearray()
    for line in t.splitlines():
        parts = line.split()
        if len(parts) > 1 and all(re.fullmatch(r"[0-7]{6}", p) for p in parts[1:]):
            for p in parts[1:]:
                out += struct.pack("<H", int(p, 8) & 0xFFFF)
    return bytes(out)


def _hexdump_d(b: bytes) -> str:
    """`hexdump -d`: 7-digit hex offsets, eight 2-byte little-endian words a row as 5-digit
    zero-padded unsigned decimals (each in 8 columns), the end offset."""
    n = len(b)
    b = b + b"\0" * (len(b) % 2)
    rows = []
    for i in range(0, len(b), 16):
        ws = [struct.unpack("<H", b[j:j + 2])[0] for j in range(i, min(i + 16, len(b)), 2)]
        rows.append(f"{i:07x}" + "".join(f"   {w:05d}" for w in ws))
    return "\n".join([*rows, f"{n:07x}"])


def _un_hexdump_d(t: str) -> bytes:
    out = bytearray()
    for line in t.splitlines():
        parts = line.split()
        if len(parts) > 1 and all(re.fullmatch(r"\d{5}", p) for p in parts[1:]):
            for p in parts[1:]:
                out += struct.pack("<H", int(p))
    return bytes(out)


def _caesar(t: str, n: int) -> str:
    out = []
    for c in t:
        if "a" <= c <= "z":
            out.append(chr((ord(c) - 97 + n) % 26 + 97))
        elif "A" <= c <= "Z":
            out.append(chr((ord(c) - 65 + n) % 26 + 65))
        else:
            out.append(c)
    return "".join(out)


def _lzma_alone(b: bytes) -> bytes:
    return lzma.compress(b, format=lzma.FORMAT_ALONE)


def _zip_of(name: str, b: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo(name, date_time=(2026, 12, 7, 14, 45, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, b)
    return buf.getvalue()


def _b58(b: bytes) -> str:
    alph = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    n, out = int.from_bytes(b, "big"), ""
    while n:
        n, r = divmod(n, 58)
        out = alph[r] + out
    return "1" * (len(b) - len(b.lstrip(b"\0"))) + out


def _glue_at(enc: str, at: int, key: str, rng: random.Random) -> str:
    """`key` written over `enc` at `at`, a lower-case letter right before and after it."""
    return enc[:at - 1] + rng.choice("bcdfghkmnpqr") + key + rng.choice("bcdfghkmnpqr") + \
        enc[at + len(key) + 1:]


_r = random.Random("h44-keys")


def _rand(alph: str, n: int) -> str:
    return "".join(_r.choice(alph) for _ in range(n))


LIN = "lin_api_" + "QA44hexdumpOLin" + _rand(_ALNUM, 25)                                    # 01
LIN_X = "$ hexdump -o linear.env\n" + _hexdump_o(("LINEAR_API_KEY=" + LIN + "\n").encode())
GSK = "gsk_" + "QA44hexdumpD" + _rand(_ALNUM, 38)                                          # 02
GSK_X = "$ hexdump -d groq.env\n" + _hexdump_d(("GROQ_API_KEY=" + GSK + "\n").encode())
PPLX = "pplx-" + "QA44revReversedKey" + _rand(_ALNUM, 30)                                  # 03
PPLX_X = "$ rev pplx.env\n" + ("PPLX_API_KEY=" + PPLX)[::-1]
FIGD = "figd_" + "QA44caesar7Figma" + _rand(_ALNUM + "_-", 24)                            # 04
FIGD_C = "$ tr 'A-Za-z' 'H-ZA-Gh-za-g' < figma.env\n" + _caesar("FIGMA_TOKEN=" + FIGD, 7)
R8 = "r8_" + "QA44b64gzipB64Repl" + _rand(_ALNUM, 19)                                      # 05
R8_91 = ("$ base64 replicate.env | gzip -c | base64 -w0\n"
         + base64.b64encode(gzip.compress(base64.b64encode(
             ("REPLICATE_API_TOKEN=" + R8 + "\n").encode()) + b"\n", mtime=0)).decode())
SBP = "sbp_" + "".join(_r.choice(_HEX) for _ in range(40))                                 # 06
SBP_L = ("$ lzma -c supabase.env | base64 -w0\n"
         + base64.b64encode(_lzma_alone(("SUPABASE_ACCESS_TOKEN=" + SBP + "\n").encode()))
         .decode())
RUBY = "rubygems_" + "".join(_r.choice(_HEX) for _ in range(48))                           # 07
RUBY_G = ("$ gzip -c gem.env | base64 -w 60 | unix2dos\n"
          + _wrapn(base64.b64encode(gzip.compress(
              ("GEM_HOST_API_KEY=" + RUBY + "\nGEM_HOST=https://rubygems.org\n").encode(),
              mtime=0)).decode(), 60, "\r\n"))
NFP = "nfp_" + "QA44bzip2past96k" + _rand(_ALNUM, 20)                                      # 08
_PAD96 = "".join(f"frame {i:05d}: the tide turns under the drops, the gem is gray\n"
                 for i in range(1700))
assert len(_PAD96) > 96 * 1024
NFP_B = ("tool python3 returned: "
         + base64.b64encode(bz2.compress((_PAD96 + "NETLIFY_AUTH_TOKEN=" + NFP + "\n").encode()))
         .decode())
FO1 = "fo1_" + "QA44zipDataUri" + _rand(_ALNUM + "_-", 29)                                 # 09
FO1_Z = ("$ export-config --zip --base64\ndata:application/zip;base64,"
         + base64.b64encode(_zip_of("fly.env", ("FLY_API_TOKEN=" + FO1 + "\n").encode()))
         .decode())
PMAK = "PMAK-" + "".join(_r.choice(_HEX) for _ in range(24)) + "-" + \
    "".join(_r.choice(_HEX) for _ in range(34))                                            # 10
PMAK_Z = ("$ zlib-flate -compress < postman.env | base32 -w0\n"
          + base64.b32encode(zlib.compress(("POSTMAN_API_KEY=" + PMAK + "\n").encode(), 9))
          .decode())
ANT = "sk-ant-api03-" + "QA44gluedMime76" + _rand(_ALNUM + "_-", 70) + "AA"                # 11
_J11 = base64.b64encode(h42._jpegs(1, "h44_11", w=96, h=64)[0]).decode()
_A11 = 700 - len(ANT) // 2        # the key straddles the break after column 76 * 9 = 684
ANT_G = ("$ screenshot --format jpeg | base64 --wrap=76 | unix2dos\n"
         + h42._wrap76(_glue_at(_J11, _A11, ANT, random.Random("h44_11")), "\r\n"))
HF = "hf_" + "QA44gluedPhpSlashes" + _rand(_ALNUM, 15)                                    # 12
_P12 = base64.b64encode(h43._pngs(1, "h44_12", w=48, h=40)[0]).decode()
HF_G = ("$ php -r 'echo json_encode([\"frame\" => 812, \"png\" => base64_encode($png)]);'\n"
        + '{"frame":812,"png":"'
        + _glue_at(_P12, 1400, HF, random.Random("h44_12")).replace("/", "\\/") + '"}')
SKP = "sk-proj-" + "QA44gluedGifEnd" + _rand(_ALNUM + "_-", 33)                           # 13
_G13 = base64.b64encode(h43._gifs(1, "h44_13")[0] + b"\0\0").decode()
assert _G13.endswith("=")
_G13 = _G13.rstrip("=")
SKP_G = ("$ screenshot --base64 --format gif --window game\ndata:image/gif;base64,"
         + _G13[:-len(SKP) - 1] + "m" + SKP + "==")
GLSA = "glsa_" + "QA44zstdDataUri" + _rand(_ALNUM, 17) + "_" + "".join(
    _r.choice(_HEX) for _ in range(8))                                                     # 14
XAI = "xai-" + "QA44bzip2DataUri" + _rand(_ALNUM, 64)
_r14 = random.Random("h44_14")
URI_14 = ("$ state-dump --zstd --base64\ndata:application/zstd;base64,"
          + base64.b64encode(zstandard.ZstdCompressor(level=3).compress(
              _r14.randbytes(3000) + b"\nGRAFANA_SA_TOKEN=" + GLSA.encode() + b"\n"
              + _r14.randbytes(9000))).decode()
          + "\n$ state-dump --bzip2 --base64\ndata:application/x-bzip2;base64,"
          + base64.b64encode(bz2.compress(_r14.randbytes(3000) + b"\nXAI_API_KEY="
                                          + XAI.encode() + b"\n" + _r14.randbytes(9000)))
          .decode())
for _k, _rx in ((LIN, r"lin_api_[A-Za-z0-9]{40}"), (GSK, r"gsk_[A-Za-z0-9]{48,52}"),
                (PPLX, r"pplx-[A-Za-z0-9]{48}"), (FIGD, r"figd_[A-Za-z0-9_\-]{40}"),
                (R8, r"r8_[A-Za-z0-9]{37}"), (SBP, r"sbp_[a-f0-9]{40}"),
                (RUBY, r"rubygems_[a-f0-9]{48}"), (NFP, r"nfp_[A-Za-z0-9]{36}"),
                (FO1, r"fo1_[A-Za-z0-9_\-]{43}"), (PMAK, r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
                (ANT, r"sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_\-]{20,}"),
                (HF, r"hf_[A-Za-z0-9]{30,}"), (SKP, r"sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_\-]{20,}"),
                (GLSA, r"glsa_[A-Za-z0-9_]{32,64}"), (XAI, r"xai-[A-Za-z0-9]{70,90}")):
    assert re.fullmatch(_rx, _k), _k  # each key a whole match of the product's own pattern
assert _un_hexdump_o(LIN_X.split("\n", 1)[1]).rstrip(b"\0").decode().endswith(LIN + "\n")
assert PPLX[::-1] in PPLX_X and PPLX not in PPLX_X
assert GSK.encode() in _un_hexdump_d(GSK_X.split("\n", 1)[1])
assert _caesar(_caesar(FIGD, 7), 19) == FIGD and FIGD not in FIGD_C
assert ANT in ANT_G.replace("\r\n", "") and ANT not in ANT_G
assert HF in HF_G and SKP in SKP_G and HF_G.count("\\/") > 20
WHOLE = (LIN, GSK, PPLX, FIGD, R8, SBP, RUBY, NFP, FO1, PMAK, ANT, HF, SKP, GLSA, XAI)
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, *WHOLE, LIN_X.split("\n")[1][:40], GSK_X.split("\n")[1][:40],
           PPLX_X.split("\n")[1][:40], FIGD_C.split("\n")[1][:40], R8_91.split("\n")[1][:40],
           SBP_L.split("\n")[1][:40], RUBY_G.split("\n")[1][:40], NFP_B[-40:],
           FO1_Z.split(",")[1][:40], PMAK_Z.split("\n")[1][:40],
           LIN[8:40], GSK[4:36], PPLX[5:37], FIGD[5:37], R8[3:35], SBP[4:36], RUBY[9:41],
           NFP[4:36], FO1[4:36], PMAK[5:29], ANT[13:45], ANT[-32:], HF[3:35], SKP[8:40],
           GLSA[5:37], XAI[4:36]]


# -- honest look-alikes ------------------------------------------------------------------------
_STD = (("AIza", 35), ("AKIA", 16), ("ASIA", 16), ("ATATT3", 110), ("ABIA", 16))
_URL = (("hf_", 34), ("sk-", 40), ("sk-proj-", 48), ("ghp_", 36), ("npm_", 36),
        ("glpat-", 24))
_PLACES44 = ("small", "glued", "break60", "break80")
_B64 = _ALNUM + "+/"
_B64URL = _ALNUM + "-_"


def _chance_run(rng: random.Random, prefix: str, n: int, alph: str) -> str:
    tail = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" if prefix in ("AKIA", "ASIA", "ABIA") else alph
    return prefix + "".join(rng.choice(tail) for _ in range(n))


def chance_text(rng: random.Random, k: int, place: str, blob: bytes) -> tuple[str, str]:
    """(tool output, run): a chance key-shaped run written over the ENCODED text of honest
    binary data. small: the middle of a 600-900 byte blob's base64 (under 1 KiB either side);
    glued: after a letter inside base64URL of 3-6 KiB (a letter after it too); break60 /
    break80: straddling a break of 60-column `\\r\\n` / 80-column `\\n` wrapping."""
    if place == "glued":
        prefix, n = _URL[k % len(_URL)]
        run = _chance_run(rng, prefix, n, _ALNUM)
        enc = base64.urlsafe_b64encode(blob).decode().rstrip("=")
        at = rng.randint(len(enc) // 4, len(enc) * 3 // 4)
        enc = _glue_at(enc, at, run, rng)
        return '$ grab --raw --b64url\n{"state_b64url": "' + enc + '"}', run
    prefix, n = _STD[k % len(_STD)]
    run = _chance_run(rng, prefix, n, _B64)
    enc = base64.b64encode(blob).decode()
    if place == "small":
        at = len(enc) // 2 - len(run) // 2
        enc = enc[:at] + run + enc[at + len(run):]
        return "$ grab --raw --base64 --region 12x9\n" + enc, run
    width, eol = (60, "\r\n") if place == "break60" else (80, "\n")
    line = rng.randint(2, max(2, len(enc) // width - 2))
    at = line * width - len(run) // 2
    enc = enc[:at] + run + enc[at + len(run):]
    tool = ("$ gzip -c frame.raw | base64 -w 60 | unix2dos\n" if width == 60
            else "$ gzip -c frame.raw | base64 -w 80\n")
    return tool + _wrapn(enc, width, eol), run


def _honest_events() -> list[dict]:
    ev = h28._events()
    obs = h34._obs(ev)
    hr = random.Random("h44_15")
    obs[0]["data"]["summary"] = (
        "$ hexdump -o notes.txt\n" + _hexdump_o(b"the gem turns gray when the tide comes in\n")
        + "\n$ hexdump -d level.txt\n" + _hexdump_d(b"level 4: the dial has six colours\n")
        + "\n$ rev hint.txt\n" + "press FIRE at 0:17, then UP twice"[::-1]
        + "\n$ tr 'A-Za-z' 'H-ZA-Gh-za-g' < hint.txt\n" + _caesar("press UP twice, then FIRE", 7))
    obs[1]["data"]["summary"] = (
        "$ base64 title.txt | gzip -c | base64 -w0\n" + base64.b64encode(gzip.compress(
            base64.b64encode(b"Synth Tide, level 4: the green dip"), mtime=0)).decode()
        + "\n$ lzma -c notes.txt | base64 -w0\n"
        + base64.b64encode(_lzma_alone(b"the drops come back after 22 s\n" * 5)).decode()
        + "\n$ gzip -c notes.txt | base64 -w 60 | unix2dos\n"
        + _wrapn(base64.b64encode(gzip.compress(b"a grey pause at 12 s, green at 17 s\n" * 9,
                                                mtime=0)).decode(), 60, "\r\n"))
    obs[2]["data"]["summary"] = (
        "tool python3 returned: "
        + base64.b64encode(bz2.compress((_PAD96 + "DONE\n").encode())).decode()
        + "\n$ export-config --zip --base64\ndata:application/zip;base64,"
        + base64.b64encode(_zip_of("game.ini", b"[game]\nlevel = 4\nlives = 3\n")).decode()
        + "\n$ zlib-flate -compress < level.txt | base32 -w0\n"
        + base64.b32encode(zlib.compress(b"level four, dial at six", 9)).decode())
    obs[3]["data"]["summary"] = (
        "$ save-state --encrypted --base64\n" + base64.b64encode(hr.randbytes(1536)).decode()
        + "\n$ base58 < seed-phrase-hint.txt\n" + _b58(b"the tide is high, the gem is green")
        + "\n$ state-dump --zstd --base64\ndata:application/zstd;base64,"
        + base64.b64encode(zstandard.ZstdCompressor(level=3).compress(hr.randbytes(12000)))
        .decode())
    return ev


def _chance_events() -> list[dict]:
    """h44_16: 240 observations, each a chance key-shaped run (chance_text's places)."""
    from datetime import datetime, timedelta

    from moderator_app.core.samples.community import format_at

    ev = h28._events()
    rng = random.Random("h44_16")
    head = [e for e in ev if e["type"] == "run_start"]
    tail = [e for e in ev if e["type"] == "run_end"]
    t0 = datetime.fromisoformat(head[0]["at"].replace("Z", "+00:00")) - timedelta(
        milliseconds=head[0]["elapsedMs"])
    body, at, seq = [], head[0]["elapsedMs"] + 100, head[0]["seq"] + 1
    runs = []
    for k in range(240):
        place = _PLACES44[k % 4]
        if place == "small":
            blob = rng.randbytes(rng.randint(600, 900))
        elif place == "glued":
            blob = rng.randbytes(rng.randint(3072, 6144))
        else:
            blob = gzip.compress(rng.randbytes(rng.randint(1500, 3000)), 1, mtime=0)
        text, run = chance_text(rng, k // 4, place, blob)
        runs.append((run[:6], place, run))
        body.append({"seq": seq, "at": format_at(t0 + timedelta(milliseconds=at)),
                     "elapsedMs": at, "type": "observation", "data": {"summary": text}})
        seq, at = seq + 1, at + 10
    for e in tail:
        e["seq"] = seq
        e["elapsedMs"] = at + 10
        e["at"] = format_at(t0 + timedelta(milliseconds=at + 10))
    _CHANCE_RUNS[:] = runs
    return [*head, *body, *tail]


_CHANCE_RUNS: list = []


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input of the hostile harness."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa44 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    texts = [("h44_01_log_secret_linear_hexdump_o", 0, LIN_X),
             ("h44_02_log_secret_groq_hexdump_d", 1, GSK_X),
             ("h44_03_log_secret_pplx_rev", 2, PPLX_X),
             ("h44_04_log_secret_figma_caesar7", 3, FIGD_C),
             ("h44_05_log_secret_r8_b64_gzip_b64", 0, R8_91),
             ("h44_06_log_secret_sbp_lzma_alone", 1, SBP_L),
             ("h44_07_log_secret_rubygems_gzip60crlf", 2, RUBY_G),
             ("h44_08_log_secret_nfp_bzip2_past96k", 3, NFP_B),
             ("h44_09_log_secret_fo1_zip_datauri", 0, FO1_Z),
             ("h44_10_log_secret_pmak_base32_zlib", 1, PMAK_Z),
             ("h44_11_log_secret_skant_glued_mime76_break", 2, ANT_G),
             ("h44_12_log_secret_hf_glued_php_slashes", 3, HF_G),
             ("h44_13_log_secret_skproj_glued_gif_end", 0, SKP_G),
             ("h44_14_log_secret_zstd_bzip2_datauris", 1, URI_14)]
    for name, k, text in texts:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    add("h44_15_log_honest_lookalikes", _honest_events())
    add("h44_16_log_honest_chance_small_glued_breaks", _chance_events())
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


_PROBES = {"h44_01_log_secret_linear_hexdump_o": ("hexdump -o",),
           "h44_02_log_secret_groq_hexdump_d": ("hexdump -d",),
           "h44_03_log_secret_pplx_rev": ("$ rev",),
           "h44_04_log_secret_figma_caesar7": ("H-ZA-Gh-za-g",),
           "h44_05_log_secret_r8_b64_gzip_b64": ("| gzip -c | base64",),
           "h44_06_log_secret_sbp_lzma_alone": ("lzma -c",),
           "h44_07_log_secret_rubygems_gzip60crlf": ("base64 -w 60",),
           "h44_08_log_secret_nfp_bzip2_past96k": ("tool python3 returned",),
           "h44_09_log_secret_fo1_zip_datauri": ("application/zip",),
           "h44_10_log_secret_pmak_base32_zlib": ("base32 -w0",),
           "h44_11_log_secret_skant_glued_mime76_break": ("--wrap=76",),
           "h44_12_log_secret_hf_glued_php_slashes": ("json_encode",),
           "h44_13_log_secret_skproj_glued_gif_end": ("image/gif;base64",),
           "h44_14_log_secret_zstd_bzip2_datauris": ("application/zstd",),
           "h44_15_log_honest_lookalikes": ("hexdump -o", "| gzip -c | base64", "python3", "encrypted"),
           "h44_16_log_honest_chance_small_glued_breaks": ("grab", "gzip")}


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings (any severity) against the lines holding the
    spelling; H-f: no secret finding of severity error or warning on the honest controls.
    Also each finding's line, severity and rule (the verify = withhold check reads them)."""
    import qa_session22 as s22

    out = {}
    for name, parts in _PROBES.items():
        d = root / name
        lines = h34._lines_with(d, parts)
        code, rep, _err = s22._verify(d)
        found = [x for x in rep.get("findings", [])
                 if str(x.get("rule", "")).startswith("secret")]
        strong = [x for x in found if x.get("severity") in ("error", "warning")]
        got = sorted({x.get("line") for x in found if x.get("line") is not None})
        strong_lines = sorted({x.get("line") for x in strong if x.get("line") is not None})
        honest = "honest" in name
        out[name[:6]] = {"exit": code, "verdict": rep.get("verdict"), "secret_lines": lines[:8],
                         "warned_lines": got[:12], "strong_lines": strong_lines[:60],
                         "n_strong": len(strong), "n_found": len(found),
                         "severities": sorted({str(x.get("severity")) for x in found}),
                         "rules": sorted({x.get("rule") for x in found}),
                         "labels": sorted({str(x.get("message", ""))[:90] for x in found})[:6],
                         "met": (not strong) if honest else bool(set(lines) & set(got))}
    if _CHANCE_RUNS or (root / "h44_16_log_honest_chance_small_glued_breaks").exists():
        if not _CHANCE_RUNS:
            _chance_events()
        strong16 = set(out["h44_16"]["strong_lines"])
        by_place: dict[str, int] = {}
        for i, (_p, place, _run) in enumerate(_CHANCE_RUNS):
            # the body's first observation is line head + 1 (1-based: the run_start lines)
            if (i + 1 + _HEAD_LINES) in strong16:
                by_place[place] = by_place.get(place, 0) + 1
        out["h44_16"]["strong_by_place"] = by_place
    return {"check": "H-s spelled secrets flagged; H-f honest controls not",
            "rows": out, "met": all(v["met"] for v in out.values())}


_HEAD_LINES = 1


def _undo44(text: str) -> list[str]:  # noqa: C901 - one decoder a spelling
    """This pass' spellings undone (the leak search)."""
    out: list[str] = []
    t = text.replace("\\n", "\n").replace("\\r", "\r")
    out.append(_un_hexdump_o(t).decode("latin-1"))
    out.append(t[::-1])
    out.append(_un_hexdump_d(t).decode("latin-1"))
    out.append(_caesar(t, 19))
    joined = re.sub(r"([A-Za-z0-9+/]{60}|[A-Za-z0-9+/]{76}|[A-Za-z0-9+/]{80})\r?\n"
                    r"(?=[A-Za-z0-9+/])", r"\1", t)
    runs = re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", joined) + re.findall(
        r"[A-Za-z0-9_\-]{16,}", joined)
    for run in runs:
        for dec in (base64.b64decode, base64.urlsafe_b64decode):
            with contextlib.suppress(ValueError, binascii.Error):
                raw = dec(run + "=" * (-len(run) % 4))
                out.append(raw.decode("latin-1"))
                for undo in (bz2.decompress, gzip.decompress, zlib.decompress, lzma.decompress,
                             lambda x: zstandard.ZstdDecompressor().decompress(x, 1 << 20),
                             lambda x: zipfile.ZipFile(io.BytesIO(x)).read(
                                 zipfile.ZipFile(io.BytesIO(x)).namelist()[0])):
                    with contextlib.suppress(Exception):
                        out.append(undo(raw).decode("latin-1"))
    for run in re.findall(r"[A-Z2-7]{16,}=*", t):
        with contextlib.suppress(ValueError, binascii.Error, zlib.error):
            out.append(zlib.decompress(base64.b32decode(run)).decode("latin-1"))
    return out


def _decodings(text: str) -> list[str]:
    return h43._decodings(text) + _undo44(text)


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    controls' files written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h44_*.pub")):
        body = p.read_text("utf-8", "replace")
        strs: list[str] = []
        for line in body.splitlines():
            try:
                strs += _strings(json.loads(line))
            except (ValueError, RecursionError):
                continue
        joined = "".join(strs)
        texts = [body, "\n".join(strs), joined, *_decodings(joined), *_decodings(body),
                 *_decodings("\n".join(strs))]
        found = {s for s in SECRETS if any(s in x for x in texts)}
        rows[p.name] = sorted(found)
    honest = {n: (root / n).exists() for n in ("h44_15.pub", "h44_16.pub")}
    return {"check": "H-a withheld files hold no secret; H-f the honest logs published",
            "published": rows, "honest_published": honest,
            "met": not any(v for k, v in rows.items() if k not in honest)
            and all(honest.values())}


def _strings(v) -> list[str]:
    import qa_hostile_s33 as h33
    return h33._strings(v)


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S44-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h44_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


# -- escape-heavy log, timed (s35's builder and s34's timer with this pass' spelling) ----------
ESCAPE = {"e_mime60_128mb": 128 << 20}
XAI2 = "xai-" + "QA44mime60EscapeKey" + "".join(random.Random("xai2").choice(_ALNUM)
                                                  for _ in range(60))
assert re.fullmatch(r"xai-[A-Za-z0-9]{70,90}", XAI2)


def _escape_text(case: str, rng: random.Random) -> str:
    body = gzip.compress(h42._mime_text(rng, 9000).encode(), 6, mtime=0)
    enc = base64.b64encode(body).decode()
    if rng.random() < 0.125:
        prefix, n = _STD[rng.randrange(len(_STD))]
        run = _chance_run(rng, prefix, n, _B64)
        line = rng.randint(2, max(2, len(enc) // 60 - 2))
        at = line * 60 - len(run) // 2
        enc = enc[:at] + run + enc[at + len(run):]
    return "$ gzip -c mail.txt | base64 -w 60 | unix2dos\n" + _wrapn(enc, 60, "\r\n")


def _mime60_key_b64() -> str:
    return base64.b64encode(gzip.compress(("XAI_API_KEY=" + XAI2 + "\n").encode(), 6,
                                          mtime=0)).decode()


def _escape_key(case: str) -> str:
    return _wrapn(_mime60_key_b64(), 60, "\r\n")


def build_escape(root: Path, case: str) -> dict:
    h35._escape_text, h35._escape_key = _escape_text, _escape_key
    h35.ESCAPE.update(ESCAPE)
    return h35.build_escape(root, case)


def check_escape(root: Path, case: str) -> dict:
    """qa_hostile_s34.check_escape (CPU scaled to 512 MiB against 30 s; the key on the last
    line flagged, not published) under s37's 600 s wall, verify's whole report kept (s42's
    _timed_full), every line `verify` flags recorded."""
    build_escape(root, case)
    h34.build_escape = build_escape
    h34.TSK, h34.TSK_U = XAI2, _mime60_key_b64()
    h34._decodings = _decodings_tail
    h34._timed = h42._timed_full
    h34.EVAL_SECRET = EVAL_SECRET
    return h34.check_escape(root, case)


def _decodings_tail(text: str) -> list[str]:
    return h41._decodings_png(text) + _undo44(text)


# -- the official chain on a held-out payload shape ---------------------------------------------
_WORDS = ("tide", "gem", "dial", "drop", "Łódź", "żółw", "naïve", "café", "東京", "データ",
          "🌊", "💎", "𝔤𝔢𝔪", "ok", "error", "path", "C:\\games\\tide", "\"quoted\"")


def _jsoninjson_payload(rng: random.Random, size: int) -> dict:
    """A tool whose output is JSON text that holds JSON text (2-4 levels): each level doubles
    the backslashes before every quote; the words are half non-ASCII (Polish, Japanese,
    emoji, mathematical letters beyond the BMP)."""
    def leaf() -> dict:
        return {rng.choice(("name", "msg", "path", "note")): " ".join(
            rng.choice(_WORDS) for _ in range(rng.randint(2, 6))),
            "n": rng.randint(0, 9999)}

    out, used = [], 0
    while used < size - 120:
        v: object = {"items": [leaf() for _ in range(rng.randint(1, 3))]}
        for _ in range(rng.randint(2, 4)):
            v = {"stdout": json.dumps(v, ensure_ascii=False), "exit": 0}
        out.append(v)
        used += len(json.dumps(v))
    return {"tool": "jq -c .", "results": out}


CHAIN_SHAPES44 = {"jsoninjson": _jsoninjson_payload}
CHAIN_ENCODE44 = {"jsoninjson": lambda ev: json.dumps(ev, separators=(",", ":"),
                                                      sort_keys=True).encode()}


def _chain_install() -> None:
    import qa_session26 as s26
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES44)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE44)


def build_chain44(shape: str) -> Path:
    import qa_session26 as s26
    _chain_install()
    return s26.build_chain(shape)


def check_chain44(shape: str) -> dict:
    import qa_session26 as s26
    _chain_install()
    return s26.check_chain(shape)


def jcs_check44(shape: str, n: int = 2000) -> dict:
    """The chain's truth apart from the product: qa_session35's RFC 8785 writer against the
    product's `canonical_json` on the first n payloads."""
    import qa_session35 as s35
    s35.CHAIN_SHAPES35.update(CHAIN_SHAPES44)
    s35.build_chain35 = lambda s: build_chain44(s)
    return s35.jcs_check(shape, n)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session44 as s44
    run(s44.CACHE, sys.argv[1:])
