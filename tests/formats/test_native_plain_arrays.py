"""The C accelerator's plain arrays (`plain_array` in _jcs.c; session 23, issue 15) held to
RFC 8785's exact bytes, to the spelling facts and to the chain's verdicts.

An array of arrays, plain ASCII strings, plain integers and literals, with bare `,`, is
canonical as written: it is checked in one pass and copied whole. Anything else in it (an
escape, a non-ASCII or control character, a float, an object, whitespace, an invalid token)
stops that pass and the array is parsed as before. Each such stopper is put here at every
depth and place of a parse tree, against `canonical_json` (the reference) and the flags
`chain.respelled` reads; then the `deeparrays` shape goes through the public verify seam
with the accelerator on, off and line by line (`assert_same_reports`).
"""

from __future__ import annotations

import json
import random

import orjson
import pytest
from test_native_fuzz import ST, _dump, assert_same_reports, check_canonical
from test_native_integers import _summary_args
from trajhelp import join

from moderator_app.core.formats import native
from moderator_app.core.samples.payload_shapes import shaped_payload
from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events

JCS = native.JCS
pytestmark = pytest.mark.skipif(JCS is None, reason="the C accelerator is not built")

TREE = b'["S",["NP",["DT","the"],["NN",%s]],[0,7,true,false,null,[]],["x","(",")"]]'
# what may stand for %s: the plain ones, and each thing that stops the plain pass
PLAIN = [b'"dog"', b"42", b"-1", b"0", b"9007199254740991", b"[]", b"[[]]", b"true", b'""',
         b'"' + b"w" * 40 + b'"', b'"~ !#$%&()*+,-./:;<=>?@[]^_`{|}"']
STOPPERS = [b'"a\\nb"', b'"\\u001b[0m"', b'"\\/"', b'"caf\xc3\xa9"', b'"\xf0\x9f\x98\x80"',
            b'"del\x7f"', b"1.5", b"1e2", b"-0", b"-0.0", b'{"b":1,"a":2}', b"{}"]
# declined (the Python path reports or accepts them): invalid JSON, integers beyond 2^53 - 1,
# spaced separators in a line of bare ones
DECLINED = [b"9007199254740992", b"12345678901234567890", b'["x", "y"]', b"[1, 2]",
            b'"a\x01b"', b'"a\nb"', b'"\xff"', b"01", b"-", b"tru", b"truex", b"nul", b"1,",
            b",1", b"1 ]", b'"open', b"[", b"]", b"1.", b"'x'", b"+1", b"[1,]"]


def _place(token: bytes) -> bytes:
    return TREE.replace(b"%s", token)


def test_plain_trees_copied_exactly():
    for token in PLAIN:
        text = _place(token)
        got = check_canonical(text)
        assert got is not None and got[0] == text, text
        assert got[1] & ST["ST_MIN"] and got[1] & ST["ST_ASCII"], text
        assert not got[1] & (ST["ST_FLOAT"] | ST["ST_SPACED"]), text


def test_stoppers_give_the_reference_bytes_and_facts():
    for token in STOPPERS:
        for text in (_place(token), b"[" * 30 + _place(token) + b"]" * 30,
                     b'{"a":' + _place(token) + b',"b":[1,2]}'):
            got = check_canonical(text)  # never a wrong byte or fact
            assert got is not None, text
    # what each stopper tells of the line, though the arrays around it are plain
    assert not JCS.canonical(_place(b'"caf\xc3\xa9"'))[1] & ST["ST_ASCII"]
    assert not JCS.canonical(_place(b'"del\x7f"'))[1] & ST["ST_ASCII"]
    assert JCS.canonical(_place(b"1.5"))[1] & ST["ST_FLOAT"]
    assert JCS.canonical(_place(b'"\\/"'))[1] & ST["ST_NOWRITER"]
    assert JCS.canonical(_place(b"-0"))[0] == _place(b"0")


def test_invalid_tokens_declined_at_every_depth():
    for token in DECLINED:
        for text in (_place(token), b"[" * 20 + _place(token) + b"]" * 20,
                     b'{"a":[[' + token + b"]]}"):
            assert JCS.canonical(text) is None, text


