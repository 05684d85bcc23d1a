"""Issue 15 classes of session 43's QA pass (docs/qa/session43.md): the classes session 43's
redact / spell / speed engineers work on, each in a spelling or shape no earlier pass, test or
bench used (grep of scripts/, tests/, bench/ at 10:47 UTC: no `od -t o2`, `od -t d2`, rot18,
UTF-32BE, base64 of bzip2 (`QlpoOTFBWSZT`), base64 of zstd (`KLUv/`), 64-column base64,
UTF-7, base64 of a hex string, `image/gif`, `X-Amz-Credential`, `blob.core.windows.net`,
`s3.amazonaws.com`). Each key is asserted a whole match of the product's own pattern
(secrets.py / secrets_read.FAMILIES at 7f3538f). Every spelling sits in an OBSERVATION (a
tool's output), which `withhold` keeps public:

- h43_01 GitLab runner token (`glrt-`) as `od -A x -t o2` (2-byte little-endian words in
  OCTAL, hex offsets: the word family in a third radix);
- h43_02 Stripe restricted key (`rk_live_`) as `od -A d -t d2` (2-byte words as SIGNED
  decimals: negative numbers for bytes >= 0x80 in the high byte; none here, but the sign
  column is od's);
- h43_03 Google OAuth token (`ya29.`) as rot18 (rot13 on letters AND rot5 on digits);
- h43_04 npm token (`npm_`) in text converted to UTF-32 with a BOM, BIG-endian (`iconv -t
  UTF-32`, glibc's default), base64'd;
- h43_05 Docker token (`dckr_pat_`) in an .env compressed with bzip2, base64'd;
- h43_06 PyPI token (`pypi-AgE`) in a config compressed with zstd, base64'd;
- h43_07 Slack app token (`xapp-`) in a gzip'd .env base64'd in 64-column lines (openssl
  base64 / PEM's width, `\\n` ends);
- h43_08 GitHub OAuth token (`gho_`) after 8 KiB of text in a zlib stream, base64'd (the
  inflate bound: a key past the first 4 KiB of the inflated text);
- h43_09 SendGrid key (`SG.`) in a GIF's COMMENT EXTENSION (21 FE), the GIF as a
  `data:image/gif;base64,` URI (a key IN the decoded bytes, LZW binary around it);
- h43_10 GitHub user token (`ghu_`) in UTF-7 (`iconv -t UTF-7`: `_` written `+AF8-`);
- h43_11 Vault batch token (`hvb.`) as base64 of its hex (`xxd -p | base64 -w0`);
- h43_12 AWS key id (`AKIA`) glued inside base64 between runs of `A` (a black BMP's zero
  bytes, base64'd: capitals on both sides, so the key's own look-arounds fail);
- h43_13 GitHub refresh token (`ghr_`) glued into the standard base64 of a GIF data URI (a
  lower-case letter before and after, 300 characters of the GIF's base64 before it);
- h43_14 keys in URLs: an `AKIA` id in a presigned URL's `X-Amz-Credential=` (`%2F` after
  it), an `ASIA` id glued inside an S3 virtual-hosted path token, an `AIza` key glued inside an
  Azure blob path segment: still refused;
- h43_15 honest control: each spelling above of honest text, an honest GIF comment;
- h43_16 honest look-alikes at scale: 240 tool outputs (GIF / PNG data URIs, 64-column and
  72-column wrapped base64 of gzip), each holding a key-shaped run by chance in the ENCODED
  text (`AIza`, `AKIA`, `ASIA`, `ghp_`, `github_pat_`, `xoxb-`, `glpat-`, `npm_`, `hf_`,
  `sk-`), placed at the blob's FIRST characters (right after `;base64,` or the tool's line
  end), at its LAST characters (the run ending the blob, before `=` padding or none), or
  STRADDLING a line break of the 64 / 72-column wrapping: nothing in the decoded bytes;
- escape (timed alone): e_gif64_128mb (~16 KiB lines of `data:image/gif;base64,` screenshots of
  noise, one line in eight holding a chance `AIza` / `AKIA` / `ASIA` run at the blob's first
  or last characters; the key a SendGrid key in the last GIF's comment extension) and
  e_pem64_128mb (openssl base64 of gzip'd text in 64-column `\\n` lines, one line in eight
  holding a chance run straddling a break; the key a `pypi-AgE` token in the last blob);
- chain: `ttyspinner` (terminal captures of spinners and progress drawn with BACKSPACES,
  bells, form feeds, ESC sequences and DEL, written as Go's encoder with HTML escaping off
  writes them: `\\u0008`, `\\u0007`, `\\u000c`, `\\u001b` in lower-case hex, `\\n \\r \\t` short,
  DEL raw; RFC 8785 writes `\\b` and `\\f` short: every line on the rewrite path).
"""

