"""Issue 15 classes of session 42's QA pass (docs/qa/session42.md): the classes session 42's
redact / spell / speed engineers work on (a key passed over inside base64 of binary data
redacted, never published; chance key runs in base64 of binary not flagged whatever precedes
them; keys in URL paths still refused; keys in new spellings read by family; escape-heavy logs
and chain shapes at their floor), each in a spelling no earlier pass, test or bench used (grep
of scripts/, tests/, bench/: no `od -t u4`, `hexdump -x`, rot47, base85 (RFC 1924),
UTF-32 base64, raw deflate, 76-column gzip base64, xz base64, JPEG COM, `image/jpeg`). Each
key is asserted a whole match of the product's own pattern. Every spelling sits in an
OBSERVATION (a tool's output), which `withhold` keeps public:

- h42_01 log_secret_age_od_u4: an age secret key (`AGE-SECRET-KEY-1` + 58) as `od -A d -t u4`
  (4-byte little-endian words as unsigned decimals, decimal offsets);
- h42_02 log_secret_ghpat_hexdump_x: a GitHub fine-grained token (`github_pat_` + 82) as
  `hexdump -x` (offset, then eight 2-byte little-endian words in 4-digit hex);
- h42_03 log_secret_slack_rot47: a Slack bot token (`xoxb-...`) as rot47 (every printable
  ASCII character turned 47 places);
- h42_04 log_secret_stripe_base85: a Stripe key (`sk_live_` + 40) as base85 (RFC 1924's
  alphabet, Python's `base64.b85encode`, git's binary patches);
- h42_05 log_secret_vault_utf32: a Vault token (`hvs.` + 90) in text converted to UTF-32LE and
  base64'd (`iconv -t UTF-32LE | base64 -w0`: three zero bytes in four);
- h42_06 log_secret_ghs_rawdeflate: a GitHub app token (`ghs_` + 36) in a JSON file compressed
  as RAW deflate (no zlib / gzip header: `pako.deflateRaw`, `zlib.compressobj(wbits=-15)`),
  base64'd;
- h42_07 log_secret_gocspx_gzip76: a Google OAuth client secret (`GOCSPX-` + 28) in a gzip'd
  .env, base64'd as `base64` writes by default: 76-column lines;
- h42_08 log_secret_shopify_xz: a Shopify token (`shpat_` + 32 hex) in an .env compressed with
  xz and base64'd (`/Td6WFo...`);
- h42_09 log_secret_anthropic_jpeg_com: an Anthropic key (`sk-ant-api03-` + 40) in a JPEG's COM
  segment (the comment an uploader writes), the JPEG as a `data:image/jpeg;base64,` URI: a key
  IN the decoded bytes with binary around it;
- h42_10 log_secret_ghp_glued_b64url: a GitHub token (`ghp_` + 36) GLUED into a base64url run
  of binary data (a letter before, 96 run characters on each side): the run a key rule passes
  over; `withhold` must redact, never publish (verify: a note at least);
- h42_11 log_secret_google_glued_jpeg: a Google API key (`AIza` + 35, letters and digits only)
  glued into the standard base64 of a JPEG data URI, the same way;
- h42_12 log_honest_lookalikes: no secret: each spelling above of honest text (an honest JPEG
  comment, an honest base64url blob); nothing may be flagged, `withhold` must publish;
- h42_13 log_honest_chance_jpeg_b64url: no secret: 240 tool outputs of base64 of JPEGs (data
  URIs) and base64url of gzip, each holding in the ENCODED text a run shaped as a key by chance
  (`AIza`, `AKIA`, `ASIA` in the standard alphabet; `ghp_`, `github_pat_`, `hf_`, `sk-`,
  `xoxb-`, `npm_`, `glpat-`, `AIza` in base64url), preceded in turn by `+`, `/`, `-`, `_`, a
  letter or a digit: nothing in the decoded bytes; nothing may be flagged, `withhold` must
  publish;
- h42_14 log_secret_keys_in_paths: an AWS key id glued inside an S3 object key's long token
  and a Google key glued inside a storage.googleapis.com path segment (96 token characters
  each side, a letter before, no `/` after): keys in URL paths / S3 keys, still refused;
- escape (timed alone): e_jpeg64_128mb (~16 KiB lines of `data:image/jpeg;base64,` screenshots
  of noise, one in eight holding a chance `AIza` / `AKIA` / `ASIA` run after `+` or `/`; the
  key an `sk-proj-` key in the last JPEG's COM segment), e_mime76_128mb (a mail tool's
  attachments: base64 of gzip'd text in 76-column lines ended `\\r\\n`, as MIME writes them: an
  escape every 78 bytes; the key a `GOCSPX-` secret in the last attachment);
- chain: `dotnetjson` (.NET System.Text.Json's default writer: every non-ASCII character,
  `"`, `'`, `+`, `<`, `>`, `&` and the backtick written `\\uXXXX` in UPPER-case hex; build
  logs and test results), 120,000 events.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import gzip
import json
import lzma
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
import qa_hostile_s39 as h39
import qa_hostile_s41 as h41

SAMPLE = h28.SAMPLE
EVAL_SECRET = "qa42-evaluator-secret-7c41"
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_B64URL = _ALNUM + "-_"
_B64STD = _ALNUM + "+/"


def _od_u4(b: bytes) -> str:
    """`od -A d -t u4`: 7-digit decimal offsets, four 4-byte little-endian words a row as
    unsigned decimals right-aligned in 10 columns (the last word zero-filled), the end offset."""
    n = len(b)
    b = b + b"\0" * (-len(b) % 4)
    rows = []
    for i in range(0, len(b), 16):
        ws = [struct.unpack("<I", b[j:j + 4])[0] for j in range(i, min(i + 16, len(b)), 4)]
        rows.append(f"{i:07d}" + "".join(f" {w:>10d}" for w in ws))
    return "\n".join([*rows, f"{n:07d}"])


def _un_od_u4(t: str) -> bytes:
    out = bytearray()
    for line in t.splitlines():
        parts = line.split()
        if len(parts) > 1 and all(p.isdigit() for p in parts):
            for p in parts[1:]:
                with contextlib.suppress(OverflowError, struct.error):
                    out += struct.pack("<I", int(p))
    return bytes(out)


def _hexdump_x(b: bytes) -> str:
    """`hexdump -x`: a 7-digit hex offset, then eight 2-byte little-endian words in 4 hex
    digits a row, each in a 5-wide field padded to 8 characters as hexdump writes them."""
    n = len(b)
    b = b + b"\0" * (len(b) % 2)
    rows = []
    for i in range(0, len(b), 16):
        ws = [struct.unpack("<H", b[j:j + 2])[0] for j in range(i, min(i + 16, len(b)), 2)]
        rows.append(f"{i:07x}" + "".join(f"    {w:04x}" for w in ws))
    return "\n".join([*rows, f"{n:07x}"])


def _un_hexdump_x(t: str) -> bytes:
    out = bytearray()
    for line in t.splitlines():
        parts = line.split()
        if len(parts) > 1 and all(re.fullmatch(r"[0-9a-f]{4}", p) for p in parts[1:]):
            for p in parts[1:]:
                out += struct.pack("<H", int(p, 16))
    return bytes(out)


def _rot47(t: str) -> str:
    return "".join(chr(33 + (ord(c) - 33 + 47) % 94) if 33 <= ord(c) <= 126 else c for c in t)


def _raw_deflate(b: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(b) + c.flush()


def _wrap76(s: str, eol: str = "\n") -> str:
    return eol.join(s[i:i + 76] for i in range(0, len(s), 76))


def _jpegs(n: int, seed: str, w: int = 48, h: int = 32, q: int = 3) -> list[bytes]:
    """n baseline JPEGs of noise (ffmpeg's mjpeg encoder, one call, fixed settings), split at
    their SOI markers: screenshots as an uploader's data URI holds them."""
    rng = random.Random(seed)
    raw = rng.randbytes(n * w * h * 3)
    out = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "rawvideo", "-pix_fmt",
                          "rgb24", "-s", f"{w}x{h}", "-r", "25", "-i", "-", "-threads", "1",
                          "-c:v", "mjpeg", "-q:v", str(q), "-pix_fmt", "yuvj420p", "-f",
                          "image2pipe", "-"], input=raw, capture_output=True, check=True).stdout
    parts = out.split(b"\xff\xd8\xff")
    jpgs = [b"\xff\xd8\xff" + p for p in parts if p]
    assert len(jpgs) == n, (len(jpgs), n)
    return jpgs


