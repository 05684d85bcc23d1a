"""Split and spelled secrets of QA s30 T9 (session 31): a key in parts at several depths of
one value, a key cut at its string's end (its rest in the next event), a named secret after an
escaped line break; and `verify` on a community log naming the very lines `withhold` refuses
(one engine, `withhold.public_secret_hits`), with the C skim and without. The keys here are
made for these tests (QA's held-out bytes are not used)."""

from __future__ import annotations

import json

import orjson
import pytest

from moderator_app.core.formats import native
from moderator_app.core.formats.secrets import scan_line
from moderator_app.core.formats.secrets_public import scan_public
from moderator_app.core.formats.withhold import WithholdError, public_secret_hits, withhold_log
from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths

KEY = "sk-proj-T31nestedPartsXyZ9aBcDeFgHiJkLmNoP4567"
GKEY = "AIzaSyT31_cutAtTheEndOfItsString-9876543"  # 39 characters, as a Google key
AWS = "T31+wrappedAwsSecret/KeyAbCdEfGh+IjKl/Mn0p"
SLACK = "xoxb-3131313131-5151515151-T31EscapedSlackToken"


def _u_all(s: str) -> str:
    return "".join(f"\\u{ord(c):04x}" for c in s)


@pytest.fixture(scope="module")
def log_lines(tmp_path_factory) -> list[bytes]:
    path = tmp_path_factory.mktemp("log") / "agent-log.jsonl"
    make_agent_log(path, 40, seed=31, message_bytes=200)
    return path.read_bytes().split(b"\n")[:-1]


def _of_type(lines: list[bytes], typ: str) -> list[int]:
    return [i for i, x in enumerate(lines) if orjson.loads(x)["type"] == typ]


def _with_data(line: bytes, **members) -> bytes:
    ev = orjson.loads(line)
    ev["data"].update(members)
    return orjson.dumps(ev)


def _with_raw(line: bytes, name: str, raw_text: str) -> bytes:
    """`line` with data.NAME the JSON string whose text between the quotes is `raw_text`."""
    ev = orjson.loads(line)
    ev["data"][name] = "@@"
    return orjson.dumps(ev).replace(b'"@@"', b'"' + raw_text.encode() + b'"')


def _hostile(lines: list[bytes]) -> tuple[list[bytes], dict[str, int]]:
    """The log with five split or spelled secrets in observations (and one in a prompt, which
    `withhold` withholds), and the 1-based line of each."""
    out = list(lines)
    obs = _of_type(out, "observation")
    req = _of_type(out, "model_request")[2]
    parts = [KEY[:17], KEY[17:34], KEY[34:]]
    out[obs[1]] = _with_data(out[obs[1]], creds={"a": parts[0], "b": {"c": [parts[1]]},
                                                 "d": {"e": {"f": parts[2]}}})
    out[obs[2]] = _with_raw(out[obs[2]], "summary", _u_all(SLACK))
    wrapped = "\\r\\n".join(AWS[i:i + 16].replace("/", "\\u002f").replace("+", "\\u002b")
                            for i in range(0, len(AWS), 16))
    out[obs[3]] = _with_raw(out[obs[3]], "summary", "aws_secret_access_key =\\r\\n" + wrapped)
    out[obs[4]] = _with_data(out[obs[4]], summary=f"maps config: key={GKEY[:20]}")
    out[obs[5]] = _with_data(out[obs[5]], ocr=[GKEY[20:], "Level 2"])
    out[req] = _with_data(out[req], note=f"the prompt's key {KEY}")  # withheld: no finding
    where = {"nested": obs[1] + 1, "escaped": obs[2] + 1, "wrapped": obs[3] + 1,
             "cut": obs[4] + 1}
    return out, where


def _verify(path, monkeypatch, engine: str) -> dict:
    with monkeypatch.context() as m:
        if engine == "python":
            m.setattr(native, "SKIM", None)
        rep = verify_paths([path], VerifyOptions(probe_video=False)).report
    return orjson.loads(orjson.dumps(rep.to_dict(), option=orjson.OPT_SORT_KEYS))