def test_separators_of_the_line_agree():
    """A plain array's bare `,` counts: beside json.dumps' spaced separators the line mixes
    the two and is declined, as a line parsed value by value is."""
    assert JCS.canonical(b'{"a": [1,2]}') is None
    assert JCS.canonical(b'{"a":[1, 2],"b":[3,4]}') is None
    assert JCS.canonical(b'{"a": [1, 2], "b": [[]]}')[0] == b'{"a":[1,2],"b":[[]]}'
    assert JCS.canonical(b'{"a": [[]], "b": [7]}')[1] & ST["ST_SPACED"]


def test_depth_limit_with_plain_arrays():
    for n, ok in ((MAX_LEVELS - 1, True), (MAX_LEVELS, True), (MAX_LEVELS + 1, False)):
        text = b"[" * n + b'"x",1' + b"]" * n
        assert (JCS.canonical(text) is not None) == ok, n
        inner = b'{"a":' + b"[" * (n - 1) + b"2" + b"]" * (n - 1) + b"}"
        assert (JCS.canonical(inner) is not None) == ok, n
    # a plain pass stopped deep inside: the arrays before the stop parsed the old way
    text = b"[" * 40 + b"[1,2]," * 3 + b"1.5" + b"]" * 40
    assert check_canonical(text)[0] == text


TAIL = b',["NN",[0,1,2,3,4,5,6,7,8,9]],[true,false,null],"' + b"z" * 70 + b'"]'


def test_every_token_at_every_offset_of_the_64_byte_windows():
    """An array longer than 16 bytes is read 64 bytes at a time, each class of byte carried
    from one window to the next (an open string, a digit run, a literal, a `-`, a `0`): each
    token and stopper is put at every offset of the first two windows, and the array's end
    at every offset of the text's (the last window read past it)."""
    for off in range(0, 136):
        head = b'[["' + b"w" * off + b'",'
        for token in PLAIN:
            text = head + token + b"]" + TAIL
            got = check_canonical(text)
            assert got is not None and got[0] == text, text
        for token in STOPPERS:
            assert check_canonical(head + token + b"]" + TAIL) is not None, (off, token)
        for token in DECLINED + [b"1234567890123456", b"00", b"-01", b"fals", b"nulll", b"1a",
                                 b'"a"b', b'1"a"', b"[]1", b"true1", b"]["]:
            text = head + token + b"]" + TAIL
            got = check_canonical(text)
            if token == b"1234567890123456":  # 16 digits: parse_array's, as before
                assert got is not None and got[0] == text, text
            else:
                assert got is None, text
        text = head + b'"x"]]'  # the array's end at every distance from the text's end
        assert check_canonical(text)[0] == text
        assert check_canonical(b'{"a":' + text + b"}")[0] == b'{"a":' + text + b"}"


def test_depth_limit_at_every_offset():
    for off in range(0, 70):
        for n, ok in ((MAX_LEVELS, True), (MAX_LEVELS + 1, False)):
            text = b'["' + b"w" * off + b'",' + b"[" * (n - 1) + b"1" + b"]" * n
            assert (JCS.canonical(text) is not None) == ok, (off, n)


_TOKENS = ("NP", "VP", "the", "(", ")", "", "x" * 20, 0, 1, 42, -7, 2**53 - 1, True, None)
_RARE = ("é", "a\nb", "\x1b[1m", 1.5, -0.0, 1e21, 2**53, {"b": 1, "a": [1]}, "\U0001f600",
         "del\x7f")


def _tree(rng: random.Random, depth: int, rare: float):
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(_RARE if rng.random() < rare else _TOKENS)
    return [_tree(rng, depth - 1, rare) for _ in range(rng.randrange(4))]


def test_generated_parse_trees_canonical_bytes():
    rng = random.Random(23)
    for i in range(3000):
        value = _tree(rng, rng.randrange(1, 16), 0.0 if i % 3 == 0 else 0.02)
        for text in (orjson.dumps(value), json.dumps(value).encode(),
                     json.dumps(value, separators=(",", ":")).encode()):
            check_canonical(text)
        if i % 3 == 0:  # no stopper: every array plain
            assert check_canonical(orjson.dumps(value)) is not None, value


