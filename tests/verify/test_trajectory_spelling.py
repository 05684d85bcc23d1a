"""The spelling check (`chain.respelled`, docs/rules-official.md): a byte edit that keeps an
event's JSON value keeps its hash, so only the line's spelling can give it away.

* a valid stream written by ANY known serialiser is never reported, including streams whose
  first lines several spellings reproduce and whose later lines (1e-07 vs 1e-7, 56.0 vs 56,
  non-ASCII, U+2028) tell them apart; on the block path, the worker and the line path alike;
* every value-preserving single-byte edit (e -> E in an exponent, the case of a `\\u` escape's
  hex digit, a space -> TAB or CR between tokens) of a RFC 8785 or a `json.dumps` default
  stream is reported at its line, as a warning: the hashed content is unchanged, so the verdict
  stays pass and the chain is not broken (docs/DECISIONS.md);
* the block path's shortcuts give exactly the facts of the line path.
"""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from trajhelp import errors, join, verify_bytes

import moderator_app.core.verify.trajectory as traj
from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events
from moderator_app.core.verify.report import Report
from moderator_app.core.verify.seeds import SeedCheck
from moderator_app.core.verify.trajectory import (
    LineContext,
    TrajectoryChecker,
    examine_block,
    examine_line,
)

# Every test here runs on both engines (conftest.engine): their reports must be the same.
pytestmark = pytest.mark.usefixtures("engine")

SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


def _dumps(sep, ea, sk):
    def write(e: dict) -> bytes:
        return json.dumps(e, separators=sep, ensure_ascii=ea, sort_keys=sk).encode()
    return write


WRITERS = {
    "jcs": canonical_json,
    "orjson": orjson.dumps,
    "orjson_sorted": lambda e: orjson.dumps(e, option=orjson.OPT_SORT_KEYS),
    **{f"json_{'default' if sep is None else 'compact'}_ascii{int(ea)}_sort{int(sk)}":
       _dumps(sep, ea, sk) for sep, ea, sk in traj.spelling.DUMPS_VARIANTS},
}
JSON_DEFAULT = "json_default_ascii1_sort0"  # json.dumps(e) as Python writes it by default

_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
_values = st.one_of(
    _text, st.integers(-(2**53) + 1, 2**53 - 1), st.booleans(), st.none(),
    # (JCS spells a float of 2^53 and more without a fraction: it reads back as an integer
    # the verifier cannot vouch for, `traj.number_unrepresentable`, whatever the spelling)
    st.floats(-1e15, 1e15, allow_nan=False),
    st.sampled_from([1e-07, 9.5e-06, 56.0, 1e16, 1e21, 0.1, -0.0, "é", "\u2028", "\U0001F600",
                     "\x1f", "\x7f", "<tag>"]))
_payloads = st.dictionaries(st.one_of(_text, st.sampled_from(["é", "\U0001F600", "a"])),
                            st.one_of(_values, st.lists(_values, max_size=3)), max_size=4)


def _events(extra: list[dict], n: int = 40, seed: int = 1) -> list[dict]:
    """A valid run with hypothesis' payloads mixed into some of its events, chained: a
    nested one under `x`, and its flat members (no float: the block path's "plain" lines)
    merged into another event's payload."""
    evs = make_run_events(n, seed=seed, variety=0.3)
    for i, payload in enumerate(extra):
        evs[1 + (i * 7) % (n - 2)]["payload"]["x"] = payload
        flat = {k: v for k, v in payload.items() if type(v) in (str, int, bool, type(None))}
        evs[2 + (i * 5) % (n - 3)]["payload"].update(flat)
    return chain_events(evs)


def _line_path(data: bytes) -> Report:
    """Every line through `examine_line` and `TrajectoryChecker.apply` (no blocks)."""
    report = Report(kind="official", input_name="events.jsonl")
    checker = TrajectoryChecker(report, "events.jsonl", SeedCheck(), spelling=True)
    offset = 0
    for n, raw in enumerate(data.split(b"\n")[:-1], 1):
        checker.line(offset, raw, n)
        offset += len(raw) + 1
    checker.finish(True)
    return report


def _block_path(data: bytes, block: int = 8192, parallel: bool = False) -> Report:
    old = traj.stream.BLOCK
    traj.stream.BLOCK = block
    try:
        return verify_bytes(data, "events.jsonl", parallel=parallel, spelling=True)
    finally:
        traj.stream.BLOCK = old


def _errs(report: Report) -> list[tuple[str, int | None]]:
    """Errors, and the respelling warnings this file is about."""
    return [(f.rule, f.line) for f in report.findings.sorted()
            if f in errors(report) or f.rule == "chain.respelled"]


