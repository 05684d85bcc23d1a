"""Issue 15 classes of session 41's QA pass (docs/qa/session41.md): the classes session 41's
spell / speed engineers work on (keys in new spellings of byte dumps, word dumps and base-N
encodings, read by family; a chance key inside base64 of binary data not flagged; escape-heavy
logs and chain shapes at their floor), each in a spelling no earlier pass, test or bench used
(grep of scripts/, tests/, bench/, moderator_app/: no `xxd -e`, `hexdump -e`, base45, base91,
rot13, Crockford, z-base-32, base62, `UTF-16BE` base64, base64 of zlib, PNG tEXt). The key families were
used by earlier passes or are in the product's table (their spellings were not); each key is
asserted a whole match of the product's own pattern. Every spelling sits in an OBSERVATION (a
tool's output), which `withhold` keeps public:

- h41_01 log_secret_groq_xxd_e: a Groq key (`gsk_` + 50) as `xxd -e` (4-byte little-endian
  groups, xxd's offset and text columns);
- h41_02 log_secret_pypi_hexdump_e: a PyPI token (`pypi-AgE` + 60) as `hexdump -e '4/4
  "%08x " "\\n"'` (4-byte little-endian words, no offset column);
- h41_03 log_secret_docker_base45: a Docker token (`dckr_pat_` + 40) as base45 (RFC 9285, the
  alphabet of QR codes: digits, capitals, space and `$%*+-./:`);
- h41_04 log_secret_pplx_base91: a Perplexity key (`pplx-` + 48) as basE91;
- h41_05 log_secret_glpat_zbase32: a GitLab token (`glpat-` + 26) in a JSON file, as z-base-32
  (Zooko's human-oriented base32: the alphabet `ybndrfg8ejkmcpqxot1uwisza345h769`, no padding);
- h41_06 log_secret_figma_utf16be: a Figma token (`figd_` + 40) in text converted to UTF-16BE
  (`iconv -t UTF-16BE | base64 -w0`: every other byte 0, the zero first);
- h41_07 log_secret_netlify_rot13b64: a Netlify token (`nfp_` + 36) as base64 then rot13
  (`base64 | tr A-Za-z N-ZA-Mn-za-m`);
- h41_08 log_secret_tailscale_crockford: a Tailscale key (`tskey-auth-...`) as Crockford's
  base32 (0-9 A-Z without I L O U, no padding);
- h41_09 log_secret_replicate_base62: a Replicate token (`r8_` + 37) as base62 (the bytes as one
  big-endian integer in 0-9A-Za-z);
- h41_10 log_secret_sentry_b64zlib: a Sentry token (`sntrys_` + 80) in a JSON file compressed
  with zlib (no gzip header: `78 9c`, `eJ...`) and base64'd;
- h41_11 log_secret_hf_png_text: a Hugging Face token (`hf_` + 34) in a PNG's tEXt chunk
  (uncompressed text inside binary data), the PNG base64'd as a screenshot tool prints it
  (`data:image/png;base64,...`): a key IN the decoded bytes, binary around it;
- h41_12 log_honest_lookalikes: no secret: each spelling above of honest text; nothing may be
  flagged, `withhold` must publish;
- h41_13 log_honest_chance_b64: no secret: 160 tool outputs of base64 / base64url of binary data
  (zlib of noise, 1-3 KiB) each holding, in the ENCODED text, a run shaped as a key by chance
  (`AIza` + 35, `AKIA` + 16, `ASIA` + 16, `ghp_` + 36, `glpat-` + 24, `npm_` + 36, `hf_` + 34,
  `sk-` + 40): nothing in the decoded bytes; nothing may be flagged, `withhold` must publish;
- escape (timed alone): e_png64_128mb (~16 KiB lines of base64 PNG screenshots of noise, one in
  eight holding a chance `AIza` run in its text; the last a PNG whose tEXt chunk holds an
  `hf_` token), e_jsonnest_128mb (tool output that is JSON serialized three times over:
  `\\\\\\\"` runs and Windows paths; a DigitalOcean token inside it, on the last line);
- chain: `phpslashes` (a PHP writer's JSON: every `/` written `\\/`, every non-ASCII character a
  `\\uXXXX` escape, keys in insertion order: URLs, paths, HTML), 120,000 events.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import contextlib
import json
import random
import re
import struct
import sys
import zlib
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s33 as h33
import qa_hostile_s34 as h34
import qa_hostile_s35 as h35
import qa_hostile_s39 as h39
import qa_hostile_s40 as h40

SAMPLE = h28.SAMPLE
EVAL_SECRET = "qa41-evaluator-secret-5e93"
_B45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_B91 = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        "!#$%&()*+,./:;<=>?@[]^_`{|}~\"")
_CROCK = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_ZB32 = "ybndrfg8ejkmcpqxot1uwisza345h769"


def _xxd_e(b: bytes) -> str:
    """`xxd -e`: 16 bytes a row, 4-byte little-endian groups, the text column."""
    rows = []
    for i in range(0, len(b), 16):
        ch = b[i:i + 16]
        groups = [ch[j:j + 4][::-1].hex().rjust(8) for j in range(0, len(ch), 4)]
        hx = " ".join(groups).ljust(35)
        asc = "".join(chr(x) if 32 <= x < 127 else "." for x in ch)
        rows.append(f"{i:08x}: {hx}  {asc}")
    return "\n".join(rows)


def _hexdump_e(b: bytes) -> str:
    """`hexdump -e '4/4 "%08x " "\\n"'`: four 4-byte little-endian words a row (the last word
    zero-filled), no offset."""
    b = b + b"\0" * (-len(b) % 4)
    words = [struct.unpack("<I", b[i:i + 4])[0] for i in range(0, len(b), 4)]
    return "\n".join(" ".join(f"{w:08x}" for w in words[i:i + 4]) + " "
                     for i in range(0, len(words), 4))


def _b45(b: bytes) -> str:
    out = []
    for i in range(0, len(b) - 1, 2):
        n = b[i] * 256 + b[i + 1]
        c, n = n % 45, n // 45
        d, e = n % 45, n // 45
        out += [_B45[c], _B45[d], _B45[e]]
    if len(b) % 2:
        out += [_B45[b[-1] % 45], _B45[b[-1] // 45]]
    return "".join(out)


def _unb45(t: str) -> bytes:
    out = bytearray()
    for i in range(0, len(t), 3):
        ch = [_B45.index(c) for c in t[i:i + 3]]
        if len(ch) == 3:
            n = ch[0] + ch[1] * 45 + ch[2] * 2025
            out += bytes((n >> 8, n & 255)) if n < 65536 else b""
        elif len(ch) == 2:
            out.append((ch[0] + ch[1] * 45) & 255)
    return bytes(out)


def _b91(data: bytes) -> str:
    b = n = 0
    out = []
    for byte in data:
        b |= byte << n
        n += 8
        if n > 13:
            v = b & 8191
            if v > 88:
                b >>= 13
                n -= 13
            else:
                v = b & 16383
                b >>= 14
                n -= 14
            out += [_B91[v % 91], _B91[v // 91]]
    if n:
        out.append(_B91[b % 91])
        if n > 7 or b > 90:
            out.append(_B91[b // 91])
    return "".join(out)


def _unb91(t: str) -> bytes:
    v, b, n, out = -1, 0, 0, bytearray()
    for c in t:
        if c not in _B91:
            continue
        p = _B91.index(c)
        if v < 0:
            v = p
            continue
        v += p * 91
        b |= v << n
        n += 13 if (v & 8191) > 88 else 14
        while n > 7:
            out.append(b & 255)
            b >>= 8
            n -= 8
        v = -1
    if v + 1:
        out.append((b | v << n) & 255)
    return bytes(out)


def _b64url(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def _rot13(t: str) -> str:
    return codecs.encode(t, "rot13")


def _crock(b: bytes, alph: str = _CROCK) -> str:
    n, bits = int.from_bytes(b, "big"), len(b) * 8
    pad = -bits % 5
    n <<= pad
    k = (bits + pad) // 5
    return "".join(alph[(n >> (5 * (k - 1 - i))) & 31] for i in range(k))


def _uncrock(t: str, alph: str = _CROCK) -> bytes:
    n = 0
    for c in t:
        n = n * 32 + alph.index(c)
    bits = len(t) * 5
    n >>= bits % 8
    return n.to_bytes(bits // 8, "big")


def _b62(b: bytes) -> str:
    return h40._bigint(b, _B62)


def _png(text: bytes, seed: str, w: int = 48, h: int = 32) -> bytes:
    """A PNG of noise (8-bit RGB, w x h) with a tEXt chunk `Comment` holding `text` (empty:
    none), as a screenshot tool writes its metadata."""
    rng = random.Random(seed)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    rows = b"".join(b"\0" + rng.randbytes(w * 3) for _ in range(h))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    if text:
        out += chunk(b"tEXt", b"Comment\0" + text)
    return out + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")


GSK = "gsk_" + "QA41xxdE0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3a"                    # h41_01
GSK_X = "$ xxd -e ~/.config/groq/key\n" + _xxd_e((GSK + "\n").encode())
PYPI = "pypi-AgE" + "IcHlwaS5vcmcQA41hexdumpE0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ"  # h41_02
PYPI_H = ("$ hexdump -e '4/4 \"%08x \" \"\\n\"' ~/.pypirc.token\n"
          + _hexdump_e(("password = " + PYPI + "\n").encode()))
DCKR = "dckr_pat_" + "QA41base45Docker0aB1cD2eF3gH4iJ5kL6mN7oP"                         # h41_03
DCKR_45 = "tool python3 returned: " + _b45(DCKR.encode())
PPLX = "pplx-" + "QA41base91Perplexity0aB1cD2eF3gH4iJ5kL6mN7oP8qR9"                      # h41_04
PPLX_91 = "tool python3 returned: " + _b91(PPLX.encode())
GLPAT = "glpat-" + "QA41b64url-Gitlab_0aB1cD2e"                                         # h41_05
GLPAT_U = ("tool python3 returned: "
           + _crock(json.dumps({"host": "gitlab.example.com", "token": GLPAT}).encode(), _ZB32))
FIGD = "figd_" + "QA41utf16BEfigma0aB1cD2eF3gH4iJ5kL6mN7oP"                              # h41_06
FIGD_16 = ("$ iconv -t UTF-16BE figma.env | base64 -w0\n"
           + base64.b64encode(("FIGMA_TOKEN=" + FIGD + "\n").encode("utf-16-be")).decode())
NFP = "nfp_" + "QA41rot13Netlify0aB1cD2eF3gH4iJ5kL6m"                                   # h41_07
NFP_R = ("$ base64 -w0 netlify.env | tr A-Za-z N-ZA-Mn-za-m\n"
         + _rot13(base64.b64encode(("NETLIFY_AUTH_TOKEN=" + NFP).encode()).decode()))
TSK = "tskey-auth-" + "kQA41crock0CNTRL" + "-" + "QA41CrockfordBase32aB1cD2eF3gH"      # h41_08
TSK_C = "tool python3 returned: " + _crock(TSK.encode())
R8 = "r8_" + "QA41base62Replicate0aB1cD2eF3gH4iJ5kL"                                   # h41_09
R8_62 = "tool python3 returned: " + _b62(R8.encode())
SNT = "sntrys_" + ("eyJpYXQiOjE3MzM1NTUwNDEuMCwidXJsIjoiaHR0cHM6Ly9zZW50cnkuaW8iQA41"
                   "zlibB64aB1cD2eF3gH")                                              # h41_10
SNT_Z = ("$ python3 -c 'import sys,zlib,base64; print(base64.b64encode(zlib.compress("
         "sys.stdin.buffer.read())).decode())' < sentry.json\n"
         + base64.b64encode(zlib.compress(json.dumps({"dsn": "https://o1.ingest.sentry.io/2",
                                                      "auth_token": SNT}).encode())).decode())
HF = "hf_" + "QA41pngTextChunk0aB1cD2eF3gH4iJ5kL"                                     # h41_11
HF_PNG = ("$ screenshot --base64 --window game\ndata:image/png;base64,"
          + base64.b64encode(_png(b"uploaded by qa41; HF_TOKEN=" + HF.encode(), "h41_11"))
          .decode())
for _k, _rx in ((GSK, r"gsk_[A-Za-z0-9]{48,52}"), (PYPI, r"pypi-AgE[A-Za-z0-9_\-]{50,256}"),
                (DCKR, r"dckr_pat_[A-Za-z0-9_\-]{27,64}"), (PPLX, r"pplx-[A-Za-z0-9]{48}"),
                (GLPAT, r"glpat-[A-Za-z0-9_\-]{20,64}"), (FIGD, r"figd_[A-Za-z0-9_\-]{40}"),
                (NFP, r"nfp_[A-Za-z0-9]{36}"),
                (TSK, r"tskey-[a-z]{3,8}-[A-Za-z0-9]{8,20}-[A-Za-z0-9]{20,40}"),
                (R8, r"r8_[A-Za-z0-9]{37}"), (SNT, r"sntrys_[A-Za-z0-9_+/=]{60,300}"),
                (HF, r"hf_[A-Za-z0-9]{30,}")):
    assert re.fullmatch(_rx, _k), _k  # each key a whole match of the product's own pattern
assert _unb45(_b45(DCKR.encode())) == DCKR.encode()
assert _unb91(_b91(PPLX.encode())) == PPLX.encode()
assert _uncrock(_crock(TSK.encode())) == TSK.encode()
WHOLE = (GSK, PYPI, DCKR, PPLX, GLPAT, FIGD, NFP, TSK, R8, SNT, HF)
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, *WHOLE, GSK_X.split("\n")[1][10:45], PYPI_H.split("\n")[2][:35],
           DCKR_45[23:63], PPLX_91[23:63], GLPAT_U[23:63],
           FIGD_16.split("\n")[1][:40], NFP_R.split("\n")[1][:40], TSK_C[23:63],
           R8_62[23:63], SNT_Z.split("\n")[1][:40], PYPI[8:40], SNT[7:40], HF[3:30]]
SECRET_IDS = tuple(f"h41_{i:02d}" for i in range(1, 12))


# -- honest look-alikes ------------------------------------------------------------------------
_CHANCE = (("AIza", 35, "std"), ("AKIA", 16, "std"), ("ASIA", 16, "std"), ("ghp_", 36, "url"),
           ("glpat-", 24, "url"), ("npm_", 36, "url"), ("hf_", 34, "url"), ("sk-", 40, "url"))
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def chance_blob(rng: random.Random, prefix: str, n: int, alph: str, size: int) -> str:
    """base64 (std) or base64url (url, unpadded) of `size` bytes of zlib-compressed noise, with
    a run `prefix` + n characters (AKIA / ASIA runs: capitals and digits, then a lower-case
    letter) at a 4-aligned place of the ENCODED text: a key's shape by chance, no key in the
    decoded bytes (the run's bytes are noise)."""
    raw = bytearray(zlib.compress(rng.randbytes(size), 1))
    tail = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" if prefix in ("AKIA", "ASIA") else _ALNUM
    run = ("qqq-" if alph == "url" else "qqq/") + prefix + "".join(
        rng.choice(tail) for _ in range(n))
    run += "a" if prefix in ("AKIA", "ASIA") else ""
    run += "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(-len(run) % 4))
    dec = base64.urlsafe_b64decode(run) if alph == "url" else base64.b64decode(run)
    at = 3 * rng.randint(2, max(3, len(raw) // 3 - len(dec) // 3 - 2))
    raw[at:at + len(dec)] = dec
    enc = _b64url(bytes(raw)) if alph == "url" else base64.b64encode(bytes(raw)).decode()
    assert run in enc, prefix
    return enc


def _honest_events() -> list[dict]:
    ev = h28._events()
    obs = h34._obs(ev)
    t1 = b"the gate opens at dawn\n"
    obs[0]["data"]["summary"] = (
        "$ xxd -e notes.txt\n" + _xxd_e(b"meet at the north tower when the bell rings\n")
        + "\n$ hexdump -e '4/4 \"%08x \" \"\\n\"' level.txt\n" + _hexdump_e(t1)
        + "\ntool python3 returned: " + _b45(b"level seven cleared, score 8100"))
    obs[1]["data"]["summary"] = (
        "tool python3 returned: " + _b91(b"the beacon blinks twice, then the gate opens")
        + "\ntool python3 returned: "
        + _crock(json.dumps({"level": 4, "note": "the cart waits by the rail"}).encode(), _ZB32)
        + "\n$ iconv -t UTF-16BE title.txt | base64 -w0\n"
        + base64.b64encode("Château d'Ærø — niveau 3\n".encode("utf-16-be")).decode())
    obs[2]["data"]["summary"] = (
        "$ base64 -w0 hint.txt | tr A-Za-z N-ZA-Mn-za-m\n"
        + _rot13(base64.b64encode(b"press fire when the gem turns green").decode())
        + "\ntool python3 returned: " + _crock(b"ULID-ish note: tint level 5")
        + "\ntool python3 returned: " + _b62(b"the pip turns red at noon"))
    obs[3]["data"]["summary"] = (
        "$ python3 -c '...zlib...' < state.json\n"
        + base64.b64encode(zlib.compress(json.dumps({"lives": 3, "tint": "green"}).encode()))
        .decode() + "\n$ screenshot --base64 --window game\ndata:image/png;base64,"
        + base64.b64encode(_png(b"captured by screenshot 2.1; level 4", "h41_12")).decode())
    return ev


def _chance_events() -> list[dict]:
    """h41_13: 160 observations, each a tool's base64 / base64url of binary with one chance
    key-shaped run in its encoded text (20 of each of _CHANCE's shapes)."""
    from datetime import datetime, timedelta

    from moderator_app.core.samples.community import format_at

    ev = h28._events()
    rng = random.Random("h41_13")
    head = [e for e in ev if e["type"] == "run_start"]
    tail = [e for e in ev if e["type"] == "run_end"]
    t0 = datetime.fromisoformat(head[0]["at"].replace("Z", "+00:00")) - timedelta(
        milliseconds=head[0]["elapsedMs"])
    body, at, seq = [], head[0]["elapsedMs"] + 100, head[0]["seq"] + 1
    for k in range(160):
        prefix, n, alph = _CHANCE[k % len(_CHANCE)]
        blob = chance_blob(rng, prefix, n, alph, rng.randint(1024, 3072))
        tool = ("$ base64 -w0 frame.bin" if alph == "std"
                else "$ basenc --base64url -w0 frame.bin | tr -d =")
        body.append({"seq": seq, "at": format_at(t0 + timedelta(milliseconds=at)),
                     "elapsedMs": at, "type": "observation",
                     "data": {"summary": f"{tool}\n{blob}"}})
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
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa41 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    texts = [("h41_01_log_secret_groq_xxd_e", 0, GSK_X),
             ("h41_02_log_secret_pypi_hexdump_e", 1, PYPI_H),
             ("h41_03_log_secret_docker_base45", 2, DCKR_45),
             ("h41_04_log_secret_pplx_base91", 3, PPLX_91),
             ("h41_05_log_secret_glpat_zbase32", 0, GLPAT_U),
             ("h41_06_log_secret_figma_utf16be", 1, FIGD_16),
             ("h41_07_log_secret_netlify_rot13b64", 2, NFP_R),
             ("h41_08_log_secret_tailscale_crockford", 3, TSK_C),
             ("h41_09_log_secret_replicate_base62", 0, R8_62),
             ("h41_10_log_secret_sentry_b64zlib", 1, SNT_Z),
             ("h41_11_log_secret_hf_png_text", 2, HF_PNG)]
    for name, k, text in texts:
        ev = h28._events()
        h34._obs(ev)[k]["data"]["summary"] = text
        add(name, ev)
    add("h41_12_log_honest_lookalikes", _honest_events())
    add("h41_13_log_honest_chance_b64", _chance_events())
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


_PROBES = {"h41_01_log_secret_groq_xxd_e": ("xxd -e",),
           "h41_02_log_secret_pypi_hexdump_e": ("hexdump -e",),
           "h41_03_log_secret_docker_base45": ("tool python3 returned",),
           "h41_04_log_secret_pplx_base91": ("tool python3 returned",),
           "h41_05_log_secret_glpat_zbase32": ("tool python3 returned",),
           "h41_06_log_secret_figma_utf16be": ("UTF-16BE",),
           "h41_07_log_secret_netlify_rot13b64": ("N-ZA-M",),
           "h41_08_log_secret_tailscale_crockford": ("tool python3 returned",),
           "h41_09_log_secret_replicate_base62": ("tool python3 returned",),
           "h41_10_log_secret_sentry_b64zlib": ("zlib",),
           "h41_11_log_secret_hf_png_text": ("image/png;base64",),
           "h41_12_log_honest_lookalikes": ("xxd -e", "tool python3", "base64"),
           "h41_13_log_honest_chance_b64": ("base64",)}


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings against the lines holding the spelling (h41_01-
    11); H-f: none on the honest controls (h41_12, h41_13)."""
    import qa_session22 as s22

    out = {}
    for name, parts in _PROBES.items():
        d = root / name
        lines = h34._lines_with(d, parts)
        code, rep, _err = s22._verify(d)
        found = [x for x in rep.get("findings", [])
                 if str(x.get("rule", "")).startswith("secret")]
        got = sorted({x.get("line") for x in found if x.get("line") is not None})
        honest = "honest" in name
        out[name[:6]] = {"exit": code, "verdict": rep.get("verdict"), "secret_lines": lines[:8],
                         "warned_lines": got, "rules": sorted({x.get("rule") for x in found}),
                         "labels": sorted({str(x.get("message", ""))[:60] for x in found})[:6],
                         "met": (not found) if honest else bool(set(lines) & set(got))}
    return {"check": "H-s spelled secrets flagged; H-f honest controls not",
            "rows": out, "met": all(v["met"] for v in out.values())}


def _undo41(text: str) -> list[str]:  # noqa: C901 - one decoder a spelling
    """This pass' spellings undone (the leak search): xxd -e / hexdump -e words, base45,
    base91, z-base-32, base64url, UTF-16BE base64, rot13 base64, Crockford, base62, zlib base64, PNG
    tEXt."""
    out: list[str] = []
    t = text.replace("\\n", "\n")
    words = re.findall(r"(?:^|: | )([0-9a-f]{8})(?= )", t, re.M)
    if words:
        out.append(b"".join(bytes.fromhex(w)[::-1] for w in words).decode("latin-1"))
    for run in re.findall(r"[0-9A-Z $%*+\-./:]{20,}", t):
        with contextlib.suppress(ValueError):
            out.append(_unb45(run).decode("latin-1"))
    for run in re.findall(r"[A-Za-z0-9!#$%&()*+,./:;<=>?@\[\]^_`{|}~\"]{20,}", t):
        out.append(_unb91(run).decode("latin-1"))
    for run in re.findall(r"[A-Za-z0-9_\-]{16,}", t):
        with contextlib.suppress(ValueError, binascii.Error):
            raw = base64.urlsafe_b64decode(run + "=" * (-len(run) % 4))
            out.append(raw.decode("latin-1"))
            with contextlib.suppress(zlib.error):
                out.append(zlib.decompress(raw).decode("latin-1"))
    for run in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", t):
        for cand in (run, _rot13(run)):
            with contextlib.suppress(ValueError, binascii.Error):
                raw = base64.b64decode(cand + "=" * (-len(cand) % 4))
                out += [raw.decode("latin-1"), raw.decode("utf-16-be", "replace")]
                with contextlib.suppress(zlib.error):
                    out.append(zlib.decompress(raw).decode("latin-1"))
    for run in re.findall(r"[0-9A-HJKMNP-TV-Z]{20,}", t):
        with contextlib.suppress(ValueError):
            out.append(_uncrock(run).decode("latin-1"))
    for run in re.findall(r"[ybndrfg8ejkmcpqxot1uwisza345h769]{20,}", t):
        with contextlib.suppress(ValueError):
            out.append(_uncrock(run, _ZB32).decode("latin-1"))
    for run in re.findall(r"[0-9A-Za-z]{20,}", t):
        with contextlib.suppress(ValueError, OverflowError):
            out.append(h40._unbigint(run, _B62).decode("latin-1"))
    return out


def _decodings(text: str) -> list[str]:
    return h40._decodings(text) + _undo41(text)


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published; H-f: the honest
    controls' files written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h41_*.pub")):
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
    honest = {n: (root / n).exists() for n in ("h41_12.pub", "h41_13.pub")}
    return {"check": "H-a withheld files hold no secret; H-f the honest logs published",
            "published": rows, "honest_published": honest,
            "met": not any(v for k, v in rows.items() if k not in honest)
            and all(honest.values())}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    import subprocess

    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S41-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h41_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


# -- escape-heavy logs, timed (s35's builder and s34's timer with this pass' spellings) ---------
ESCAPE = {"e_png64_128mb": 128 << 20, "e_jsonnest_128mb": 128 << 20}
DOP = "dop_v1_" + "4a41" + "0123456789abcdef" * 3 + "fedcba9876543210"[:12]
assert re.fullmatch(r"do[opr]_v1_[a-f0-9]{64}", DOP), DOP
_PATHS = ("C:\\Users\\qa\\AppData\\Local\\Temp\\frame_{}.png", "D:\\games\\roms\\{}.bin",
          "\\\\server\\share\\runs\\{}\\log.txt")


def _jsonnest(doc: dict) -> str:
    """A JSON document serialized three times over (a tool returning a JSON string holding a
    JSON string holding the document)."""
    return json.dumps(json.dumps(json.dumps(doc)))


def _escape_text(case: str, rng: random.Random) -> str:
    if case.startswith("e_png64"):
        chance = rng.random() < 0.125
        if chance:
            blob = chance_blob(rng, "AIza", 35, "std", 12000)
            return "$ screenshot --base64 --window game\ndata:image/png;base64," + blob
        png = _png(b"", str(rng.random()), w=64, h=62)
        return ("$ screenshot --base64 --window game\ndata:image/png;base64,"
                + base64.b64encode(png).decode())
    items = [{"path": rng.choice(_PATHS).format(rng.randint(0, 99999)),
              "title": " ".join(rng.choice(h34._WORDS) for _ in range(rng.randint(2, 8))),
              "score": round(rng.uniform(0, 1), rng.randint(1, 6)),
              "tags": [rng.choice(h34._WORDS) for _ in range(3)]} for _ in range(60)]
    return "tool search returned: " + _jsonnest({"query": rng.choice(h34._WORDS),
                                                 "results": items})


def _escape_key(case: str) -> str:
    if case.startswith("e_png64"):
        return ("data:image/png;base64,"
                + base64.b64encode(_png(b"HF_TOKEN=" + HF.encode(), "e_png64_key")).decode())
    return _jsonnest({"env": {"PATH": "C:\\Windows\\system32", "DIGITALOCEAN_TOKEN": DOP}})


def build_escape(root: Path, case: str) -> dict:
    h35._escape_text, h35._escape_key = _escape_text, _escape_key
    h35.ESCAPE.update(ESCAPE)
    return h35.build_escape(root, case)


def check_escape(root: Path, case: str) -> dict:
    """qa_hostile_s34.check_escape (CPU scaled to 512 MiB against 30 s; the key on the last
    line flagged, not published) on this pass' logs, under s37's 600 s wall (s39's _timed600),
    plus every line `verify` flags (the honest lines' false flags: T7's class at scale)."""
    build_escape(root, case)
    h34.build_escape = build_escape
    h34.TSK, h34.TSK_U = {"e_png64": (HF, base64.b64encode(b"HF_TOKEN=" + HF.encode()).decode()),
                          "e_jsonnest": (DOP, DOP[7:67])}[case.rsplit("_", 1)[0]]
    h34._decodings = _decodings_png
    h34._timed = h39._timed600
    h34.EVAL_SECRET = EVAL_SECRET
    return h34.check_escape(root, case)


def _decodings_png(text: str) -> list[str]:
    """The leak search on the escape logs' tail: base64 runs decoded (a PNG's tEXt chunk
    read as bytes), and s40's spellings."""
    out = h40._decodings(text)
    for run in re.findall(r"[A-Za-z0-9+/]{40,}={0,2}", text):
        with contextlib.suppress(ValueError, binascii.Error):
            out.append(base64.b64decode(run + "=" * (-len(run) % 4)).decode("latin-1"))
    return out


# -- the official chain on a held-out payload shape ---------------------------------------------
_HOSTS = ("https://cdn.example.com/assets/", "https://api.example.org/v2/runs/",
          "http://localhost:8080/static/img/", "https://émulateur.example.fr/jeux/")
_WORDS_FR = ("été", "forêt", "château", "élève", "où", "déjà", "naïve", "ça", "crème",
             "brûlée", "façade", "cœur", "Ærø", "Größe", "señor", "über")


def _phpslashes_payload(rng: random.Random, size: int) -> dict:
    """A web scraper's tool output as PHP writes JSON: URLs and paths full of `/` (written
    `\\/`), HTML fragments with closing tags, accented text (written `\\uXXXX`)."""
    links, used = [], 0
    while used < size - 120:
        url = rng.choice(_HOSTS) + "/".join(rng.choice(h34._WORDS) for _ in range(
            rng.randint(1, 5))) + f"/{rng.randint(0, 99999)}.png"
        text = " ".join(rng.choice(_WORDS_FR) if rng.random() < 0.3 else rng.choice(h34._WORDS)
                        for _ in range(rng.randint(2, 9)))
        item = {"href": url, "html": f"<a href=\"{url}\"><b>{text}</b></a><br/>",
                "path": "/var/www/" + "/".join(rng.choice(h34._WORDS) for _ in range(3))}
        links.append(item)
        used += len(json.dumps(item))
    return {"status": 200, "scraped_at": round(rng.uniform(1.7e9, 1.8e9), rng.randint(0, 6)),
            "links": links}


CHAIN_SHAPES41 = {"phpslashes": _phpslashes_payload}
#: PHP's json_encode with no flags: `/` written `\\/`, non-ASCII as `\\uXXXX`, keys in
#: insertion order, compact (not canonical: RFC 8785 writes `/` and UTF-8 raw)
CHAIN_ENCODE41 = {"phpslashes": lambda ev: json.dumps(ev, separators=(",", ":"))
                  .replace("/", "\\/").encode()}


def _chain_install() -> None:
    import qa_session26 as s26
    s26.CHAIN_SHAPES.update(CHAIN_SHAPES41)
    s26.CHAIN_ENCODE.update(CHAIN_ENCODE41)


def build_chain41(shape: str) -> Path:
    import qa_session26 as s26
    _chain_install()
    return s26.build_chain(shape)


def check_chain41(shape: str) -> dict:
    import qa_session26 as s26
    _chain_install()
    return s26.check_chain(shape)


def jcs_check41(shape: str, n: int = 2000) -> dict:
    """The chain's truth apart from the product: qa_session35's RFC 8785 writer against the
    product's `canonical_json` on the first n payloads."""
    import qa_session35 as s35
    s35.CHAIN_SHAPES35.update(CHAIN_SHAPES41)
    s35.build_chain35 = lambda s: build_chain41(s)
    return s35.jcs_check(shape, n)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session41 as s41
    run(s41.CACHE, sys.argv[1:])