def test_deeparrays_chain_verdicts(monkeypatch):
    """The `deeparrays` shape with stoppers mixed in, as payloads of a valid chain (the
    accelerator vouching for the block), then one token edited (line 9 alone edited)."""
    rng = random.Random(15)
    events = make_run_events(24, seed=8, variety=0.0, text_bytes=40)
    for i in range(4, 20):
        events[i]["payload"] = {"head": ["NP", 0],
                                "parse": shaped_payload("deeparrays", rng, 600)["parse"],
                                "extra": _tree(rng, 12, 0.05)}
    lines = [_dump(e) for e in chain_events(events)]
    assert JCS.summarise(join(lines[4:20]), *_summary_args()) is not None
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "pass", rep["findings"]
    assert b'"head":["NP",0]' in lines[8]
    lines[8] = lines[8].replace(b'"head":["NP",0]', b'"head":["NP",1]')
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]


# Session 24 (QA s23 Q4, `boolgrid`): a window's literals matched as masks (`literal_starts`:
# the window and its copies 1-4 bytes on), a word's end carried into the next window, the
# depth tested a quarter of a window at a time. Each literal, right and misspelt, at every
# offset of the first three windows in a grid of literals, so that words cross each window's
# edge at each of their letters.
GOOD_LITERALS = [b"true", b"false", b"null"]
BAD_LITERALS = [b"tru", b"truex", b"trux", b"ttrue", b"True", b"fals", b"falsee", b"flase",
                b"falsy", b"nul", b"nulll", b"nill", b"nulltrue", b"truefalse", b"t", b"f",
                b"n", b"e", b"a", b"l", b"s", b"u", b"r", b"x", b"truee", b"nu11", b"true0",
                b"fal\xc3\xa9", b"tr\x7fe"]
GRID_ROW = b"[true,false,null,0,1,2,true,false]"


