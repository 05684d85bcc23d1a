"""`wall_time`: RFC 3339 UTC timestamps to epoch seconds, one at a time or a block's at once."""

from __future__ import annotations

import re
from datetime import datetime

_RFC3339_UTC = re.compile(
    r"(\d{4}-\d\d-\d\d[Tt](?:[01]\d|2[0-3]):[0-5]\d):([0-5]\d|60)(\.\d+)?(?:[Zz]|\+00:00)")


_MINUTES: dict[str, float | None] = {}


def minute_epoch(minute: str) -> float | None:
    """Epoch seconds of `YYYY-MM-DDTHH:MM` (already shaped by the regex), cached."""
    base = _MINUTES.get(minute, False)
    if base is False:
        try:
            base = datetime.fromisoformat(minute[:10] + "T" + minute[11:] + "+00:00").timestamp()
        except ValueError:
            base = None
        if len(_MINUTES) > 10_000:
            _MINUTES.clear()
        _MINUTES[minute] = base
    return base


def parse_wall_time(value: str) -> float | None:
    """Seconds since the epoch of an RFC 3339 UTC timestamp, or None when it is not one.

    The date-hour-minute part is validated once and cached: a run spans few minutes."""
    m = _RFC3339_UTC.fullmatch(value)
    if m is None:
        return None
    minute, sec, frac = m.groups()
    base = minute_epoch(minute)
    if base is None:
        return None
    return base + int(sec) + (float(frac) if frac else 0.0)


# The usual spelling, `2026-07-10T14:03:22.481Z`: a whole block's wall_times are checked by one
# regex over their concatenation, then converted exactly as parse_wall_time does.
_WALL_MS_Z = re.compile(
    r"(?:\d{4}-\d\d-\d\dT(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d\d\dZ)+")


def wall_ms_z(w: str) -> float:
    """parse_wall_time of a string already matched by _WALL_MS_Z, with a valid date."""
    base = minute_epoch(w[:16])
    assert base is not None  # the callers checked the date exists
    return base + int(w[17:19]) + float(w[19:23])


def uniform_walls(walls) -> bool:
    """Whether every wall_time is `YYYY-MM-DDTHH:MM:SS.mmmZ` with a real date: such strings
    order exactly as their times (the conversion is monotonic, and distinct milliseconds
    stay distinct at epoch magnitudes)."""
    joined = "".join(walls)
    # The shape by one translation (ASCII digits to 0) and comparison; seconds below 60 by
    # their tens digit; the date, hour and minute by `minute_epoch` (each distinct minute once).
    return (len(joined) == 24 * len(walls) and joined.translate(_DIGITS_TO_0) ==
            _WALL_SHAPE * len(walls) and max(joined[17::24], default="0") <= "5"
            and None not in map(minute_epoch, {w[:16] for w in walls}))


_DIGITS_TO_0 = str.maketrans("123456789", "000000000")
_WALL_SHAPE = "0000-00-00T00:00:00.000Z"


def block_wall_times(walls) -> list:
    if set(map(len, walls)) == {24} and _WALL_MS_Z.fullmatch("".join(walls)):
        try:
            return [minute_epoch(w[:16]) + int(w[17:19]) + float(w[19:23])  # type: ignore[operator]
                    for w in walls]  # (None + int raises the TypeError caught below)
        except TypeError:  # an impossible date (Feb 30): the line-by-line path reports it
            pass
    return list(map(parse_wall_time, walls))


def iso_utc(t: float | None) -> str | None:
    if t is None:
        return None
    from datetime import timezone

    dt = datetime.fromtimestamp(t, tz=timezone.utc)
    return dt.isoformat(timespec="milliseconds").replace("+00:00", "Z")