def _with_com(jpg: bytes, text: bytes) -> bytes:
    """The JPEG with a COM segment (FF FE, its length) after SOI holding `text`."""
    return jpg[:2] + b"\xff\xfe" + struct.pack(">H", len(text) + 2) + text + jpg[2:]


def _glue(rng: random.Random, key: str, alph: str, side: int = 96) -> str:
    """`key` glued into a run of `side` random characters of `alph` on each side, a lower-case
    letter right before and after it (the run a 'passed over as base64' rule reads)."""
    left = "".join(rng.choice(alph) for _ in range(side - 1)) + rng.choice("abcdefghjkmnpq")
    right = rng.choice("abcdefghjkmnpq") + "".join(rng.choice(alph) for _ in range(side - 1))
    return left + key + right


AGE = "AGE-SECRET-KEY-1" + "QA42ODTU4AGEKEY0AB1CD2EF3GH4IJ5KL6MN7OP8QR9ST0UV1WX2YZ3A4B"  # 01
AGE_X = "$ od -A d -t u4 ~/.config/sops/age/keys.txt\n" + _od_u4(
    ("# created: 2026-12-01\n" + AGE + "\n").encode())
GHPAT = "github_pat_" + "11QA42HEXDUMPX0aB1cD2eF3_gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF6" \
    "gH7iJ8kL9mN0oP1qR2sT3uV4"                                                       # 02
