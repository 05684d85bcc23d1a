"""Timecode formatting and the "go to" parser."""

from __future__ import annotations

import pytest

from moderator_app.ui.timefmt import format_timecode, parse_goto


def test_format_timecode():
    assert format_timecode(0) == "00:00:00.000"
    assert format_timecode(3723.4567) == "01:02:03.457"
    assert format_timecode(-1.5) == "-00:00:01.500"
    assert format_timecode(2.0, signed=True) == "+00:00:02.000"
    assert format_timecode(float("nan")) == "--:--:--.---"


@pytest.mark.parametrize("text, expected", [
    ("123", ("frame", 123.0)),
    ("f7", ("frame", 7.0)),
    ("12.5s", ("time", 12.5)),
    ("1:02.5", ("time", 62.5)),
    ("00:01:02.500", ("time", 62.5)),
    ("1:00:00", ("time", 3600.0)),
    ("2.25", ("time", 2.25)),
    ("soon", None),
    ("", None),
])
def test_parse_goto(text, expected):
    assert parse_goto(text) == expected