from __future__ import annotations

import base64
import binascii
import bz2
import contextlib
import gzip
import json
import random
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s33 as h33
import qa_hostile_s34 as h34
import qa_hostile_s35 as h35
import qa_hostile_s41 as h41
import qa_hostile_s42 as h42
import zstandard

SAMPLE = h28.SAMPLE
EVAL_SECRET = "qa43-evaluator-secret-5e19"
_ALNUM = h42._ALNUM
_wrap = h42._wrap76


def _wrapn(s: str, n: int, eol: str = "\n") -> str:
    return eol.join(s[i:i + n] for i in range(0, len(s), n))


def _od_o2(b: bytes) -> str:
    """`od -A x -t o2`: 6-digit hex offsets, eight 2-byte little-endian words a row in 6-digit
    octal, the end offset."""
    n = len(b)
    b = b + b"\0" * (len(b) % 2)
    rows = []
    for i in range(0, len(b), 16):
        ws = [struct.unpack("<H", b[j:j + 2])[0] for j in range(i, min(i + 16, len(b)), 2)]
        rows.append(f"{i:06x}" + "".join(f" {w:06o}" for w in ws))
    return "\n".join([*rows, f"{n:06x}"])


def _un_od_o2(t: str) -> bytes:
    out = bytearray()
    for line in t.splitlines():
        parts = line.split()
        if len(parts) > 1 and all(re.fullmatch(r"[0-7]{6}", p) for p in parts[1:]):
            for p in parts[1:]:
                out += struct.pack("<H", int(p, 8) & 0xFFFF)
    return bytes(out)


def _od_d2(b: bytes) -> str:
    """`od -A d -t d2`: 7-digit decimal offsets, eight 2-byte little-endian SIGNED words a row,
    right-aligned in 7 columns."""
    n = len(b)
    b = b + b"\0" * (len(b) % 2)
    rows = []
    for i in range(0, len(b), 16):
        ws = [struct.unpack("<h", b[j:j + 2])[0] for j in range(i, min(i + 16, len(b)), 2)]
        rows.append(f"{i:07d}" + "".join(f" {w:>6d}" for w in ws))
    return "\n".join([*rows, f"{n:07d}"])


def _un_od_d2(t: str) -> bytes:
    out = bytearray()
    for line in t.splitlines():
        parts = line.split()
        if len(parts) > 1 and all(re.fullmatch(r"-?\d+", p) for p in parts):
            for p in parts[1:]:
                with contextlib.suppress(struct.error):
                    out += struct.pack("<h", int(p))
    return bytes(out)


def _rot18(t: str) -> str:
    out = []
    for c in t:
        if "a" <= c <= "z":
            out.append(chr((ord(c) - 97 + 13) % 26 + 97))
        elif "A" <= c <= "Z":
            out.append(chr((ord(c) - 65 + 13) % 26 + 65))
        elif "0" <= c <= "9":
            out.append(chr((ord(c) - 48 + 5) % 10 + 48))
        else:
            out.append(c)
    return "".join(out)


_UTF7_DIRECT = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'(),-./:? \t\r\n")


def _utf7(t: str) -> str:
    """UTF-7 as glibc's iconv writes it: RFC 2152's set D (and space, tab, CR, LF) direct,
    every other character (`_`, `=`, `!` included) in `+...-` runs of base64 of UTF-16BE."""
    out, run = [], []

    def flush() -> None:
        if run:
            b = "".join(run).encode("utf-16-be")
            out.append("+" + base64.b64encode(b).decode().rstrip("=") + "-")
            run.clear()

    for ch in t:
        if ch in _UTF7_DIRECT:
            flush()
            out.append(ch)
        elif ch == "+":
            flush()
            out.append("+-")
        else:
            run.append(ch)
    flush()
    return "".join(out)


def _gif(rng: random.Random, w: int, h: int) -> bytes:
    """A GIF89a of noise (256-colour global table, one image), its LZW written as 9-bit
    literal codes with a clear code every 250 (a valid stream every decoder reads): a
    screenshot exporter's output in its shape, binary throughout."""
    pal = rng.randbytes(768)
    px = rng.randbytes(w * h)
    codes, n = [256], 0
    for b in px:
        if n == 250:
            codes.append(256)
            n = 0
        codes.append(b)
        n += 1
    codes.append(257)
    acc = nbits = 0
    data = bytearray()
    for c in codes:
        acc |= c << nbits
        nbits += 9
        while nbits >= 8:
            data.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8
    if nbits:
        data.append(acc & 0xFF)
    blocks = b"".join(bytes([len(data[i:i + 255])]) + bytes(data[i:i + 255])
                      for i in range(0, len(data), 255))
    return (b"GIF89a" + struct.pack("<HHBBB", w, h, 0xF7, 0, 0) + pal
            + b"\x2c" + struct.pack("<HHHHB", 0, 0, w, h, 0) + b"\x08" + blocks + b"\x00;")


