"""Issue 15 inputs of session 15's hostile task (docs/qa/session15-hostile.md): classes that no
earlier pass (docs/qa/session9-14*, tests/hostile_corpus.py, scripts/qa_hostile_s*.py) had
tried: zstd streams of tiny or empty data frames and one needing a dictionary, sealed ledger
records of the wrong shape, and `decisions export --out` aimed at the ledger's own files.
(The submission that changes while it is read and the exported findings are driven from the
tests, which need a hook inside the verification or the window: tests/verify/
test_hostile_s15.py, tests/ui/test_ui_review_loop.py.) Deterministic (fixed bytes); written
under `.cache/qa-s15-hostile/hostile/`. Run:

    .venv/bin/python scripts/qa_hostile_s15.py [ID-PREFIX...]

Each command goes through the shared runner (scripts/qa_common.run_hostile): prlimit 512 MiB,
timeout 60, time and peak RSS, no traceback / raw control character / secret / temp file;
then its exit code is checked against `EXPECT`, and the post-checks look at the ledgers.
"""

from __future__ import annotations

import copy
import json
import shutil
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "scripts"), str(REPO)]

SECRET = "qa-s15-evaluator-secret-91be"
SECRETS = [SECRET]
MARK = "QA-S15-PRIVATE"
ENV: dict[str, dict[str, str]] = {}
SAMPLE = REPO / "resources" / "samples" / "community-sample"
OFFICIAL = REPO / "resources" / "samples" / "official-sample"
CACHE = REPO / ".cache" / "qa-s15-hostile"

# exit codes as documented, per case name
EXPECT: dict[str, set[int]] = {}


def _fresh(d: Path) -> Path:
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d


def _chain(events: int) -> bytes:
    """A valid official chain of `events` small events, uncompressed (the bench's generator)."""
    import zstandard

    sys.path.insert(0, str(REPO / "bench"))
    from bench_chain import generate

    p = CACHE / "gen" / f"chain-{events}" / "events.jsonl.zst"
    if not p.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
        generate(p, events, "tiny")
    with open(p, "rb") as fh:
        return zstandard.ZstdDecompressor().stream_reader(fh, read_across_frames=True).read()


def _official(d: Path, zst: bytes) -> Path:
    _fresh(d)
    (d / "events.jsonl.zst").write_bytes(zst)
    shutil.copy(OFFICIAL / "video.mp4", d / "video.mp4")
    return d


def _zstd_cases(root: Path) -> list[tuple[str, list]]:
    import zstandard

    c = zstandard.ZstdCompressor(level=1)
    ev = _chain(2500)  # 1.03 MB, 2,500 events
    with open(OFFICIAL / "events.jsonl.zst", "rb") as fh:
        sample = zstandard.ZstdDecompressor().stream_reader(fh, read_across_frames=True).read()
    lines = sample.split(b"\n")[:-1]
    dict_data = zstandard.train_dictionary(4096, lines * 20)
    folders = {
        # 1,028,086 frames of one byte each (10.3 MB): PASS in 5.8 s CPU / 43 s at load 20
        "z01_tiny_data_frames_1m": b"".join(c.compress(ev[i:i + 1]) for i in range(len(ev))),
        # the sample with 1,000 empty data frames after each line (120,120 frames, 1.1 MB)
        "z02_empty_data_frames": b"".join(c.compress(x + b"\n") + c.compress(b"") * 1000
                                          for x in lines),
        # a frame needing a dictionary the stream does not carry
        "z03_dictionary_frame": zstandard.ZstdCompressor(dict_data=dict_data).compress(sample),
        # one line a frame: honest (a writer that opens a frame per write); its 1,249.5 s run
        # is longer than the sample's video, so the one error is coverage.missing
        "z04_frame_per_line": b"".join(c.compress(x + b"\n") for x in ev.split(b"\n")[:-1]),
    }
    cases = []
    for name, data in folders.items():
        d = _official(root / name, data)
        EXPECT[name] = {1}
        cases.append((name, [["verify", d], ["verify", "--json", d]]))
    return cases