def test_verify_names_each_line_withhold_refuses_on_both_engines(tmp_path, monkeypatch,
                                                                 log_lines):
    """QA s30 T9: `verify` said PASS with no secret finding on all five, even the token spelled
    in `\\u` escapes that `withhold` refused. Now a `secret.suspect` warning on each line whose
    public part holds one (the key's three parts, the escaped token, the wrapped named key,
    the key's head cut at its string's end), none on the prompt (withheld), with the C skim
    and without."""
    lines, where = _hostile(log_lines)
    path = tmp_path / "agent-log.jsonl"
    path.write_bytes(b"".join(x + b"\n" for x in lines))
    c, py = _verify(path, monkeypatch, "c"), _verify(path, monkeypatch, "python")
    assert c == py
    found = [(f["line"], f["message"]) for f in c["findings"] if f["rule"] == "secret.suspect"]
    pre = "the line's public part (what `withhold` publishes) looks like it holds a "
    post = "; `withhold` refuses it"
    assert found == sorted([
        (where["nested"], pre + "API key (sk-...) once the adjacent strings it is split over "
                                "are joined: sk-p…[46 chars]" + post),
        (where["escaped"], pre + "Slack token: xoxb…[47 chars]" + post),
        (where["wrapped"], pre + "value named like a secret: secr…[39 chars]" + post),
        (where["cut"], pre + "Google API key cut at its string's end: AIza…[20 chars]" + post),
    ])
    assert c["verdict"] == "pass"  # warnings, as the trajectory's secret.suspect
    text = json.dumps(c)
    assert KEY[4:20] not in text and GKEY[4:20] not in text and AWS[:16] not in text


@pytest.mark.parametrize("case", ["nested", "escaped", "wrapped", "cut"])
def test_withhold_refuses_at_the_line_verify_names(tmp_path, log_lines, case):
    lines, where = _hostile(log_lines)
    keep = {where[case]}
    if case == "cut":
        keep.add(where[case] + 1)  # (the rest, in the next observation)
    clean = [x if i + 1 in keep else log_lines[i] for i, x in enumerate(lines)]
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(b"".join(x + b"\n" for x in clean))
    with pytest.raises(WithholdError, match=rf"^line {where[case]}: its public part holds"):
        withhold_log(src, tmp_path / "public.jsonl")
    assert not (tmp_path / "public.jsonl").exists()
    block = src.read_bytes()
    assert [n for n, _ in public_secret_hits(block, 1)] == [where[case]]
    # the same lines found in a block that starts mid-buffer, CR LF line ends
    crlf = block.replace(b"\n", b"\r\n")
    assert [n for n, _ in public_secret_hits(b"x\n" + crlf, 7, 2)] == [where[case] + 6]


def test_a_key_in_parts_at_three_depths_is_read_joined():
    parts = [KEY[:17], KEY[17:34], KEY[34:]]
    line = orjson.dumps({"creds": {"a": parts[0], "b": {"c": [parts[1]]},
                                   "d": {"e": {"f": parts[2]}}}})
    assert [(h.label, h.excerpt, h.how) for h in scan_line(line)] == [
        ("API key (sk-...)", "sk-p…[46 chars]",
         "the adjacent strings it is split over are joined")]


@pytest.mark.parametrize("data", [
    {"voice": "sk-SK-Filip", "session": {"id": "4f9c2b7e1a3d"}},  # names share no stem
    {"a": "sk-proj-T31", "b": {"c": ["hello world"]}},  # not a token
    {"a": "sk-proj-T31", "b": {"c": ["splitkeyabcdefgh"]}},  # one case, no digit
    {"voices": ["sk-SK-ViktoriaNeural"], "session": "Ab12Cd34Ef56"},  # a list, then a member
    {"model": "sk-SK-ViktoriaNeural"},  # a name at its string's end: no digits
    {"model": "sk-SK-Wavenet-A1xyz"},  # 1 digit
    {"pkg": "sk-learn-0.24.2-py3"},  # no upper case
    {"note": "xoxo-hugs and kisses4you"},
    {"summary": "secret =\\r\\nshort"},  # a named value under 8 characters
])
def test_honest_neighbours_of_the_new_readings_stay_quiet(tmp_path, data):
    line = orjson.dumps({"seq": 1, "type": "observation", "data": data})
    assert scan_line(line) == [] and scan_public(line) is None
    assert public_secret_hits(b'{"seq":0,"type":"run_start","data":{}}\n' + line, 1) == []


