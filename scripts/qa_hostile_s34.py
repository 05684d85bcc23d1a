"""Issue 15 classes of session 34's QA pass (docs/qa/session34.md): the three classes session
34's secrets engineer closes (`\\u`-escaped text, hex-encoded bytes, literals joined into a
key), each spelled differently from QA s33's h33_01-03 and s32's h32_01-06 (grep of
scripts/qa_hostile_s*.py, scripts/hostile_sweep_s*.py, tests/: no `\\u` text with upper-case
hex or with only some characters escaped, no C byte array, no spaced upper-case hex dump with
offsets, no adjacent literals over lines, no `.join` of a list; no Perplexity, Figma, Fly.io,
Netlify, Docker or Tailscale key in any QA input: all six in the product's key table), an
honest control of look-alikes, and two escape-heavy logs large enough to time:

- h34_01 log_secret_perplexity_uescape_upper_mixed: a Perplexity key (`pplx-` + 48) in a
  Python string literal in a model response's text, every OTHER character a `\\uXXXX`
  escape with UPPER-CASE hex (`p\\u0070l\\u0078-...`: the log's JSON line holds `\\\\u0070`);
- h34_02 log_secret_figma_c_byte_array: a Figma token (`figd_` + 40) as a C byte array in a
  tool's output (`static const uint8_t k[] = {0x66, 0x69, ...};`, 12 bytes a line);
- h34_03 log_secret_flyio_spaced_hexdump: a Fly.io token (`fo1_` + 43) as an upper-case
  hex dump with offsets and a space between bytes, 16 bytes a line, no ASCII column
  (`0000  66 6F 31 5F ...`), in an observation;
- h34_04 log_secret_netlify_adjacent_literals: a Netlify token (`nfp_` + 36) cut into four
  ADJACENT string literals over four lines inside parentheses (Python's implicit
  concatenation, no operator), in a model response's text;
- h34_05 log_secret_docker_join_list: a Docker token (`dckr_pat_` + 27) as a JS list of
  five literals joined by `.join("")` on one line, in a tool's output;
- h34_06 log_honest_lookalikes: an honest log (no secret) full of the classes' look-alikes:
  SHA-256 digests, git ids, UUIDs, `xxd -p` of a PNG's first 64 bytes, a C byte array of
  the PNG signature, a spaced hex dump of a TCP header, `\\u00e9`-escaped French text,
  `"Hello, " + name + "!"`, `["a", "b"].join("")` of words, adjacent literals of a SQL query:
  `verify` must flag nothing and `withhold` must publish (no honest log flagged or refused);
- escape (not in the hostile harness; timed alone, `check_escape`): e_uescape_128mb, 128 MiB
  of observations whose text is JSON-in-JSON with EVERY character a `\\u00XX` escape (honest
  words), a Tailscale key (`tskey-auth-...`) spelled the same way on the LAST line; e_hex_128mb,
  128 MiB of `xxd -p` hex lines of seeded random bytes, a Tailscale key's hex on the last
  line. `verify --json` and `withhold` each under prlimit --as=512 MiB, timeout 300 s; CPU
  (user + sys) scaled x4 to 512 MiB against the 30 s bar; the key flagged and not published.

Each hostile command under prlimit --as=512 MiB and timeout 30 s (the issue's bounds),
through qa_hostile_s28.run's checks (traceback, raw control, a secret or any part printed,
exit outside 0/1/2, a temp file left). Deterministic bytes and seeds; written under
`.cache/qa-s34/`, never committed.
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import qa_hostile_s28 as h28
import qa_hostile_s33 as h33

SAMPLE = h28.SAMPLE
CLI = h28.CLI
EVAL_SECRET = "qa34-evaluator-secret-5d2b"
PPLX = "pplx-" + "QA34uEscUpperMixed0aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT"            # h34_01 (53)
PPLX_U = "".join(c if i % 2 == 0 else f"\\u{ord(c):04X}" for i, c in enumerate(PPLX))
FIGD = "figd_" + "QA34cByteArray0aB1cD2eF3gH4iJ5kL6mN7oP8q"                     # h34_02 (45)
FIGD_C = ("static const uint8_t figma_token[] = {\n" + "".join(
    "    " + ", ".join(f"0x{b:02x}" for b in FIGD.encode()[i:i + 12]) + ",\n"
    for i in range(0, len(FIGD), 12)) + "};")
FLY = "fo1_" + "QA34spacedHexDump0aB1cD2eF3gH4iJ5kL6mN7oP8q"                     # h34_03 (47)
FLY_DUMP = "\n".join(f"{i:04X}  " + " ".join(f"{b:02X}" for b in FLY.encode()[i:i + 16])
                     for i in range(0, len(FLY), 16))
NFP = "nfp_" + "QA34adjacentLits0aB1cD2eF3gH4iJ5kL6m"                              # h34_04 (40)
NFP_LITS = [NFP[0:10], NFP[10:20], NFP[20:31], NFP[31:]]
NFP_CODE = ("NETLIFY_TOKEN = (\n" + "".join(f'    "{p}"\n' for p in NFP_LITS)
            + ")\nclient = Netlify(NETLIFY_TOKEN)")
DCKR = "dckr_pat_" + "QA34joinList0aB1cD2eF3gH4iJ"                                # h34_05 (36)
DCKR_LITS = [DCKR[0:7], DCKR[7:14], DCKR[14:22], DCKR[22:29], DCKR[29:]]
DCKR_CODE = ("const pat = [" + ", ".join(f'"{p}"' for p in DCKR_LITS)
             + '].join(""); docker.login({username: "ci", password: pat});')
TSK = "tskey-auth-" + "kQA34esc1CNTRL" + "-" + "QA34escapeHeavyTail0aB1cD2eF3gH4"  # escape
TSK_U = "".join(f"\\u{ord(c):04x}" for c in TSK)
#: every whole secret, every part of 16+ characters and every spelling: each is a leak
SECRETS = [EVAL_SECRET, PPLX, PPLX_U[:60], FIGD, FLY, FLY_DUMP.split("\n")[0][6:], NFP, DCKR,
           TSK, TSK_U[:60], TSK.encode().hex()[:40]]
SPLITS = {NFP: tuple(NFP_LITS), DCKR: tuple(DCKR_LITS)}
WHOLE = (PPLX, FIGD, FLY, NFP, DCKR, TSK)
SECRET_IDS = ("h34_01", "h34_02", "h34_03", "h34_04", "h34_05")

_PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000001e0000001a40806000000") + bytes(
    range(34))
_TCP = bytes.fromhex("c35001bb5e2a7f1000000000a002faf0fe300000020405b40402080a")


def _obs(ev: list[dict]) -> list[dict]:
    return [e for e in ev if e["type"] == "observation"]


def _resp(ev: list[dict]) -> list[dict]:
    return [e for e in ev if e["type"] == "model_response"]


def _honest_events() -> list[dict]:
    rng = random.Random(3406)
    ev = h28._events()
    sha = "".join(rng.choice("0123456789abcdef") for _ in range(64))
    git = "".join(rng.choice("0123456789abcdef") for _ in range(40))
    uuid = "7f3e2c1a-9b4d-4e6f-8a2b-1c3d5e7f9a0b"
    obs, resp = _obs(ev), _resp(ev)
    obs[0]["data"]["summary"] = (f"$ sha256sum save.dat\n{sha}  save.dat\n$ git log -1 "
                                 f"--format=%H\n{git}\nrun id {uuid}")
    obs[1]["data"]["summary"] = "$ xxd -p -l 64 screen.png\n" + "\n".join(
        _PNG.hex()[i:i + 60] for i in range(0, len(_PNG.hex()), 60))
    obs[2]["data"]["summary"] = ("static const uint8_t png_sig[] = {" + ", ".join(
        f"0x{b:02x}" for b in _PNG[:8]) + "};\n" + "\n".join(
        f"{i:04X}  " + " ".join(f"{b:02X}" for b in _TCP[i:i + 16])
        for i in range(0, len(_TCP), 16)))
    obs[3]["data"]["summary"] = ('tool i18n returned: {"msg": "Le niveau est termin\\u00e9, '
                                 'bien jou\\u00e9 \\u2014 score \\u00e0 1200"}')
    resp[0]["data"]["text"] = ('greeting = "Hello, " + name + "!"; label = ["Flag", "Capture",'
                               ' "Level", "Two"].join(""); q = ("SELECT id, score "\n'
                               '     "FROM runs "\n     "WHERE level = 2")')
    return ev


def cases(root: Path, ledgers: bool = False) -> list[tuple[str, list[list[str]]]]:
    """(name, commands) of every input of the hostile harness."""
    root.mkdir(parents=True, exist_ok=True)
    out: list[tuple[str, list[list[str]]]] = []

    def std(p: Path, tag: str) -> list[list[str]]:
        return [["verify", str(p)], ["verify", str(p), "--json"],
                ["decide", str(p), "--reject", "--reason", "other", "--note", f"qa34 {tag}",
                 "--offset", "0"]]

    def wh(d: Path, tag: str) -> list[str]:
        return ["withhold", str(d / "agent-log.jsonl"), "-o", str(root / f"{tag}.pub")]

    def add(name: str, ev: list[dict]) -> None:
        d = h28._folder(root, name, h28._dump(ev))
        out.append((d.name, [*std(d, name[:6]), wh(d, name[:6])]))

    ev = h28._events()
    _resp(ev)[1]["data"]["text"] = ("Set it in the script: `PPLX_KEY = '" + PPLX_U
                                    + "'` then call the search endpoint.")
    add("h34_01_log_secret_perplexity_uescape_upper_mixed", ev)
    ev = h28._events()
    _obs(ev)[1]["data"]["summary"] = "tool cat_header returned:\n" + FIGD_C
    add("h34_02_log_secret_figma_c_byte_array", ev)
    ev = h28._events()
    _obs(ev)[2]["data"]["summary"] = "Captured request body (hex):\n" + FLY_DUMP + "\nend"
    add("h34_03_log_secret_flyio_spaced_hexdump", ev)
    ev = h28._events()
    _resp(ev)[2]["data"]["text"] = "Deploy helper:\n" + NFP_CODE
    add("h34_04_log_secret_netlify_adjacent_literals", ev)
    ev = h28._events()
    _obs(ev)[3]["data"]["summary"] = "tool read_file ci.js returned: " + DCKR_CODE
    add("h34_05_log_secret_docker_join_list", ev)
    add("h34_06_log_honest_lookalikes", _honest_events())
    for name, _ in out:
        h28.ENV[name] = {"ALE_EVALUATOR_SECRET": EVAL_SECRET}
    return out


def _lines_with(d: Path, parts: tuple[str, ...]) -> list[int]:
    with open(d / "agent-log.jsonl", encoding="utf-8") as fh:
        return [n for n, line in enumerate(fh, 1) if any(p in line for p in parts)]


def _secret_lines(root: Path) -> dict:
    """H-s: `verify --json`'s secret findings against the lines holding the spelling (h34_01-
    05); H-f: none on the honest control (h34_06)."""
    import qa_session22 as s22

    out = {}
    probes = {"h34_01_log_secret_perplexity_uescape_upper_mixed": ("\\\\u0070l\\\\u0078",),
              "h34_02_log_secret_figma_c_byte_array": ("0x66, 0x69, 0x67, 0x64",),
              "h34_03_log_secret_flyio_spaced_hexdump": ("66 6F 31 5F",),
              "h34_04_log_secret_netlify_adjacent_literals": (NFP_LITS[1],),
              "h34_05_log_secret_docker_join_list": (DCKR_LITS[2],),
              "h34_06_log_honest_lookalikes": ("sha256sum",)}
    for name, parts in probes.items():
        d = root / name
        lines = _lines_with(d, parts)
        code, rep, _err = s22._verify(d)
        found = [x for x in rep.get("findings", [])
                 if str(x.get("rule", "")).startswith("secret")]
        got = sorted({x.get("line") for x in found if x.get("line") is not None})
        honest = name.startswith("h34_06")
        out[name[:6]] = {"exit": code, "verdict": rep.get("verdict"), "secret_lines": lines,
                         "warned_lines": got, "rules": sorted({x.get("rule") for x in found}),
                         "met": (not found) if honest else bool(set(lines) & set(got))}
    return {"check": "H-s spelled / split secrets flagged; H-f honest control not",
            "rows": out, "met": all(v["met"] for v in out.values())}


def _decodings(text: str) -> list[str]:
    """h33's decodings (hex runs, `\\u` escapes, base64, `" + "` joins) and this pass'
    spellings undone: upper-case `\\u`, `0x..` byte lists, spaced hex pairs (offsets
    dropped), adjacent literals (`"` quote, white space, `"` quote) and list joins."""
    out = h33._decodings(text)
    out.append(re.sub(r"\\\\?u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text))
    for run in re.findall(r"(?:0x[0-9a-fA-F]{2}[,\s]*){8,}", text):
        out.append(bytes(int(x, 16) for x in re.findall(r"0x([0-9a-fA-F]{2})", run)
                         ).decode("latin-1"))
    pairs = re.sub(r"(?m)^[0-9A-Fa-f]{4}  ", "", text)
    for run in re.findall(r"(?:[0-9A-Fa-f]{2}[ \n]){8,}[0-9A-Fa-f]{2}", pairs):
        out.append(bytes.fromhex(re.sub(r"\s", "", run)).decode("latin-1"))
    out.append(re.sub(r'"\s*(?:\\n)?\s*"', "", text))
    out.append(re.sub(r'"\s*,\s*"', "", text))
    return out


def _pub_secrets(root: Path) -> dict:
    """H-a on `withhold`'s files: no secret, part or spelling published (h33's search with
    this pass' spellings undone); H-f: the honest control's file written (not refused)."""
    rows = {}
    for p in sorted(root.glob("h34_*.pub")):
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
    honest = (root / "h34_06.pub").exists()
    return {"check": "H-a withheld files hold no secret; H-f the honest log published",
            "published": rows, "honest_published": honest,
            "met": not any(rows.values()) and honest}


def run(cache: Path, only: list[str]) -> list[dict]:
    """qa_hostile_s28.run's harness (the same bounds and checks) on this pass' classes."""
    h28.SECRETS = SECRETS
    h28.EVAL_SECRET = EVAL_SECRET
    h28.MARK = "QA-S34-PRIVATE-NOT-USED"
    h28.cases = cases
    h28.MUST_NOT_PASS = set()
    h28.subprocess = subprocess
    root = cache / "hostile"
    for p in root.glob("h34_*.pub"):
        p.unlink()
    h28.POST_CHECKS = (_secret_lines, _pub_secrets)
    return h28.run(cache, only)


# -- escape-heavy logs, timed ----------------------------------------------------------------
ESCAPE = {"e_uescape_128mb": 128 << 20, "e_hex_128mb": 128 << 20}
_WORDS = ("the", "porter", "flag", "captured", "level", "score", "room", "zodiac", "jump",
          "ladder", "bat", "eel", "court", "dunk", "pass", "shot", "à", "é", "ü", "—")


def build_escape(root: Path, case: str) -> dict:
    """The log: run_start, then observations of ~16 KiB each up to the size, run_end; the
    secret spelled the same way on the last observation. Written once."""
    d = root / case
    log = d / "agent-log.jsonl"
    if log.exists():
        return {"folder": str(d), "bytes": log.stat().st_size}
    d.mkdir(parents=True, exist_ok=True)
    from datetime import datetime, timedelta

    from moderator_app.core.samples.community import format_at

    rng = random.Random(case)
    ev = h28._events()
    head = [e for e in ev if e["type"] == "run_start"]
    tail = [e for e in ev if e["type"] == "run_end"]
    size, seq = ESCAPE[case], 1
    t0 = datetime.fromisoformat(head[0]["at"].replace("Z", "+00:00")) - timedelta(
        milliseconds=head[0]["elapsedMs"])

    def at_of(ms: int) -> str:
        return format_at(t0 + timedelta(milliseconds=ms))
    tmp = d / "agent-log.jsonl.part"
    with open(tmp, "wb") as fh:
        fh.write(h28._dump(head))
        written, at = 0, 1000
        while written < size:
            if case.startswith("e_uescape"):
                words = " ".join(rng.choice(_WORDS) for _ in range(1400))
                text = "tool ocr returned: {\"text\": \"" + "".join(
                    f"\\u{ord(c):04x}" for c in words) + "\"}"
            else:
                text = "$ xxd -p chunk.bin\n" + "\n".join(
                    rng.randbytes(30).hex() for _ in range(270))
            e = {"seq": seq, "at": at_of(at), "elapsedMs": at, "type": "observation",
                 "data": {"summary": text}}
            line = h28._dump([e])
            fh.write(line)
            written += len(line)
            seq += 1
            at += 10
        key = TSK_U if case.startswith("e_uescape") else "\n".join(
            TSK.encode().hex()[i:i + 60] for i in range(0, 2 * len(TSK), 60))
        last = {"seq": seq, "at": at_of(at), "elapsedMs": at, "type": "observation",
                "data": {"summary": "tool env returned: {\"TS_AUTHKEY\": \"" + key + "\"}"}}
        fh.write(h28._dump([last]))
        for e in tail:
            fh.write(h28._dump([{**e, "seq": seq + 1, "at": at_of(at + 10),
                                 "elapsedMs": at + 10}]))
    tmp.rename(log)
    if not (d / "video.mp4").exists():
        os.link(SAMPLE / "video.mp4", d / "video.mp4")
    return {"folder": str(d), "bytes": log.stat().st_size}


def _timed(argv: list[str], env: dict) -> dict:
    """One command under prlimit --as=512 MiB and timeout 300 s: exit, CPU s (user + sys of
    the process tree), peak RSS (MiB), wall s."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(["prlimit", "--as=536870912", "timeout", "300", *CLI, *argv],
                       env=env, capture_output=True, text=True, check=False)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"exit": p.returncode, "cpu_s": round(cpu, 2), "wall_s": round(wall, 2),
            "peak_mib": round(after.ru_maxrss / 1024, 1), "stdout": p.stdout[-4000:],
            "stderr": p.stderr[-600:]}


