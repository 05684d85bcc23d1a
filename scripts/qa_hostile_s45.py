"""Issue 15 classes of session 45's QA pass (docs/qa/session45.md): the classes session 45's
redact / spell engineers work on, each in a spelling or shape no earlier pass, test or bench
used (grep of scripts/, tests/, bench/ at 18:25 UTC: no atbash, `u002B` (upper-case: .NET's
escape of `+`), `x-xz` / `x-lzma` data URIs, an xlsx / OpenXML member, a key glued between
`_` / `-` / `0` pads or camelCase words, a key after 300 KiB in xz or 1.2 MiB in zlib, a tar.gz
in base64, hex of zlib, ascii85 of gzip, 72- / 100-column base64; `u002b` (lower-case, QA s30),
Z85 (s40), quoted-printable (s40), UTF-16 (s12, s18, tests) were found and left out). Each key
is asserted a whole match of the product's own pattern (secrets_read.FAMILIES at b8866bd).
Every spelling sits in an OBSERVATION (a tool's output), which `withhold` keeps public:

- *redact*'s rules (a glued key padded, review s44 R3's class, at pads of new shapes):
  - h45_01 Hugging Face (`hf_`) between pads of an ALTERNATING-CASE pair (`xY` x 12 either
    side: an obfuscator's filler; R3's were one repeated letter);
  - h45_02 OpenAI project key (`sk-proj-`) between DASH rules (`-` x 30 either side: `-` is
    in sk-'s own alphabet, so the bounded match runs into the right pad);
  - h45_03 `hf_` between ZERO pads (`0` x 20 either side: a zero-filled fixed-width record;
    `0` is in hf_'s alphabet);
  - h45_04 Anthropic (`sk-ant-api03-`) glued between camelCase words
    (`getAuthTokenFor` + key + `WithRetryPolicy`: an identifier in a stack trace);
  - h45_05 `hf_` glued (a letter either side) inside a PNG's base64 serialized by .NET's
    System.Text.Json (every `+` written `\\u002B`: the run cut by escapes; s44's h44_12 was
    PHP's `\\/`);
  - h45_06 `sk-` (48) glued inside a JPEG's base64 printed by PHP's json_encode of
    chunk_split (`\\/` escapes AND an escaped `\\r\\n` every 76 columns), the key across a break;
- *spell*'s families (the next spelling of a family the session reads):
  - h45_07 Vault (`hvs.`) after 300 KiB of text in an XZ stream, base64 (the inflate bound,
    in xz);
  - h45_08 Docker (`dckr_pat_`) after 1.2 MiB of repeated JSON lines in a ZLIB stream,
    base64 (past 1 MiB: a bound that refuses or reads, never publishes);
  - h45_09 Sentry (`sntrys_`) in an XLSX (OpenXML: a zip of 5 deflated members, the key in
    the 4th, xl/sharedStrings.xml) as a `data:application/vnd.openxmlformats-...;base64,` URI;
  - h45_10 Tailscale (`tskey-`) as HEX of zlib (`zlib-flate -compress | xxd -p`: 60-column
    hex lines);
  - h45_11 DigitalOcean (`dop_v1_`) as ASCII85 of gzip (Adobe's `<~ ~>`);
  - h45_12 verify = withhold: New Relic (`NRAK-`) in `data:application/x-xz;base64,` and
    Brevo (`xkeysib-`) in `data:application/x-lzma;base64,` (lzma-alone), each after 3 KB of
    binary noise;
  - h45_13 PlanetScale (`pscale_tkn_`) in ATBASH (`tr 'A-Za-z' 'ZY..Azy..a'`: a letter
    substitution, not a rotation);
  - h45_14 Square (`sq0atp-`) in a TAR.GZ (`tar czf - conf | base64 -w0`: 80 KiB of notes,
    then the .env as the 2nd member);
- honest:
  - h45_15 honest control: each spelling above of honest text (300 KiB of text in xz, 1.2 MiB
    of JSON lines in zlib, an xlsx of scores, hex of zlib, ascii85 of gzip, xz / lzma URIs of
    12 KB of noise, atbash of a hint, a tar.gz of notes), a 20 KB lzma-alone save, 4 KiB of
    random bytes as `openssl rand -base64` (64 columns), 2 KiB random in one run, a WebP
    frame in a data URI;
  - h45_16 honest look-alikes at scale: 240 tool outputs, each a key-shaped run written by
    construction over the ENCODED text of honest binary data, 60 each: across a 72-column `\\n`
    break, across a 100-column `\\r\\n` break, in the middle of a 1.0-1.5 KiB blob, and in
    PHP-escaped (`\\/`) base64 of 3-6 KiB (`AIza`, `AKIA`, `ASIA`, `ATATT3`, `ABIA`);
    nothing in the decoded bytes.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import gzip
import io
import json
import lzma
import random
import re
import subprocess
import sys
import tarfile
import zipfile
import zlib
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s34 as h34
import qa_hostile_s42 as h42
import qa_hostile_s43 as h43
import qa_hostile_s44 as h44

EVAL_SECRET = "qa45-evaluator-secret-5e09"
_ALNUM = h42._ALNUM
_HEX = "0123456789abcdef"
_wrapn = h43._wrapn
_r = random.Random("h45-keys")


def _rand(alph: str, n: int) -> str:
    return "".join(_r.choice(alph) for _ in range(n))


def _atbash(t: str) -> str:
    out = []
    for c in t:
        if "a" <= c <= "z":
            out.append(chr(219 - ord(c)))
        elif "A" <= c <= "Z":
            out.append(chr(155 - ord(c)))
        else:
            out.append(c)
    return "".join(out)


def _xlsx(key_line: str) -> bytes:
    """A minimal OpenXML workbook (5 deflated members), `key_line` in sharedStrings.xml."""
    parts = {
        "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats'
                               '.org/package/2006/content-types"><Default Extension="xml" '
                               'ContentType="application/xml"/></Types>',
        "_rels/.rels": '<?xml version="1.0"?><Relationships/>',
        "xl/workbook.xml": '<?xml version="1.0"?><workbook><sheets><sheet name="scores" '
                           'sheetId="1"/></sheets></workbook>',
        "xl/sharedStrings.xml": '<?xml version="1.0"?><sst><si><t>level</t></si><si><t>'
                                + key_line + "</t></si></sst>",
        "xl/worksheets/sheet1.xml": '<?xml version="1.0"?><worksheet><sheetData><row r="1">'
                                    '<c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>'
                                    "</row></sheetData></worksheet>"}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in parts.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 12, 7, 18, 25, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, text.encode())
    return buf.getvalue()


def _targz(members: list[tuple[str, bytes]]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 1796659200, 0o644
            t.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), 6, mtime=0)


def _hexlines(b: bytes, width: int = 60) -> str:
    return _wrapn(b.hex(), width)


def _notes(n: int, tag: str) -> str:
    return "".join(f"{tag} {i:06d}: the vane turns, the needle points north-east, bar at 30\n"
                   for i in range(n))


# -- the keys and their spellings ---------------------------------------------------------------
HF1 = "hf_" + "QA45altCasePadded" + _rand(_ALNUM, 14)                                 # 01
HF1_T = "$ ./banner --token\n" + "xY" * 12 + HF1 + "xY" * 12
SKP2 = "sk-proj-" + "QA45dashRule" + _rand(_ALNUM + "_", 36)                             # 02
SKP2_T = "$ cat token.txt\n" + "-" * 30 + SKP2 + "-" * 30
HF3 = "hf_" + "QA45zeroPadded" + _rand(_ALNUM, 20)                                       # 03
HF3_T = "$ dump-record 17 --fixed\nREC0017 " + "0" * 20 + HF3 + "0" * 20 + " END"
ANT4 = "sk-ant-api03-" + "QA45camelGlued" + _rand(_ALNUM + "_-", 78) + "AA"               # 04
ANT4_T = ("Traceback (most recent call last):\n  File \"auth.py\", line 41, in "
          "getAuthTokenFor" + ANT4 + "WithRetryPolicy\nKeyError: 'token'")
HF5 = "hf_" + "QA45dotnetU002B" + _rand(_ALNUM, 19)                                      # 05
_P5 = base64.b64encode(h43._pngs(1, "h45_05", w=56, h=44)[0]).decode()
_P5G = h44._glue_at(_P5, 1500, HF5, random.Random("h45_05"))
HF5_T = ("$ dotnet run -- snapshot --json\n" + '{"frame":1207,"png":"'
         + _P5G.replace("+", "\\u002B") + '"}')
SK6 = "sk-" + "QA45phpChunkSplit" + _rand(_ALNUM, 31)                                    # 06
_J6 = base64.b64encode(h42._jpegs(1, "h45_06", w=80, h=60)[0]).decode()
_A6 = 76 * 11 - 20          # the key straddles the escaped break after column 76 * 11
_J6G = h44._glue_at(_J6, _A6, SK6, random.Random("h45_06"))
SK6_T = ("$ php -r 'echo json_encode([\"jpg\" => chunk_split(base64_encode($j))]);'\n"
         + '{"jpg":"' + "".join(_J6G[i:i + 76].replace("/", "\\/") + "\\r\\n"
                                for i in range(0, len(_J6G), 76)) + '"}')
HVS = "hvs." + "QA45xzPast300k" + _rand(_ALNUM + "_-", 76)                              # 07
_PAD300 = _notes(4600, "sweep")
assert len(_PAD300) > 300 * 1024
HVS_T = ("$ xz -c vault.log | base64 -w0\n"
         + base64.b64encode(lzma.compress((_PAD300 + "VAULT_TOKEN=" + HVS + "\n").encode()))
         .decode())
DCKR = "dckr_pat_" + "QA45zlibPast1M" + _rand(_ALNUM + "_-", 22)                         # 08
_LINE8 = '{"t":"tick","ok":true,"bar":30,"needle":42}\n'
_PAD8 = _LINE8 * (1200 * 1024 // len(_LINE8) + 1)
DCKR_T = ("$ zlib-flate -compress < events.jsonl | base64 -w0\n"
          + base64.b64encode(zlib.compress((_PAD8 + "DOCKER_TOKEN=" + DCKR + "\n").encode(), 9))
          .decode())
SNT = "sntrys_" + "QA45xlsxSharedStrings" + _rand(_ALNUM, 60)                            # 09
SNT_T = ("$ report --xlsx --base64\ndata:application/vnd.openxmlformats-officedocument."
         "spreadsheetml.sheet;base64," + base64.b64encode(_xlsx("SENTRY_AUTH_TOKEN=" + SNT))
         .decode())
TSK = "tskey-auth-" + "QA45hexZlib" + "-" + _rand(_ALNUM, 30)                            # 10
TSK_T = ("$ zlib-flate -compress < tailscale.env | xxd -p\n"
         + _hexlines(zlib.compress(("TS_AUTHKEY=" + TSK + "\n").encode(), 9)))
DOP = "dop_v1_" + "".join(_r.choice(_HEX) for _ in range(64))                           # 11
DOP_T = ("$ python3 -c 'import base64,gzip,sys; print(base64.a85encode(gzip.compress("
         "sys.stdin.buffer.read()), adobe=True).decode())' < do.env\n"
         + base64.a85encode(gzip.compress(("DIGITALOCEAN_TOKEN=" + DOP + "\n").encode(),
                                          mtime=0), adobe=True).decode())
NRAK = "NRAK-" + "".join(_r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(27))
XKS = "xkeysib-" + "".join(_r.choice(_HEX) for _ in range(64)) + "-" + _rand(_ALNUM, 16)  # 12
_r12 = random.Random("h45_12")
URI12 = ("$ state-dump --xz --base64\ndata:application/x-xz;base64,"
         + base64.b64encode(lzma.compress(_r12.randbytes(3000) + b"\nNEW_RELIC_API_KEY="
                                          + NRAK.encode() + b"\n" + _r12.randbytes(9000)))
         .decode()
         + "\n$ state-dump --lzma --base64\ndata:application/x-lzma;base64,"
         + base64.b64encode(h44._lzma_alone(_r12.randbytes(3000) + b"\nBREVO_API_KEY="
                                            + XKS.encode() + b"\n" + _r12.randbytes(9000)))
         .decode())
PSC = "pscale_tkn_" + "QA45atbashPlanetScale" + _rand(_ALNUM, 22)                        # 13
PSC_T = ("$ tr 'A-Za-z' 'ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba' < ps.env\n"
         + _atbash("PLANETSCALE_TOKEN=" + PSC))
SQ0 = "sq0atp-" + "QA45tarGz" + _rand(_ALNUM + "_-", 20)                                 # 14
SQ0_T = ("$ tar czf - conf/ | base64 -w0\n"
         + base64.b64encode(_targz([("conf/notes.txt", _notes(1200, "note").encode()),
                                    ("conf/.env", ("SQUARE_TOKEN=" + SQ0 + "\n").encode())]))
         .decode())
for _k, _rx in ((HF1, r"hf_[A-Za-z0-9]{30,}"), (SKP2, r"sk-proj-[A-Za-z0-9_\-]{20,}"),
                (HF3, r"hf_[A-Za-z0-9]{30,}"), (ANT4, r"sk-ant-[A-Za-z0-9_\-]{20,}"),
                (HF5, r"hf_[A-Za-z0-9]{30,}"), (SK6, r"sk-[A-Za-z0-9_\-]{20,}"),
                (HVS, r"hv[sb]\.[A-Za-z0-9_\-]{24,256}"),
                (DCKR, r"dckr_pat_[A-Za-z0-9_\-]{27,64}"),
                (SNT, r"sntrys_[A-Za-z0-9_+/=]{60,300}"),
                (TSK, r"tskey-[a-z]{3,8}-[A-Za-z0-9]{8,20}-[A-Za-z0-9]{20,40}"),
                (DOP, r"do[opr]_v1_[a-f0-9]{64}"), (NRAK, r"NRAK-[A-Z0-9]{27}"),
                (XKS, r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
                (PSC, r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{32,64}"),
                (SQ0, r"sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,60}")):
    assert re.fullmatch(_rx, _k), _k   # each key a whole match of the product's own pattern
assert HF5 in _P5G and HF5 in HF5_T and HF5_T.count("\\u002B") > 10
assert SK6 in _J6G and SK6 not in SK6_T and SK6_T.count("\\/") > 5
assert PSC not in PSC_T and _atbash(_atbash(PSC)) == PSC
WHOLE = (HF1, SKP2, HF3, ANT4, HF5, SK6, HVS, DCKR, SNT, TSK, DOP, NRAK, XKS, PSC, SQ0)
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, *WHOLE,
           HF1[3:35], SKP2[8:40], HF3[3:35], ANT4[13:45], ANT4[-32:], HF5[3:35], SK6[3:35],
           HVS[4:36], DCKR[9:41], SNT[7:39], TSK[11:43], DOP[7:39], NRAK[5:32], XKS[8:40],
           PSC[11:43], SQ0[7:27] + SQ0[27:36],
           HVS_T.split("\n")[1][-40:], DCKR_T.split("\n")[1][-40:], SNT_T.split(",")[1][-40:],
           TSK_T.split("\n")[1][:40], DOP_T.split("\n")[1][:40], PSC_T.split("\n")[1][:40],
           SQ0_T.split("\n")[1][-40:]]


# -- honest look-alikes ------------------------------------------------------------------------
_STD = h44._STD
_B64 = _ALNUM + "+/"
_PLACES45 = ("break72", "break100", "mid1k", "phpesc")


def chance_text(rng: random.Random, k: int, place: str, blob: bytes) -> tuple[str, str]:
    """(tool output, run): a chance key-shaped run written over the ENCODED text of honest
    binary data. break72 / break100: straddling a break of 72-column `\\n` / 100-column
    `\\r\\n` wrapping; mid1k: the middle of a 1.0-1.5 KiB blob's base64; phpesc: inside
    base64 of 3-6 KiB printed by PHP's json_encode (every `/` as `\\/`)."""
    prefix, n = _STD[k % len(_STD)]
    run = h44._chance_run(rng, prefix, n, _B64)
    enc = base64.b64encode(blob).decode()
    if place == "mid1k":
        at = len(enc) // 2 - len(run) // 2
        enc = enc[:at] + run + enc[at + len(run):]
        return "$ grab --raw --base64 --region 24x16\n" + enc, run
    if place == "phpesc":
        at = rng.randint(len(enc) // 4, len(enc) * 3 // 4)
        enc = enc[:at] + run + enc[at + len(run):]
        return ("$ php -r 'echo json_encode([\"raw\" => base64_encode($f)]);'\n"
                + '{"raw":"' + enc.replace("/", "\\/") + '"}'), run
    width, eol = (72, "\n") if place == "break72" else (100, "\r\n")
    line = rng.randint(2, max(2, len(enc) // width - 2))
    at = line * width - len(run) // 2
    enc = enc[:at] + run + enc[at + len(run):]
    tool = (f"$ gzip -c frame.raw | base64 -w {width}"
            + (" | unix2dos\n" if eol == "\r\n" else "\n"))
    return tool + _wrapn(enc, width, eol), run


_CHANCE_RUNS: list = []


def _chance_events() -> list[dict]:
    """h45_16: 240 observations, each a chance key-shaped run (chance_text's places)."""
    from datetime import datetime, timedelta

    from moderator_app.core.samples.community import format_at

    ev = h28._events()
    rng = random.Random("h45_16")
    head = [e for e in ev if e["type"] == "run_start"]
    tail = [e for e in ev if e["type"] == "run_end"]
    t0 = datetime.fromisoformat(head[0]["at"].replace("Z", "+00:00")) - timedelta(
        milliseconds=head[0]["elapsedMs"])
    body, at, seq = [], head[0]["elapsedMs"] + 100, head[0]["seq"] + 1
    runs = []
    for k in range(240):
        place = _PLACES45[k % 4]
        if place == "mid1k":
            blob = rng.randbytes(rng.randint(1024, 1536))
        elif place == "phpesc":
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


def _webp(seed: str) -> bytes:
    rng = random.Random(seed)
    raw = rng.randbytes(64 * 48 * 3)
    return subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "rawvideo", "-pix_fmt",
                           "rgb24", "-s", "64x48", "-i", "-", "-frames:v", "1", "-c:v",
                           "libwebp", "-quality", "60", "-f", "webp", "-"],
                          input=raw, capture_output=True, check=True).stdout


def _honest_events() -> list[dict]:
    ev = h28._events()
    obs = h34._obs(ev)
    hr = random.Random("h45_15")
    obs[0]["data"]["summary"] = (
        "$ xz -c sweep.log | base64 -w0\n"
        + base64.b64encode(lzma.compress((_PAD300 + "DONE\n").encode())).decode()
        + "\n$ zlib-flate -compress < events.jsonl | base64 -w0\n"
        + base64.b64encode(zlib.compress(_PAD8.encode(), 9)).decode())
    obs[1]["data"]["summary"] = (
        "$ report --xlsx --base64\ndata:application/vnd.openxmlformats-officedocument."
        "spreadsheetml.sheet;base64," + base64.b64encode(_xlsx("needle 42, bar 30")).decode()
        + "\n$ zlib-flate -compress < level.txt | xxd -p\n"
        + _hexlines(zlib.compress(b"level five: the vignette closes at 11 s\n", 9))
        + "\n$ python3 -c '...a85encode(gzip...)' < hint.txt\n"
        + base64.a85encode(gzip.compress(b"press RIGHT until the needle points east\n",
                                         mtime=0), adobe=True).decode()
        + "\n$ tr 'A-Za-z' 'ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba' < hint.txt\n"
        + _atbash("grow the bar to sixty before the dusk"))
    obs[2]["data"]["summary"] = (
        "$ state-dump --xz --base64\ndata:application/x-xz;base64,"
        + base64.b64encode(lzma.compress(hr.randbytes(12000))).decode()
        + "\n$ state-dump --lzma --base64\ndata:application/x-lzma;base64,"
        + base64.b64encode(h44._lzma_alone(hr.randbytes(12000))).decode()
        + "\n$ tar czf - conf/ | base64 -w0\n"
        + base64.b64encode(_targz([("conf/notes.txt", _notes(1200, "note").encode()),
                                   ("conf/game.ini", b"[game]\nlevel = 5\n")])).decode())
    save = json.dumps({"slot": 1, "bar": hr.randint(8, 70), "needle": hr.randint(0, 359),
                       "seed": hr.getrandbits(64)})
    obs[3]["data"]["summary"] = (
        "$ lzma -c save.json | base64 -w0\n"
        + base64.b64encode(h44._lzma_alone(hr.randbytes(14000) + save.encode() * 40)).decode()
        + "\n$ openssl rand -base64 4096\n" + _wrapn(base64.b64encode(hr.randbytes(4096))
                                                     .decode(), 64)
        + "\n$ save-state --encrypted --base64\n" + base64.b64encode(hr.randbytes(2048)).decode()
        + "\n$ screenshot --format webp --base64\ndata:image/webp;base64,"
        + base64.b64encode(_webp("h45_15")).decode())
    return ev


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input of the hostile harness."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa45 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    texts = [("h45_01_log_secret_hf_xy_pad", 0, HF1_T),
             ("h45_02_log_secret_skproj_dash_rule", 1, SKP2_T),
             ("h45_03_log_secret_hf_zero_pad", 2, HF3_T),
             ("h45_04_log_secret_skant_camel_glued", 3, ANT4_T),
             ("h45_05_log_secret_hf_glued_dotnet_u002b", 0, HF5_T),
             ("h45_06_log_secret_sk_glued_php_chunksplit", 1, SK6_T),
             ("h45_07_log_secret_hvs_xz_past300k", 2, HVS_T),
             ("h45_08_log_secret_dckr_zlib_past1m", 3, DCKR_T),
             ("h45_09_log_secret_sntrys_xlsx_datauri", 0, SNT_T),
             ("h45_10_log_secret_tskey_hex_zlib", 1, TSK_T),
             ("h45_11_log_secret_dop_a85_gzip", 2, DOP_T),
             ("h45_12_log_secret_xz_lzma_datauris", 3, URI12),
             ("h45_13_log_secret_pscale_atbash", 0, PSC_T),
             ("h45_14_log_secret_sq0_targz", 1, SQ0_T)]
    for name, k, text in texts:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    add("h45_15_log_honest_lookalikes", _honest_events())
    add("h45_16_log_honest_chance_breaks72_100_mid_php", _chance_events())
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


