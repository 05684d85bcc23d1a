"""Issue 15 classes of session 47's QA pass (docs/qa/session47.md): the classes session 47's
allow / redact / spell engineers work on, each in a family, codec, escape or spelling of this
pass' own (grep of scripts/, tests/, bench/ at 00:22 UTC: no gzip / zlib / raw-deflate bomb
flood before a key, no tiny-zstd funding lines, no bzip2 honest lines past 40 MiB, no key
glued in a GIF's base64, no JSON escaped three deep, no `&#x2F;` / `&#13;&#10;` HTML-entity
base64, no `b85encode` of a compressed stream, no Python bytes repr of zlib, no `xxd` default
layout or `hexdump -C` of a COMPRESSED stream (both layouts of plain text are tested:
test_secrets_bytes / _dump_rows), no `xxd -p` / `od` bomb flood; `%2f` is in the unescape
tests (not around base64 chance runs). The families (`dop_v1_`, `hvs.`, `xkeysib-`, `PMAK-`,
`NRAK-`, `tskey-`, `GOCSPX-`, `sq0atp-`, `pscale_`) were each used by earlier passes in other
spellings; none in these.)
Each key is asserted a whole match of the product's own pattern (secrets_read.FAMILIES at
419dbe2). Every spelling sits in an OBSERVATION (a tool's output), which `withhold` keeps
public:

- *allow*'s class (a spent inflate allowance; the allowance's funding):
  - h47_01 300 gzip / zlib / raw-deflate bombs (16 MiB of zeros each, base64), then Groq
    (`gsk_`) in a small zlib line and Linear (`lin_api_`) in PLAIN text on the last line;
  - h47_02 cheap funding: 50 lines of a tiny zstd frame followed by 1 MiB of junk in the same
    base64 run (the stream consumes ~20 bytes), 150 zlib bombs of 32 MiB, then Docker
    (`dckr_pat_`) in a small gzip line (a 57 MB log);
  - h47_03 honest: 12 lines of 3.5 MiB of CSV each in bzip2 (42 MiB inflated: under the file
    floor, each under the line budget): must be written;
- *redact*'s class (glued into escaped base64; across escaped breaks; escapes nested):
  - h47_04 GitLab (`glpat-`) glued in PHP-escaped (`\\/`) base64 of a GIF, one long line;
  - h47_05 DigitalOcean (`dop_v1_`) glued across an escaped `\\r\\n` break of PHP chunk_split
    base64 of a JPEG (json_encode once);
  - h47_06 Vault (`hvs.`) glued in base64 of a PNG escaped THREE deep (chunk_split's output
    json_encode'd three times), across a break;
  - h47_07 Google (`AIza`) glued in base64 of a JPEG in an XML attribute: `/` as `&#x2F;`, `+`
    as `&#43;`, breaks every 76 as `&#13;&#10;`, across a break;
  - h47_08 honest: 200 chance key-shaped runs (`AIza` / `AKIA` / `ASIA` / `ATATT3` / `ABIA`)
    over honest binary base64 in the escapings above, 50 each: three-deep JSON, HTML entity,
    lower-case percent-encoding (`%2f` / `%2b`, a form body), across PHP's escaped `\\r\\n` at
    76 (json_encode once);
- *spell*'s class (spellings of compressed keys; base58 / 62 past 128 characters):
  - h47_09 Brevo (`xkeysib-`) as `hexdump -C` (offsets, two groups of 8, `|text|`) of gzip;
  - h47_10 Postman (`PMAK-`) as `xxd` (default layout: offsets, 2-byte groups, text column)
    of bzip2;
  - h47_11 New Relic (`NRAK-`) as Python's bytes repr of zlib (`b'x\\x9c...'`: printable bytes
    as themselves, the rest `\\x`-escaped);
  - h47_12 Tailscale (`tskey-`) as base85 (`b85encode`) of gzip, one line;
  - h47_13 Google OAuth (`GOCSPX-`) as base58 of a 300-character .env, Square (`sq0atp-`) as
    base62 of a 200-character one;
  - h47_14 honest: each spelling above of honest text, and frameless Ascii85 of 6 KiB of gzip
    (review s46 R4's class);
  - h47_15 a hex bomb flood: 60 lines of `xxd -p` / `od -An -tx1` spellings of gzip of 64 MiB
    of zeros, then PlanetScale (`pscale_tkn_`) as `xxd -p` of a small gzip (30 s, 512 MiB);
  - h47_16 honest at scale: 160 tool outputs, hex dumps (xxd, od, hexdump -C, Python repr) of
    honest binary and of honest compressed text, 40 each.
"""