def _grid(off: int, token: bytes) -> bytes:
    """A board of literal rows, `token` `off` bytes into it, the rows again after it."""
    head = b"[" + b"[" + GRID_ROW + b"," + b"[" + b"1," * (off // 2) + b"0" * (off % 2 or 1)
    return head + b"," + token + b"]]," + b",".join([GRID_ROW] * 6) + b"]"


def test_literals_at_every_offset_of_the_64_byte_windows():
    for off in range(0, 200):
        for token in GOOD_LITERALS:
            text = _grid(off, token)
            got = check_canonical(text)
            assert got is not None and got[0] == text, text
        for token in BAD_LITERALS:
            text = _grid(off, token)
            assert JCS.canonical(text) is None, text
        # a word that runs to the block's end, or stops one byte short of it
        for token in GOOD_LITERALS:
            text = b"[[" + b"0," * off + token + b"]]"
            assert check_canonical(text)[0] == text, text
            assert JCS.canonical(text[:-2]) is None and JCS.canonical(text[:-1]) is None, text
            assert JCS.canonical(text[:-3]) is None, text


def test_literals_beside_strings_and_in_members():
    """Letters in a string are no literal, and a literal among strings is still checked."""
    for off in range(0, 80):
        pad = b'"' + b"w" * off + b'"'
        for word in (b'"true"', b'"nulx"', b'"truex"', b'"fals"'):
            text = b"[" + pad + b"," + word + b",true," + GRID_ROW + b"]"
            assert check_canonical(text)[0] == text, text
        text = b'{"b":[' + pad + b",nulx," + GRID_ROW + b'],"a":1}'
        assert JCS.canonical(text) is None, text
        text = b'{"b":[' + pad + b",null," + GRID_ROW + b'],"a":1}'
        assert check_canonical(text)[0] == b'{"a":1,"b":[' + pad + b",null," + GRID_ROW + b"]}"


def test_dense_brackets_end_and_depth_at_every_offset():
    """Rows closed two and three at a time (`]]]`) keep a quarter window's depth near the
    array's own: its end found at every offset, past it nothing read, the limit kept."""
    for off in range(0, 140):
        inner = b"[[[" + b"0," * (off // 2) + b"1" + b"]]]"
        for text in (b"[" + inner + b"]", b"[" + inner + b"," + inner + b"]",
                     b'{"a":[' + inner + b'],"b":true}'):
            assert check_canonical(text)[0] == text, text
        text = b"[" + inner + b"]" + b"]"  # one `]` too many: invalid after the array
        assert JCS.canonical(text) is None, text
        text = b"[" + inner + b"],[1]]"  # ends early: what follows is the line's
        assert JCS.canonical(text) is None, text
        for n, ok in ((MAX_LEVELS, True), (MAX_LEVELS + 1, False)):
            deep = (b"[" + b"0," * (off // 2) + b"[" * (n - 3) + b"[true,[false]],null"
                    + b"]" * (n - 2))  # n levels at `[false]`
            assert (JCS.canonical(deep) is not None) == ok, (off, n)


def test_boolgrid_chain_verdicts(monkeypatch):
    """QA s23's `boolgrid` shape as payloads of a valid chain (the accelerator vouching for
    the block), then one literal edited (line 9 alone edited), then one misspelt (line 12:
    invalid JSON there; line 13's link cannot be checked)."""
    events = make_run_events(24, seed=24, variety=0.0, text_bytes=300, shape="boolgrid")
    lines = [_dump(e) for e in chain_events(events)]
    assert JCS.summarise(join(lines[3:20]), *_summary_args()) is not None
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert rep["verdict"] == "pass", rep["findings"]
    lines[8] = lines[8].replace(b"null,", b"true,", 1)
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]
    lines[11] = lines[11].replace(b"false,", b"flase,", 1)
    rep = assert_same_reports(join(lines), monkeypatch, 2048)
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.edited"] == [9]
    assert [f["line"] for f in rep["findings"] if f["rule"] == "traj.json"] == [12]
    assert [f["line"] for f in rep["findings"] if f["rule"] == "chain.link"] == [13]


def _rle_rows(rng: random.Random, n: int, strings: bool) -> list:
    """QA s36's `rlediff` rows: `[row, [[x, len, colour], ...]]`, some with a string holding
    brackets (`strings`: a window whose brackets are not all outside strings)."""
    rows = []
    for _ in range(n):
        runs = [[rng.randint(0, 159), rng.randint(1, 24), rng.randint(0, 127) * 2]
                for _ in range(rng.randint(0, 6))]
        if strings and rng.random() < 0.2:
            runs.insert(rng.randrange(len(runs) + 1), rng.choice(("]", "[[", "a]]],[b", "")))
        rows.append([rng.randint(0, 209), runs])
    return rows


def test_run_length_rows_end_and_depth_at_every_offset():
    """Rows closed two and three at a time in every 64-byte window (`]]],[`: more `]` in a
    window than the depth, so the running depth decides, not the window's popcounts): the
    array's end found at every offset of a window, with and without brackets in strings, the
    depth limit kept, an early end and a `]` too many declined."""
    rng = random.Random(36)
    for off in range(0, 130):
        for strings in (False, True):
            rows = _rle_rows(rng, rng.randint(1, 40), strings)
            body = orjson.dumps(rows)
            head = b'{"d":[' + b"7," * (off // 2) + b"1" * (off % 2) + (b"," if off % 2 else b"")
            text = head + body + b'],"frame":' + str(off).encode() + b"}"
            got = check_canonical(text)
            assert got is not None and got[0] == text, text
            assert JCS.canonical(head + body + b"]]," + b'"frame":1}') is None, off
            assert JCS.canonical(head + body[:-1] + b'],"frame":1}') is None, off
    for n in range(MAX_LEVELS - 4, MAX_LEVELS + 3):  # a run's innermost array at level n
        for off in range(0, 70, 3):
            deep = b"[" * (n - 3) + b"7," * off + orjson.dumps([[1, [[2, 3, 4]]]])[1:-1]
            text = deep + b"]" * (n - 3)
            assert (JCS.canonical(text) is not None) == (n <= MAX_LEVELS), (n, off)
            if n <= MAX_LEVELS:
                check_canonical(text)


MAX_LEVELS = JCS.MAX_DEPTH  # the levels of arrays and objects a line may hold (254)