_PROBES = {"h45_01_log_secret_hf_xy_pad": ("banner --token",),
           "h45_02_log_secret_skproj_dash_rule": ("cat token.txt",),
           "h45_03_log_secret_hf_zero_pad": ("dump-record",),
           "h45_04_log_secret_skant_camel_glued": ("getAuthTokenFor",),
           "h45_05_log_secret_hf_glued_dotnet_u002b": ("dotnet run",),
           "h45_06_log_secret_sk_glued_php_chunksplit": ("chunk_split",),
           "h45_07_log_secret_hvs_xz_past300k": ("xz -c vault.log",),
           "h45_08_log_secret_dckr_zlib_past1m": ("events.jsonl",),
           "h45_09_log_secret_sntrys_xlsx_datauri": ("spreadsheetml",),
           "h45_10_log_secret_tskey_hex_zlib": ("xxd -p",),
           "h45_11_log_secret_dop_a85_gzip": ("a85encode",),
           "h45_12_log_secret_xz_lzma_datauris": ("application/x-xz",),
           "h45_13_log_secret_pscale_atbash": ("ZYXWVUTSRQ",),
           "h45_14_log_secret_sq0_targz": ("tar czf",),
           "h45_15_log_honest_lookalikes": ("xz -c sweep", "spreadsheetml", "x-xz", "lzma -c"),
           "h45_16_log_honest_chance_breaks72_100_mid_php": ("grab", "gzip", "php")}