GHPAT_X = "$ hexdump -x ~/.config/gh/token\n" + _hexdump_x(("GH_TOKEN=" + GHPAT + "\n").encode())
XOXB = "xoxb-" + "4242424242-4242424242424-QA42rot47SlackBotTok0aB1"                  # 03
XOXB_R = "$ tr '!-~' 'P-~!-O' < slack.env\n" + _rot47("SLACK_BOT_TOKEN=" + XOXB)
SKL = "sk_live_" + "QA42base85Stripe0aB1cD2eF3gH4iJ5kL6mN7oP8"                        # 04
SKL_85 = "tool python3 returned: " + base64.b85encode(("STRIPE_KEY=" + SKL).encode()).decode()
HVS = "hvs." + "CAESIQA42utf32VaultToken0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3" \
    "GiEKHGh2cy5RQTQydXRmMzJ"                                                          # 05
HVS_32 = ("$ iconv -t UTF-32LE vault.env | base64 -w0\n"
          + base64.b64encode(("VAULT_TOKEN=" + HVS + "\n").encode("utf-32-le")).decode())
GHS = "ghs_" + "QA42rawDeflateGhApp0aB1cD2eF3gH4iJ5k"                                 # 06
GHS_D = ("tool node returned: "
         + base64.b64encode(_raw_deflate(json.dumps(
             {"installation": 42, "token": GHS, "expires_at": "2026-12-07T09:00:00Z"})
             .encode())).decode())
GOC = "GOCSPX-" + "QA42gzip76Google0aB1cD2eF3gH"                                      # 07
GOC_G = ("$ gzip -c client.env | base64\n"
         + _wrap76(base64.b64encode(gzip.compress(
             ("GOOGLE_CLIENT_ID=42-qa.apps.googleusercontent.com\nGOOGLE_CLIENT_SECRET="
              + GOC + "\n").encode(), mtime=0)).decode()))
SHP = "shpat_" + "4a42" + "0123456789abcdef0123456789ab"                                # 08
SHP_X = ("$ xz -c shop.env | base64 -w0\n"
         + base64.b64encode(lzma.compress(("SHOPIFY_ADMIN_TOKEN=" + SHP + "\n").encode()))
         .decode())
ANT = "sk-ant-api03-" + "QA42jpegComment0aB1cD2eF3gH4iJ5kL6mN7oP8q"                    # 09
_JPG_H = _jpegs(4, "h42-hostile")
ANT_J = ("$ screenshot --base64 --format jpeg --window game\ndata:image/jpeg;base64,"
         + base64.b64encode(_with_com(_JPG_H[0], b"uploader 3.2; ANTHROPIC_API_KEY=" + ANT.encode()))
         .decode())
GHP = "ghp_" + "QA42gluedB64url0aB1cD2eF3gH4iJ5kL6mN"                                 # 10
GHP_G = ("$ basenc --base64url -w0 frame.bin | tr -d =\n"
         + _glue(random.Random("h42_10"), GHP, _ALNUM + "-_"))
GOO = "AIza" + "SyQA42gluedJpegB64aB1cD2eF3gH4iJ5kL"                                   # 11
_G11 = base64.b64encode(_JPG_H[1]).decode()
GOO_G = ("$ screenshot --base64 --format jpeg --window game\ndata:image/jpeg;base64,"
         + _G11[:400] + "q" + GOO + "m" + _G11[400:])