def test_a_head_is_a_run_its_pattern_would_read_on():
    """`_cut_heads`: 16+ random characters after the marker, the string ending there, and the
    pattern reading on past the quote had the string gone on (`AKIA`'s 16 match already)."""
    assert [h.label for h in scan_line(b'{"a":"key=ghp_Ab12Cd34Ef56Gh78Ij90"}')] == [
        "GitHub token cut at its string's end"]
    assert scan_line(b'{"a":"key=ghp_Ab12Cd34Ef56Gh78Ij90 and more"}') == []
    assert scan_line(b'{"a":"key=ghp_Ab12Cd34Ef56Gh78Ij90!"}') == []
    assert [h.column for h in scan_line(b'{"a":"x hf_Ab12Cd34Ef56Gh78Ij"}')] == [9]


AWS = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYQA31SPLITKEY"


@pytest.mark.parametrize("env", [
    {"key_part2": AWS[21:], "key_part1": AWS[:21]},  # out of order
    {"key_part1": AWS[:21], "region": "us-east-1", "key_part2": AWS[21:]},  # a member between
    {"token_0": AWS[:14], "x": 1, "token_2": AWS[28:], "token_1": AWS[14:28]},
    {"key_parts": [AWS[:21], AWS[21:]]},  # in an array
    {"tokenChunks": [AWS[:14], AWS[14:28], AWS[28:]]},
])
def test_numbered_parts_in_any_order_or_an_array_are_refused(tmp_path, env):
    """docs/rules-official.md listed these numbered-parts shapes as missed (session 30)."""
    src = tmp_path / "agent-log.jsonl"
    line = orjson.dumps({"seq": 1, "type": "observation", "data": {"env": env}})
    src.write_bytes(b'{"seq":0,"type":"run_start","data":{}}\n' + line + b"\n")
    with pytest.raises(WithholdError, match=r"^line 2: .*split over (numbered members|an "
                                            r"array of parts): wJal…\[42 chars\]\)"):
        withhold_log(src, tmp_path / "public.jsonl")
    assert [n for n, _ in public_secret_hits(src.read_bytes(), 1)] == [2]


@pytest.mark.parametrize("data", [
    {"key_parts": ["ControlLeft", "Numpad5"]},
    {"args": {"key2": "Numpad5", "key1": "ControlLeft"}},
])
def test_numbered_parts_honest_neighbours_stay_publishable(data):
    line = orjson.dumps({"seq": 1, "type": "observation", "data": data})
    assert scan_public(line) is None


# Session 32: random runs that session 30-31's readings left alone (no AWS key id, `sk-`
# inside a word, an AWS secret's parts with no name saying so) are what the reader's
# high-entropy test is for: `scan_line` (the trajectory's warning patterns) stays quiet on
# them, `scan_public` names the run (a key of no known family; QA counts any 16+ characters
# of a key published as a leak).
@pytest.mark.parametrize(("data", "excerpt"), [
    ({"note": "token AKIAA1b2C3d4E5f6G7h8I9"}, "AKIA…[22 chars]"),
    ({"k": "task-Ab12cd34EF56gh78"}, "task…[21 chars]"),
    ({"a": {"key1": AWS[:21]}, "b": {"key1": AWS[21:]}}, "/bPx…[21 chars]"),
    ({"keys": [AWS[:21], AWS[21:]]}, "/bPx…[21 chars]"),
    ({"hotkey_parts": [AWS[:21], AWS[21:]]}, "/bPx…[21 chars]"),
    ({"key1": AWS[:21], "key3": AWS[21:]}, "/bPx…[21 chars]"),
])
def test_random_runs_the_old_readings_left_are_high_entropy_now(data, excerpt):
    line = orjson.dumps({"seq": 1, "type": "observation", "data": data})
    assert scan_line(line) == []
    hit = scan_public(line)
    assert hit is not None and (hit.label, hit.excerpt) == (
        "high-entropy run (a key of a family no table holds?)", excerpt)
