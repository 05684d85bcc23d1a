"""Keys glued into escaped base64, across its escaped breaks, escaped again in JSON inside JSON,
and honest chance key shapes in the same escapings (session 47, redact; issue 15, review s46
R2's blob and escaped-wrap residual, QA s46 T4 / T7). The cases are tests/escmatrix.py's:
on 419dbe2, 310 of the 900 hostile cells were published whole (every key across a break,
`xai-` anywhere in a 76-column wrapping, `r8_` / `LTAI` keys with one digit) and 177 of the
300 honest ones warned of and refused (a short escaped-wrapped blob's lines, `\\u002F` /
JSON-in-JSON / `%2F` pieces read as high-entropy runs; chance `AIza` / `AKIA` named)."""

from __future__ import annotations

import hashlib
import re

import escmatrix
import pytest
from secretshelp import START, obs_line

from moderator_app.core.formats.withhold import WithholdError, public_secret_hits, withhold_log

_HOSTILE = list(escmatrix.hostile())
_HONEST = list(escmatrix.honest())
# (what a reader of the public file sees of a key: its escapes and breaks read)
_READ = re.compile(rb"\\+[rn]|\\+u002[fFbB]|\\+|%2[FB]")


def test_the_matrix_is_the_one_measured():
    assert (len(_HOSTILE), len(_HONEST)) == (900, 300)
    texts = "\n".join(c.text for c in _HOSTILE + _HONEST).encode()
    assert hashlib.sha256(texts).hexdigest()[:12] == _DIGEST


_DIGEST = "e803e16028d8"


def _both(tmp_path, case: escmatrix.Case):
    """(verify's hits on line 2, withhold's refusal or None, the public file or b"")."""
    data = START + b"\n" + obs_line(case.text) + b"\n"
    found = [(n, h) for n, h in public_secret_hits(data, 1)]
    src, out = tmp_path / "agent-log.jsonl", tmp_path / "public.jsonl"
    src.write_bytes(data)
    try:
        withhold_log(src, out)
    except WithholdError as e:
        return found, str(e), b""
    return found, None, out.read_bytes()


@pytest.mark.parametrize("case", _HOSTILE, ids=lambda c: c.name)
def test_no_key_glued_into_escaped_base64_is_published(tmp_path, case):
    found, refused, public = _both(tmp_path, case)
    assert [n for n, _ in found] == [2], found
    hit = found[0][1]
    if refused is not None:  # (named: both commands refuse line 2, verify by the same hit)
        assert not hit.redact and refused.startswith("line 2: ")
    else:  # (in base64 of binary data: starred, noted)
        assert hit.redact
        key, seen = case.key.encode(), _READ.sub(b"", public)
        assert key[:16] not in seen and key[-16:] not in seen


@pytest.mark.parametrize("case", _HONEST, ids=lambda c: c.name)
def test_a_chance_key_shape_in_honest_escaped_base64_is_published(tmp_path, case):
    found, refused, public = _both(tmp_path, case)
    assert refused is None
    assert [h.label for _, h in found if not h.redact] == []
    assert public


def test_h46_07_shape_xai_glued_across_a_break_of_json_in_json_is_kept_out(tmp_path):
    case = next(c for c in _HOSTILE if c.name == "xai.json2.across.bin")
    assert "\\\\r\\\\n" in case.text and "\\\\\\/" in case.text
    found, refused, public = _both(tmp_path, case)
    assert [(n, h.label, bool(h.redact)) for n, h in found] == [(2, "xAI key", True)]
    assert refused is None and case.key[-16:].encode() not in _READ.sub(b"", public)


# Review s47 R9: a key across ONE escaped break (a terminal's wrap of a long line; the one
# break of a 2-row blob) was read across by 09016fd and given back by f68de986 ("across only
# where a line breaks twice"): published whole again, as on 419dbe2.
_ONE_BREAK = {  # (the tool printed its break escaped: the summary holds `\n` as two characters)
    "glpat_lf": ('$ echo "export TOKEN=glpat-L69SC8s\\nYOn0RJDdfQ5Dv"', "glpat-L69SC8sYOn0RJDdfQ5Dv"),
    "sk_live_crlf": ('$ echo "export TOKEN=sk_live_p8l4F0fm\\r\\ns9muC16kqcERjAxY"',
                     "sk_live_p8l4F0fms9muC16kqcERjAxY"),
    "ghp_lf": ('$ echo "export TOKEN=ghp_2vf89HEroHA1Wl56\\nqQvygkKvYnseZvY4NWmE"',
               "ghp_2vf89HEroHA1Wl56qQvygkKvYnseZvY4NWmE"),
}


@pytest.mark.parametrize("name", sorted(_ONE_BREAK))
def test_review_s47_r9_a_key_across_one_escaped_break_is_kept_out(tmp_path, name):
    text, key = _ONE_BREAK[name]
    found, refused, public = _both(tmp_path, escmatrix.Case(name, text, key, False))
    assert [n for n, _ in found] == [2], found
    assert key[-12:].encode() not in _READ.sub(b"", public)
