"""openssl's hex dumps (`asn1parse -dump`, `rsa -text`): rows of 15 colon-separated bytes, each
row ending in its separator and the next indented (`    4e:52:...:48:` then a line break). QA
s35's T6/T7: such a dump was read row by row (a row's trailing `:` ended the run), so a key
across rows was never decoded and published, and a 128 MiB log of them cost 60 s to verify
and 62 s to withhold for 512 MiB (hundreds of binary runs a line, each a view). The rows now
join into one run."""

from __future__ import annotations

from secretshelp import obs_line, refused_and_named

from moderator_app.core.formats import secrets_bytes
from moderator_app.core.formats.secrets import unescape_json

NEWRELIC = "NRAK-" + "QA35OPENSSLCOLONROWS0ABCDEF"


def _openssl(data: bytes, lead: bytes = b"") -> str:
    rows = [data[i:i + 15] for i in range(0, len(data), 15)]
    return "\n".join("    " + ":".join(f"{c:02x}" for c in row) + (":" if k < len(rows) - 1 else "")
                     for k, row in enumerate(rows))


def test_a_key_across_openssl_rows_is_named_and_refused(tmp_path):
    line = obs_line("$ openssl asn1parse -dump -in nr.der\n" + _openssl(NEWRELIC.encode()))
    refused_and_named(tmp_path, line, secrets_bytes.BYTES, "New Relic key")


def test_an_openssl_dump_is_one_byte_view():
    blob = bytes((i * 37 + 11) % 256 for i in range(600))  # 40 rows of binary
    raw = unescape_json(obs_line("$ openssl asn1parse -dump\n" + _openssl(blob)))
    views = [v for v in secrets_bytes.byte_views(raw, lambda b: False) if not v[1]]
    assert views and views[0][0] == blob