AKI = "AKIA" + "QA42GLUEDS3PATH0"                                                         # 14
GOO2 = "AIza" + "SyQA42gluedGcsPath0aB1cD2eF3gH4iJ5k"
_r14 = random.Random("h42_14")
PATHS_14 = ("$ aws s3 ls s3://qa42-uploads/frames/ --recursive | tail -1\n"
            "2026-12-07 06:00:00      18342 frames/"
            + _glue(_r14, AKI, _ALNUM + "-_") + ".png\n"
            "$ curl -sI https://storage.googleapis.com/qa42-public/t/"
            + _glue(_r14, GOO2, _ALNUM + "-_") + "/frame.jpg | head -1\nHTTP/2 200")
for _k, _rx in ((AGE, r"AGE-SECRET-KEY-1[0-9A-Z]{58}"), (GHPAT, r"github_pat_[A-Za-z0-9_]{22,}"),
                (XOXB, r"xox[abposr]-[A-Za-z0-9\-]{10,}"), (SKL, r"sk_live_[A-Za-z0-9]{20,247}"),
                (HVS, r"hv[sb]\.[A-Za-z0-9_\-]{24,256}"), (GHS, r"gh[ousr]_[A-Za-z0-9]{36}"),
                (GOC, r"GOCSPX-[A-Za-z0-9_\-]{24,40}"), (SHP, r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
                (ANT, r"sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_\-]{20,}"),
                (GHP, r"ghp_[A-Za-z0-9]{30,}"), (GOO, r"AIza[0-9A-Za-z_\-]{35}"),
                (AKI, r"AKIA[0-9A-Z]{16}"), (GOO2, r"AIza[0-9A-Za-z_\-]{35}")):
    assert re.fullmatch(_rx, _k), _k  # each key a whole match of the product's own pattern
assert _un_od_u4(AGE_X.split("\n", 1)[1]).rstrip(b"\0").decode().endswith(AGE + "\n")
assert AGE.encode() in _un_hexdump_x(_hexdump_x(AGE.encode()))
assert _rot47(_rot47(XOXB)) == XOXB
assert GOO in GOO_G and GHP in GHP_G
WHOLE = (AGE, GHPAT, XOXB, SKL, HVS, GHS, GOC, SHP, ANT, GHP, GOO, AKI, GOO2)
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, *WHOLE, AGE_X.split("\n")[1][:40], GHPAT_X.split("\n")[1][:40],
           XOXB_R.split("\n")[1][:40], SKL_85[23:63], HVS_32.split("\n")[1][:40],
           GHS_D[20:60], GOC_G.split("\n")[1][:40], SHP_X.split("\n")[1][:40],
           AGE[16:48], GHPAT[11:43], HVS[4:40], ANT[13:45], GHP[4:36], GOO[4:36]]
SECRET_IDS = tuple(f"h42_{i:02d}" for i in (*range(1, 12), 14))


# -- honest look-alikes ------------------------------------------------------------------------
#: (prefix, characters after it, alphabet): a key's shape by chance in base64 (std: JPEG data
#: URIs) or base64url (gzip blobs)
_CHANCE = (("AIza", 35, "std"), ("AKIA", 16, "std"), ("ASIA", 16, "std"),
           ("ghp_", 36, "url"), ("github_pat_", 40, "url"), ("hf_", 34, "url"),
           ("sk-", 40, "url"), ("xoxb-", 30, "url"), ("npm_", 36, "url"), ("glpat-", 24, "url"),
           ("AIza", 35, "url"))
_BEFORE = {"std": ("+", "/", "q", "7"), "url": ("-", "_", "q", "7")}


def chance_run(rng: random.Random, prefix: str, n: int, alph: str, before: str) -> str:
    """`before` + prefix + n characters (+ a lower-case letter after AKIA / ASIA), 4-aligned:
    a key's shape by chance in the encoded text."""
    tail = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" if prefix in ("AKIA", "ASIA") else _ALNUM
    run = before + prefix + "".join(rng.choice(tail) for _ in range(n))
    run += "a" if prefix in ("AKIA", "ASIA") else ""
    return run + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(-len(run) % 4))


