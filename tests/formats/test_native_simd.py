"""The C accelerator's SIMD paths against the reference, at every level the CPU has.

Session 32 (issue 15, QA s31 `ansicolors`) added AVX-512BW paths: the check that a string's
escapes are RFC 8785's own (`escape_run512`: a window's `\\u00XX` escapes checked in its masks,
an escape left open at a window's end carried into the next) and the secrets marker search
(`teddy64`), and an AVX2 marker search that applies the fifth and sixth bytes' tables in every
window when most windows hold a four-byte candidate (`teddy32_dense`: `\\u001b` of terminal
colours). `_jcs.set_simd(n)` caps the paths the module takes, so each is held here to the
reference on a CPU that has the wider ones: the canonical bytes and spelling facts
(`canonical_json`), the markers found (a substring test), the block summaries (the same at
every level, and the same lines carried to the secrets scan).
"""

from __future__ import annotations

import json

import pytest
from test_native_fuzz import assert_same_reports, check_canonical, reference
from trajhelp import join

import moderator_app.core.verify.trajectory as traj
from moderator_app.core.formats import native
from moderator_app.core.formats.secrets import MARKERS
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

#: every level this CPU has (0: no SSSE3 path, 1 SSSE3, 2 AVX2, 3 AVX-512BW)
LEVELS = list(range(JCS.simd() + 1)) if JCS is not None else []


@pytest.fixture(params=LEVELS, ids=[f"simd{n}" for n in LEVELS])
def simd(request):
    was = JCS.set_simd(request.param)
    assert JCS.simd() == request.param
    yield request.param
    JCS.set_simd(was)


# (a piece after a sea of terminal colours, and whether a string holding it is spelled as
# RFC 8785 writes it: True as it stands, False respelled, None refused by both)
_PIECES = [
    ("\\u001b[32m", True), ("\\u0000", True), ("\\u001f", True), ("\\u0010\\u001b", True),
    ("\\n\\t\\r\\b\\f", True), ('\\"', True), ("\\\\", True), ("\\\\\\\\\\\\", True),
    ('\\\\\\"', True), ("\x7f", True), ("é", True), ("✓", True), ("😀", True),
    # what the window must not take as it stands
    ("\\u001B", False), ("\\u001B[0m", False), ("\\u0041", False), ("\\/", False),
    ("\\u0008", False), ("\\u0009", False), ("\\u000a", False), ("\\u000c", False),
    ("\\u000d", False), ("\\u000A", False), ("\\u007f", False), ("\\u0020", False),
    ("\\u003c", False), ("\\u00e9", False), ("\\u0100", False), ("\\ud83d\\ude00", False),
    ("\\uD83D\\uDE00", False), ("\\u2028", False),
    # invalid: a lone surrogate is declined (the Python path reports it), the rest refused
    ("\\ud83d", None), ("\\udc00x", None), ("\\u001g", None), ("\\u00", None), ("\\x", None),
    ("\x01", None), ("\\\x1b", None), ("\\✓", None), ("\udcff", None)]

_SEA = "\\u001b[0m\\t" * 3  # 24 bytes of colour escapes before the offset


@pytest.mark.parametrize("piece,as_is", _PIECES, ids=range(len(_PIECES)))
def test_escaped_strings_at_every_offset_and_level(simd, piece, as_is):
    """A piece among colour escapes at every offset across three 64-byte windows (an escape
    whose digits cross a window's end, a backslash run carried into the next window): the
    reference's bytes and facts, or refused with it, on every SIMD path."""
    for off in range(0, 140):
        for tail in ("", "\\u001b[0m" * 12, "z" * 80):
            body = _SEA + "y" * off + piece + tail
            text = ('"' + body + '"').encode("utf-8", "surrogateescape")  # (\udcff: 0xFF)
            got = check_canonical(text)
            if as_is is None:  # (a lone surrogate: declined here, the Python path's to report)
                assert got is None, text
                continue
            assert got is not None, text
            assert (got[0] == text) is as_is, text