def _gifs(n: int, seed: str, w: int = 40, h: int = 30) -> list[bytes]:
    rng = random.Random(seed)
    return [_gif(rng, w, h) for _ in range(n)]


def _with_gif_comment(gif: bytes, text: bytes) -> bytes:
    """The GIF with a comment extension (21 FE, sub-blocks, 00) before its trailer (3B)."""
    assert gif.endswith(b";")
    blocks = b"".join(bytes([len(text[i:i + 255])]) + text[i:i + 255]
                      for i in range(0, len(text), 255))
    return gif[:-1] + b"\x21\xfe" + blocks + b"\x00;"


def _pngs(n: int, seed: str, w: int = 40, h: int = 30) -> list[bytes]:
    rng = random.Random(seed)
    raw = rng.randbytes(n * w * h * 3)
    out = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "rawvideo", "-pix_fmt",
                          "rgb24", "-s", f"{w}x{h}", "-r", "25", "-i", "-", "-threads", "1",
                          "-c:v", "png", "-f", "image2pipe", "-"],
                         input=raw, capture_output=True, check=True).stdout
    parts = out.split(b"\x89PNG")
    pngs = [b"\x89PNG" + p for p in parts if p]
    assert len(pngs) == n, (len(pngs), n)
    return pngs


def _bmp_black(w: int = 64, h: int = 48) -> bytes:
    """A bottom-up 24-bit BMP of black pixels: its base64 is mostly `A`."""
    row = w * 3
    data = b"\0" * (row * h)
    head = b"BM" + struct.pack("<IHHI", 54 + len(data), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, len(data), 2835, 2835, 0, 0)
    return head + info + data


GLRT = "glrt-" + "QA43odo2Runner0aB1cD2eF3gH4iJ5kL6"                                      # 01
GLRT_X = "$ od -A x -t o2 runner.env\n" + _od_o2(("CI_RUNNER_TOKEN=" + GLRT + "\n").encode())
RKL = "rk_live_" + "QA43odd2Restricted0aB1cD2eF3gH4iJ5kL6"                                # 02
RKL_X = "$ od -A d -t d2 stripe.env\n" + _od_d2(("STRIPE_RK=" + RKL + "\n").encode())
YA29 = "ya29." + "a0QA43rot18OAuth0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3"             # 03
YA29_R = "$ rot18 < token.txt\n" + _rot18("GOOGLE_ACCESS_TOKEN=" + YA29)
NPM = "npm_" + "QA43utf32beNpmToken0aB1cD2eF3gH4iJ5k"                                     # 04
NPM_32 = ("$ iconv -t UTF-32 .npmrc | base64 -w0\n"
          + base64.b64encode(("//registry.npmjs.org/:_authToken=" + NPM + "\n")
                             .encode("utf-32")).decode())
DCKR = "dckr_pat_" + "QA43bzip2Docker0aB1cD2eF3gH4iJ"                                     # 05
DCKR_B = ("$ bzip2 -c docker.env | base64 -w0\n"
          + base64.b64encode(bz2.compress(("DOCKER_TOKEN=" + DCKR + "\n").encode())).decode())
PYPI = "pypi-AgE" + "IcHlwaS5vcmcCQA43zstdPyPI0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1"        # 06
PYPI_Z = ("$ zstd -c .pypirc | base64 -w0\n"
          + base64.b64encode(zstandard.ZstdCompressor(level=3).compress(
              ("[pypi]\nusername = __token__\npassword = " + PYPI + "\n").encode())).decode())
XAPP = "xapp-1-" + "A04QA43PEM64SlackApp-0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0"                 # 07
XAPP_G = ("$ gzip -c slack.env | openssl base64\n"
          + _wrapn(base64.b64encode(gzip.compress(
              ("SLACK_APP_TOKEN=" + XAPP + "\nSLACK_CHANNEL=qa43\n").encode(), mtime=0))
              .decode(), 64))
GHO = "gho_" + "QA43zlibAfter8KiB0aB1cD2eF3gH4iJ5kL6"                                      # 08
_LONG = "".join(f"line {i}: the birds flicker over the stripes, the lamp turns\n"
                for i in range(150))