_HEAD_LINES = 1


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings (any severity) against the lines holding the
    spelling; H-f: no secret finding of severity error or warning on the honest controls."""
    h44._PROBES, saved = _PROBES, h44._PROBES
    h44._CHANCE_RUNS[:] = []
    try:
        out = h44._secret_lines(root)
    finally:
        h44._PROBES = saved
    rows = out["rows"]
    if (root / "h45_16_log_honest_chance_breaks72_100_mid_php").exists():
        if not _CHANCE_RUNS:
            _chance_events()
        strong16 = set(rows["h45_16"]["strong_lines"])
        by_place: dict[str, int] = {}
        for i, (_p, place, _run) in enumerate(_CHANCE_RUNS):
            if (i + 1 + _HEAD_LINES) in strong16:
                by_place[place] = by_place.get(place, 0) + 1
        rows["h45_16"]["strong_by_place"] = by_place
    return out


def _undo45(text: str) -> list[str]:  # noqa: C901 - one decoder a spelling
    """This pass' spellings undone (the leak search)."""
    out: list[str] = []
    t = text.replace("\\n", "\n").replace("\\r", "\r").replace("\\u002B", "+") \
        .replace("\\/", "/")
    out.append(_atbash(t))
    joined = re.sub(r"([A-Za-z0-9+/_\-]{100}|[A-Za-z0-9+/_\-]{76}|[A-Za-z0-9+/_\-]{72})"
                    r"\r?\n(?=[A-Za-z0-9+/_\-])", r"\1", t)
    for run in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", joined):
        with contextlib.suppress(ValueError, binascii.Error):
            raw = base64.b64decode(run + "=" * (-len(run) % 4))
            out.append(raw.decode("latin-1"))
            for undo in (zlib.decompress, lzma.decompress,
                         lambda x: gzip.decompress(x).decode("latin-1").encode("latin-1"),
                         lambda x: b"".join(zipfile.ZipFile(io.BytesIO(x)).read(n) for n in
                                            zipfile.ZipFile(io.BytesIO(x)).namelist())):
                with contextlib.suppress(Exception):
                    out.append(undo(raw).decode("latin-1"))
    out += [t, joined]
    for block in re.findall(r"(?:^[0-9a-f]{2,60}\n)+", t + "\n", re.M):
        with contextlib.suppress(ValueError, zlib.error):
            out.append(zlib.decompress(bytes.fromhex(block.replace("\n", ""))).decode("latin-1"))
    for a85 in re.findall(r"<~.*?~>", t, re.S):
        with contextlib.suppress(Exception):
            out.append(gzip.decompress(base64.a85decode(a85, adobe=True)).decode("latin-1"))
    return out


