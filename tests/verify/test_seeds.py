"""Seed commitments with the evaluator secret (docs/DESIGN.md decision 9); the secret never leaks."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from trajhelp import errors, join, verify_bytes, zstd

from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events
from moderator_app.core.verify.seeds import commitment

SECRET = "evaluator-secret-Zq8#x"
SEEDS = ("seed-alpha-1234", "seed-beta-5678")
RUN = make_run_events(20, seed=3, seeds=SEEDS, secret=SECRET, run_id="run_seedtest")


def _bytes(events) -> bytes:
    return join([orjson.dumps(e) for e in chain_events(events)])


def test_commitment_formula():
    import hashlib

    assert commitment("s", "run", "k") == hashlib.sha256(b"srunk").hexdigest()
    assert commitment("é", "r", "ü") == hashlib.sha256("érü".encode()).hexdigest()


def test_all_commitments_match():
    rep = verify_bytes(_bytes(RUN), seeds=SEEDS, secret=SECRET)
    assert rep.verdict == "pass", [f.to_dict() for f in rep.findings]
    assert rep.run.seeds == {"commitments": 2, "checked": True}


def test_wrong_secret_makes_every_commitment_unmatched():
    rep = verify_bytes(_bytes(RUN), seeds=SEEDS, secret="wrong")
    assert [(f.rule, f.line) for f in errors(rep)] == [
        ("seed.commitment_unmatched", 2), ("seed.commitment_unmatched", 3)]
    assert rep.findings.by_rule["seed.unused"] == 2


def test_unused_seed_is_a_warning():
    rep = verify_bytes(_bytes(RUN), seeds=(*SEEDS, "seed-gamma-0000"), secret=SECRET)
    assert errors(rep) == []
    unused = [f for f in rep.findings if f.rule == "seed.unused"]
    assert len(unused) == 1 and "seed #3" in unused[0].message
    assert "seed-gamma" not in unused[0].message


def test_raw_seed_in_the_stream_is_a_leak_at_its_line():
    evs = copy.deepcopy(RUN)
    evs[7]["payload"]["text"] = f"using seed {SEEDS[1]} now"
    rep = verify_bytes(_bytes(evs), seeds=SEEDS, secret=SECRET)
    assert [(f.rule, f.line) for f in errors(rep)] == [("seed.leak", 8)]
    assert SEEDS[1] not in errors(rep)[0].message


def test_short_seed_does_not_match_inside_longer_tokens():
    evs = copy.deepcopy(RUN)
    rep = verify_bytes(_bytes(evs), seeds=(*SEEDS, "42"), secret=SECRET)
    assert "seed.leak" not in rep.findings.by_rule or all(
        "42" in orjson.dumps(RUN[f.line - 1]["payload"]).decode() for f in rep.findings
        if f.rule == "seed.leak")


def test_commitments_not_checked_without_seeds_is_info():
    rep = verify_bytes(_bytes(RUN))
    assert rep.verdict == "pass" and rep.findings.infos == 1
    assert "seed.not_checked" in rep.findings.by_rule


def test_secret_never_reaches_report_stdout_stderr_or_disk(tmp_path):
    evs = copy.deepcopy(RUN)
    evs[5]["payload"]["text"] = f"leaked {SEEDS[0]}"
    folder = tmp_path / "sub"
    folder.mkdir()
    (folder / "events.jsonl.zst").write_bytes(zstd(_bytes(evs)))
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("\n".join((*SEEDS, "seed-unused-9")) + "\n")
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "ALE_EVALUATOR_SECRET": SECRET, "HOME": str(home),
           "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_CACHE_HOME": str(home / "cache"), "TMPDIR": str(tmp_path / "tmp")}
    (tmp_path / "tmp").mkdir()
    exe = Path(sys.executable).parent / "moderator-app"
    for extra in (["--json"], []):
        proc = subprocess.run([str(exe), "verify", str(folder), "--seeds", str(seeds), *extra],
                              capture_output=True, env=env, timeout=60)
        assert proc.returncode == 1
        out = proc.stdout + proc.stderr
        assert SECRET.encode() not in out
        assert b"seed.leak" in out and b"seed.unused" in out
        if extra:
            rep = orjson.loads(proc.stdout)
            assert rep["verdict"] == "fail"
            assert SECRET not in orjson.dumps(rep).decode()
    for p in tmp_path.rglob("*"):
        if p.is_file() and p != seeds:
            assert SECRET.encode() not in p.read_bytes(), p
    assert SECRET not in "".join(sys.argv)


def _worker_errors(text: str) -> list[tuple[str, int]]:
    """The errors of a 400-event run whose event 334 says `text`, verified in small blocks
    by the worker process."""
    import moderator_app.core.verify.trajectory as traj

    evs = make_run_events(400, seed=8, seeds=SEEDS, secret=SECRET, run_id="run_w")
    evs[333]["payload"]["text"] = text
    data = zstd(_bytes(evs))
    old = traj.stream.BLOCK
    traj.stream.BLOCK = 8192
    try:
        rep = verify_bytes(data, "events.jsonl.zst", seeds=SEEDS, secret=SECRET, parallel=True)
    finally:
        traj.stream.BLOCK = old
    return [(f.rule, f.line) for f in errors(rep)]


def test_leak_found_by_the_worker_process_too():
    assert _worker_errors(f"seed is {SEEDS[0]}") == [("seed.leak", 334)]


# The evaluator secret written into the stream (issue 15, hostile leftovers): its own error,
# at its line, in both engines and in the worker; never shown.

def _secret_run(text_at: dict[int, object], n: int = 20, **kw):
    evs = copy.deepcopy(make_run_events(n, seed=3, seeds=SEEDS, secret=SECRET,
                                        run_id="run_seedtest", **kw))
    for i, value in text_at.items():
        evs[i]["payload"]["text"] = value
    return _bytes(evs)


@pytest.mark.usefixtures("engine")
@pytest.mark.parametrize("value", [
    f"export ALE_EVALUATOR_SECRET={SECRET}",  # verbatim, inside a longer word
    {"env": [{"k": SECRET}]},  # at depth
    "escaped",  # the secret spelled with a JSON escape: `\u0023` for `#`
])
def test_the_evaluator_secret_in_the_stream_is_its_own_error_at_its_line(value):
    lines = _secret_run({9: SECRET if value == "escaped" else value}).splitlines(keepends=True)
    if value == "escaped":  # the same value (and hash), spelled otherwise
        assert lines[9].count(b"#") == 1
        lines[9] = lines[9].replace(b"#", b"\\u0023")
        assert orjson.loads(lines[9])["payload"]["text"] == SECRET
    rep = verify_bytes(b"".join(lines), seeds=SEEDS, secret=SECRET)
    assert [(f.rule, f.line) for f in errors(rep)] == [("seed.secret_leak", 10)]
    assert all(SECRET not in f.message for f in rep.findings)
    assert rep.verdict == "fail"


@pytest.mark.usefixtures("engine")
def test_the_secret_alone_is_searched_and_short_secrets_only_as_whole_tokens():
    # with no seeds at all (an empty seeds file), the secret is still searched
    rep = verify_bytes(_secret_run({4: f"k={SECRET}"}), seeds=None, secret=SECRET)
    assert [(f.rule, f.line) for f in errors(rep)] == [("seed.secret_leak", 5)]
    # a 7-character secret: a whole token is a leak, inside a longer word it is not
    short = "hunter7"
    rep = verify_bytes(_secret_run({4: f"pw {short} ok", 6: "xhunter7x"}), seeds=SEEDS,
                       secret=short)
    assert [(f.rule, f.line) for f in errors(rep) if f.rule == "seed.secret_leak"] == [
        ("seed.secret_leak", 5)]
    # a 5-character one is never searched: it would be found in honest text by chance
    rep = verify_bytes(_secret_run({4: "abcde"}), seeds=SEEDS, secret="abcde")
    assert "seed.secret_leak" not in rep.findings.by_rule


@pytest.mark.usefixtures("engine")
def test_a_secret_spelled_by_hashes_or_the_clock_is_not_a_leak():
    """An 8-hex-digit secret found inside an event's hash or prev_hash is chance, not a leak:
    the envelope's hashes, counters and timestamp are not searched."""
    data = _secret_run({})
    evs = [orjson.loads(line) for line in data.splitlines()]
    hex8 = evs[12]["hash"][10:18]
    rep = verify_bytes(data, seeds=None, secret=hex8)
    assert "seed.secret_leak" not in rep.findings.by_rule
    assert rep.verdict == "pass", [f.to_dict() for f in rep.findings]


def test_the_secret_in_an_unreadable_line_is_found_too():
    data = _secret_run({}).splitlines(keepends=True)
    data[6] = b'{"cut": "' + SECRET.encode() + b'"\n'
    rep = verify_bytes(b"".join(data), seeds=SEEDS, secret=SECRET)
    assert ("seed.secret_leak", 7) in [(f.rule, f.line) for f in errors(rep)]


def test_secret_leak_found_by_the_worker_process_too():
    assert _worker_errors(f"the key is {SECRET}.") == [("seed.secret_leak", 334)]
