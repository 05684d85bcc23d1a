"""Issue 15 classes of session 46's QA pass (docs/qa/session46.md): the classes session 46's
redact / spell engineers work on, each in a family, pad, escape or spelling of this pass' own
(grep of scripts/, tests/, bench/ at 21:44 UTC: no `\\u002F` escape, no JSON-in-JSON `\\\\/`
base64, no percent-encoded (`%2F`) base64, no `od -An -tx1` hex of gzip, no frameless
ascii85 of zlib, no base62 of text holding `fo1_`, no bzip2 / xz bomb flood, no key after 2.5
MiB in one xz line, no key past 11 MiB of a file's inflated lines; pads of md5 hex, counting
digits, `NO`, `_`, `A` x 64 around SendGrid / Stripe test / AWS session / JWT / Grafana
keys: none). Each key is asserted a whole match of the product's own pattern
(secrets_read.FAMILIES at aeca8af). Every spelling sits in an OBSERVATION (a tool's output),
which `withhold` keeps public:

- *redact*'s class (a glued key between pads; review s45 R2 named Stripe live, npm, Replicate,
  Databricks, Mailgun, Alibaba, Telegram: none of those here):
  - h46_01 SendGrid (`SG.`) between two md5 HEX pads (an etag glued either side);
  - h46_02 Stripe restricted TEST key (`rk_test_`) between COUNTING-DIGIT pads
    (`0123456789` x 2 either side);
  - h46_03 AWS session key id (`ASIA`) between UPPER-CASE `NO` x 8 pads;
  - h46_04 a JSON web token (`eyJ`) between UNDERSCORE pads (`_` x 12: in the token's own
    alphabet, so the lookbehind fails and the last segment swallows the right pad);
  - h46_05 Grafana (`glc_`) between `A` x 64 pads (base64 of zeros: the greedy 400-char match
    swallows the right pad);
  - h46_06 `sk-` glued in base64 of a JPEG written by a JSON writer that escapes `/` as
    `\\u002F` and breaks every 64 columns with an escaped `\\n` (a PEM body), the key across
    a break (QA s45 T5's class: PHP's `\\/` and `\\r\\n` at 76);
  - h46_07 xAI (`xai-`) glued in base64 of a PNG in JSON INSIDE JSON (PHP chunk_split's
    output escaped twice: `\\\\\\/` and `\\\\r\\\\n` every 76 columns), the key across a break;
- *spell*'s class:
  - h46_08 the per-file allowance: 12 honest tool outputs of ~900 KiB of JSON lines each in
    zlib (10.5 MiB inflated), THEN Figma (`figd_`) after 200 KiB of text in gzip on the 13th;
  - h46_09 a bomb flood: 2,400 lines of bzip2 / xz / zstd bombs (1 MiB of zeros each, as data
    URIs), then Netlify (`nfp_`) in a small gzip line at the end (30 s, 512 MiB);
  - h46_10 RubyGems (`rubygems_`) after 2.5 MiB of text in ONE xz line (the line budget);
  - h46_11 Supabase (`sbp_`) as `od -An -tx1` (spaced, 16 bytes a row) hex of gzip;
  - h46_12 Perplexity (`pplx-`) as FRAMELESS ascii85 of zlib (Python's a85encode, 76 columns);
  - h46_13 Fly.io (`fo1_`) as base62 of a .env, Grafana service account (`glsa_`) as base58;
  - h46_14 verify = withhold: Hugging Face org (`api_org_`) as UPPER-CASE hex of zlib, its
    rows joined by escaped `\\n` inside a JSON string (`xxd -u -p` captured by a tool);
- honest:
  - h46_15 honest control: each spelling above of honest text (od hex of gzip, frameless a85
    of zlib, base58 / base62 of notes, 1.9 MiB of CSV in one gzip line, `\\u002F` 64-column
    base64 of a PNG, JSON-in-JSON base64 of a JPEG), and glued look-alikes of the families
    redact works on (`hockey-` / `turkey-` / `whiskey-` + md5 (Mailgun's `key-`),
    `disk_live_` + 24 hex (Stripe's `sk_live_`), `work_test_` + words (`rk_test_`),
    `ALTAIRnavigationBeacon7` (Alibaba's `LTAI`), `/.pnpm_` + 36 alnum (npm's `npm_`));
  - h46_16 honest look-alikes at scale: 200 tool outputs, each a chance key-shaped run written
    over the ENCODED text of honest binary data, 50 each: in `\\u002F`-escaped base64, in
    JSON-in-JSON (`\\\\\\/`) base64, in PERCENT-encoded base64 (`%2B`, `%2F`: a URL query),
    across an escaped `\\n` of 64-column base64 in a JSON string;
  - h46_17 the allowance's price (reported apart, not judged): 14 honest tool outputs of
    ~900 KiB of JSON lines each in zlib (12.3 MiB inflated), nothing else.
"""