# -- valid streams: never reported ---------------------------------------------------------
@pytest.mark.parametrize("writer", sorted(WRITERS))
@SETTINGS
@given(extra=st.lists(_payloads, min_size=1, max_size=5))
def test_a_valid_stream_from_any_known_writer_is_never_reported(writer, extra):
    data = join([WRITERS[writer](e) for e in _events(extra)])
    for report in (_block_path(data), _line_path(data)):
        assert _errs(report) == []
        assert report.verdict == "pass" and report.chain.valid is True


def test_first_lines_matching_several_spellings_then_discriminated():
    """Lines 1-3 hold nothing that tells the writers apart (ASCII, integers, sorted keys
    written by each); line 4's floats and text leave only the true writer."""
    base = [{"a": 1, "b": "x"}, {"a": 2}, {"b": "y"},
            {"a": 1e-07, "b": 56.0, "c": "é\u2028", "d": 1e16}, {"a": 3}]
    for name, write in WRITERS.items():
        evs = make_run_events(len(base) + 2, seed=4, variety=0)
        for ev, payload in zip(evs[1:], base, strict=False):
            ev["payload"] = payload
        chained = [dict(sorted(e.items())) for e in chain_events(evs)]
        data = join([write(e) for e in chained])
        for report in (_block_path(data, 2048), _line_path(data)):
            assert _errs(report) == [], name


def test_the_worker_process_applies_the_check():
    lines = [canonical_json(e) for e in _events([{"f": 1e-07}] * 60, n=400, seed=2)]
    k = next(k for k in range(300, 400) if _value_preserving_edits(lines[k]))
    i, s = _value_preserving_edits(lines[k])[0]
    lines[k] = lines[k][:i] + bytes([s]) + lines[k][i + 1:]
    report = _block_path(join(lines), 16384, parallel=True)
    assert _errs(report) == [("chain.respelled", k + 1)]
    assert report.verdict == "pass" and report.chain.first_break is None
    valid = _block_path(join([canonical_json(e) for e in _events([], n=400, seed=2)]), 16384,
                        parallel=True)
    assert _errs(valid) == [] and valid.verdict == "pass"


def test_an_unknown_writer_turns_the_check_off():
    """`separators=(",", ": ")` is no known spelling: two such lines and the check is off."""
    evs = _events([{"k": 1e-07}])
    data = join([json.dumps(e, separators=(",", ": ")).encode() for e in evs])
    for report in (_block_path(data), _line_path(data)):
        assert _errs(report) == [] and report.verdict == "pass"


def test_the_check_is_on_by_default_as_a_warning(monkeypatch):
    lines = [json.dumps(e).encode() for e in _events([])]
    lines[5] = lines[5].replace(b", ", b",\t", 1)
    report = verify_bytes(join(lines))
    assert _errs(report) == [("chain.respelled", 6)]
    assert report.findings.by_rule["chain.respelled"] == 1 and report.verdict == "pass"
    monkeypatch.setenv("MODERATOR_APP_SPELLING_CHECK", "0")
    assert _errs(verify_bytes(join(lines))) == []


# -- value-preserving single-byte edits: always reported -------------------------------------
_HEX_SWAP = {c: ord(chr(c).swapcase()) for c in b"abcdefABCDEF"}


def _value_preserving_edits(raw: bytes) -> list[tuple[int, int]]:
    """(position, new byte) of every e->E, \\u-hex-case and space->TAB/CR substitution that
    leaves the line's JSON value (hence its canonical form) the same."""
    out = []
    value = canonical_json(orjson.loads(raw))
    for i, b in enumerate(raw):
        if b == ord("e"):
            subs = [ord("E")]
        elif b in _HEX_SWAP and raw.rfind(b"\\u", max(0, i - 5), i) >= 0:
            subs = [_HEX_SWAP[b]]
        elif b == ord(" "):
            subs = [ord("\t"), ord("\r")]
        else:
            continue
        for s in subs:
            edited = raw[:i] + bytes([s]) + raw[i + 1:]
            try:
                same = canonical_json(orjson.loads(edited)) == value
            except (orjson.JSONDecodeError, ValueError):
                continue
            if same:
                out.append((i, s))
    return out


_EDITABLE: dict[str, tuple[list[bytes], list]] = {}


def _editable(writer: str) -> tuple[list[bytes], list]:
    """A valid stream by `writer` and its value-preserving single-byte edits (cached)."""
    if writer not in _EDITABLE:
        extra = [{"f": 1e-07, "g": 1e21, "s": "é\x1f\u2028"}, {"h": 9.5e-06, "t": "\x01 x"}]
        lines = [WRITERS[writer](e) for e in _events(extra)]
        _EDITABLE[writer] = (lines, [(k, edit) for k, raw in enumerate(lines)
                                     for edit in _value_preserving_edits(raw)])
    return _EDITABLE[writer]


