"""Timecode text: formatting for labels and parsing for the "go to" dialog (no Qt here)."""

from __future__ import annotations

import math
import re


def format_timecode(seconds: float | None, signed: bool = False) -> str:
    """`hh:mm:ss.mmm` (ms precision, the sync offset's precision)."""
    if seconds is None or not math.isfinite(seconds):
        return "--:--:--.---"
    sign = "-" if seconds < 0 else ("+" if signed else "")
    ms = round(abs(seconds) * 1000)
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, ms = divmod(rem, 1000)
    return f"{sign}{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def format_clock(seconds: float | None, hours: bool = True) -> str:
    """`format_timecode`, without its `00:` hours when `hours` is False (a run under an
    hour: the event table's Time column is 3 characters narrower and gives them to Content).
    A time of an hour or more keeps its hours whatever `hours` says: never ambiguous."""
    text = format_timecode(seconds)
    if hours:
        return text
    sign = text[:1] if text[:1] in "+-" else ""
    body = text[len(sign):]
    return sign + body[3:] if body.startswith("00:") else text


_TIME = re.compile(r"^\s*(-)?(?:(\d+):)?(?:(\d+):)?(\d+(?:\.\d*)?)\s*$")


def parse_goto(text: str) -> tuple[str, float] | None:
    """Parse the "go to" input: `123` or `f123` is a frame number, `1:02.5`, `00:01:02.500`
    or `62.5s` a time. Returns ("frame", n) or ("time", seconds), or None when unreadable."""
    t = text.strip().lower()
    if not t:
        return None
    if re.fullmatch(r"f?\d+", t):
        return ("frame", float(int(t.lstrip("f"))))
    if t.endswith("s") and re.fullmatch(r"\d+(\.\d*)?s", t):
        return ("time", float(t[:-1]))
    m = _TIME.match(t)
    if not m or (":" not in t and "." not in t):
        return None
    neg, a, b, sec = m.groups()
    parts = [p for p in (a, b) if p is not None]
    total = float(sec)
    if len(parts) == 2:
        total += int(parts[0]) * 3600 + int(parts[1]) * 60
    elif len(parts) == 1:
        total += int(parts[0]) * 60
    return ("time", -total if neg else total)