def check_escape(root: Path, case: str) -> dict:
    """`verify --json` and `withhold` on one escape-heavy log: CPU, scaled to 512 MiB (x
    512 MiB / the file's size) against 30 s; the key on the last line flagged by verify and
    absent from withhold's output (or withhold refusing)."""
    info = build_escape(root, case)
    d = Path(info["folder"])
    env = {**os.environ, "MODERATOR_APP_STORE": str(root / f"{case}.store.sqlite3"),
           "ALE_EVALUATOR_SECRET": EVAL_SECRET}
    pub = root / f"{case}.pub"
    pub.unlink(missing_ok=True)
    v = _timed(["verify", str(d), "--json"], env)
    w = _timed(["withhold", str(d / "agent-log.jsonl"), "-o", str(pub)], env)
    scale = 512 * (1 << 20) / info["bytes"]
    try:
        rep = json.loads(v["stdout"])
    except ValueError:
        rep = {}
    with open(d / "agent-log.jsonl", "rb") as fh:
        last = sum(1 for _ in fh) - 1
    flagged = sorted({f.get("line") for f in rep.get("findings", [])
                      if str(f.get("rule", "")).startswith("secret")})
    leaked = False
    if pub.exists():
        with open(pub, "rb") as fh:
            fh.seek(max(0, pub.stat().st_size - 65536))
            tail = fh.read().decode("utf-8", "replace")
        leaked = any(s in t for t in [tail, *_decodings(tail)] for s in (TSK, TSK_U[:60]))
    out = {"case": case, "bytes": info["bytes"], "key_line": last,
           "verify": {k: v[k] for k in ("exit", "cpu_s", "wall_s", "peak_mib")},
           "withhold": {k: w[k] for k in ("exit", "cpu_s", "wall_s", "peak_mib")},
           "verify_cpu_512": round(v["cpu_s"] * scale, 1),
           "withhold_cpu_512": round(w["cpu_s"] * scale, 1),
           "secret_lines": flagged, "withhold_wrote": pub.exists(), "leaked": leaked,
           "stderr": (v["stderr"] + w["stderr"])[-400:]}
    out["met_time"] = max(out["verify_cpu_512"], out["withhold_cpu_512"]) <= 30 and all(
        x["exit"] in (0, 1, 2) for x in (v, w))
    out["met_secret"] = last in flagged and not leaked
    return out


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    sys.path[:0] = [str(here), str(here.parent / "tests")]
    import qa_session34 as s34
    run(s34.CACHE, sys.argv[1:])