assert len(_LONG) > 8192
GHO_Z = ("tool python3 returned: "
         + base64.b64encode(zlib.compress((_LONG + "GH_OAUTH=" + GHO + "\n").encode(), 9))
         .decode())
SG = "SG." + "QA43gifComment0aB1cD2e" + "." + "F3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF"  # 09
_GIF_H = _gifs(4, "h43-hostile")
SG_GIF = ("$ screenshot --base64 --format gif --window game\ndata:image/gif;base64,"
          + base64.b64encode(_with_gif_comment(_GIF_H[0], b"exporter 1.4; SENDGRID_API_KEY="
                                               + SG.encode())).decode())
GHU = "ghu_" + "QA43utf7GhUser0aB1cD2eF3gH4iJ5kL6mN7"                                      # 10
GHU_7 = "$ iconv -t UTF-7 gh.env\n" + _utf7("GH_USER_TOKEN=" + GHU + "\n")
HVB = "hvb." + "AAAAAQQA43hexThenBase64Vault0aB1cD2eF3gH4iJ5kL6mN7oP8"                    # 11
HVB_H = ("$ xxd -p vault.env | tr -d '\\n' | base64 -w0\n"
         + base64.b64encode(("VAULT_TOKEN=" + HVB + "\n").encode().hex().encode()).decode())
AKI = "AKIA" + "QA43GLUEDZEROS01"                                                           # 12
_BMP = base64.b64encode(_bmp_black()).decode()
AKI_G = ("$ screenshot --base64 --format bmp --window game\ndata:image/bmp;base64,"
         + _BMP[:600] + AKI + _BMP[600 + len(AKI):])
GHR = "ghr_" + "QA43gluedGifB64aB1cD2eF3gH4iJ5kL6mN7"                                     # 13
_G13 = base64.b64encode(_GIF_H[1]).decode()
GHR_G = ("$ screenshot --base64 --format gif --window game\ndata:image/gif;base64,"
         + _G13[:300] + "q" + GHR + "m" + _G13[300:])
AKI2 = "AKIA" + "QA43PRESIGNEDURL"                                                          # 14
ASI = "ASIA" + "QA43VHOSTPATH042"
GOO = "AIza" + "SyQA43gluedAzureBlob0aB1cD2eF3gH4iJ"
_r14 = random.Random("h43_14")
PATHS_14 = ("$ aws s3 presign s3://qa43-frames/f.png\n"
            "https://qa43-frames.s3.eu-west-1.amazonaws.com/f.png?X-Amz-Algorithm=AWS4-HMAC-"
            "SHA256&X-Amz-Credential=" + AKI2 + "%2F20261207%2Feu-west-1%2Fs3%2Faws4_request"
            "&X-Amz-Date=20261207T104700Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-"
            "Signature=" + "".join(_r14.choice("0123456789abcdef") for _ in range(64))
            + "\n$ curl -sI https://qa43-frames.s3.amazonaws.com/t/"
            + h42._glue(_r14, ASI, _ALNUM + "-_") + ".png | head -1\nHTTP/1.1 200 OK"
            "\n$ az storage blob url --account-name qa43 -c frames -n f.png\n"
            "https://qa43.blob.core.windows.net/frames/"
            + h42._glue(_r14, GOO, _ALNUM + "-_") + "/f.png")
for _k, _rx in ((GLRT, r"glrt-[A-Za-z0-9_\-]{20,64}"), (RKL, r"rk_live_[A-Za-z0-9]{20,247}"),
                (YA29, r"ya29\.[A-Za-z0-9_\-]{30,512}"), (NPM, r"npm_[A-Za-z0-9]{36}"),
                (DCKR, r"dckr_pat_[A-Za-z0-9_\-]{27,64}"), (PYPI, r"pypi-AgE[A-Za-z0-9_\-]{50,256}"),
                (XAPP, r"xapp-[0-9]-[A-Za-z0-9\-]{40,160}"), (GHO, r"gh[ousr]_[A-Za-z0-9]{36}"),
                (SG, r"SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}"),
                (GHU, r"gh[ousr]_[A-Za-z0-9]{36}"), (HVB, r"hv[sb]\.[A-Za-z0-9_\-]{24,256}"),
                (AKI, r"AKIA[0-9A-Z]{16}"), (GHR, r"gh[ousr]_[A-Za-z0-9]{36}"),
                (AKI2, r"AKIA[0-9A-Z]{16}"), (ASI, r"ASIA[0-9A-Z]{16}"),
                (GOO, r"AIza[0-9A-Za-z_\-]{35}")):
    assert re.fullmatch(_rx, _k), _k  # each key a whole match of the product's own pattern