from __future__ import annotations

import base64
import binascii
import bz2
import contextlib
import gzip
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

EVAL_SECRET = "qa46-evaluator-secret-7c31"
_ALNUM = h42._ALNUM
_HEX = "0123456789abcdef"
_wrapn = h43._wrapn
_r = random.Random("h46-keys")


def _rand(alph: str, n: int) -> str:
    return "".join(_r.choice(alph) for _ in range(n))


def _od_x1(b: bytes) -> str:
    """`od -An -tx1`: 16 bytes a row, each as ` hh`."""
    return "\n".join("".join(f" {x:02x}" for x in b[i:i + 16]) for i in range(0, len(b), 16))


def _jsonl_pad(n_bytes: int, seed: str) -> str:
    """Honest JSON lines (a tick log with varying numbers) of about n_bytes."""
    rng = random.Random(seed)
    out, size, i = [], 0, 0
    while size < n_bytes:
        line = (f'{{"i":{i},"t":{i * 17 + rng.randint(0, 16)},"score":{rng.randint(0, 99999)},'
                f'"x":{rng.randint(0, 159)},"y":{rng.randint(0, 209)},"ok":true}}\n')
        out.append(line)
        size += len(line)
        i += 1
    return "".join(out)


def _csv_pad(n_bytes: int, seed: str) -> str:
    rng = random.Random(seed)
    out, size, i = ["frame,score,lives,x,y\n"], 0, 0
    while size < n_bytes:
        line = f"{i},{rng.randint(0, 99999)},{rng.randint(0, 5)},{rng.randint(0, 159)}," \
               f"{rng.randint(0, 209)}\n"
        out.append(line)
        size += len(line)
        i += 1
    return "".join(out)


def _escape_u2f64(b64: str) -> str:
    """A JSON writer that spells `/` as `\\u002F` and breaks every 64 columns (escaped)."""
    return "\\n".join(b64[i:i + 64].replace("/", "\\u002F") for i in range(0, len(b64), 64))


def _json_in_json_76(b64: str) -> str:
    """PHP's chunk_split (76 + CRLF), json_encode'd (`\\/`, `\\r\\n`), then json_encode'd
    again (every backslash doubled, `/` escaped once more)."""
    once = "".join(b64[i:i + 76].replace("/", "\\/") + "\\r\\n" for i in range(0, len(b64), 76))
    return once.replace("\\", "\\\\").replace("/", "\\/")


# -- the keys and their spellings ---------------------------------------------------------------
_MD5A, _MD5B = _rand(_HEX, 32), _rand(_HEX, 32)
SG1 = "SG." + "QA46md5Glued" + _rand(_ALNUM, 10) + "." + _rand(_ALNUM + "_-", 43)           # 01
SG1_T = "$ curl -sI https://cdn.example/asset | grep -i etag\nETag: W/" + _MD5A + SG1 + _MD5B
RKT2 = "rk_test_" + "QA46countPad" + _rand(_ALNUM, 20)                                    # 02
RKT2_T = "$ ./seed --fixed-width\nSEED " + "0123456789" * 2 + RKT2 + "0123456789" * 2
ASIA3 = "ASIA" + "QA46" + _rand("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 12)                    # 03
ASIA3_T = ("$ env | grep AWS\nAWS_ACCESS_KEY_ID=" + "NO" * 8 + ASIA3 + "NO" * 8
           + "\nAWS_SECRET_ACCESS_KEY=(unset)")
JWT4 = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "eyJzdWIiOiJxYTQ2IiwiZXhwIjo0MTAyNDQ0ODAwfQ"
        + "." + _rand(_ALNUM + "_-", 43))                                                   # 04
