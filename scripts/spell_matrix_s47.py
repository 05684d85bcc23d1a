"""Layout x codec matrix of a key in a compressed payload, spelled in hex / Ascii85 / base85 /
base58 / base62 (session 47, spell; issue 15, review s46 R4 / R5 / R7, QA s46 T5), and the
honest controls beside it: each case one observation's summary in the community sample log,
run in process through `withhold_log` and `verify`'s gate (`public_secret_hits`).

Deterministic (a seeded `random.Random`, gzip's mtime 0): the same cases each run.

    python scripts/spell_matrix_s47.py cases OUT.jsonl      # the cases
    python scripts/spell_matrix_s47.py run CASES.jsonl OUT.jsonl   # their outcome
    python scripts/spell_matrix_s47.py summary OUT.jsonl [BASE.jsonl]

A secret case is *published* when `withhold` writes the log (a key in it) and verify is
silent on its line; an honest case is *refused* when `withhold` refuses it.
"""

from __future__ import annotations

import base64
import bz2
import gzip
import json
import lzma
import random
import string
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import zstandard

_SAMPLE = Path(__file__).resolve().parent.parent / "resources/samples/community-sample/agent-log.jsonl"
_ALNUM = string.ascii_letters + string.digits


def _rawdefl(data: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


CODECS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": lambda b: gzip.compress(b, mtime=0), "zlib": zlib.compress, "xz": lzma.compress,
    "bzip2": bz2.compress, "zstd": lambda b: zstandard.ZstdCompressor().compress(b),
    "rawdefl": _rawdefl,
}


def _rows(s: str, width: int) -> str:
    return "\n".join(s[i:i + width] for i in range(0, len(s), width))


def _xxd(b: bytes, upper: bool = False) -> str:
    out = []
    for i in range(0, len(b), 16):
        ch = b[i:i + 16]
        hx = " ".join(ch[j:j + 2].hex() for j in range(0, len(ch), 2))
        hx = hx.upper() if upper else hx
        out.append(f"{i:08x}: {hx:<39}  " + "".join(chr(c) if 32 <= c < 127 else "." for c in ch))
    return "\n".join(out)


def _hexdump_c(b: bytes) -> str:
    out = []
    for i in range(0, len(b), 16):
        ch = b[i:i + 16]
        left = " ".join(f"{c:02x}" for c in ch[:8])
        right = " ".join(f"{c:02x}" for c in ch[8:])
        text = "".join(chr(c) if 32 <= c < 127 else "." for c in ch)
        out.append(f"{i:08x}  {left:<23}  {right:<23}  |{text}|")
    out.append(f"{len(b):08x}")
    return "\n".join(out)


def _od(b: bytes) -> str:
    return "\n".join(" " + " ".join(f"{c:02x}" for c in b[i:i + 16]) for i in range(0, len(b), 16))


