"""A Matroska's truncation is read from its EBML header and Segment sizes alone
(`truncation.container_truncation`): a Segment that claims more bytes than the file holds is
cut short, one of unknown size (a live capture) is not judged, and a size that cannot be read
(cut off, or no valid length) says the header is cut off. Session 39 (tidy) reads those sizes
with `joined_headers.ebml_vint`, the reader the joined-recordings walk uses, instead of a copy
of its own: these cases pin what it answered before."""

from __future__ import annotations

import pytest

from moderator_app.core.video.truncation import container_truncation

EBML, SEGMENT = b"\x1a\x45\xdf\xa3", b"\x18\x53\x80\x67"
HEADER = EBML + b"\x84" + b"\x42\x86\x81\x01"  # a 4-byte EBML header (EBMLVersion 1)
CUT_OFF = "the Matroska header is cut off by the end of the file"


@pytest.mark.parametrize("data, said", [
    # a Segment of 4096 bytes in a file that holds 10 of them: 9 + 4 + 4 + 4096 - 27 short
    (HEADER + SEGMENT + b"\x10\x00\x10\x00" + bytes(10),
     "the Matroska segment claims 4096 bytes but the file ends 4086 bytes short"),
    (HEADER + SEGMENT + b"\x8a" + bytes(10), None),  # whole
    (HEADER + SEGMENT + b"\x01" + b"\xff" * 7 + bytes(10), None),  # unknown size: live
    (HEADER + SEGMENT + b"\xff" + bytes(10), None),  # unknown size, one byte
    (HEADER + b"\xec\x81\x00", None),  # no Segment after the header: not judged here
    (HEADER + SEGMENT, CUT_OFF),  # the file ends before the Segment's size
    (HEADER + SEGMENT + b"\x10\x00", CUT_OFF),  # ... inside it
    (HEADER + SEGMENT + b"\x00" + bytes(10), CUT_OFF),  # no valid length
    (EBML + b"\x00" + bytes(10), CUT_OFF),  # the header's own size: no valid length
    (EBML + b"\x10\x00", CUT_OFF),  # ... cut off
    (EBML, CUT_OFF),  # ... missing
    (EBML + b"\xff" + bytes(10), None),  # a header of unknown size: not judged
])
def test_a_matroska_is_cut_short_where_its_segment_claims_more_than_the_file(tmp_path, data,
                                                                              said):
    path = tmp_path / "x.mkv"
    path.write_bytes(data)
    assert container_truncation(path) == said