JWT4_T = "$ ./login --print-session\nsession=" + "_" * 12 + JWT4 + "_" * 12
GLC5 = "glc_" + "QA46zeroPadB64" + _rand(_ALNUM, 46)                                       # 05
GLC5_T = "$ base64 -w0 < grafana.blob\n" + "A" * 64 + GLC5 + "A" * 64
SK6 = "sk-" + "QA46u002Fpem" + _rand(_ALNUM, 36)                                           # 06
_J6 = base64.b64encode(h42._jpegs(1, "h46_06", w=80, h=60)[0]).decode()
_J6G = h44._glue_at(_J6, 64 * 9 - 18, SK6, random.Random("h46_06"))
SK6_T = ("$ pem-export --json frame.jpg\n" + '{"type":"IMAGE","body":"' + _escape_u2f64(_J6G)
         + '"}')
XAI7 = "xai-" + "QA46jsonInJson" + _rand(_ALNUM, 66)                                       # 07
_P7 = base64.b64encode(h43._pngs(1, "h46_07", w=56, h=44)[0]).decode()
_P7G = h44._glue_at(_P7, 76 * 13 - 30, XAI7, random.Random("h46_07"))
XAI7_T = ("$ curl -s api/last-response | jq -c .\n" + '{"body":"{\\"img\\":\\"'
          + _json_in_json_76(_P7G) + '\\"}"}')
FIGD = "figd_" + "QA46pastAllowance" + _rand(_ALNUM + "_-", 23)                             # 08
FIGD_T = ("$ gzip -c design.log | base64 -w0\n" + base64.b64encode(gzip.compress(
    (_jsonl_pad(200 * 1024, "h46_08k") + "FIGMA_TOKEN=" + FIGD + "\n").encode(), 6, mtime=0))
    .decode())
NFP = "nfp_" + "QA46afterBombs" + _rand(_ALNUM, 22)                                        # 09
NFP_T = ("$ gzip -c netlify.env | base64 -w0\n"
         + base64.b64encode(gzip.compress(("NETLIFY_AUTH_TOKEN=" + NFP + "\n").encode(),
                                          mtime=0)).decode())
RBG = "rubygems_" + "".join(_r.choice(_HEX) for _ in range(48))                          # 10
_PAD25 = h45._notes(int(2.5 * 1024 * 1024) // 69 + 1, "sweep46")
assert len(_PAD25) > 2.5 * 1024 * 1024
RBG_T = ("$ xz -c gem-push.log | base64 -w0\n"
         + base64.b64encode(lzma.compress((_PAD25 + "GEM_HOST_API_KEY=" + RBG + "\n").encode()))
         .decode())
SBP = "sbp_" + "".join(_r.choice(_HEX) for _ in range(40))                               # 11
SBP_T = ("$ gzip -c supabase.env | od -An -tx1\n"
         + _od_x1(gzip.compress(("SUPABASE_ACCESS_TOKEN=" + SBP + "\n").encode(), mtime=0)))
PPLX = "pplx-" + "QA46a85zlib" + _rand(_ALNUM, 37)                                          # 12
PPLX_T = ("$ python3 -c 'import base64,zlib,sys; print(base64.a85encode(zlib.compress("
          "sys.stdin.buffer.read()), wrapcol=76).decode())' < pplx.env\n"
          + base64.a85encode(zlib.compress(("PERPLEXITY_API_KEY=" + PPLX + "\n").encode(), 9),
                             wrapcol=76).decode())
FO1 = "fo1_" + "QA46base62Fly" + _rand(_ALNUM + "_-", 30)                                  # 13
GLSA = "glsa_" + "QA46base58Grafana" + _rand(_ALNUM, 24)
FO1_T = ("$ base62 < fly.env\n" + h41._b62(("FLY_API_TOKEN=" + FO1 + "\n").encode())
         + "\n$ base58 < grafana.env\n" + h40._b58("GRAFANA_SA_TOKEN=" + GLSA + "\n"))
APO = "api_org_" + "QA46upperHexEsc" + _rand(_ALNUM, 19)                                   # 14
_HX14 = zlib.compress(("HF_ORG_TOKEN=" + APO + "\n").encode(), 9).hex().upper()
APO_T = ('$ runner --capture "xxd -u -p <(zlib-flate -compress < hf.env)"\n'
         + '{"exit":0,"stdout":"' + "\\n".join(_HX14[i:i + 60]
                                              for i in range(0, len(_HX14), 60)) + '\\n"}')
for _k, _rx in ((SG1, r"SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}"),
                (RKT2, r"[rs]k_test_[A-Za-z0-9]{20,247}"),
                (ASIA3, r"(?:ASIA|ABIA|ACCA)[0-9A-Z]{16}"),
                (JWT4, r"eyJ[A-Za-z0-9_\-]{8,2048}\.eyJ[A-Za-z0-9_\-]{8,2048}\."
                       r"[A-Za-z0-9_\-]{8,2048}"),
                (GLC5, r"glc_[A-Za-z0-9_+/=]{32,400}"), (SK6, r"sk-[A-Za-z0-9_\-]{20,}"),
                (XAI7, r"xai-[A-Za-z0-9]{70,90}"), (FIGD, r"figd_[A-Za-z0-9_\-]{40}"),
                (NFP, r"nfp_[A-Za-z0-9]{36}"), (RBG, r"rubygems_[a-f0-9]{48}"),
                (SBP, r"sbp_[a-f0-9]{40}"), (PPLX, r"pplx-[A-Za-z0-9]{48}"),
                (FO1, r"fo1_[A-Za-z0-9_\-]{43}"), (GLSA, r"glsa_[A-Za-z0-9_]{32,64}"),
                (APO, r"api_org_[A-Za-z0-9]{34}")):
    assert re.fullmatch(_rx, _k), _k   # each key a whole match of the product's own pattern
assert SK6 in _J6G and SK6 not in SK6_T and SK6_T.count("\\u002F") > 5
assert XAI7 in _P7G and XAI7 not in XAI7_T and XAI7_T.count("\\\\\\/") > 3
WHOLE = (SG1, RKT2, ASIA3, JWT4, GLC5, SK6, XAI7, FIGD, NFP, RBG, SBP, PPLX, FO1, GLSA, APO)
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, *WHOLE,
           SG1[3:35], RKT2[8:28], JWT4[-40:], GLC5[4:36], SK6[3:35], XAI7[4:36], FIGD[5:37],
           NFP[4:36], RBG[9:41], SBP[4:36], PPLX[5:37], FO1[4:36], GLSA[5:37], APO[8:40],
           RBG_T.split("\n")[1][-40:], FIGD_T.split("\n")[1][-40:], NFP_T.split("\n")[1][-40:],
           SBP_T.split("\n")[1][:40], PPLX_T.split("\n")[1][:40], FO1_T.split("\n")[1][:40],
           _HX14[:40]]