def chance_blob(rng: random.Random, prefix: str, n: int, alph: str, before: str,
                jpg: bytes | None = None, size: int = 1500) -> str:
    """base64 of a JPEG (std) or base64url of gzip'd noise (url, unpadded) with a chance
    key-shaped run written over a 4-aligned stretch of the ENCODED text (its bytes noise)."""
    run = chance_run(rng, prefix, n, alph, before)
    if alph == "std":
        enc = base64.b64encode(jpg or b"").decode()
    else:
        enc = base64.urlsafe_b64encode(gzip.compress(rng.randbytes(size), 1, mtime=0)) \
            .decode().rstrip("=")
    at = 4 * rng.randint(40, max(41, (len(enc) - len(run)) // 4 - 40))
    enc = enc[:at] + run + enc[at + len(run):]
    assert run in enc
    return enc


def _honest_events() -> list[dict]:
    ev = h28._events()
    obs = h34._obs(ev)
    r = random.Random("h42_12")
    obs[0]["data"]["summary"] = (
        "$ od -A d -t u4 notes.txt\n" + _od_u4(b"meet at the lamp when the rain stops\n")
        + "\n$ hexdump -x level.txt\n" + _hexdump_x(b"level nine: the gem turns gray\n")
        + "\n$ tr '!-~' 'P-~!-O' < hint.txt\n" + _rot47("press FIRE when the lamp is green")
        + "\ntool python3 returned: " + base64.b85encode(b"score 9100, lives 2").decode())
    obs[1]["data"]["summary"] = (
        "$ iconv -t UTF-32LE title.txt | base64 -w0\n"
        + base64.b64encode("Sørby — nivå 4\n".encode("utf-32-le")).decode()
        + "\ntool node returned: "
        + base64.b64encode(_raw_deflate(b'{"level": 4, "tint": "dusk"}')).decode()
        + "\n$ gzip -c notes.txt | base64\n"
        + _wrap76(base64.b64encode(gzip.compress(b"the rain falls slanting after 32 s\n" * 8,
                                                 mtime=0)).decode()))
    obs[2]["data"]["summary"] = (
        "$ xz -c state.env | base64 -w0\n"
        + base64.b64encode(lzma.compress(b"LIVES=3\nTINT=dusk\n")).decode()
        + "\n$ screenshot --base64 --format jpeg --window game\ndata:image/jpeg;base64,"
        + base64.b64encode(_with_com(_JPG_H[2], b"captured by screenshot 3.2; level 4"))
        .decode())
    obs[3]["data"]["summary"] = (
        "$ basenc --base64url -w0 frame.bin | tr -d =\n"
        + base64.urlsafe_b64encode(gzip.compress(r.randbytes(2048), 1, mtime=0))
        .decode().rstrip("=")
        + "\n$ screenshot --base64 --format jpeg --window game\ndata:image/jpeg;base64,"
        + base64.b64encode(_JPG_H[3]).decode())
    return ev


def _chance_events() -> list[dict]:
    """h42_13: 240 observations, each a tool's base64 of a JPEG or base64url of gzip with one
    chance key-shaped run in its encoded text, the character before it in turn `+` / `/` (std)
    or `-` / `_` (url), a letter or a digit."""
    from datetime import datetime, timedelta

    from moderator_app.core.samples.community import format_at

    ev = h28._events()
    rng = random.Random("h42_13")
    jpgs = _jpegs(240, "h42_13", w=40, h=32)
    head = [e for e in ev if e["type"] == "run_start"]
    tail = [e for e in ev if e["type"] == "run_end"]
    t0 = datetime.fromisoformat(head[0]["at"].replace("Z", "+00:00")) - timedelta(
        milliseconds=head[0]["elapsedMs"])
    body, at, seq = [], head[0]["elapsedMs"] + 100, head[0]["seq"] + 1
    for k in range(240):
        prefix, n, alph = _CHANCE[k % len(_CHANCE)]
        before = _BEFORE[alph][(k // len(_CHANCE)) % 4]
        blob = chance_blob(rng, prefix, n, alph, before, jpgs[k], rng.randint(1024, 3072))
        tool = ("$ screenshot --base64 --format jpeg --window game\ndata:image/jpeg;base64,"
                if alph == "std" else "$ basenc --base64url -w0 frame.gz | tr -d =\n")
        body.append({"seq": seq, "at": format_at(t0 + timedelta(milliseconds=at)),
                     "elapsedMs": at, "type": "observation",
                     "data": {"summary": f"{tool}{blob}"}})
        seq, at = seq + 1, at + 10
    for e in tail:
        e["seq"] = seq
        e["elapsedMs"] = at + 10
        e["at"] = format_at(t0 + timedelta(milliseconds=at + 10))
    return [*head, *body, *tail]


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input of the hostile harness."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa42 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    texts = [("h42_01_log_secret_age_od_u4", 0, AGE_X),
             ("h42_02_log_secret_ghpat_hexdump_x", 1, GHPAT_X),
             ("h42_03_log_secret_slack_rot47", 2, XOXB_R),
             ("h42_04_log_secret_stripe_base85", 3, SKL_85),
             ("h42_05_log_secret_vault_utf32", 0, HVS_32),
             ("h42_06_log_secret_ghs_rawdeflate", 1, GHS_D),
             ("h42_07_log_secret_gocspx_gzip76", 2, GOC_G),
             ("h42_08_log_secret_shopify_xz", 3, SHP_X),
             ("h42_09_log_secret_anthropic_jpeg_com", 0, ANT_J),
             ("h42_10_log_secret_ghp_glued_b64url", 1, GHP_G),
             ("h42_11_log_secret_google_glued_jpeg", 2, GOO_G),
             ("h42_14_log_secret_keys_in_paths", 3, PATHS_14)]
    for name, k, text in texts:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    add("h42_12_log_honest_lookalikes", _honest_events())
    add("h42_13_log_honest_chance_jpeg_b64url", _chance_events())
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


_PROBES = {"h42_01_log_secret_age_od_u4": ("od -A d",),
           "h42_02_log_secret_ghpat_hexdump_x": ("hexdump -x",),
           "h42_03_log_secret_slack_rot47": ("P-~!-O",),
           "h42_04_log_secret_stripe_base85": ("tool python3 returned",),
           "h42_05_log_secret_vault_utf32": ("UTF-32LE",),
           "h42_06_log_secret_ghs_rawdeflate": ("tool node returned",),
           "h42_07_log_secret_gocspx_gzip76": ("gzip -c",),
           "h42_08_log_secret_shopify_xz": ("xz -c",),
           "h42_09_log_secret_anthropic_jpeg_com": ("image/jpeg;base64",),
           "h42_10_log_secret_ghp_glued_b64url": ("base64url",),
           "h42_11_log_secret_google_glued_jpeg": ("image/jpeg;base64",),
           "h42_14_log_secret_keys_in_paths": ("s3://",),
           "h42_12_log_honest_lookalikes": ("od -A d", "UTF-32LE", "xz -c", "base64url"),
           "h42_13_log_honest_chance_jpeg_b64url": ("base64",)}


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings (any severity, each recorded) against the lines
    holding the spelling (h42_01-11, 14); H-f: no secret finding of severity error or warning
    on the honest controls (h42_12, h42_13; notes listed apart)."""
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
        honest = "honest" in name
        out[name[:6]] = {"exit": code, "verdict": rep.get("verdict"), "secret_lines": lines[:8],
                         "warned_lines": got[:12], "n_found": len(found),
                         "severities": sorted({str(x.get("severity")) for x in found}),
                         "rules": sorted({x.get("rule") for x in found}),
                         "labels": sorted({str(x.get("message", ""))[:70] for x in found})[:6],
                         "met": (not strong) if honest else bool(set(lines) & set(got))}
    return {"check": "H-s spelled secrets flagged; H-f honest controls not",
            "rows": out, "met": all(v["met"] for v in out.values())}


def _undo42(text: str) -> list[str]:  # noqa: C901 - one decoder a spelling
    """This pass' spellings undone (the leak search): od -t u4, hexdump -x, rot47, base85,
    UTF-32LE base64, raw deflate / gzip / xz base64 (76-column lines joined), JPEG COM."""
    out: list[str] = []
    t = text.replace("\\n", "\n").replace("\\r", "\r")
    out.append(_un_od_u4(t).decode("latin-1"))
    out.append(_un_hexdump_x(t).decode("latin-1"))
    out.append(_rot47(t))
    for run in re.findall(r"[0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]{20,}", t):
        with contextlib.suppress(ValueError):
            out.append(base64.b85decode(run).decode("latin-1"))
    joined = re.sub(r"([A-Za-z0-9+/]{76})\r?\n(?=[A-Za-z0-9+/])", r"\1", t)
    for run in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", joined):
        with contextlib.suppress(ValueError, binascii.Error):
            raw = base64.b64decode(run + "=" * (-len(run) % 4))
            out += [raw.decode("latin-1"), raw.decode("utf-32-le", "replace")]
            for undo in (lambda x: zlib.decompress(x, -15), gzip.decompress, lzma.decompress,
                         zlib.decompress):
                with contextlib.suppress(Exception):
                    out.append(undo(raw).decode("latin-1"))
    return out


def _decodings(text: str) -> list[str]:
    return h41._decodings(text) + _undo42(text)


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    controls' files written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h42_*.pub")):
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
    honest = {n: (root / n).exists() for n in ("h42_12.pub", "h42_13.pub")}
    return {"check": "H-a withheld files hold no secret; H-f the honest logs published",
            "published": rows, "honest_published": honest,
            "met": not any(v for k, v in rows.items() if k not in honest)
            and all(honest.values())}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S42-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h42_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


# -- escape-heavy logs, timed (s35's builder and s34's timer with this pass' spellings) ---------
ESCAPE = {"e_jpeg64_128mb": 128 << 20, "e_mime76_128mb": 128 << 20}
PROJ = "sk-proj-" + "QA42jpegEscapeKey0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV"
GOC2 = "GOCSPX-" + "QA42mime76Escape0aB1cD2eF3gH"
for _k, _rx in ((PROJ, r"sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_\-]{20,}"),
                (GOC2, r"GOCSPX-[A-Za-z0-9_\-]{24,40}")):
    assert re.fullmatch(_rx, _k), _k
_POOL: dict = {}


def _jpeg_pool() -> list[bytes]:
    """4,096 JPEGs of noise (96x72, q 2: ~12-16 KiB of base64 each), made once a process."""
    if "jpg" not in _POOL:
        _POOL["jpg"] = _jpegs(4096, "e_jpeg64", w=96, h=72, q=2)
    return _POOL["jpg"]


def _mime_text(rng: random.Random, size: int) -> str:
    words = [" ".join(rng.choice(h34._WORDS) for _ in range(rng.randint(4, 14)))
             for _ in range(size // 60)]
    return "\n".join(words)


def _escape_text(case: str, rng: random.Random) -> str:
    if case.startswith("e_jpeg64"):
        pool = _jpeg_pool()
        jpg = pool[rng.randrange(len(pool))]
        head = "$ screenshot --base64 --format jpeg --window game\ndata:image/jpeg;base64,"
        if rng.random() < 0.125:
            prefix, n, _ = _CHANCE[rng.randrange(3)]
            return head + chance_blob(rng, prefix, n, "std", rng.choice("+/"), jpg)
        return head + base64.b64encode(jpg).decode()
    body = gzip.compress(_mime_text(rng, 36000).encode(), 6, mtime=0)
    return ("$ mail-export --attachments 42\nContent-Type: application/gzip\n"
            "Content-Transfer-Encoding: base64\r\n\r\n"
            + _wrap76(base64.b64encode(body).decode(), "\r\n"))


def _escape_key(case: str) -> str:
    if case.startswith("e_jpeg64"):
        return ("data:image/jpeg;base64," + base64.b64encode(
            _with_com(_jpeg_pool()[7], b"OPENAI_API_KEY=" + PROJ.encode())).decode())
    return _wrap76(_mime_key_b64(), "\r\n")


def _mime_key_b64() -> str:
    return base64.b64encode(gzip.compress(("GOOGLE_CLIENT_SECRET=" + GOC2 + "\n").encode(),
                                          6, mtime=0)).decode()


def build_escape(root: Path, case: str) -> dict:
    h35._escape_text, h35._escape_key = _escape_text, _escape_key
    h35.ESCAPE.update(ESCAPE)
    return h35.build_escape(root, case)


def check_escape(root: Path, case: str) -> dict:
    """qa_hostile_s34.check_escape (CPU scaled to 512 MiB against 30 s; the key on the last
    line flagged, not published) on this pass' logs, under s37's 600 s wall (s39's _timed600),
    plus every line `verify` flags (the honest lines' false flags)."""
    build_escape(root, case)
    h34.build_escape = build_escape
    h34.TSK, h34.TSK_U = {"e_jpeg64": (PROJ, base64.b64encode(b"OPENAI_API_KEY=" + PROJ.encode())
                                       .decode()),
                          "e_mime76": (GOC2, _mime_key_b64())}[case.rsplit("_", 1)[0]]
    h34._decodings = _decodings_tail
    h34._timed = _timed_full
    h34.EVAL_SECRET = EVAL_SECRET
    return h34.check_escape(root, case)


def _timed_full(argv: list[str], env: dict) -> dict:
    """s39's `_timed600` keeping verify's whole stdout: its last 4,000 characters are not JSON
    once a report is longer (this pass' e_jpeg64 and QA s40's e_b64gz: `secret_lines` read []
    while verify named the key; found at 07:41, see the doc's section 4)."""
    out = h39._timed600(argv, env)
    if out["stdout"].startswith("{") or len(out["stdout"]) < 4000:
        return out
    import resource
    import time

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(["prlimit", "--as=536870912", "timeout", "600", *h34.CLI, *argv],
                       env=env, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {**out, "stdout": p.stdout, "cpu_s_again": round(cpu, 2),
            "wall_s_again": round(time.monotonic() - t0, 2)}


def _decodings_tail(text: str) -> list[str]:
    """The leak search on the escape logs' tail: base64 runs decoded (a JPEG's COM segment read
    as bytes; gzip inflated), 76-column lines joined first, and s41's spellings."""
    return h41._decodings_png(text) + _undo42(text)


# -- the official chain on a held-out payload shape ---------------------------------------------
_NAMES = ("Zoë", "Łukasz", "Søren", "Jürgen", "Ñandú", "Émilie", "Ōsaka", "Þór", "İlker", "Čapek")
_MSGS = ("error CS0246: The type or namespace name 'Foo' could not be found",
         "warning CA1822: Member 'Run' does not access instance data",
         "Assert.Equal() Failure: Expected: \"<null>\" Actual: \"a+b\"",
         "C++ interop: `std::vector<int>&` passed by ref",
         "Build succeeded. 0 Warning(s) & 0 Error(s)",
         "Test 'Game.Tests.Score(\"x+y\")' failed: expected <1> but was <2>")


def _dotnetjson_payload(rng: random.Random, size: int) -> dict:
    """A .NET harness' build and test output: messages full of quotes, apostrophes, `+`, `<>`,
    `&` and backticks; authors' names with accents; durations as floats."""
    out, used = [], 0
    while used < size - 120:
        item = {"Project": f"Game.{rng.choice(('Core', 'Tests', 'Ui'))}.csproj",
                "Message": rng.choice(_MSGS) + f" (line {rng.randint(1, 999)})",
                "Author": rng.choice(_NAMES), "Duration": round(rng.uniform(0, 9), rng.randint(1, 6)),
                "Passed": rng.random() < 0.8}
        out.append(item)
        used += len(json.dumps(item)) + 40
    return {"Tool": "dotnet test", "Results": out}


def _dotnet_str(s: str) -> str:
    """System.Text.Json's default (JavaScriptEncoder.Default): `"` `'` `+` `<` `>` `&` and the
    backtick as \\uXXXX, every non-ASCII character too, hex in upper case; `\\n` `\\r` `\\t`
    `\\\\` short."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch in "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or o > 0x7E or ch in "\"'+<>&`":
            if o > 0xFFFF:
                o -= 0x10000
                out.append(f"\\u{0xD800 + (o >> 10):04X}\\u{0xDC00 + (o & 0x3FF):04X}")
            else:
                out.append(f"\\u{o:04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _dotnet_dumps(v) -> str:
    if isinstance(v, dict):
        return "{" + ",".join(_dotnet_str(k) + ":" + _dotnet_dumps(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_dotnet_dumps(x) for x in v) + "]"
    if isinstance(v, str):
        return _dotnet_str(v)
    return json.dumps(v)


assert json.loads(_dotnet_dumps({"a": "x+\"y'<z>&`é😀"})) == {"a": "x+\"y'<z>&`é😀"}
CHAIN_SHAPES42 = {"dotnetjson": _dotnetjson_payload}
CHAIN_ENCODE42 = {"dotnetjson": lambda ev: _dotnet_dumps(ev).encode()}


def _chain_install() -> None:
    import qa_session26 as s26
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES42)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE42)


def build_chain42(shape: str) -> Path:
    import qa_session26 as s26
    _chain_install()
    return s26.build_chain(shape)


def check_chain42(shape: str) -> dict:
    import qa_session26 as s26
    _chain_install()
    return s26.check_chain(shape)


def jcs_check42(shape: str, n: int = 2000) -> dict:
    """The chain's truth apart from the product: qa_session35's RFC 8785 writer against the
    product's `canonical_json` on the first n payloads."""
    import qa_session35 as s35
    s35.CHAIN_SHAPES35.update(CHAIN_SHAPES42)
    s35.build_chain35 = lambda s: build_chain42(s)
    return s35.jcs_check(shape, n)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session42 as s42
    run(s42.CACHE, sys.argv[1:])
