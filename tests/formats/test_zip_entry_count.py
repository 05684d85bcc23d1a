"""The zip entry cap holds whatever the end record says (session 25 hostile sweep): a zip
whose end-of-central-directory record says 5 entries over 600,000 was parsed whole by
zipfile (12.9 s, 352 MB; a million entries past 512 MiB). The central directory's headers
are counted before zipfile reads them, up to one past the cap."""

from __future__ import annotations

import struct
import zlib

import pytest

from moderator_app.core.errors import InputError
from moderator_app.core.formats import archive, archive_zip


def _zip(n: int, said: int, prefix: bytes = b"", name_pad: int = 0) -> bytes:
    """`n` stored members (the first an agent log) whose end record says `said` entries,
    after `prefix` (a self-extractor's stub: offsets are the zip's own)."""
    body, cd = bytearray(), bytearray()
    for i in range(n):
        name = b"agent-log.jsonl" if i == 0 else b"e/%05d" % i + b"x" * name_pad + b".txt"
        data = b'{"seq":0}\n' if i == 0 else b""
        off, crc = len(body), zlib.crc32(data)
        body += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0x21, crc, len(data),
                            len(data), len(name), 0) + name + data
        cd += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0x21, crc,
                          len(data), len(data), len(name), 0, 0, 0, 0, 0o100644 << 16,
                          off) + name
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, said, said, len(cd), len(body), 0)
    return prefix + bytes(body) + bytes(cd) + end


@pytest.mark.parametrize(("prefix", "pad"), [(b"", 0), (b"MZ" + bytes(5000), 0),
                                            (b"", 3000)])
def test_an_end_record_that_undercounts_does_not_pass_the_cap(tmp_path, monkeypatch,
                                                              prefix, pad):
    monkeypatch.setattr(archive_zip, "MAX_ZIP_ENTRIES", 50)
    p = tmp_path / "lies.zip"
    p.write_bytes(_zip(60, 5, prefix, pad))
    with pytest.raises(InputError) as got:
        archive.open_archive(p)
    assert "has at least 51 entries, more than the 50 this tool reads: refused" in str(got.value)


def test_an_honest_count_is_said_and_a_zip_under_the_cap_opens(tmp_path, monkeypatch):
    monkeypatch.setattr(archive_zip, "MAX_ZIP_ENTRIES", 50)
    p = tmp_path / "many.zip"
    p.write_bytes(_zip(70, 70))
    with pytest.raises(InputError, match="has 70 entries, more than the 50"):
        archive.open_archive(p)
    p.write_bytes(_zip(50, 50, b"stub" * 100, 700))
    members, findings = archive.open_archive(p)
    assert len(members) == 50 and findings == []