from __future__ import annotations

import base64
import binascii
import bz2
import contextlib
import gzip
import html
import json
import lzma
import random
import re
import subprocess
import sys
import zlib
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s34 as h34
import qa_hostile_s40 as h40
import qa_hostile_s41 as h41
import qa_hostile_s42 as h42
import qa_hostile_s43 as h43
import qa_hostile_s44 as h44
import qa_hostile_s45 as h45
import qa_hostile_s46 as h46

EVAL_SECRET = "qa47-evaluator-secret-4e92"
_ALNUM = h42._ALNUM
_HEX = "0123456789abcdef"
_r = random.Random("h47-keys")


def _rand(alph: str, n: int) -> str:
    return "".join(_r.choice(alph) for _ in range(n))


# -- spellings ---------------------------------------------------------------------------------
def _hexdump_c(b: bytes) -> str:
    """`hexdump -C`: an 8-digit offset, 16 bytes as two groups of 8, `|text|`."""
    rows = []
    for i in range(0, len(b), 16):
        c = b[i:i + 16]
        hx = " ".join(f"{x:02x}" for x in c[:8]) + "  " + " ".join(f"{x:02x}" for x in c[8:])
        txt = "".join(chr(x) if 32 <= x < 127 else "." for x in c)
        rows.append(f"{i:08x}  {hx:<48}  |{txt}|")
    rows.append(f"{len(b):08x}")
    return "\n".join(rows)


def _xxd(b: bytes) -> str:
    """`xxd` default: `00000000: 1f8b 0800 ...  text`."""
    rows = []
    for i in range(0, len(b), 16):
        c = b[i:i + 16]
        hx = " ".join(c[j:j + 2].hex() for j in range(0, len(c), 2))
        txt = "".join(chr(x) if 32 <= x < 127 else "." for x in c)
        rows.append(f"{i:08x}: {hx:<39}  {txt}")
    return "\n".join(rows)


def _xxd_p(b: bytes) -> str:
    """`xxd -p`: 60 hex digits a row."""
    h = b.hex()
    return "\n".join(h[i:i + 60] for i in range(0, len(h), 60))


def _pyrepr(b: bytes) -> str:
    return repr(b)


def _php_once(b64: str) -> str:
    """PHP chunk_split (76 + CRLF), json_encode'd (`\\/`, `\\r\\n`)."""
    return "".join(b64[i:i + 76].replace("/", "\\/") + "\\r\\n" for i in range(0, len(b64), 76))


def _json_again(s: str) -> str:
    """One more json_encode of a string already escaped: every backslash doubled, `/` as
    `\\/` again."""
    return s.replace("\\", "\\\\").replace("/", "\\/")


def _html76(b64: str) -> str:
    """An XML writer: `/` as `&#x2F;`, `+` as `&#43;`, breaks every 76 as `&#13;&#10;`."""
    return "&#13;&#10;".join(b64[i:i + 76].replace("/", "&#x2F;").replace("+", "&#43;")
                             for i in range(0, len(b64), 76))


def _gif(seed: str, w: int = 64, h: int = 48) -> bytes:
    """A GIF of noise (ffmpeg's gif encoder, fixed settings)."""
    rng = random.Random(seed)
    return subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "rawvideo", "-pix_fmt",
                           "rgb24", "-s", f"{w}x{h}", "-i", "-", "-frames:v", "1", "-f", "gif",
                           "-"], input=rng.randbytes(w * h * 3), capture_output=True,
                          check=True).stdout