@pytest.mark.parametrize("writer", ["jcs", JSON_DEFAULT])
@SETTINGS
@given(data=st.data())
def test_every_value_preserving_byte_edit_is_reported_at_its_line(writer, data):
    lines, candidates = _editable(writer)
    assert len(candidates) >= 3  # JCS: the exponents and the \\u001f escape
    k, (i, s) = data.draw(st.sampled_from(candidates))
    lines = list(lines)
    raw = lines[k]
    lines[k] = raw[:i] + bytes([s]) + raw[i + 1:]
    stream = join(lines)
    for report in (_block_path(stream), _line_path(stream)):
        assert _errs(report) == [("chain.respelled", k + 1)]
        assert report.verdict == "pass"
        assert report.chain.first_break is None


@pytest.mark.parametrize("writer", ["jcs", "orjson", JSON_DEFAULT])
def test_an_edited_first_line_is_reported_at_line_1(writer):
    evs = make_run_events(20, seed=5, variety=0.3)
    evs[0]["payload"]["f"] = 1e-07
    lines = [WRITERS[writer](e) for e in chain_events(evs)]
    edits = _value_preserving_edits(lines[0])
    i, s = edits[0]
    lines[0] = lines[0][:i] + bytes([s]) + lines[0][i + 1:]
    for report in (_block_path(join(lines)), _line_path(join(lines))):
        assert _errs(report) == [("chain.respelled", 1)]
        assert report.chain.first_break is None


def test_the_named_examples():
    """The brief's three edits on an orjson stream (the bench's writer): 1e-7 -> 1E-7,
    an escaped é's hex case, and a space -> CR in a json.dumps-default stream."""
    lines = [orjson.dumps(e) for e in _events([{"f": 1e-07, "s": "\x1f"}])]
    k = next(k for k, raw in enumerate(lines) if b"1e-7" in raw)
    lines[k] = lines[k].replace(b"1e-7", b"1E-7")
    assert _errs(_block_path(join(lines))) == [("chain.respelled", k + 1)]
    lines = [orjson.dumps(e) for e in _events([{"s": "\x1f"}])]
    k = next(k for k, raw in enumerate(lines) if b"\\u001f" in raw)
    lines[k] = lines[k].replace(b"\\u001f", b"\\u001F")
    assert _errs(_block_path(join(lines))) == [("chain.respelled", k + 1)]
    evs = make_run_events(40, seed=6, variety=0)
    evs[20]["payload"]["s"] = "\x1f"  # a plain (flat) payload: the block path's shortcut
    lines = [orjson.dumps(e) for e in chain_events(evs)]
    lines[20] = lines[20].replace(b"\\u001f", b"\\u001F")
    for report in (_block_path(join(lines)), _line_path(join(lines))):
        assert _errs(report) == [("chain.respelled", 21)]
    lines = [json.dumps(e).encode() for e in _events([{"s": "é"}])]
    k = next(k for k, raw in enumerate(lines) if b"\\u00e9" in raw)
    lines[k] = lines[k].replace(b"\\u00e9", b"\\u00E9")
    assert _errs(_line_path(join(lines))) == [("chain.respelled", k + 1)]
    lines[k] = json.dumps(_events([{"s": "é"}])[k]).encode().replace(b", ", b",\r", 1)
    assert _errs(_block_path(join(lines))) == [("chain.respelled", k + 1)]


# -- the block path's shortcuts equal the line path ------------------------------------------
@pytest.mark.parametrize("writer", sorted(WRITERS))
@SETTINGS
@given(extra=st.lists(_payloads, max_size=4), hint=st.integers(1, traj.SPELL_ALL))
def test_block_facts_equal_line_facts_with_the_check_on(writer, extra, hint):
    lines = [WRITERS[writer](e) for e in _events(extra, n=24)]
    block = join(lines)
    ctx = LineContext(spelling=True)
    ctx.spell_hint = hint
    expected = [(len(raw), examine_line(raw, ctx)) for raw in lines]
    got = examine_block(block, ctx)

    def view(items):  # a score claim's payload may hold an orjson.Fragment (no __eq__)
        return [(n, f._replace(extra=None)) for n, f in items]

    assert view(got) == view(expected)
    for _, facts in got:  # every intact line of a known writer is reproduced by one spelling
        assert facts.spell is not None and facts.spell & traj.SPELL_ALL


def test_spelling_mask_names_the_writer():
    ev = {"hash": "0" * 64, "b": 1e-07, "a": "é"}
    for name, write in WRITERS.items():
        raw = write(ev)
        m = traj.spelling_mask(raw, traj.SPELL_ALL, orjson.dumps(orjson.loads(raw)) == raw)
        names = list(WRITERS)
        assert m >> names.index(name) & 1, name