# -- logs with many observations -----------------------------------------------------------------
def _obs_events(texts: list[str]) -> list[dict]:
    """The harness' log with its observations replaced by `texts` (one observation a line),
    timed 10 ms apart after run_start (h45_16's layout)."""
    from datetime import datetime, timedelta

    from moderator_app.core.samples.community import format_at

    ev = h28._events()
    head = [e for e in ev if e["type"] == "run_start"]
    tail = [e for e in ev if e["type"] == "run_end"]
    t0 = datetime.fromisoformat(head[0]["at"].replace("Z", "+00:00")) - timedelta(
        milliseconds=head[0]["elapsedMs"])
    body, at, seq = [], head[0]["elapsedMs"] + 100, head[0]["seq"] + 1
    for text in texts:
        body.append({"seq": seq, "at": format_at(t0 + timedelta(milliseconds=at)),
                     "elapsedMs": at, "type": "observation", "data": {"summary": text}})
        seq, at = seq + 1, at + 10
    for e in tail:
        e["seq"] = seq
        e["elapsedMs"] = at + 10
        e["at"] = format_at(t0 + timedelta(milliseconds=at + 10))
    return [*head, *body, *tail]


def _big_zlib_lines(n: int, tag: str) -> list[str]:
    return [f"$ zlib-flate -compress < ticks-{i:02d}.jsonl | base64 -w0\n"
            + base64.b64encode(zlib.compress(_jsonl_pad(900 * 1024, f"{tag}/{i}").encode(), 6))
            .decode() for i in range(n)]


def _bombs(n: int) -> list[str]:
    """n data URIs, each 1 MiB of zeros in bzip2 / xz / zstd (in turn)."""
    import zstandard

    zero = bytes(1 << 20)
    kinds = [("application/x-bzip2", bz2.compress(zero, 9)),
             ("application/x-xz", lzma.compress(zero)),
             ("application/zstd", zstandard.ZstdCompressor(level=19).compress(zero))]
    out = []
    for i in range(n):
        mime, blob = kinds[i % 3]
        out.append(f"$ dump --part {i}\ndata:{mime};base64," + base64.b64encode(blob).decode())
    return out