def _decodings(text: str) -> list[str]:
    return h43._decodings(text) + h44._undo44(text) + _undo45(text)


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    controls' files written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h45_*.pub")):
        body = p.read_text("utf-8", "replace")
        strs: list[str] = []
        for line in body.splitlines():
            try:
                strs += h44._strings(json.loads(line))
            except (ValueError, RecursionError):
                continue
        joined = "".join(strs)
        texts = [body, "\n".join(strs), joined, *_decodings(joined), *_decodings(body),
                 *_decodings("\n".join(strs))]
        found = {s for s in SECRETS if any(s in x for x in texts)}
        rows[p.name] = sorted(found)
    honest = {n: (root / n).exists() for n in ("h45_15.pub", "h45_16.pub")}
    return {"check": "H-a withheld files hold no secret; H-f the honest logs published",
            "published": rows, "honest_published": honest,
            "met": not any(v for k, v in rows.items() if k not in honest)
            and all(honest.values())}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S45-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h45_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


def build(cache: Path) -> list[str]:
    """The inputs written, no product command run."""
    return [c for c, _ in cases(cache / "hostile")]


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session45 as s45
    if sys.argv[1:2] == ["build"]:
        print(json.dumps(build(s45.CACHE)))
    else:
        run(s45.CACHE, sys.argv[1:])