assert _un_od_o2(GLRT_X.split("\n", 1)[1]).rstrip(b"\0").decode().endswith(GLRT + "\n")
assert RKL.encode() in _un_od_d2(RKL_X.split("\n", 1)[1])
assert _rot18(_rot18(YA29)) == YA29 and YA29 not in YA29_R
assert AKI in AKI_G and _BMP[590:600] == "A" * 10 and AKI_G.split(AKI)[1][:4] == "AAAA"
assert GHU not in GHU_7 and GHU_7.encode().decode("utf-7") .endswith(GHU + "\n")
WHOLE = (GLRT, RKL, YA29, NPM, DCKR, PYPI, XAPP, GHO, SG, GHU, HVB, AKI, GHR, AKI2, ASI, GOO)
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, *WHOLE, GLRT_X.split("\n")[1][:40], RKL_X.split("\n")[1][:40],
           YA29_R.split("\n")[1][:40], NPM_32.split("\n")[1][:40], DCKR_B.split("\n")[1][:40],
           PYPI_Z.split("\n")[1][:40], XAPP_G.split("\n")[1][:40], GHO_Z[-40:],
           GHU_7.split("\n")[1][:40], HVB_H.split("\n")[1][:40],
           GLRT[5:37], RKL[8:40], YA29[5:37], NPM[4:36], DCKR[9:37], PYPI[8:40], XAPP[7:39],
           GHO[4:36], SG[3:35], GHU[4:36], HVB[4:36], GHR[4:36], GOO[4:36]]


# -- honest look-alikes ------------------------------------------------------------------------
_CHANCE43 = (("AIza", 35), ("AKIA", 16), ("ASIA", 16), ("ghp_", 36), ("github_pat_", 40),
             ("xoxb-", 30), ("glpat-", 24), ("npm_", 36), ("hf_", 34), ("sk-", 40))
_PLACES = ("first", "last", "break64", "break72")


def _chance_run(rng: random.Random, prefix: str, n: int) -> str:
    """prefix + n characters of the base64 alphabet a key takes (capitals and digits after
    AKIA / ASIA): a key's shape, by chance in the encoded text."""
    tail = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" if prefix in ("AKIA", "ASIA") else _ALNUM
    return prefix + "".join(rng.choice(tail) for _ in range(n))


