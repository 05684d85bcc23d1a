"""Secrets spelled in an encoding (session 33, issue 15, QA s32 T9): `withhold` published a
Shopify token base64-encoded in a Kubernetes Secret and a PyPI token percent-encoded in a URL,
and `verify` named neither. `secrets_decode` gives the decoded views (percent, character
escapes, base64, hex) the detectors then read; base64 that decodes to text is read as that
text, so an honest base64 cursor or sentence is no longer a "high-entropy run"."""

from __future__ import annotations

import base64
import hashlib
import urllib.parse

import orjson
import pytest

from moderator_app.core.formats.secrets_public import scan_public
from moderator_app.core.formats.withhold import WithholdError, public_secret_hits, withhold_log

SHOPIFY = "shpat_" + "0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a"
PYPI = "pypi-AgEIcHlwaS5vcmc" + "S33decodeTestTokenBody0123456789abcdefXYZ"
GITHUB = "ghp_" + "S33escapedTokenAbCdEfGhIjKlMnOpQrStUv"
UNKNOWN = "zq9T4mK2vX8pL5nR7wQ3jH6bY1cF0dG"  # no family: 31 random characters
START = b'{"seq":0,"at":"2026-12-05T20:00:00.000Z","elapsedMs":0,"type":"run_start","data":{}}'


def _line(data: dict, typ: str = "observation") -> bytes:
    return orjson.dumps({"seq": 1, "at": "2026-12-05T20:00:01.000Z", "elapsedMs": 1000,
                         "type": typ, "data": data})


def _pct(text: str) -> str:
    return "".join(f"%{b:02X}" for b in text.encode())


ENCODED = [
    ({"summary": "$ kubectl get secret shop -o yaml\ndata:\n  token: "
                 + base64.b64encode(SHOPIFY.encode()).decode() + "\nkind: Secret"},
     "observation", "base64 of a secret"),
    ({"name": "open", "args": {"url": "https://upload.pypi.org/legacy/?u=__token__&p="
                               + _pct(PYPI)}}, "action", "PyPI token"),
    ({"name": "open", "args": {"url": "https://x.example/?t=pypi%2D" + PYPI[5:]}}, "action",
     "PyPI token"),
    ({"stdout": "b'" + "".join(f"\\x{b:02x}" for b in GITHUB.encode()) + "'"}, "observation",
     "GitHub token"),
    ({"html": "<code>" + "".join(f"&#{b};" for b in GITHUB.encode()) + "</code>"},
     "observation", "GitHub token"),
    ({"dump": "00000000  " + GITHUB.encode().hex()}, "observation", "hex of a secret"),
    ({"summary": "dockerconfigjson: " + base64.b64encode(orjson.dumps({"auths": {"r.io": {
        "auth": base64.b64encode(f"bot:{GITHUB}".encode()).decode()}}})).decode()},
     "observation", "base64 of a secret"),
    ({"summary": "env: " + base64.b64encode(f"KEY={UNKNOWN}".encode()).decode()},
     "observation", "base64 of a secret"),
]


@pytest.mark.parametrize("data, typ, label", ENCODED)
def test_an_encoded_secret_is_refused_and_named(tmp_path, data, typ, label):
    line = _line(data, typ)
    hit = scan_public(line)
    assert hit is not None and hit.label == label
    assert [n for n, _ in public_secret_hits(START + b"\n" + line, 1)] == [2]
    src = tmp_path / "agent-log.jsonl"
    src.write_bytes(START + b"\n" + line + b"\n")
    with pytest.raises(WithholdError, match=r"^line 2: "):
        withhold_log(src, tmp_path / "public.jsonl")
    assert not (tmp_path / "public.jsonl").exists()


HONEST = [
    {"cursor": base64.b64encode(orjson.dumps({"page": 7, "after": "item_259",
                                              "sort": "desc"})).decode()},
    {"summary": "decoded " + base64.b64encode(b"rotate left drop hold frame 12 level 3").decode()},
    {"url": "https://www.google.com/search?q=" + urllib.parse.quote("tetris level 9 tips")},
    {"url": "https://ja.wikipedia.org/wiki/" + urllib.parse.quote("テトリス2024")},
    {"form": "name=Alice%20Smith&city=S%C3%A3o%20Paulo&note=100%25%20done"},
    {"stdout": f"sha256 {hashlib.sha256(b'x').hexdigest()} commit {hashlib.sha1(b'x').hexdigest()}"},
    {"stdout": "b'\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR' read"},
    {"html": "<p>Don&#39;t press &#34;start&#34; yet &#8212; level 3</p>"},
]


@pytest.mark.parametrize("data", HONEST)
def test_honest_encodings_stay_quiet(data):
    line = _line(data)
    assert scan_public(line) is None
    assert public_secret_hits(START + b"\n" + line, 1) == []
