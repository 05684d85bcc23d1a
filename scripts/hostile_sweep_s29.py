"""Issue 15 a sixth time: classes and bytes no earlier sweep (s25-s28, the QA passes) used
(session 29, s29-hostile). Earlier sweeps were grepped first (`scripts/hostile_sweep_s2*.py`,
`scripts/qa_hostile_s*.py`); none of these were there:

- m01 ledgers replaced: the database itself (not its head or `-wal`) replaced by a FIFO, by
  a symlink to another ledger, by a directory; a `-wal` that is a directory; and replaced
  mid-run: a FIFO put in the database's place while `decide` verifies the submission;
- m02 a full disk, as a file-size rlimit (`prlimit --fsize`): `decisions export --out`,
  `withhold -o` and `decide` (the ledger cannot grow) told they cannot write past 8 KiB;
- m03 zstd: skippable frames (holding the evaluator secret and a JSON line) between the data
  frames of an honest chain; a skippable frame whose size runs past the file's end; a frame
  compressed with a real trained dictionary;
- m04 JSON: members repeated under two spellings that differ only by escapes
  (`seed_commitment` / `seed_\\u0063ommitment`, `type` / `\\u0074ype`) in a chain and a log;
- m05 U+2028 / U+2029: raw inside a log's strings, as the only line separator of a log, in a
  `--note` and `--reviewer`;
- m06 bidi controls (RLI, PDI, RLM, ALM) in a folder's and a zip member's names, opened in the
  offscreen workstation too;
- m07 a tar member named twice: a GNU long name and a pax path in both orders, two pax paths;
- m08 the evaluator secret split across two JSON fields of one line, across two lines, with
  an escape in the middle of it;
- m09 payloads 256, 600 and 1,000 levels deep in a chain written by the stdlib (a harness
  writing with `json.dumps` can: its bound is the recursion limit).

Each case's expectation is written here before the run (EXPECT in words; NOT_PASS and
RULE as checks). Every command runs under `prlimit --as=536870912` and `timeout 30` (a
traceback, a raw control or invisible character, the secret or half of it, a temp file left,
a hang is a problem). Inputs under /work/main/.cache/s29-hostile/hostile/, never committed.

    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s29.py build
    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s29.py run [ID-PREFIX...]
    PYTHONPATH=. .venv/bin/python scripts/hostile_sweep_s29.py gui
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "scripts"), str(REPO / "tests"), str(REPO)]

import hostile_sweep_s25 as s25  # noqa: E402
import hostile_sweep_s26 as s26  # noqa: E402
import hostile_sweep_s28 as s28  # noqa: E402

CACHE = Path(os.environ.get("S29_HOSTILE_CACHE", "/work/main/.cache/s29-hostile"))
SAMPLE, OFFICIAL = s25.SAMPLE, s25.OFFICIAL
CLI = [str(REPO / ".venv" / "bin" / "moderator-app")]
SECRET = "qa29-evaluator-secret-c41d07"
SEEDS = ["qa29-seed-alpha-0001", "qa29-seed-beta-0002"]
SECRETS = [SECRET, SECRET[:14], SECRET[14:]]
ENV: dict[str, dict[str, str]] = {}
EXPECT: dict[str, str] = {}
NOT_PASS: set[str] = set()
RULE: dict[str, str] = {}
#: raw characters no output may hold: hostile_corpus's list, the line and paragraph
#: separators, the marks that reorder a line without drawing (LRM, RLM, ALM) and TAG letters
RAW = [chr(c) for c in (*range(0, 9), *range(11, 32), 127, *range(0x80, 0xA0))] + [
    "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069",
    "\u00ad", "\u200b", "\u2060", "\ufeff", "\u2028", "\u2029", "\u200e", "\u200f", "\u061c",
    "\U000e0073", "\U000e006b"]
LIMIT_S = 30


def _chain_events(n: int, seed: int, **kw) -> list[dict]:
    from moderator_app.core.samples.trajectory_writer import make_run_events

    return make_run_events(n, seed=seed, variety=0.0, **kw)


def _sealed(events: list[dict], edit=None) -> bytes:
    """The events chained and written by the stdlib (as a harness using `json.dumps` would),
    `edit(i, line) -> line` respelling a sealed line (to the same value)."""
    from moderator_app.core.samples.trajectory_writer import chain_events

    out = []
    for i, ev in enumerate(chain_events(events)):
        line = json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode()
        out.append((edit(i, line) if edit else line) + b"\n")
    return b"".join(out)


def _skippable(payload: bytes, magic: int = 0x184D2A50, size: int | None = None) -> bytes:
    n = len(payload) if size is None else size
    return magic.to_bytes(4, "little") + n.to_bytes(4, "little") + payload


def cases(root: Path) -> list[tuple[str, list[list[str]]]]:  # noqa: C901, PLR0915 - one table
    import zstandard

    sys.setrecursionlimit(100_000)
    root.mkdir(parents=True, exist_ok=True)
    store = root / "ledger.sqlite3"
    seeds_file = root / "seeds.txt"
    seeds_file.write_text("\n".join(SEEDS) + "\n")
    out: list[tuple[str, list[list[str]]]] = []

    def add(name: str, *cmds: list) -> None:
        out.append((name, [[os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in c]
                           for c in cmds]))

    def std(p, tag: str, *extra) -> list[list]:
        return [["verify", p, *extra], ["verify", p, "--json", *extra],
                ["decide", p, "--reject", "--reason", "other", "--note", f"s29 {tag}",
                 "--reviewer", "qa", "--store", store, *extra]]

    def expect(name: str, words: str, *, not_pass: bool = False, rule: str | None = None):
        EXPECT[name] = words
        if not_pass:
            NOT_PASS.add(name)
        if rule:
            RULE[name] = rule

    failing = s26._failing_log()
    log = s25._log_bytes()

    # m01 ledgers replaced -----------------------------------------------------------------
    def ledger(case: str, n: int = 3) -> Path:
        lp = root / case / "decisions.sqlite3"
        if not (root / case).exists():
            s26._ledger(lp, n)
        return lp

    def four(lp: Path, case: str) -> list[list]:
        return [["decisions", "verify", "--store", lp], ["decisions", "list", "--store", lp],
                ["decisions", "export", "--store", lp, "--format", "csv", "--out",
                 root / f"{case}.csv"],
                ["decide", SAMPLE, "--accept", "--reviewer", "qa", "--store", lp]]

    case = "m01_db_fifo"
    lp = root / case / "decisions.sqlite3"
    if not lp.exists() and not lp.is_fifo():
        lp.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(lp)
    expect(case, "the database itself a FIFO: never waited on (no hang), refused as not a "
                 "ledger file, exit 1 (verify) / 2, nothing written")
    add(case, *four(lp, case))
    case = "m01_db_symlink_other"
    other = ledger("m01_other_ledger", 2)
    lp = root / case / "decisions.sqlite3"
    if not lp.is_symlink():
        lp.parent.mkdir(parents=True, exist_ok=True)
        lp.symlink_to(other)
    expect(case, "the database a symlink to another ledger: refused or read as that ledger, "
                 "never a traceback; decide writes nothing through it unannounced")
    add(case, *four(lp, case))
    case = "m01_db_directory_with_head"
    lp = ledger(case)
    if lp.is_file():
        lp.unlink()
        Path(str(lp) + "-wal").unlink(missing_ok=True)
        Path(str(lp) + "-shm").unlink(missing_ok=True)
        lp.mkdir()
    expect(case, "the database replaced by a directory, its head file beside it: every "
                 "command refuses (exit 2; verify 1), no new ledger made inside")
    add(case, *four(lp, case))
    case = "m01_wal_directory"
    lp = ledger(case)
    wal = Path(str(lp) + "-wal")
    if not wal.is_dir():
        wal.unlink(missing_ok=True)
        wal.mkdir()
    expect(case, "the -wal a directory: refused (not a regular file), no traceback")
    add(case, *four(lp, case))
    case = "m01_db_fifo_mid_decide"
    lp = ledger(case)
    swap = (f"sleep 0.4; mv {lp} {lp}.moved; mkfifo {lp}")
    expect(case, "a FIFO put in the database's place while decide verifies: no hang, the "
                 "decision recorded in the file it opened or refused, verify afterwards "
                 "says what happened (exit 1 or 2), never a traceback")
    add(case, ["@sh", f"{' '.join(CLI)} decide {SAMPLE} --accept --reviewer qa --store {lp} "
                      f"& {swap}; wait $!"],
        ["decisions", "verify", "--store", lp])

    # m02 a full disk (file-size rlimit) ---------------------------------------------------
    case = "m02_fsize_export"
    lp = ledger(case, 200)
    target = root / f"{case}.csv"
    target.write_text("previous export\n")
    expect(case, "export past a 64 KiB file-size limit (200 decisions): exit 2 'cannot write' (EFBIG), the "
                 "previous file untouched, no temporary file left beside it")
    add(case, ["@fsize=65536", "decisions", "export", "--store", lp, "--format", "csv",
               "--out", target],
        ["@fsize=65536", "decisions", "export", "--store", lp, "--format", "jsonl", "--out",
         root / f"{case}.jsonl"])
    case = "m02_fsize_withhold"
    big = root / f"{case}.jsonl"
    if not big.exists():
        big.write_bytes(log * 8)
    expect(case, "withhold past an 8 KiB limit: exit 2, nothing half-written, no temp left")
    add(case, ["@fsize=8192", "withhold", big, "-o", root / f"{case}.pub"])
    case = "m02_fsize_decide"
    lp = ledger(case, 40)
    expect(case, "decide when the ledger cannot grow: 'decision NOT recorded' (exit 2), the "
                 "ledger still verifies intact afterwards (exit 0)")
    add(case, ["@fsize=81920", "decide", SAMPLE, "--accept", "--reviewer", "qa", "--store", lp],
        ["decisions", "verify", "--store", lp])

    # m03 zstd -----------------------------------------------------------------------------
    raw = _sealed(_chain_events(40, 41))
    lines = raw.splitlines(keepends=True)
    cctx = zstandard.ZstdCompressor(level=3, write_checksum=True)
    name = "m03_zst_skippable_between_frames"
    body = b"".join(cctx.compress(b"".join(lines[i:i + 10])) +
                    _skippable(SECRET.encode() + b'\n{"type":"action"}\n', 0x184D2A50 + i % 16)
                    for i in range(0, len(lines), 10))
    d = s28._official(root, name, body, zst=False, evname="events.jsonl.zst")
    ENV[name] = {"ALE_EVALUATOR_SECRET": SECRET}
    expect(name, "skippable frames between the data frames, holding the secret and a JSON "
                 "line: the frames' data verified (skippable frames are not content), the "
                 "secret never printed")
    add(name, ["verify", d], ["verify", d, "--json"])
    name = "m03_zst_skippable_past_end"
    d = s28._official(root, name, cctx.compress(raw) + _skippable(b"abc", size=1 << 30),
                      zst=False, evname="events.jsonl.zst")
    expect(name, "a trailing skippable frame claiming 1 GiB (3 bytes present): truncated "
                 "(traj.zstd_*), never read to 1 GiB, never a pass", not_pass=True)
    add(name, ["verify", d, "--json"], ["verify", d])
    name = "m03_zst_trained_dictionary"
    samples = [b"".join(lines[i:i + 2]) for i in range(0, len(lines) - 1)] * 4
    try:
        dic = zstandard.train_dictionary(4096, samples)
        dz = zstandard.ZstdCompressor(level=3, dict_data=dic).compress(raw)
    except zstandard.ZstdError:
        dz = cctx.compress(raw)
    d = s28._official(root, name, dz, zst=False, evname="events.jsonl.zst")
    expect(name, "a chain compressed with a trained dictionary: not readable without it, "
                 "named (traj.zstd_corrupt saying a dictionary), never a pass",
           not_pass=True)
    add(name, ["verify", d, "--json"], ["verify", d])

    # m04 duplicate members spelled with escapes ------------------------------------------
    name = "m04_chain_dup_escaped_member"
    events = _chain_events(30, 42, seeds=SEEDS)

    def respell(i: int, line: bytes) -> bytes:
        if i == 0:
            return line.replace(b'"type":', b'"\\u0074ype":"observation","type":', 1)
        return line

    d = s28._official(root, name, _sealed(events, respell))
    expect(name, "run_start carrying `type` twice (one spelled `\\u0074ype`): "
                 "traj.duplicate_member, never a pass", not_pass=True,
           rule="traj.duplicate_member")
    add(name, *std(d, name))
    name = "m04_log_dup_escaped_member"
    ev = s25._events()
    dumped = s25._dump(ev).splitlines(keepends=True)
    act = next(i for i, e in enumerate(ev) if e["type"] == "model_response")
    dumped[act] = dumped[act].replace(b'"data":', b'"d\\u0061ta":{"actions":[]},"data":', 1)
    d = s25._folder(root, name, b"".join(dumped))
    expect(name, "a log line with `data` twice (one spelled `d\\u0061ta`): log.json or "
                 "log.duplicate_member, never a pass; withhold refuses it", not_pass=True)
    add(name, *std(d, name), ["withhold", d / "agent-log.jsonl", "-o", root / f"{name}.pub"])

    # m05 U+2028 / U+2029 ------------------------------------------------------------------
    name = "m05_log_raw_line_separators"
    ev = s25._events()
    for e in ev:
        if e["type"] == "model_response":
            e["data"]["text"] = "one\u2028two\u2029three \u202e evil"
    d = s25._folder(root, name, s25._dump(ev))
    expect(name, "raw U+2028/U+2029/U+202E inside a log's strings (valid JSON): verified as "
                 "written (PASS allowed), printed escaped everywhere; withhold keeps the "
                 "JSON valid")
    add(name, *std(d, name), ["withhold", d / "agent-log.jsonl", "-o", root / f"{name}.pub"])
    name = "m05_log_lines_split_by_u2028"
    d = s25._folder(root, name, log.rstrip(b"\n").replace(b"\n", "\u2028".encode()) + b"\n")
    expect(name, "a log whose only separator is U+2028 (one physical line): one event, "
                 "never a pass", not_pass=True)
    add(name, *std(d, name))
    name = "m05_note_reviewer_separators"
    st = root / f"{name}.sqlite3"
    expect(name, "a note and a reviewer holding U+2028/U+2029: recorded (or refused, exit 2); "
                 "list and export show them escaped")
    add(name, ["decide", SAMPLE, "--accept", "--note", "a\u2028b\u2029c", "--reviewer",
               "q\u2028a", "--store", st],
        ["decide", SAMPLE, "--accept", "--note", "a\u2028b\u2029c", "--reviewer", "qa",
         "--store", st],
        ["decisions", "list", "--store", st],
        ["decisions", "export", "--store", st, "--format", "csv", "--out", "/dev/stdout"])

    # m06 bidi controls in names -----------------------------------------------------------
    name = "m06_folder_bidi_\u2067lmth.exe\u2069_\u200f\u061c"
    d = s25._folder(root, name, log)
    expect(name, "a folder named with RLI..PDI, RLM, ALM: every name printed escaped (CLI and "
                 "GUI)")
    add(name, *std(d, "m06 folder"))
    name = "m06_zip_bidi_members.zip"
    p = root / name
    if not p.exists():
        with zipfile.ZipFile(p, "w") as zf:
            zf.writestr("agent-log.jsonl", log)
            zf.writestr("video.mp4", (SAMPLE / "video.mp4").read_bytes())
            zf.writestr("notes\u2067gpj.exe\u2069\u200f.txt", b"x")
            zf.writestr("a\u2028b.txt", b"y")
    expect(name, "zip members named with RLI/PDI/RLM and U+2028 beside the sample: PASS, "
                 "names escaped")
    add(name, *std(p, name))

    # m07 a tar member named twice ---------------------------------------------------------
    ch = s26._zstd(_sealed(_chain_events(8, 43)))
    for order in ("pax_then_gnu", "gnu_then_pax", "two_pax"):
        name = f"m07_tar_named_twice_{order}.tar"
        p = root / name
        if not p.exists():
            gnu = s28._tar_header("././@LongLink", 16, b"L") + s28._pad(b"agent-log.jsonl\0")
            pax_a, pax_b = s28._pax({"path": "notes.txt"}), s28._pax({"path": "agent-log.jsonl"})
            recs = {"pax_then_gnu": pax_a + gnu, "gnu_then_pax": gnu + pax_a,
                    "two_pax": pax_a + pax_b}[order]
            p.write_bytes(s28._tar_header("events.jsonl.zst", len(ch)) + s28._pad(ch) + recs +
                          s28._tar_header("x", len(failing)) + s28._pad(failing) +
                          b"\0" * 1024)
        expect(name, "a member named agent-log.jsonl and notes.txt (a failing log) by two "
                     "records beside a self-made chain: archive.corrupt (refused), never a "
                     "pass", not_pass=True, rule="archive.corrupt")
        add(name, *std(p, name))

    # m08 the evaluator secret split -------------------------------------------------------
    half = len(SECRET) // 2
    for name, how in (("m08_secret_two_fields", "fields"), ("m08_secret_two_lines", "lines"),
                      ("m08_secret_escape_middle", "escape")):
        events = _chain_events(30, 44, seeds=SEEDS, secret=SECRET)
        obs = [i for i, e in enumerate(events) if e["type"] == "observation"][2:4]
        p0 = events[obs[0]]["payload"]
        if how == "fields":
            events[obs[0]]["payload"] = dict(p0, a=SECRET[:half], b=SECRET[half:])
        elif how == "lines":
            events[obs[0]]["payload"] = dict(p0, text=SECRET[:half])
            events[obs[1]]["payload"] = dict(events[obs[1]]["payload"], text=SECRET[half:])
        else:
            events[obs[0]]["payload"] = dict(p0, text="SECRETHERE")
        esc = (SECRET[:half] + f"\\u{ord(SECRET[half]):04x}" + SECRET[half + 1:]).encode()
        data = _sealed(events, (lambda i, line, esc=esc: line.replace(b"SECRETHERE", esc))
                       if how == "escape" else None)
        d = s28._official(root, name, data)
        ENV[name] = {"ALE_EVALUATOR_SECRET": SECRET}
        if how == "escape":
            expect(name, "the secret with one escape in its middle: seed.secret_leak, never "
                         "printed", not_pass=True, rule="seed.secret_leak")
        else:
            expect(name, f"the secret split over two {how}: neither half printed; detection "
                         "is what docs/reviewer-guide.md says of a split secret")
        add(name, ["verify", d, "--seeds", seeds_file],
            ["verify", d, "--json", "--seeds", seeds_file])

    # m09 deep payloads written by the stdlib ----------------------------------------------
    for depth in (256, 600, 1000):
        name = f"m09_chain_depth_{depth}"
        events = _chain_events(20, 45)
        obs = next(i for i, e in enumerate(events) if e["type"] == "observation")
        events[obs]["payload"] = dict(events[obs]["payload"],
                                      tree=s28._nested(depth - 3, "leaf"))
        d = s28._official(root, name, _sealed(events))
        expect(name, f"a payload {depth} levels deep: the documented bound (traj.json "
                     "'nesting too deep' past 255), the same in both engines, no crash")
        add(name, ["verify", d], ["verify", d, "--json"])
    return out


# -- runner -------------------------------------------------------------------------------
def _one(cmd: list[str], env: dict[str, str], tmp: Path) -> tuple[int, str, str, float, int]:
    tfile = CACHE / "time.txt"
    tfile.unlink(missing_ok=True)
    limits, cli = ["prlimit", "--as=536870912"], CLI
    if cmd and cmd[0].startswith("@fsize="):  # the file-size limit on the command alone
        cli = ["prlimit", f"--fsize={cmd[0][7:]}", *CLI]
        cmd = cmd[1:]
    if cmd and cmd[0] == "@sh":
        argv = [*limits, "timeout", str(LIMIT_S), "/usr/bin/time", "-o", str(tfile), "-f",
                "%e %M", "sh", "-c", cmd[1]]
    else:
        argv = [*limits, "timeout", str(LIMIT_S), "/usr/bin/time", "-o", str(tfile), "-f",
                "%e %M", *cli, *cmd]
    t0 = time.monotonic()
    r = subprocess.run([os.fsencode(a) for a in argv], capture_output=True, env={
        os.fsencode(k): os.fsencode(v) for k, v in env.items()}, stdin=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    t = tfile.read_text().split() if tfile.exists() else []
    rss = int(t[-1]) if len(t) >= 2 and t[-1].isdigit() else -1
    return (r.returncode, r.stdout.decode("utf-8", "replace"),
            r.stderr.decode("utf-8", "replace"), wall, rss)


def _rules(out: str) -> set[str]:
    try:
        return {f["rule"] for f in json.loads(out).get("findings", [])}
    except (ValueError, AttributeError):
        return set()


def run(only: list[str]) -> int:
    root = CACHE / "hostile"
    results, bad = [], 0
    for name, cmds in cases(root):
        if only and not any(name.startswith(o) for o in only):
            continue
        for cmd in cmds:
            tmp = CACHE / "tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            env = {k: v for k, v in os.environ.items() if k != "ALE_EVALUATOR_SECRET"}
            env.update(ENV.get(name, {}), TMPDIR=str(tmp), PYTHONPATH=str(REPO),
                       MODERATOR_APP_STORE=str(root / f"{name}.store.sqlite3"))
            code, out, err, wall, rss = _one(cmd, env, tmp)
            both = out + err
            problems = []
            if "Traceback" in both or "internal error" in both.lower():
                problems.append("traceback")
            raw = sorted({hex(ord(c)) for c in RAW if c in both.replace("\r\n", "\n")})
            if raw:
                problems.append(f"raw {raw}")
            if any(s in both for s in SECRETS):
                problems.append("secret printed")
            if code == 124 or wall > LIMIT_S:
                problems.append(f"hang ({wall:.1f} s)")
            elif code not in (0, 1, 2):
                problems.append(f"exit {code}")
            if list(tmp.iterdir()):
                problems.append(f"temp left: {[p.name for p in tmp.iterdir()]}")
            verdict = None
            if "--json" in cmd:
                try:
                    verdict = json.loads(out).get("verdict")
                except (ValueError, AttributeError):
                    problems.append("--json output is not one JSON object")
                if name in NOT_PASS and verdict == "pass":
                    problems.append("forged pass")
                if name in RULE and cmd[0] == "verify" and RULE[name] not in _rules(out):
                    problems.append(f"no {RULE[name]}")
            res = {"case": name, "cmd": " ".join(c[-50:] for c in cmd), "exit": code,
                   "seconds": round(wall, 2), "max_rss_kb": rss, "verdict": verdict,
                   "rules": sorted(_rules(out)) if "--json" in cmd else None,
                   "problems": problems, "expect": EXPECT.get(name, ""),
                   "stderr": err[-300:], "stdout": out[:300]}
            print(json.dumps(res, ensure_ascii=True), flush=True)
            results.append(res)
            bad += bool(problems)
    (CACHE / ("results-" + "-".join(only) + ".json" if only else "results.json")).write_text(
        json.dumps(results, indent=1, ensure_ascii=True))
    print(f"{len(results)} commands, {bad} with problems", file=sys.stderr)
    return 1 if bad else 0


#: inputs opened in the offscreen workstation (scripts/qa_gui_hostile_s16.py)
GUI = ["m06_folder_bidi_\u2067lmth.exe\u2069_\u200f\u061c", "m06_zip_bidi_members.zip",
       "m05_log_raw_line_separators", "m07_tar_named_twice_gnu_then_pax.tar",
       "m04_log_dup_escaped_member", "m09_chain_depth_1000"]


def gui(names: list[str]) -> int:
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    env.pop("ALE_EVALUATOR_SECRET", None)
    r = subprocess.run([sys.executable, str(REPO / "scripts" / "qa_gui_hostile_s16.py"),
                        str(CACHE / "gui"), *[str(CACHE / "hostile" / n) for n in
                                              (names or GUI)]], env=env, check=False)
    return r.returncode


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "run"
    if what == "build":
        cases(CACHE / "hostile")
    elif what == "run":
        sys.exit(run(sys.argv[2:]))
    elif what == "gui":
        sys.exit(gui(sys.argv[2:]))
    else:
        sys.exit(f"unknown command {what!r}: build, run or gui")