def _raw_deflate(b: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(b) + c.flush()


def _env_text(n: int, key_line: str, seed: str) -> str:
    rng = random.Random(seed)
    lines = ["APP_ENV=production", f"REGION=eu-west-{rng.randint(1, 3)}",
             f"WORKERS={rng.randint(2, 16)}", key_line, "LOG_LEVEL=info",
             "FEATURE_FLAGS=replay,export,sync", "CACHE_DIR=/var/cache/app"]
    text = "\n".join(lines) + "\n"
    while len(text) < n:
        text += f"NOTE_{len(text)}=keep the replay buffer at {rng.randint(10, 99)} seconds\n"
    return text


# -- the keys and their spellings ---------------------------------------------------------------
GSK1 = "gsk_" + "QA47afterGzipFlood" + _rand(_ALNUM, 32)                                 # 01
LIN1 = "lin_api_" + "QA47plainAfterBombs" + _rand(_ALNUM, 21)
GSK1_T = ("$ zlib-flate -compress < groq.env | base64 -w0\n"
          + base64.b64encode(zlib.compress(("GROQ_API_KEY=" + GSK1 + "\n").encode(), 9))
          .decode())
LIN1_T = "$ cat linear.env\nLINEAR_API_KEY=" + LIN1
DCKR = "dckr_pat_" + "QA47cheapFunding" + _rand(_ALNUM + "_-", 24)                         # 02
DCKR_T = ("$ gzip -c docker.env | base64 -w0\n"
          + base64.b64encode(gzip.compress(("DOCKER_PAT=" + DCKR + "\n").encode(), mtime=0))
          .decode())
GLPAT = "glpat-" + "QA47phpGif" + _rand(_ALNUM, 16)                                        # 04
_G4 = base64.b64encode(_gif("h47_04")).decode()
_G4G = h44._glue_at(_G4, len(_G4) // 2, GLPAT, random.Random("h47_04"))
GLPAT_T = ('$ php export.php --json\n{"ok":true,"gif":"' + _G4G.replace("/", "\\/") + '"}')
DOP = "dop_v1_" + "".join(_r.choice(_HEX) for _ in range(64))                             # 05
_J5 = base64.b64encode(h42._jpegs(1, "h47_05", w=96, h=64)[0]).decode()
_J5G = h44._glue_at(_J5, 76 * 11 - 30, DOP, random.Random("h47_05"))
DOP_T = '$ php upload.php --dump\n{"frame":"' + _php_once(_J5G) + '"}'
HVS = "hvs." + "QA47threeDeepJson" + _rand(_ALNUM, 40)                                     # 06
_P6 = base64.b64encode(h43._pngs(1, "h47_06", w=60, h=44)[0]).decode()
_P6G = h44._glue_at(_P6, 76 * 9 - 25, HVS, random.Random("h47_06"))
_IN6 = '{"png":"' + _php_once(_P6G) + '"}'                  # json_encode'd once (PHP)
_MID6 = json.dumps({"job": _IN6}, separators=(",", ":")).replace("/", "\\/")   # twice
HVS_T = ("$ curl -s queue/peek | jq -c .\n"                      # three times
         + json.dumps({"msg": _MID6}, separators=(",", ":")).replace("/", "\\/"))
AIZA = "AIza" + "QA47htmlEnt" + _rand(_ALNUM + "_-", 24)                                   # 07
_J7 = base64.b64encode(h42._jpegs(1, "h47_07", w=88, h=56)[0]).decode()
_J7G = h44._glue_at(_J7, 76 * 8 - 17, AIZA, random.Random("h47_07"))
AIZA_T = '$ xmllint --format shot.xml\n<shot format="jpeg" data="' + _html76(_J7G) + '"/>'
XKEY = "xkeysib-" + "".join(_r.choice(_HEX) for _ in range(64)) + "-" + _rand(_ALNUM, 16)  # 09
XKEY_T = ("$ gzip -c brevo.env | hexdump -C\n"
          + _hexdump_c(gzip.compress(("BREVO_API_KEY=" + XKEY + "\n").encode(), mtime=0)))
PMAK = ("PMAK-" + "".join(_r.choice(_HEX) for _ in range(24)) + "-"                       # 10
        + "".join(_r.choice(_HEX) for _ in range(34)))
PMAK_T = ("$ bzip2 -c postman.env | xxd\n"
          + _xxd(bz2.compress(("POSTMAN_API_KEY=" + PMAK + "\n").encode(), 9)))
NRAK = "NRAK-" + "QA47PYREPR" + _rand("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 17)         # 11
NRAK_T = ("$ python3 -c 'import zlib; print(zlib.compress(open(\"nr.env\",\"rb\").read()))'\n"
          + _pyrepr(zlib.compress(("NEW_RELIC_API_KEY=" + NRAK + "\n").encode(), 9)))
TSKEY = "tskey-auth-" + "QA47b85gz" + _rand(_ALNUM, 5) + "-" + _rand(_ALNUM, 30)           # 12
TSKEY_T = ("$ python3 -c 'import base64,gzip,sys; print(base64.b85encode(gzip.compress("
           "sys.stdin.buffer.read())).decode())' < ts.env\n"
           + base64.b85encode(gzip.compress(("TS_AUTHKEY=" + TSKEY + "\n").encode(), mtime=0))
           .decode())
GOCSPX = "GOCSPX-" + "QA47base58Long" + _rand(_ALNUM + "_-", 16)                           # 13
SQ0 = "sq0atp-" + "QA47base62Long" + _rand(_ALNUM + "_-", 20)
_ENV13A = _env_text(300, "GOOGLE_CLIENT_SECRET=" + GOCSPX, "h47_13a")
_ENV13B = _env_text(200, "SQUARE_ACCESS_TOKEN=" + SQ0, "h47_13b")
GOCSPX_T = ("$ base58 < google.env\n" + h40._b58(_ENV13A) + "\n$ base62 < square.env\n"
            + h41._b62(_ENV13B.encode()))
PSC = "pscale_tkn_" + "QA47afterHexBombs" + _rand(_ALNUM + "_", 24)                         # 15
PSC_T = ("$ gzip -c pscale.env | xxd -p\n"
         + _xxd_p(gzip.compress(("PLANETSCALE_TOKEN=" + PSC + "\n").encode(), mtime=0)))
for _k, _rx in ((GSK1, r"gsk_[A-Za-z0-9]{48,52}"), (LIN1, r"lin_api_[A-Za-z0-9]{40}"),
                (DCKR, r"dckr_pat_[A-Za-z0-9_\-]{27,64}"), (GLPAT, r"glpat-[A-Za-z0-9_\-]{20,64}"),
                (DOP, r"do[opr]_v1_[a-f0-9]{64}"), (HVS, r"hv[sb]\.[A-Za-z0-9_\-]{24,256}"),
                (AIZA, r"AIza[0-9A-Za-z_\-]{35}"),
                (XKEY, r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
                (PMAK, r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"), (NRAK, r"NRAK-[A-Z0-9]{27}"),
                (TSKEY, r"tskey-[a-z]{3,8}-[A-Za-z0-9]{8,20}-[A-Za-z0-9]{20,40}"),
                (GOCSPX, r"GOCSPX-[A-Za-z0-9_\-]{24,40}"), (SQ0, r"sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,60}"),
                (PSC, r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{32,64}")):
    assert re.fullmatch(_rx, _k), _k   # each key a whole match of the product's own pattern
assert GLPAT in _G4G and GLPAT not in GLPAT_T.replace("\\/", "/") or "/" in GLPAT_T
assert DOP not in DOP_T and HVS not in HVS_T and AIZA not in AIZA_T
assert len(_ENV13A) >= 300 and len(h40._b58(_ENV13A)) > 128 and len(h41._b62(_ENV13B.encode())) > 128
WHOLE = (GSK1, LIN1, DCKR, GLPAT, DOP, HVS, AIZA, XKEY, PMAK, NRAK, TSKEY, GOCSPX, SQ0, PSC)
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, *WHOLE,
           GSK1[4:36], LIN1[8:40], DCKR[9:41], GLPAT[6:26], DOP[7:39], HVS[4:36], AIZA[4:36],
           XKEY[8:40], PMAK[5:29], NRAK[5:32], TSKEY[11:40], GOCSPX[7:31], SQ0[7:39], PSC[11:43],
           GSK1_T.split("\n")[1][-40:], DCKR_T.split("\n")[1][-40:],
           XKEY_T.split("\n")[1][10:50], PMAK_T.split("\n")[1][10:49],
           TSKEY_T.split("\n")[1][:40], GOCSPX_T.split("\n")[1][:40],
           PSC_T.split("\n")[1][:40]]


# -- logs with many observations -----------------------------------------------------------------
_obs_events = h46._obs_events


def _bomb_lines(n: int, mib: int, kinds: tuple[str, ...]) -> list[str]:
    """n tool outputs, each `mib` MiB of zeros compressed, in turn as `kinds` (gzip data URI,
    zlib-flate | base64, raw deflate | base64)."""
    zero = bytes(mib << 20)
    blobs = {"gzip": gzip.compress(zero, 9, mtime=0), "zlib": zlib.compress(zero, 9),
             "deflate": _raw_deflate(zero)}
    heads = {"gzip": "$ dump --part {i}\ndata:application/gzip;base64,",
             "zlib": "$ zlib-flate -compress < part{i}.bin | base64 -w0\n",
             "deflate": "$ python3 deflate.py part{i}.bin | base64 -w0\n"}
    enc = {k: base64.b64encode(v).decode() for k, v in blobs.items()}
    return [heads[kinds[i % len(kinds)]].format(i=i) + enc[kinds[i % len(kinds)]]
            for i in range(n)]


def _funding_lines(n: int) -> list[str]:
    """n lines of a tiny zstd frame followed, in the same base64 run, by 1 MiB of junk."""
    import zstandard

    frame = zstandard.ZstdCompressor(level=3).compress(b"ok\n")
    rng = random.Random("h47_02f")
    return [f"$ fetch --raw part{i}\ndata:application/zstd;base64,"
            + base64.b64encode(frame + rng.randbytes(1 << 20)).decode() for i in range(n)]


def _hex_bombs(n: int) -> list[str]:
    zero = gzip.compress(bytes(64 << 20), 9, mtime=0)
    return [(f"$ gzip -c zeros{i}.bin | xxd -p\n" + _xxd_p(zero)) if i % 2 == 0
            else (f"$ gzip -c zeros{i}.bin | od -An -tx1\n" + h46._od_x1(zero))
            for i in range(n)]


def _csv_bz2_lines(n: int) -> list[str]:
    return [f"$ bzip2 -c scores-{i:02d}.csv | base64 -w0\n"
            + base64.b64encode(bz2.compress(h46._csv_pad(int(3.5 * 1024 * 1024), f"h47_03/{i}")
                                            .encode(), 9)).decode() for i in range(n)]


# -- honest look-alikes ------------------------------------------------------------------------
_B64 = _ALNUM + "+/"
_PLACES47 = ("json3", "htmlent", "pctlower", "php76")


def chance_text(rng: random.Random, k: int, place: str, blob: bytes) -> tuple[str, str]:
    """(tool output, run): a chance key-shaped run written over the ENCODED text of honest
    binary data. json3: base64 json_encode'd three times (after chunk_split); htmlent: `&#x2F;`
    / `&#43;` with `&#13;&#10;` breaks at 76; pctlower: a form body's base64 percent-encoded in
    lower case; php76: across an escaped `\\r\\n` of PHP chunk_split (json_encode once)."""
    prefix, n = h44._STD[k % len(h44._STD)]
    run = h44._chance_run(rng, prefix, n, _B64)
    enc = base64.b64encode(blob).decode()
    if place in ("php76", "json3", "htmlent"):
        line = rng.randint(2, max(2, len(enc) // 76 - 2))
        at = line * 76 - len(run) // 2
    else:
        at = rng.randint(len(enc) // 4, len(enc) * 3 // 4)
    enc = enc[:at] + run + enc[at + len(run):]
    if place == "php76":
        return '$ php upload.php --dump\n{"frame":"' + _php_once(enc) + '"}', run
    if place == "json3":
        return ('$ curl -s queue/peek | jq -c .\n{"msg":"'
                + _json_again(_json_again(_php_once(enc))) + '"}'), run
    if place == "htmlent":
        return '$ xmllint --format shot.xml\n<shot data="' + _html76(enc) + '"/>', run
    q = enc.replace("+", "%2b").replace("/", "%2f").replace("=", "%3d")
    return "$ tail -1 access.log\nPOST /upload body=state%3d" + q + "&v=3", run


_CHANCE_RUNS: list = []


def _chance_events() -> list[dict]:
    """h47_08: 200 observations, each a chance key-shaped run (chance_text's places)."""
    rng = random.Random("h47_08")
    texts, runs = [], []
    for k in range(200):
        place = _PLACES47[k % 4]
        blob = (gzip.compress(rng.randbytes(rng.randint(1500, 3000)), 1, mtime=0)
                if place == "php76" else rng.randbytes(rng.randint(2048, 5120)))
        text, run = chance_text(rng, k // 4, place, blob)
        runs.append((run[:6], place, run))
        texts.append(text)
    _CHANCE_RUNS[:] = runs
    return _obs_events(texts)


def _honest_spellings() -> list[dict]:
    """h47_14: each spelling of this pass on honest text, and R4's class (frameless a85 of
    6 KiB of gzip)."""
    notes = h45._notes(60, "note47").encode()
    hint = b"shoot the qotile when it turns into the swirl, then fly to the left edge\n"
    texts = [
        "$ gzip -c hint.txt | hexdump -C\n" + _hexdump_c(gzip.compress(hint, mtime=0)),
        "$ bzip2 -c hint.txt | xxd\n" + _xxd(bz2.compress(hint, 9)),
        "$ python3 -c 'print(zlib.compress(...))'\n" + _pyrepr(zlib.compress(notes[:900], 9)),
        "$ python3 -c '...b85encode(gzip...)' < notes.txt\n"
        + base64.b85encode(gzip.compress(notes, mtime=0)).decode(),
        "$ base58 < plan.txt\n" + h40._b58(_env_text(260, "PLAN=dodge the bombers twice",
                                                      "h47_14a")),
        "$ base62 < plan.txt\n" + h41._b62(_env_text(200, "PLAN=hold fire until the third wave",
                                                      "h47_14b").encode()),
        "$ python3 -c '...a85encode(gzip...,wrapcol=76)' < log.csv\n"
        + base64.a85encode(gzip.compress(h46._csv_pad(40 * 1024, "h47_14c").encode(), 9,
                                         mtime=0)[:6 * 1024], wrapcol=76).decode(),
        "$ gzip -c hint.txt | xxd -p\n" + _xxd_p(gzip.compress(hint, mtime=0)),
    ]
    return _obs_events(texts)


def _honest_dumps() -> list[dict]:
    """h47_16: 160 hex dumps of honest binary and of honest compressed text, 40 a layout."""
    rng = random.Random("h47_16")
    texts = []
    for k in range(160):
        if k % 2:
            data = rng.randbytes(rng.randint(64, 400))
            what = "frame.bin"
        else:
            data = zlib.compress(h45._notes(rng.randint(3, 20), f"d{k}").encode(), 9)
            what = "notes.z"
        lay = k % 8 // 2
        if lay == 0:
            texts.append(f"$ xxd {what}\n" + _xxd(data))
        elif lay == 1:
            texts.append(f"$ od -An -tx1 {what}\n" + h46._od_x1(data))
        elif lay == 2:
            texts.append(f"$ hexdump -C {what}\n" + _hexdump_c(data))
        else:
            texts.append(f"$ python3 -c 'print(open(\"{what}\",\"rb\").read())'\n" + _pyrepr(data))
    return _obs_events(texts)


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input of the hostile harness."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa47 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, make) -> None:
        d = root / name
        if not (d / "agent-log.jsonl").exists():
            d = h28._folder(root, name, h28._dump(make()))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    def one(k: int, text: str):
        def make():
            ev = h28._events()
            h34._obs(ev)[k]["data"]["summary"] = text
            return ev
        return make

    add("h47_01_log_secret_gsk_lin_after_gzip_flood",
        lambda: _obs_events([*_bomb_lines(300, 16, ("gzip", "zlib", "deflate")), GSK1_T,
                             LIN1_T]))
    add("h47_02_log_secret_dckr_after_cheap_funding",
        lambda: _obs_events([*_funding_lines(50), *_bomb_lines(150, 32, ("zlib",)), DCKR_T]))
    add("h47_03_log_honest_bzip2_csv_42mib", lambda: _obs_events(_csv_bz2_lines(12)))
    add("h47_04_log_secret_glpat_glued_php_gif", one(0, GLPAT_T))
    add("h47_05_log_secret_dop_across_php_break", one(1, DOP_T))
    add("h47_06_log_secret_hvs_json_three_deep", one(2, HVS_T))
    add("h47_07_log_secret_aiza_html_entities", one(3, AIZA_T))
    add("h47_08_log_honest_chance_other_escapes", _chance_events)
    add("h47_09_log_secret_xkeysib_hexdump_c_gzip", one(0, XKEY_T))
    add("h47_10_log_secret_pmak_xxd_bzip2", one(1, PMAK_T))
    add("h47_11_log_secret_nrak_pyrepr_zlib", one(2, NRAK_T))
    add("h47_12_log_secret_tskey_b85_gzip", one(3, TSKEY_T))
    add("h47_13_log_secret_gocspx_b58_sq0_b62_long", one(0, GOCSPX_T))
    add("h47_14_log_honest_spellings", _honest_spellings)
    add("h47_15_log_secret_pscale_after_hex_bombs",
        lambda: _obs_events([*_hex_bombs(60), PSC_T]))
    add("h47_16_log_honest_hex_dumps", _honest_dumps)
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


_PROBES = {"h47_01_log_secret_gsk_lin_after_gzip_flood": ("groq.env", "linear.env"),
           "h47_02_log_secret_dckr_after_cheap_funding": ("docker.env",),
           "h47_03_log_honest_bzip2_csv_42mib": ("scores-",),
           "h47_04_log_secret_glpat_glued_php_gif": ("export.php",),
           "h47_05_log_secret_dop_across_php_break": ("upload.php",),
           "h47_06_log_secret_hvs_json_three_deep": ("queue/peek",),
           "h47_07_log_secret_aiza_html_entities": ("shot.xml",),
           "h47_08_log_honest_chance_other_escapes": ("queue/peek", "shot.xml", "access.log",
                                                      "upload.php"),
           "h47_09_log_secret_xkeysib_hexdump_c_gzip": ("hexdump -C",),
           "h47_10_log_secret_pmak_xxd_bzip2": ("| xxd",),
           "h47_11_log_secret_nrak_pyrepr_zlib": ("nr.env",),
           "h47_12_log_secret_tskey_b85_gzip": ("ts.env",),
           "h47_13_log_secret_gocspx_b58_sq0_b62_long": ("base58 <", "base62 <"),
           "h47_14_log_honest_spellings": ("hexdump -C", "| xxd", "b85encode", "base58",
                                           "a85encode", "zlib.compress"),
           "h47_15_log_secret_pscale_after_hex_bombs": ("pscale.env",),
           "h47_16_log_honest_hex_dumps": ("xxd", "od -An", "hexdump", "print(open")}
#: the lines that must EACH be named (a key on a late line after a spent allowance)
_EACH = {"h47_01_log_secret_gsk_lin_after_gzip_flood": ("groq.env", "linear.env"),
         "h47_02_log_secret_dckr_after_cheap_funding": ("docker.env",),
         "h47_15_log_secret_pscale_after_hex_bombs": ("pscale.env",)}
_HEAD_LINES = 1


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings (any severity) against the lines holding the
    spelling; H-f: no secret finding of severity error or warning on the honest controls;
    H-l: on the flood inputs, EACH key line named (a finding of its own line), and how many
    findings verify wrote (a spent allowance reported once, not once a line)."""
    import qa_session22 as s22

    h44._PROBES, saved = _PROBES, h44._PROBES
    h44._CHANCE_RUNS[:] = []
    try:
        out = h44._secret_lines(root)
    finally:
        h44._PROBES = saved
    rows = out["rows"]
    for name, parts in _EACH.items():
        d = root / name
        if not d.exists():
            continue
        _code, rep, _err = s22._verify(d)
        fs = [x for x in rep.get("findings", []) if str(x.get("rule", "")).startswith("secret")]
        named = {x.get("line") for x in fs}
        each = {p: h34._lines_with(d, (p,)) for p in parts}
        rows[name[:6]]["each_line_named"] = {p: bool(set(v) & named) for p, v in each.items()}
        rows[name[:6]]["n_findings_all"] = len(rep.get("findings", []))
        rows[name[:6]]["too_large"] = sum("too large" in str(x.get("message", "")) for x in fs)
    if (root / "h47_08_log_honest_chance_other_escapes").exists():
        if not _CHANCE_RUNS:
            _chance_events()
        strong = set(rows["h47_08"]["strong_lines"])
        by_place: dict[str, int] = {}
        for i, (_p, place, _run) in enumerate(_CHANCE_RUNS):
            if (i + 1 + _HEAD_LINES) in strong:
                by_place[place] = by_place.get(place, 0) + 1
        rows["h47_08"]["strong_by_place"] = by_place
    return out


def _unhex_rows(t: str) -> list[bytes]:
    """hexdump -C / xxd / xxd -p / od rows back to bytes (a block of consecutive rows)."""
    out = []
    hd = re.findall(r"(?m)^[0-9a-f]{8}  ((?:[0-9a-f]{2} {1,2}){1,16})", t)
    if hd:
        out.append(bytes.fromhex("".join(hd).replace(" ", "")))
    xd = re.findall(r"(?m)^[0-9a-f]{8}: ((?:[0-9a-f]{2,4} ?){1,8})", t)
    if xd:
        out.append(bytes.fromhex("".join(xd).replace(" ", "")))
    for block in re.findall(r"(?:^[0-9a-f]{2,60}\n?)+", t + "\n", re.M):
        with contextlib.suppress(ValueError):
            out.append(bytes.fromhex(block.replace("\n", "")))
    for block in re.findall(r"(?:^(?: [0-9a-f]{2}){1,16}\n?)+", t + "\n", re.M):
        with contextlib.suppress(ValueError):
            out.append(bytes.fromhex(block.replace("\n", " ")))
    return out


def _inflate_any(raw: bytes) -> list[str]:
    import zstandard

    got = []
    for undo in (zlib.decompress, gzip.decompress, bz2.decompress, lzma.decompress,
                 lambda x: zlib.decompress(x, -15),
                 lambda x: zstandard.ZstdDecompressor().decompress(x, 1 << 20)):
        with contextlib.suppress(Exception):
            got.append(undo(raw)[:4 << 20].decode("latin-1"))
    return got


def _undo47(text: str) -> list[str]:  # noqa: C901 - one decoder a spelling
    """This pass' spellings undone (the leak search)."""
    import ast

    out: list[str] = []
    t = text
    for _ in range(4):   # escapes nested up to 4 deep
        t = t.replace("\\\\", "\\")
    t = (t.replace("\\r", "\r").replace("\\n", "\n").replace("\\/", "/").replace("\\u002F", "/")
         .replace("\\u002f", "/"))
    t = html.unescape(t)
    t = re.sub(r"%([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), t)
    joined = re.sub(r"([A-Za-z0-9+/]{64}|[A-Za-z0-9+/]{76})\r?\n(?=[A-Za-z0-9+/])", r"\1", t)
    joined = re.sub(r"([A-Za-z0-9+/]{76})\r?\n", r"\1", joined)
    out += [t, joined]
    for run in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", joined):
        with contextlib.suppress(ValueError, binascii.Error):
            raw = base64.b64decode(run + "=" * (-len(run) % 4))
            out.append(raw.decode("latin-1"))
            out += _inflate_any(raw)
    for raw in _unhex_rows(text.replace("\\n", "\n")):
        out.append(raw.decode("latin-1"))
        out += _inflate_any(raw)
    for lit in re.findall(r"b'(?:[^'\\\n]|\\.)*'|b\"(?:[^\"\\\n]|\\.)*\"", text):
        with contextlib.suppress(Exception):
            raw = ast.literal_eval(lit)
            out.append(raw.decode("latin-1"))
            out += _inflate_any(raw)
    for run in re.findall(r"[0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]{40,}", text):
        with contextlib.suppress(Exception):
            out += _inflate_any(base64.b85decode(run))
    for run in re.findall(r"[!-u\n]{40,}", text):
        with contextlib.suppress(Exception):
            out += _inflate_any(base64.a85decode(run.replace("\n", "")))
    for run in re.findall(r"[0-9A-Za-z]{30,}", text):
        for alph in (h40._B58, h41._B62):
            with contextlib.suppress(Exception):
                out.append(h46._unbigint(run, alph).decode("latin-1"))
    return out


def _decodings(text: str) -> list[str]:
    return h46._decodings(text) + _undo47(text)


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    controls' files written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h47_*.pub")):
        body = p.read_text("utf-8", "replace")
        strs: list[str] = []
        for line in body.splitlines():
            try:
                strs += h44._strings(json.loads(line))
            except (ValueError, RecursionError):
                continue
        joined = "".join(strs)
        texts = [body, "\n".join(strs), joined]
        if len(body) < 8 << 20:
            texts += [*_decodings(joined), *_decodings("\n".join(strs))]
            texts += [x for s in strs for x in _undo47(s)]
        found = {s for s in SECRETS if any(s in x for x in texts)}
        rows[p.name] = sorted(found)
    honest = {n: (root / n).exists() for n in ("h47_03.pub", "h47_08.pub", "h47_14.pub",
                                               "h47_16.pub")}
    return {"check": "H-a withheld files hold no secret; H-f the honest logs published",
            "published": rows, "honest_published": honest,
            "met": not any(v for k, v in rows.items() if k not in honest)
            and all(honest.values())}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S47-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h47_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


def build(cache: Path) -> list[str]:
    """The inputs written, no product command run."""
    return [c for c, _ in cases(cache / "hostile")]


def self_check(cache: Path) -> dict:
    """The leak search checked on the inputs themselves (no product code): every key is found
    in the decodings of its own spelling (so a publish would be seen)."""
    out = {}
    for name, text in (("h47_01", GSK1_T), ("h47_02", DCKR_T), ("h47_04", GLPAT_T),
                       ("h47_05", DOP_T), ("h47_06", HVS_T), ("h47_07", AIZA_T),
                       ("h47_09", XKEY_T), ("h47_10", PMAK_T), ("h47_11", NRAK_T),
                       ("h47_12", TSKEY_T), ("h47_13", GOCSPX_T), ("h47_15", PSC_T)):
        dec = [text, *_decodings(text)]
        out[name] = sorted(s for s in WHOLE if any(s in x for x in dec))
    return out


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session47 as s47
    if sys.argv[1:2] == ["build"]:
        print(json.dumps(build(s47.CACHE)))
    elif sys.argv[1:2] == ["self-check"]:
        print(json.dumps(self_check(s47.CACHE)))
    else:
        run(s47.CACHE, sys.argv[1:])