def _z85(b: bytes) -> str:
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"
    b = b + b"\0" * (-len(b) % 4)
    out = []
    for i in range(0, len(b), 4):
        n = int.from_bytes(b[i:i + 4], "big")
        out.append("".join(alphabet[n // 85 ** k % 85] for k in range(4, -1, -1)))
    return "".join(out)


# (name, how a person gets it, the spelling)
LAYOUTS: dict[str, tuple[str, Callable[[bytes], str]]] = {
    "hexp60": ("| xxd -p", lambda b: _rows(b.hex(), 60)),
    "hex1line": ("| xxd -p -c0", lambda b: b.hex()),
    "HEXUP": ("| xxd -p -u -c0", lambda b: b.hex().upper()),
    "HEXUP60": ("| xxd -u -p", lambda b: _rows(b.hex().upper(), 60)),
    "HEXUP60json": ("| runner --capture 'xxd -u -p'",
                    lambda b: json.dumps({"exit": 0, "stdout": _rows(b.hex().upper(), 60) + "\n"})),
    "xxd": ("| xxd", _xxd),
    "xxdU": ("| xxd -u", lambda b: _xxd(b, True)),
    "hexdumpC": ("| hexdump -C", _hexdump_c),
    "odx1": ("| od -An -tx1", _od),
    "cesc": ("| python3 -c 'print(...hex escapes)'", lambda b: "".join(f"\\x{c:02x}" for c in b)),
    "a85adobe": ("| ascii85", lambda b: _rows(base64.a85encode(b, adobe=True).decode(), 75)),
    "a85plain": ("| python3 -m a85", lambda b: base64.a85encode(b).decode()),
    "a85wrap": ("| a85 -w76", lambda b: base64.a85encode(b, wrapcol=76).decode()),
    "b85": ("| python3 b85", lambda b: base64.b85encode(b).decode()),
    "b85wrap": ("| b85 -w76", lambda b: _rows(base64.b85encode(b).decode(), 76)),
    "z85": ("| z85", _z85),
}


def _env(key: str) -> str:
    return (f"# deploy env\nREGION=eu-west-1\nTOKEN={key}\nRETRIES=3\n"
            + "note: the level loads\n" * 20)


_HONEST = ("level 3 cleared in 41 s; score 12,300\n" * 40
           + "".join(f"frame {i} ok\n" for i in range(300))).encode()


def _scores(r: random.Random, lines: int) -> bytes:
    return "".join(f"level {r.randint(1, 40)}: score {r.randint(0, 99999)}, "
                   f"{r.randint(0, 9)} lives, {r.random():.3f} s\n" for _ in range(lines)).encode()


def _bignum(data: bytes, alphabet: str) -> str:
    n, out = int.from_bytes(data, "big"), []
    while n:
        n, d = divmod(n, len(alphabet))
        out.append(alphabet[d])
    return "".join(reversed(out))


_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def cases() -> list[dict]:
    """Every case, in order."""
    r = random.Random(4747)

    def rnd(n: int) -> str:
        return "".join(r.choice(_ALNUM) for _ in range(n))

    out: list[dict] = []
    for cn, comp in CODECS.items():
        for ln, (cmd, spell) in LAYOUTS.items():
            key = "ghp_" + rnd(36) if len(out) % 2 else "glpat-" + rnd(20)
            payload = spell(comp(_env(key).encode()))
            out.append({"name": f"{cn}.{ln}", "text": f"$ cat deploy.env | {cn} {cmd}\n{payload}",
                        "key": key, "honest": False, "group": "R5"})
    # R7: base58 / base62 of a .env whose comment makes the run longer than 128 characters
    for pad in (0, 20, 60, 120, 200, 300):
        for name, alphabet in (("b58", _B58), ("b62", _B62)):
            key = "ghp_" + rnd(36)
            text = ("# " + "the deploy token, rotate monthly; " * 10)[:pad] + "\n" * bool(pad) \
                + f"GITHUB_TOKEN={key}\n"
            out.append({"name": f"bignum.{name}.pad{pad}", "honest": False, "group": "R7",
                        "text": f"$ {name[1:] == '58' and 'base58' or 'base62'} < .env\n"
                                f"{_bignum(text.encode(), alphabet)}", "key": key})
    # honest: the same layouts of honest text, of random bytes, of a fake header + random bytes
    for cn, comp in CODECS.items():
        for ln, (cmd, spell) in LAYOUTS.items():
            payload = spell(comp(_HONEST))
            out.append({"name": f"honest.{cn}.{ln}", "text": f"$ cat notes.txt | {cn} {cmd}\n{payload}",
                        "key": "", "honest": True, "group": "controls"})
    for ln, (cmd, spell) in LAYOUTS.items():
        rb = bytes(r.getrandbits(8) for _ in range(1500))
        out.append({"name": f"honest.random.{ln}", "text": f"$ head -c 1500 save.bin {cmd}\n{spell(rb)}",
                    "key": "", "honest": True, "group": "controls"})
        for magic in (b"\x78\x9c", b"\x1f\x8b\x08", b"\x78\xda", b"\xfd7zXZ\x00", b"BZh9",
                      b"\x28\xb5\x2f\xfd"):
            mb = magic + bytes(r.getrandbits(8) for _ in range(600))
            out.append({"name": f"honest.fakemagic{magic[:2].hex()}.{ln}", "key": "",
                        "text": f"$ head -c 600 blob.bin {cmd}\n{spell(mb)}", "honest": True,
                        "group": "controls"})
    for m in ("789c", "1f8b08", "78da", "7801"):
        lines = [m + "".join(r.choice("0123456789abcdef") for _ in range(64 - len(m)))] + [
            "".join(r.choice("0123456789abcdef") for _ in range(64)) for _ in range(9)]
        out.append({"name": f"honest.sha256list.{m}", "key": "", "honest": True, "group": "controls",
                    "text": "$ sha256sum *.bin\n" + "\n".join(f"{h}  f{j}.bin" for j, h in enumerate(lines))})
        out.append({"name": f"honest.sha256cat.{m}", "key": "", "honest": True, "group": "controls",
                    "text": "digests: " + "".join(lines)})
    # R4: honest Adobe Ascii85 (and the frameless spellings) of gzip of scores, 0.3-13 KB
    for lines in (10, 20, 40, 80, 160, 320, 640):
        gz = gzip.compress(_scores(r, lines), mtime=0)
        for ln in ("a85adobe", "a85wrap", "a85plain", "b85"):
            out.append({"name": f"R4.{ln}.{len(gz)}", "key": "", "honest": True, "group": "R4",
                        "text": f"$ gzip -c scores.txt {LAYOUTS[ln][0]}\n{LAYOUTS[ln][1](gz)}"})
    # honest base58 / base62 of notes past 128 characters
    for lines in (2, 4, 8):
        notes = _scores(r, lines)
        for name, alphabet in (("b58", _B58), ("b62", _B62)):
            out.append({"name": f"honest.bignum.{name}.{len(notes)}", "key": "", "honest": True,
                        "group": "controls", "text": f"$ {name} < notes.txt\n{_bignum(notes, alphabet)}"})
    return out


def run(cases_path: Path, out_path: Path) -> None:
    """Each case through `withhold_log` and `public_secret_hits` (in process; PYTHONPATH's
    product)."""
    from moderator_app.core.formats.withhold import WithholdError, withhold_log
    from moderator_app.core.formats.withhold_gate import public_secret_hits
    base = [json.loads(x) for x in _SAMPLE.read_bytes().splitlines()]
    obs = [i for i, e in enumerate(base) if e["type"] == "observation"]
    td = Path(tempfile.mkdtemp(prefix="spell47"))
    with open(out_path, "w") as out:
        for c in (json.loads(x) for x in cases_path.read_text().splitlines()):
            ev = json.loads(json.dumps(base))
            ev[obs[0]]["data"]["summary"] = c["text"]
            src, dst = td / "a.jsonl", td / "p.jsonl"
            data = b"".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
                            for e in ev)
            src.write_bytes(data)
            dst.unlink(missing_ok=True)
            t0 = time.process_time()
            refused = None
            try:
                withhold_log(src, dst)
            except WithholdError as e:
                refused = str(e)
            except Exception as e:  # noqa: BLE001 - (a crash is an outcome here)
                refused = "CRASH " + repr(e)[:300]
            leaked = bool(c["key"]) and dst.exists() and c["key"][-16:] in \
                json.dumps([json.loads(x) for x in dst.read_bytes().splitlines() if x.strip()])
            hits = [(n, h.label) for n, h in public_secret_hits(data, 1)]
            out.write(json.dumps({"name": c["name"], "group": c["group"], "honest": c["honest"],
                                  "refused": refused, "leaked": leaked, "verify": hits,
                                  "cpu": round(time.process_time() - t0, 3)}) + "\n")


def summary(path: Path, base: Path | None = None) -> None:
    """Published secret cases and refused honest ones, by group; with `base`, what moved."""
    def load(p: Path) -> dict[str, dict]:
        return {r["name"]: r for r in (json.loads(x) for x in p.read_text().splitlines())}

    rows = load(path)
    groups: dict[str, list[int]] = {}
    for r in rows.values():
        g = groups.setdefault(r["group"], [0, 0])
        g[0] += 1
        g[1] += bool(r["refused"]) if r["honest"] else not r["refused"]
    for g, (n, bad) in groups.items():
        print(f"{g}: {bad} of {n} {'refused' if g in ('controls', 'R4') else 'published'}")
    print("published:", sorted(n for n, r in rows.items() if not r["honest"] and not r["refused"]))
    print("honest refused:", sorted(n for n, r in rows.items() if r["honest"] and r["refused"]))
    print("crashes:", sorted(n for n, r in rows.items() if r["refused"] and "CRASH" in r["refused"]))
    if base is not None:
        old = load(base)
        for n, r in rows.items():
            o = old.get(n)
            if o is not None and (bool(o["refused"]), o["verify"]) != (bool(r["refused"]), r["verify"]):
                print(f"moved {n}: {bool(o['refused'])} {o['verify']} -> {bool(r['refused'])} {r['verify']}")


if __name__ == "__main__":
    if sys.argv[1] == "cases":
        with open(sys.argv[2], "w") as f:
            for c in cases():
                f.write(json.dumps(c) + "\n")
    elif sys.argv[1] == "run":
        run(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        summary(Path(sys.argv[2]), Path(sys.argv[3]) if len(sys.argv) > 3 else None)