FORGERIES = {
    "rules_list": lambda b: b["summary"].__setitem__("rules", [["log.seq", 1]]),
    "summary_list": lambda b: b.__setitem__("summary", [1, 2]),
    "files_ints": lambda b: b.__setitem__("files", [1, "x"]),
    "files_str": lambda b: b.__setitem__("files", "abc"),
    "checklist_int": lambda b: b.__setitem__("checklist", 5),
    "checklist_str": lambda b: b.__setitem__("checklist", "abc"),
}


def _honest_body() -> dict:
    from moderator_app.core.ledger.records import build_record
    from moderator_app.core.verify.options import VerifyOptions
    from moderator_app.core.verify.pipeline import verify_paths

    result = verify_paths([SAMPLE], VerifyOptions(offset=0.0))
    rec = build_record(result, "accept", reviewer="qa", decided_at="2026-12-03T12:00:00.000Z")
    return rec.to_dict()


def _store(path: Path, body: dict) -> Path:
    from moderator_app.core.formats.canonical import canonical_json
    from moderator_app.core.formats.chain import ZERO_HASH, seal
    from moderator_app.core.ledger.config import open_store

    for p in path.parent.glob(path.name + "*"):
        p.unlink()
    with open_store(path) as s:
        s.import_raw([canonical_json(seal({**body, "seq": 1}, ZERO_HASH))])
    return path


def _ledger_cases(root: Path) -> list[tuple[str, list]]:
    d = _fresh(root / "ledgers")
    body = _honest_body()
    cases = []
    for name, forge in FORGERIES.items():
        forged = copy.deepcopy(body)
        forge(forged)
        store = _store(d / f"{name}.sqlite3", forged)
        case = f"l01_forged_{name}"
        EXPECT[case] = {0, 1, 2}
        flag = ["--store", store]
        cases.append((case, [["decisions", "verify", *flag], ["decisions", "list", *flag],
                             ["decisions", "export", "--format", "csv", "--out",
                              d / f"{name}.csv", *flag],
                             ["decide", SAMPLE, "--accept", "--reviewer", "qa", "--offset", "0",
                              *flag]]))
    store = _store(d / "own.sqlite3", body)
    (d / "hard.csv").unlink(missing_ok=True)
    (d / "hard.csv").hardlink_to(store)
    EXPECT["l02_export_over_own_files"] = {2}
    cases.append(("l02_export_over_own_files", [
        ["decisions", "export", "--format", fmt, "--out", out, "--store", store]
        for fmt in ("csv", "jsonl")
        for out in (store, Path(f"{store}-wal"), Path(f"{store}.head"), d / "hard.csv")]))
    return cases


def cases(root: Path) -> list[tuple[str, list]]:
    return [(name, [[str(a) for a in cmd] for cmd in cmds])
            for name, cmds in (*_zstd_cases(root), *_ledger_cases(root))]


def _own_ledger_intact(root: Path) -> dict:
    from moderator_app.core.ledger.config import open_store

    with open_store(root / "ledgers" / "own.sqlite3", create=False) as s:
        out = s.verify()
    return {"post_check": "l02 ledger after 8 exports over its own files",
            "intact": out.ok, "count": out.count}


POST_CHECKS = [_own_ledger_intact]


def main(only: list[str]) -> int:
    from qa_common import run_hostile

    t0 = time.monotonic()
    results = run_hostile(sys.modules[__name__], CACHE, only)
    bad = 0
    for r in results:
        allowed = EXPECT.get(r["case"], {0, 1, 2})
        if r["exit"] not in allowed:
            r["problems"].append(f"exit {r['exit']} not in {sorted(allowed)}")
        if r["problems"]:
            bad += 1
            print("PROBLEM", json.dumps(r), flush=True)
    worst_s = max((r["seconds"] or 0 for r in results), default=0)
    worst_mb = max((r["max_rss_kb"] or 0 for r in results), default=0) / 1024
    print(f"{len(results)} commands, {bad} with problems; slowest {worst_s:.1f} s, peak RSS "
          f"{worst_mb:.0f} MB; {time.monotonic() - t0:.0f} s in all", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