# -- honest look-alikes ------------------------------------------------------------------------
_B64 = _ALNUM + "+/"
_PLACES46 = ("u002f", "jsonjson", "percent", "esc64")


def chance_text(rng: random.Random, k: int, place: str, blob: bytes) -> tuple[str, str]:
    """(tool output, run): a chance key-shaped run written over the ENCODED text of honest
    binary data. u002f: `/` written `\\u002F`; jsonjson: PHP's `\\/` base64 escaped again
    (`\\\\\\/`); percent: a URL query's base64 (`%2B`, `%2F`, `%3D`); esc64: across an escaped
    `\\n` of 64-column base64 in a JSON string."""
    prefix, n = h44._STD[k % len(h44._STD)]
    run = h44._chance_run(rng, prefix, n, _B64)
    enc = base64.b64encode(blob).decode()
    if place == "esc64":
        line = rng.randint(2, max(2, len(enc) // 64 - 2))
        at = line * 64 - len(run) // 2
        enc = enc[:at] + run + enc[at + len(run):]
        return ("$ pem-export --json blob.bin\n" + '{"body":"'
                + "\\n".join(enc[i:i + 64] for i in range(0, len(enc), 64)) + '"}'), run
    at = rng.randint(len(enc) // 4, len(enc) * 3 // 4)
    enc = enc[:at] + run + enc[at + len(run):]
    if place == "u002f":
        return ("$ dotnet run -- dump --json\n" + '{"raw":"' + enc.replace("/", "\\u002F")
                + '"}'), run
    if place == "jsonjson":
        return ("$ curl -s api/last | jq -c .\n" + '{"body":"{\\"raw\\":\\"'
                + enc.replace("/", "\\\\\\/") + '\\"}"}'), run
    q = enc.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    return "$ echo $REDIRECT_URL\nhttps://game.example/resume?state=" + q + "&v=2", run


_CHANCE_RUNS: list = []


def _chance_events() -> list[dict]:
    """h46_16: 200 observations, each a chance key-shaped run (chance_text's places)."""
    rng = random.Random("h46_16")
    texts, runs = [], []
    for k in range(200):
        place = _PLACES46[k % 4]
        if place == "esc64":
            blob = gzip.compress(rng.randbytes(rng.randint(1500, 3000)), 1, mtime=0)
        else:
            blob = rng.randbytes(rng.randint(2048, 5120))
        text, run = chance_text(rng, k // 4, place, blob)
        runs.append((run[:6], place, run))
        texts.append(text)
    _CHANCE_RUNS[:] = runs
    return _obs_events(texts)


def _honest_events() -> list[dict]:
    ev = h28._events()
    obs = h34._obs(ev)
    hr = random.Random("h46_15")
    obs[0]["data"]["summary"] = (
        "$ gzip -c hint.txt | od -An -tx1\n"
        + _od_x1(gzip.compress(b"hold FIRE while the demons split, then move LEFT\n", mtime=0))
        + "\n$ python3 -c '...a85encode(zlib...)' < notes.txt\n"
        + base64.a85encode(zlib.compress(h45._notes(40, "note46").encode(), 9), wrapcol=76)
        .decode()
        + "\n$ base58 < hint.txt\n" + h40._b58("the robots fire only when you stop\n")
        + "\n$ base62 < level.txt\n" + h41._b62(b"level 3: exit on the left, keep moving\n"))
    obs[1]["data"]["summary"] = (
        "$ gzip -c scores.csv | base64 -w0\n"
        + base64.b64encode(gzip.compress(_csv_pad(int(1.9 * 1024 * 1024), "h46_15csv")
                                         .encode(), 6, mtime=0)).decode())
    obs[2]["data"]["summary"] = (
        "$ pem-export --json frame.png\n" + '{"type":"IMAGE","body":"'
        + _escape_u2f64(base64.b64encode(h43._pngs(1, "h46_15p", w=56, h=44)[0]).decode())
        + '"}' + "\n$ curl -s api/last-response | jq -c .\n" + '{"body":"{\\"img\\":\\"'
        + _json_in_json_76(base64.b64encode(h42._jpegs(1, "h46_15j", w=80, h=60)[0]).decode())
        + '\\"}"}')
    md5s = ["".join(hr.choice(_HEX) for _ in range(32)) for _ in range(3)]
    obs[3]["data"]["summary"] = (
        "$ ls cache/\nhockey-" + md5s[0] + ".png  turkey-" + md5s[1] + ".json  whiskey-"
        + md5s[2] + ".bin\n$ df --live\ndisk_live_" + "".join(hr.choice(_HEX) for _ in range(24))
        + " 83%\n$ pytest -q\nwork_test_integrationShardSeventeenOfTwenty passed\n"
        "$ starmap --find\nALTAIRnavigationBeacon7 at 19h50m\n$ ls node_modules\n/.pnpm_"
        + "".join(hr.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(36)))
    return ev


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input of the hostile harness."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa46 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = root / name
        if not (d / "agent-log.jsonl").exists():
            d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    texts = [("h46_01_log_secret_sg_md5_pads", 0, SG1_T),
             ("h46_02_log_secret_rktest_digit_pads", 1, RKT2_T),
             ("h46_03_log_secret_asia_NO_pads", 2, ASIA3_T),
             ("h46_04_log_secret_jwt_underscore_pads", 3, JWT4_T),
             ("h46_05_log_secret_glc_A64_pads", 0, GLC5_T),
             ("h46_06_log_secret_sk_glued_u002f_pem64", 1, SK6_T),
             ("h46_07_log_secret_xai_glued_json_in_json", 2, XAI7_T),
             ("h46_10_log_secret_rubygems_xz_past2500k", 1, RBG_T),
             ("h46_11_log_secret_sbp_od_hex_gzip", 2, SBP_T),
             ("h46_12_log_secret_pplx_a85_zlib", 3, PPLX_T),
             ("h46_13_log_secret_fo1_b62_glsa_b58", 0, FO1_T),
             ("h46_14_log_secret_apiorg_upper_hex_escaped", 1, APO_T)]
    lazy = {"h46_08_log_secret_figd_past_allowance":
            lambda: _obs_events([*_big_zlib_lines(12, "h46_08"), FIGD_T]),
            "h46_09_log_secret_nfp_after_bomb_flood":
            lambda: _obs_events([*_bombs(2400), NFP_T])}
    for name, k, text in texts[:7]:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    for name, make in lazy.items():
        add(name, make() if not (root / name / "agent-log.jsonl").exists() else [])
    for name, k, text in texts[7:]:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    add("h46_15_log_honest_lookalikes", _honest_events())
    add("h46_16_log_honest_chance_escaped_b64", _chance_events())
    add("h46_17_log_honest_allowance_price",
        _obs_events(_big_zlib_lines(14, "h46_17"))
        if not (root / "h46_17_log_honest_allowance_price" / "agent-log.jsonl").exists()
        else [])
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


_PROBES = {"h46_01_log_secret_sg_md5_pads": ("grep -i etag",),
           "h46_02_log_secret_rktest_digit_pads": ("--fixed-width",),
           "h46_03_log_secret_asia_NO_pads": ("env | grep AWS",),
           "h46_04_log_secret_jwt_underscore_pads": ("print-session",),
           "h46_05_log_secret_glc_A64_pads": ("grafana.blob",),
           "h46_06_log_secret_sk_glued_u002f_pem64": ("pem-export",),
           "h46_07_log_secret_xai_glued_json_in_json": ("last-response",),
           "h46_08_log_secret_figd_past_allowance": ("design.log",),
           "h46_09_log_secret_nfp_after_bomb_flood": ("netlify.env",),
           "h46_10_log_secret_rubygems_xz_past2500k": ("gem-push",),
           "h46_11_log_secret_sbp_od_hex_gzip": ("od -An",),
           "h46_12_log_secret_pplx_a85_zlib": ("pplx.env",),
           "h46_13_log_secret_fo1_b62_glsa_b58": ("base62 <", "base58 <"),
           "h46_14_log_secret_apiorg_upper_hex_escaped": ("xxd -u -p",),
           "h46_15_log_honest_lookalikes": ("od -An", "scores.csv", "pem-export", "hockey-"),
           "h46_16_log_honest_chance_escaped_b64": ("dotnet", "jq -c", "REDIRECT", "pem-"),
           "h46_17_log_honest_allowance_price": ("zlib-flate",)}
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
    if (root / "h46_16_log_honest_chance_escaped_b64").exists():
        if not _CHANCE_RUNS:
            _chance_events()
        strong16 = set(rows["h46_16"]["strong_lines"])
        by_place: dict[str, int] = {}
        for i, (_p, place, _run) in enumerate(_CHANCE_RUNS):
            if (i + 1 + _HEAD_LINES) in strong16:
                by_place[place] = by_place.get(place, 0) + 1
        rows["h46_16"]["strong_by_place"] = by_place
    return out


def _undo46(text: str) -> list[str]:  # noqa: C901 - one decoder a spelling
    """This pass' spellings undone (the leak search)."""
    out: list[str] = []
    t = (text.replace("\\\\", "\\").replace("\\n", "\n").replace("\\r", "\r")
         .replace("\\u002F", "/").replace("\\/", "/").replace("%2B", "+").replace("%2F", "/")
         .replace("%3D", "="))
    joined = re.sub(r"([A-Za-z0-9+/]{64}|[A-Za-z0-9+/]{76})\r?\n(?=[A-Za-z0-9+/])", r"\1", t)
    for run in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", joined):
        with contextlib.suppress(ValueError, binascii.Error):
            raw = base64.b64decode(run + "=" * (-len(run) % 4))
            out.append(raw.decode("latin-1"))
            for undo in (zlib.decompress, lzma.decompress, gzip.decompress, bz2.decompress):
                with contextlib.suppress(Exception):
                    out.append(undo(raw)[:4 << 20].decode("latin-1"))
    flat = re.sub(r"\\+[rn]", "", re.sub(r"\\+(?:u002F|/)", "/", text))
    out += [t, joined, flat, t.replace("\n", "").replace("\r", "")]
    for block in re.findall(r"(?:^(?: [0-9a-f]{2}){1,16}\n?)+", t + "\n", re.M):
        with contextlib.suppress(Exception):
            out.append(gzip.decompress(bytes.fromhex(block.replace("\n", " "))).decode("latin-1"))
    for block in re.findall(r"(?:[0-9A-F]{2,60}\n)+", t + "\n"):
        with contextlib.suppress(Exception):
            out.append(zlib.decompress(bytes.fromhex(block.replace("\n", ""))).decode("latin-1"))
    for blk in re.findall(r"[!-u\n]{40,}", t):
        with contextlib.suppress(Exception):
            out.append(zlib.decompress(base64.a85decode(blk.replace("\n", ""))).decode("latin-1"))
    for run in re.findall(r"[0-9A-Za-z]{30,}", t):
        for dec in (lambda s: h41._un_b62(s) if hasattr(h41, "_un_b62") else b"",
                    lambda s: _unbigint(s, h40._B58), lambda s: _unbigint(s, h41._B62)):
            with contextlib.suppress(Exception):
                out.append(dec(run).decode("latin-1"))
    return out


def _unbigint(s: str, alph: str) -> bytes:
    n = 0
    for c in s:
        n = n * len(alph) + alph.index(c)
    return n.to_bytes((n.bit_length() + 7) // 8, "big")


def _decodings(text: str) -> list[str]:
    return h45._decodings(text) + _undo46(text)


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    controls' files written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h46_*.pub")):
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
        found = {s for s in SECRETS if any(s in x for x in texts)}
        rows[p.name] = sorted(found)
    honest = {n: (root / n).exists() for n in ("h46_15.pub", "h46_16.pub", "h46_17.pub")}
    return {"check": "H-a withheld files hold no secret; H-f the honest logs published",
            "published": rows, "honest_published": honest,
            "met": not any(v for k, v in rows.items() if k not in honest)
            and honest["h46_15.pub"] and honest["h46_16.pub"]}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S46-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h46_*.pub"):
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
    for name, _k, text in (("h46_06", 0, SK6_T), ("h46_07", 0, XAI7_T), ("h46_10", 0, RBG_T),
                          ("h46_11", 0, SBP_T), ("h46_12", 0, PPLX_T), ("h46_13", 0, FO1_T),
                          ("h46_14", 0, APO_T), ("h46_08", 0, FIGD_T), ("h46_09", 0, NFP_T)):
        dec = [text, *_decodings(text)]
        out[name] = sorted(s for s in WHOLE if any(s in x for x in dec))
    return out


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session46 as s46
    if sys.argv[1:2] == ["build"]:
        print(json.dumps(build(s46.CACHE)))
    elif sys.argv[1:2] == ["self-check"]:
        print(json.dumps(self_check(s46.CACHE)))
    else:
        run(s46.CACHE, sys.argv[1:])
