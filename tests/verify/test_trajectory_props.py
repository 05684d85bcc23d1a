"""Property tests: every single tampering of a valid stream is reported at the right line, and
a valid stream never raises an error (docs/DESIGN.md decision 8; issue 3's acceptance criteria)."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from trajhelp import chain_lines, errors, first_error, join, verify_bytes, zstd

# Every test here runs on both engines (conftest.engine): their reports must be the same.
pytestmark = pytest.mark.usefixtures("engine")

N = 14
CHAINS = [chain_lines(N, seed=s, variety=0.6) for s in range(4)]
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _line_of(data: bytes, pos: int) -> int:
    return data.count(b"\n", 0, pos) + 1


@SETTINGS
@given(seed=st.integers(0, 10_000), n=st.integers(4, 40), variety=st.floats(0, 1),
       compress=st.booleans(), frames=st.integers(1, 4))
def test_valid_stream_never_raises_an_error(seed, n, variety, compress, frames):
    data = join(chain_lines(n, seed=seed, variety=variety))
    name = "events.jsonl"
    if compress:
        data, name = zstd(data, frames), "events.jsonl.zst"
    report = verify_bytes(data, name)
    assert errors(report) == []
    assert report.findings.warnings == 0
    assert report.events == n
    assert report.chain.valid is True and report.chain.first_break is None
    assert report.verdict == "pass"


@SETTINGS
@given(which=st.integers(0, 3), data=st.data())
def test_one_changed_byte_is_reported_at_its_line(which, data):
    lines = CHAINS[which]
    original = join(lines)
    pos = data.draw(st.integers(0, len(original) - 1), label="pos")
    new = data.draw(st.integers(0, 255).filter(lambda b: b != original[pos]), label="byte")
    tampered = original[:pos] + bytes([new]) + original[pos + 1:]
    line = _line_of(original, pos)
    if pos == len(original) - 1:
        # The file's final newline: JSON whitespace in its place leaves every event as it was
        # (no final newline is required), and a bare CR there is a line-ending error with the
        # chain intact (test_final_newline_replaced_by_cr below); neither is a chain break.
        assume(new not in b" \t\r")
    if original[pos] != 0x0A and new != 0x0A:
        # A change that leaves the event's JSON value identical (e.g. `e` -> `E` in an
        # exponent) is no tampering of the content: the hash covers the canonical form.
        try:
            same = orjson.loads(tampered.split(b"\n")[line - 1]) == orjson.loads(lines[line - 1])
        except orjson.JSONDecodeError:
            same = False
        assume(not same)
    report = verify_bytes(tampered)
    first = first_error(report)
    assert first is not None, "a changed byte went unnoticed"
    assert first.line == line
    assert report.verdict == "fail"
    assert report.chain.first_break.line == line


def test_final_newline_replaced_by_cr_is_a_line_ending_error_with_the_chain_intact():
    """Found by hypothesis (session 9): the last byte of a valid stream changed from LF to CR.
    Every event's value and hash are as they were, so nothing breaks the chain; the last line
    ends in a CR, which the format forbids."""
    original = join(CHAINS[0])
    report = verify_bytes(original[:-1] + b"\r")
    first = first_error(report)
    assert first is not None and (first.line, first.rule) == (N, "traj.line_ending")
    assert report.verdict == "fail"
    assert report.chain.first_break is None


@SETTINGS
@given(which=st.integers(0, 3), k=st.integers(1, N - 1))
def test_deleted_line_is_reported_at_the_line_that_follows_it(which, k):
    lines = CHAINS[which]
    tampered = lines[:k - 1] + lines[k:]
    report = verify_bytes(join(tampered))
    first = first_error(report)
    assert first is not None and first.line == k
    assert first.rule == ("chain.first_prev_hash" if k == 1 else "chain.link")
    assert report.chain.first_break.to_dict() == {"line": k, "kind": "link"}


def test_deleted_last_line_leaves_a_warning_and_a_new_head():
    lines = CHAINS[0]
    report = verify_bytes(join(lines[:-1]))
    assert errors(report) == []
    assert "traj.run_end_missing" in report.findings.by_rule
    assert report.chain.head == orjson.loads(lines[-2])["hash"]


@SETTINGS
@given(which=st.integers(0, 3), j=st.integers(0, N - 1), k=st.integers(1, N + 1))
def test_inserted_copy_of_a_line_is_reported(which, j, k):
    lines = CHAINS[which]
    tampered = lines[:k - 1] + [lines[j]] + lines[k - 1:]
    # Inserting a copy right before its original makes the pair identical: the second of the
    # two is the one that does not link.
    expected = k + 1 if k - 1 == j else k
    report = verify_bytes(join(tampered))
    first = first_error(report)
    assert first is not None and first.line == expected
    assert report.chain.first_break.line == expected
    assert report.events == N + 1


@SETTINGS
@given(which=st.integers(0, 3), k=st.integers(1, N + 1),
       junk=st.one_of(st.binary(min_size=0, max_size=40).filter(lambda b: b"\n" not in b),
                      st.dictionaries(st.text(max_size=5), st.integers(-2**63, 2**63 - 1), max_size=3)
                      .map(orjson.dumps)))
def test_inserted_foreign_line_is_reported(which, k, junk):
    lines = CHAINS[which]
    tampered = lines[:k - 1] + [junk] + lines[k - 1:]
    report = verify_bytes(join(tampered))
    first = first_error(report)
    assert first is not None and first.line == k


@SETTINGS
@given(which=st.integers(0, 3), i=st.integers(1, N), j=st.integers(1, N))
def test_swapped_pair_is_reported_at_the_first_of_the_two(which, i, j):
    assume(i != j)
    i, j = min(i, j), max(i, j)
    lines = list(CHAINS[which])
    lines[i - 1], lines[j - 1] = lines[j - 1], lines[i - 1]
    report = verify_bytes(join(lines))
    first = first_error(report)
    assert first is not None and first.line == i
    assert report.chain.first_break.to_dict() == {"line": i, "kind": "link"}


@settings(max_examples=60, deadline=None)
@given(which=st.integers(0, 3), frames=st.integers(1, 3), data=st.data())
def test_truncated_zstd_is_incomplete_never_a_shorter_valid_chain(which, frames, data):
    original = join(CHAINS[which])
    z = zstd(original, frames)
    cut = data.draw(st.integers(0, len(z) - 1), label="cut")
    report = verify_bytes(z[:cut], "events.jsonl.zst")
    assert report.verdict == "fail" or "traj.run_end_missing" in report.findings.by_rule
    if not report.complete:
        err = [f for f in errors(report) if f.rule.startswith("traj.zstd")
               or f.rule == "traj.trailing_garbage"]
        assert err and err[0].line == report.events + 1
        assert f"{report.events} events verified" in err[0].message


@SETTINGS
@given(which=st.integers(0, 3), data=st.data())
def test_block_fast_path_equals_line_by_line(which, data):
    """`examine_block` proves whole blocks ordinary in bulk; it must give exactly the facts
    `examine_line` gives, for valid and tampered blocks alike."""
    from moderator_app.core.verify.trajectory import LineContext, examine_block, examine_line

    lines = list(CHAINS[which])
    kind = data.draw(st.sampled_from(["none", "byte", "swap", "dup", "hash"]), label="kind")
    i = data.draw(st.integers(0, N - 2), label="i")
    if kind == "byte":
        pos = data.draw(st.integers(0, len(lines[i]) - 1), label="pos")
        lines[i] = lines[i][:pos] + bytes([data.draw(st.integers(0, 255))]) + lines[i][pos + 1:]
    elif kind == "swap":
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind == "dup":
        lines.insert(i, lines[i])
    elif kind == "hash":
        ev = orjson.loads(lines[i])
        ev["hash"] = "0" * 64
        lines[i] = orjson.dumps(ev)
    block = join(lines)
    ctx = LineContext()
    expected = [(len(raw), examine_line(raw, ctx)) for raw in block.split(b"\n")[:-1]]
    assert examine_block(block, LineContext()) == expected