def chance_text(rng: random.Random, prefix: str, n: int, place: str, blob: bytes,
                gzipped: bytes) -> tuple[str, str]:
    """(tool line, encoded text) with a chance key-shaped run written over the encoded text:
    `first` (the blob's first characters, right after `;base64,`), `last` (its last ones), or
    straddling a break of 64 / 72-column wrapping (of gzip'd noise: openssl / uuencode-like
    widths). The decoded bytes hold no key."""
    run = _chance_run(rng, prefix, n)
    if place in ("first", "last"):
        enc = base64.b64encode(blob).decode().rstrip("=")
        enc = run + enc[len(run):] if place == "first" else enc[:-len(run)] + run
        kind = "png" if blob.startswith(b"\x89PNG") else "gif"
        return (f"$ screenshot --base64 --format {kind} --window game\ndata:image/{kind};base64,"
                + enc), run
    width = 64 if place == "break64" else 72
    enc = base64.b64encode(gzipped).decode()
    line = rng.randint(2, max(2, len(enc) // width - 2))
    at = line * width - len(run) // 2
    enc = enc[:at] + run + enc[at + len(run):]
    eol = "\n" if width == 64 else "\r\n"
    tool = "$ gzip -c frame.raw | openssl base64\n" if width == 64 else \
        "$ gzip -c frame.raw | base64 -w 72\n"
    return tool + _wrapn(enc, width, eol), run


def _honest_events() -> list[dict]:
    ev = h28._events()
    obs = h34._obs(ev)
    obs[0]["data"]["summary"] = (
        "$ od -A x -t o2 notes.txt\n" + _od_o2(b"the lamp turns when the birds flicker\n")
        + "\n$ od -A d -t d2 level.txt\n" + _od_d2(b"level 7: the paddle rides the rail\n")
        + "\n$ rot18 < hint.txt\n" + _rot18("press FIRE 3 times at 0:42"))
    obs[1]["data"]["summary"] = (
        "$ iconv -t UTF-32 title.txt | base64 -w0\n"
        + base64.b64encode("Łódź — poziom 7\n".encode("utf-32")).decode()
        + "\n$ bzip2 -c notes.txt | base64 -w0\n"
        + base64.b64encode(bz2.compress(b"the stripes scroll after 26 s\n" * 4)).decode()
        + "\n$ zstd -c state.ini | base64 -w0\n"
        + base64.b64encode(zstandard.ZstdCompressor().compress(b"[game]\nlives = 3\n"))
        .decode())
    obs[2]["data"]["summary"] = (
        "$ gzip -c notes.txt | openssl base64\n"
        + _wrapn(base64.b64encode(gzip.compress(b"a red flash at 17 s, white at 22 s\n" * 9,
                                                mtime=0)).decode(), 64)
        + "\ntool python3 returned: "
        + base64.b64encode(zlib.compress((_LONG + "DONE\n").encode(), 9)).decode())
    obs[3]["data"]["summary"] = (
        "$ iconv -t UTF-7 title.txt\n" + _utf7("Łódź_poziom_7 — ok\n")
        + "\n$ xxd -p level.txt | tr -d '\\n' | base64 -w0\n"
        + base64.b64encode(b"level seven, lamp green".hex().encode()).decode()
        + "\n$ screenshot --base64 --format gif --window game\ndata:image/gif;base64,"
        + base64.b64encode(_with_gif_comment(_GIF_H[2], b"exporter 1.4; level 7")).decode()
        + "\n$ screenshot --base64 --format bmp --window game\ndata:image/bmp;base64," + _BMP)
    return ev


def _chance_events() -> list[dict]:
    """h43_16: 240 observations, each a chance key-shaped run at a blob's first or last
    characters or across a 64 / 72-column break."""
    from datetime import datetime, timedelta

    from moderator_app.core.samples.community import format_at

    ev = h28._events()
    rng = random.Random("h43_16")
    gifs, pngs = _gifs(60, "h43_16g"), _pngs(60, "h43_16p")
    head = [e for e in ev if e["type"] == "run_start"]
    tail = [e for e in ev if e["type"] == "run_end"]
    t0 = datetime.fromisoformat(head[0]["at"].replace("Z", "+00:00")) - timedelta(
        milliseconds=head[0]["elapsedMs"])
    body, at, seq = [], head[0]["elapsedMs"] + 100, head[0]["seq"] + 1
    runs = []
    for k in range(240):
        prefix, n = _CHANCE43[k % len(_CHANCE43)]
        place = _PLACES[(k // len(_CHANCE43)) % 4]
        blob = (gifs if k % 2 else pngs)[k // 4]
        gz = gzip.compress(rng.randbytes(rng.randint(1500, 3000)), 1, mtime=0)
        text, run = chance_text(rng, prefix, n, place, blob, gz)
        runs.append((prefix, place, run))
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
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa43 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    texts = [("h43_01_log_secret_glrt_od_o2", 0, GLRT_X),
             ("h43_02_log_secret_rklive_od_d2", 1, RKL_X),
             ("h43_03_log_secret_ya29_rot18", 2, YA29_R),
             ("h43_04_log_secret_npm_utf32be", 3, NPM_32),
             ("h43_05_log_secret_docker_bzip2", 0, DCKR_B),
             ("h43_06_log_secret_pypi_zstd", 1, PYPI_Z),
             ("h43_07_log_secret_xapp_gzip64", 2, XAPP_G),
             ("h43_08_log_secret_gho_zlib8k", 3, GHO_Z),
             ("h43_09_log_secret_sendgrid_gif_comment", 0, SG_GIF),
             ("h43_10_log_secret_ghu_utf7", 1, GHU_7),
             ("h43_11_log_secret_hvb_hex_base64", 2, HVB_H),
             ("h43_12_log_secret_akia_glued_zeros", 3, AKI_G),
             ("h43_13_log_secret_ghr_glued_gif", 0, GHR_G),
             ("h43_14_log_secret_keys_in_urls", 1, PATHS_14)]
    for name, k, text in texts:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    add("h43_15_log_honest_lookalikes", _honest_events())
    add("h43_16_log_honest_chance_edges_breaks", _chance_events())
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


_PROBES = {"h43_01_log_secret_glrt_od_o2": ("od -A x -t o2",),
           "h43_02_log_secret_rklive_od_d2": ("od -A d -t d2",),
           "h43_03_log_secret_ya29_rot18": ("rot18",),
           "h43_04_log_secret_npm_utf32be": ("UTF-32 .npmrc",),
           "h43_05_log_secret_docker_bzip2": ("bzip2 -c",),
           "h43_06_log_secret_pypi_zstd": ("zstd -c",),
           "h43_07_log_secret_xapp_gzip64": ("openssl base64",),
           "h43_08_log_secret_gho_zlib8k": ("tool python3 returned",),
           "h43_09_log_secret_sendgrid_gif_comment": ("image/gif;base64",),
           "h43_10_log_secret_ghu_utf7": ("UTF-7",),
           "h43_11_log_secret_hvb_hex_base64": ("xxd -p",),
           "h43_12_log_secret_akia_glued_zeros": ("image/bmp;base64",),
           "h43_13_log_secret_ghr_glued_gif": ("image/gif;base64",),
           "h43_14_log_secret_keys_in_urls": ("X-Amz", "amazonaws.com/t/", "blob.core"),
           "h43_15_log_honest_lookalikes": ("od -A x", "UTF-32", "openssl", "UTF-7"),
           "h43_16_log_honest_chance_edges_breaks": ("base64",)}


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings (any severity) against the lines holding the
    spelling; H-f: no secret finding of severity error or warning on the honest controls."""
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
                         "warned_lines": got[:12], "strong_lines": strong_lines[:40],
                         "n_strong": len(strong), "n_found": len(found),
                         "severities": sorted({str(x.get("severity")) for x in found}),
                         "rules": sorted({x.get("rule") for x in found}),
                         "labels": sorted({str(x.get("message", ""))[:70] for x in found})[:6],
                         "met": (not strong) if honest else bool(set(lines) & set(got))}
    return {"check": "H-s spelled secrets flagged; H-f honest controls not",
            "rows": out, "met": all(v["met"] for v in out.values())}


def _undo43(text: str) -> list[str]:  # noqa: C901 - one decoder a spelling
    """This pass' spellings undone (the leak search)."""
    out: list[str] = []
    t = text.replace("\\n", "\n").replace("\\r", "\r")
    out.append(_un_od_o2(t).decode("latin-1"))
    out.append(_un_od_d2(t).decode("latin-1"))
    out.append(_rot18(t))
    with contextlib.suppress(Exception):
        out.append(t.encode("latin-1", "replace").decode("utf-7", "replace"))
    joined = re.sub(r"([A-Za-z0-9+/]{64}|[A-Za-z0-9+/]{72})\r?\n(?=[A-Za-z0-9+/])", r"\1", t)
    for run in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", joined):
        with contextlib.suppress(ValueError, binascii.Error):
            raw = base64.b64decode(run + "=" * (-len(run) % 4))
            out += [raw.decode("latin-1"), raw.decode("utf-32", "replace"),
                    raw.decode("utf-32-be", "replace")]
            with contextlib.suppress(ValueError):
                out.append(bytes.fromhex(raw.decode("ascii")).decode("latin-1"))
            for undo in (bz2.decompress, gzip.decompress, zlib.decompress,
                         lambda x: zstandard.ZstdDecompressor().decompress(x, 1 << 20)):
                with contextlib.suppress(Exception):
                    out.append(undo(raw).decode("latin-1"))
    return out


def _decodings(text: str) -> list[str]:
    return h42._decodings(text) + _undo43(text)


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    controls' files written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h43_*.pub")):
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
        found = {s for s in SECRETS if any(s in x for x in texts)}
        rows[p.name] = sorted(found)
    honest = {n: (root / n).exists() for n in ("h43_15.pub", "h43_16.pub")}
    return {"check": "H-a withheld files hold no secret; H-f the honest logs published",
            "published": rows, "honest_published": honest,
            "met": not any(v for k, v in rows.items() if k not in honest)
            and all(honest.values())}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S43-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h43_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


# -- escape-heavy logs, timed (s35's builder and s34's timer with this pass' spellings) ---------
ESCAPE = {"e_gif64_128mb": 128 << 20, "e_pem64_128mb": 128 << 20}
SG2 = "SG." + "QA43gifEscapeKey0aB1c" + "." + "D2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4"
PYPI2 = "pypi-AgE" + "IcHlwaS5vcmcCQA43pem64Escape0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV"
for _k, _rx in ((SG2, r"SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}"),
                (PYPI2, r"pypi-AgE[A-Za-z0-9_\-]{50,256}")):
    assert re.fullmatch(_rx, _k), _k
_POOL: dict = {}


def _gif_pool() -> list[bytes]:
    """1,024 GIFs of noise (120x96: ~12-16 KiB of base64 each), made once a process."""
    if "gif" not in _POOL:
        _POOL["gif"] = _gifs(1024, "e_gif64", w=120, h=96)
    return _POOL["gif"]


def _escape_text(case: str, rng: random.Random) -> str:
    if case.startswith("e_gif64"):
        gif = _gif_pool()[rng.randrange(1024)]
        if rng.random() < 0.125:
            prefix, n = _CHANCE43[rng.randrange(3)]
            return chance_text(rng, prefix, n, rng.choice(("first", "last")), gif, b"")[0]
        return ("$ screenshot --base64 --format gif --window game\ndata:image/gif;base64,"
                + base64.b64encode(gif).decode())
    body = gzip.compress(h42._mime_text(rng, 36000).encode(), 6, mtime=0)
    if rng.random() < 0.125:
        prefix, n = _CHANCE43[rng.randrange(len(_CHANCE43))]
        return chance_text(rng, prefix, n, "break64", b"", body)[0]
    return "$ gzip -c mail.txt | openssl base64\n" + _wrapn(base64.b64encode(body).decode(), 64)


def _escape_key(case: str) -> str:
    if case.startswith("e_gif64"):
        return ("data:image/gif;base64," + base64.b64encode(
            _with_gif_comment(_gif_pool()[7], b"SENDGRID_API_KEY=" + SG2.encode())).decode())
    return _wrapn(_pem_key_b64(), 64)


def _pem_key_b64() -> str:
    return base64.b64encode(gzip.compress(("[pypi]\npassword = " + PYPI2 + "\n").encode(),
                                          6, mtime=0)).decode()


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
    h34.TSK, h34.TSK_U = {"e_gif64": (SG2, base64.b64encode(b"SENDGRID_API_KEY=" + SG2.encode())
                                      .decode()),
                          "e_pem64": (PYPI2, _pem_key_b64())}[case.rsplit("_", 1)[0]]
    h34._decodings = _decodings_tail
    h34._timed = h42._timed_full
    h34.EVAL_SECRET = EVAL_SECRET
    return h34.check_escape(root, case)


def _decodings_tail(text: str) -> list[str]:
    return h41._decodings_png(text) + _undo43(text)


# -- the official chain on a held-out payload shape ---------------------------------------------
_SPIN = ("|\b", "/\b", "-\b", "\\\b")


def _ttyspinner_payload(rng: random.Random, size: int) -> dict:
    """A tool's terminal capture: spinners drawn with backspaces, bells, form feeds, ANSI
    colour and cursor sequences, DEL, progress counters."""
    chunks, used = [], 0
    while used < size - 80:
        k = rng.random()
        if k < 0.45:
            s = "".join(rng.choice(_SPIN) for _ in range(rng.randint(8, 40)))
        elif k < 0.65:
            s = f"\x1b[{rng.randint(30, 37)}m{rng.randint(0, 100)}%\x1b[0m\x1b[K\r"
        elif k < 0.8:
            s = "building " + rng.choice(("core", "ui", "tests")) + "\x07\x0c"
        elif k < 0.9:
            s = "typo\x7f\x7f\x7fext\b\b\bEXT\n"
        else:
            s = f"step {rng.randint(1, 999)}\t{rng.uniform(0, 9):.{rng.randint(1, 6)}f}s\n"
        chunks.append(s)
        used += len(s) * 3
    return {"tool": "make -j2", "tty": "".join(chunks), "exit": 0}


def _go_str(s: str) -> str:
    """Go's encoding/json with SetEscapeHTML(false): `\\n \\r \\t \\" \\\\` short, other
    control characters `\\u00xx` in lower-case hex (so backspace `\\u0008`, form feed
    `\\u000c`), DEL and non-ASCII raw."""
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _go_dumps(v) -> str:
    if isinstance(v, dict):
        return "{" + ",".join(_go_str(k) + ":" + _go_dumps(x) for k, x in sorted(v.items())) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_go_dumps(x) for x in v) + "]"
    if isinstance(v, str):
        return _go_str(v)
    return json.dumps(v)


assert json.loads(_go_dumps({"a": "|\b\x07\x0c\x1b[0m\x7f\t\"\\"})) == {
    "a": "|\b\x07\x0c\x1b[0m\x7f\t\"\\"}
CHAIN_SHAPES43 = {"ttyspinner": _ttyspinner_payload}
CHAIN_ENCODE43 = {"ttyspinner": lambda ev: _go_dumps(ev).encode()}


def _chain_install() -> None:
    import qa_session26 as s26
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES43)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE43)


def build_chain43(shape: str) -> Path:
    import qa_session26 as s26
    _chain_install()
    return s26.build_chain(shape)


def check_chain43(shape: str) -> dict:
    import qa_session26 as s26
    _chain_install()
    return s26.check_chain(shape)


def jcs_check43(shape: str, n: int = 2000) -> dict:
    """The chain's truth apart from the product: qa_session35's RFC 8785 writer against the
    product's `canonical_json` on the first n payloads."""
    import qa_session35 as s35
    s35.CHAIN_SHAPES35.update(CHAIN_SHAPES43)
    s35.build_chain35 = lambda s: build_chain43(s)
    return s35.jcs_check(shape, n)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session43 as s43
    run(s43.CACHE, sys.argv[1:])