@pytest.mark.parametrize("run", [1, 2, 3, 4, 5, 63, 64, 65])
def test_backslash_runs_across_windows(simd, run):
    """A run of backslashes (`\\\\` pairs, then one escaping what follows) ending at every
    offset of a window: which bytes are escaped carries across the window's end."""
    for off in range(0, 136):
        for after in ('"', "n", "u001b", "u001B", "/"):
            body = "\\n" + "y" * off + "\\\\" * run + "\\" + after + "q" * 70
            text = ('"' + body + '"').encode()
            got = check_canonical(text)
            want = reference(text)
            assert (got is None) == (want is None) or got is None, text
            if got is not None:
                assert (got[0] == text) is (after in ('"', "n", "u001b")), text


def test_out_of_order_members_holding_colour_escapes(simd):
    """Members out of order whose values are long coloured strings, in a payload and in a
    nested object: sorted, the strings as they stand, the reference's bytes."""
    line = "\\t\\u001b[32mok 81 - renders the board\\u001b[0m\\n"
    for n in (1, 3, 9, 30):
        s = line * n
        for text in (('{"tool":"npm","stdout":"' + s + '","exit_code":0,"tty":true}').encode(),
                     ('{"z":{"b":"' + s + '","a":"\\u001B"},"a":["' + s + '",1]}').encode()):
            got = check_canonical(text)
            assert got is not None, text
            assert got[0] == reference(text)


def _markers_truth(block: bytes) -> tuple:
    return tuple(m for m in MARKERS if m in block)


def test_markers_after_a_dense_sea_at_every_offset(simd):
    """After 5 KiB of colour escapes (every window a `\\u00` candidate: the dense search),
    each marker at every offset across three windows, whole or cut: found exactly as a
    substring test finds it."""
    sea = b"\\u001b[32mok 1\\u001b[0m\\n" * 220
    for m in MARKERS:
        for at in range(0, 140):
            for block in (sea + b"." * at + m + b"\\u001b" * 8, sea + b"." * at + m,
                          sea + b"." * at + m[:-1] + b"\\u001b[0m" * 9):
                assert JCS.markers(block, MARKERS) == _markers_truth(block), (m, at)


def _ansi_lines(n: int, secret_at: int) -> list[bytes]:
    events = make_run_events(n, seed=32, text_bytes=1200, shape="ansi")
    out = events[secret_at]["payload"]["stdout"]
    events[secret_at]["payload"]["stdout"] = out[:600] + "\x1b[31mAKIAQA32DENSEKEY1234" + out[600:]
    return [json.dumps(e, separators=(",", ":"), ensure_ascii=False).encode()
            for e in chain_events(events)]


def test_summaries_equal_at_every_level_with_a_key_among_colours():
    """Terminal output on every line, a key on one line well past the call's switch to the
    dense marker search: every SIMD level gives the same summary, whose secrets lines are
    exactly that one."""
    lines = _ansi_lines(80, 50)
    block = join(lines[2:-2])  # (not the seed commitments, which the summary declines)
    was = JCS.set_simd(3)
    try:
        got = []
        for n in LEVELS:
            JCS.set_simd(n)
            got.append(JCS.summarise(block, traj.SCHEMA, MARKERS))
    finally:
        JCS.set_simd(was)
    assert got[0] is not None
    assert all(g == got[0] for g in got)
    assert [block[a:b] for a, b in got[0][12]] == [lines[50]]


@pytest.mark.parametrize("spell", ["compact", "spaced"])
def test_reports_identical_on_terminal_output_at_every_level(simd, monkeypatch, spell):
    """Whole reports of a run of coloured terminal output, one line holding a key, some lines
    respelled with `\\u001B` (uppercase: not RFC 8785's, the general loop's), in blocks of
    4 KiB and 1 MiB: the C summary at this SIMD level, the orjson columns and the line by line
    path give the same report, with the key's line the one secrets finding."""
    lines = _ansi_lines(80, 50)
    for i in range(10, 80, 9):  # respelled: the same value, an escape RFC 8785 writes lowercase
        lines[i] = lines[i].replace(b"\\u001b[0m", b"\\u001B[0m", 1)
    if spell == "spaced":
        lines = [json.dumps(json.loads(x), ensure_ascii=False).encode() for x in lines]
    for size in (4096, 1 << 20):
        rep = assert_same_reports(join(lines), monkeypatch, size)
        assert [(f["rule"], f["line"]) for f in rep["findings"]
                if f["rule"].startswith("secret")] == [("secret.suspect", 51)]
        assert rep["_events"] == 80
