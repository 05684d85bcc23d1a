"""`at`: an ISO 8601 UTC timestamp to microseconds since the epoch (exact integers), with
the caches the checker's inlined fast path shares."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

from moderator_app.core.verify.agent_log.rules import AT_FORMAT, AT_NOT_UTC

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_US = timedelta(microseconds=1)


# The shape nearly every log uses: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+00:00)`. Its minute
# (`YYYY-MM-DDTHH:MM`) is looked up in a small cache, so a line costs one regex match and
# two int() calls instead of a datetime; any other spelling takes the general path.
AT_FAST = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}):([0-5][0-9])"
                      r"(?:\.([0-9]{1,9}))?(?:Z|\+00:00)", re.ASCII)
# The one shape an `at` may take (docs/rules-community.md, "`at` spellings"): ISO 8601's
# extended format as RFC 3339 profiles it, `YYYY-MM-DDTHH:MM:SS`, 1 to 9 fraction digits, and
# a zone; `Z` and `+00:00` are UTC. The C reader (`_skim.at_us`) accepts exactly the UTC ones
# and declines the rest to `parse_at`, so both engines judge every spelling alike.
AT_SHAPE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?"
                      r"(Z|[+-][0-9]{2}:[0-9]{2})?", re.ASCII)
MINUTE_CACHE: dict[str, int] = {}
SECOND_CACHE: dict[str, int] = {}  # `YYYY-MM-DDTHH:MM:SS` -> its microseconds, once validated


def minute_us(prefix: str) -> int | None:
    got = MINUTE_CACHE.get(prefix)
    if got is None:
        try:
            dt = datetime.fromisoformat(prefix + ":00+00:00")
        except ValueError:
            return None
        if len(MINUTE_CACHE) >= 4096:
            MINUTE_CACHE.clear()
        got = MINUTE_CACHE[prefix] = (dt - _EPOCH) // _US
    return got


def parse_at(value: Any) -> tuple[int | None, Any, str]:
    """(microseconds since the epoch, None, "") for a valid UTC `at`, else (None, rule, why).

    Digits of the fraction beyond the sixth (nanoseconds) are dropped, as datetime does."""
    if type(value) is str:
        m = AT_FAST.fullmatch(value)
        if m is not None:
            minute = minute_us(m[1])
            if minute is not None:
                frac = m[3]
                us = int((frac + "00000")[:6]) if frac else 0
                return minute + int(m[2]) * 1_000_000 + us, None, ""
    if not isinstance(value, str):
        what = "missing" if value is None else f"a {type(value).__name__}, not a string"
        return None, AT_FORMAT, f"`at` is {what}"
    shape = AT_SHAPE.fullmatch(value)
    if shape is None:
        # Only the shape, never whatever CPython's fromisoformat tolerates: it stops reading
        # at a NUL (`...Z\u0000anything`), and takes `+00:00:00`, a lowercase `t`/`z`, a
        # space for `T`, week dates and 30 fraction digits (issue 15).
        return None, AT_FORMAT, f"`at` {value[:40]!r} is not an ISO 8601 date and time"
    if shape[1] == "-00:00":
        return None, AT_NOT_UTC, (f"`at` {value[:40]!r} has the offset -00:00, which says the "
                                  "local offset is unknown (RFC 3339); use Z")
    try:
        dt = datetime.fromisoformat(value)  # Python 3.11+ reads `Z` itself
    except ValueError:
        return None, AT_FORMAT, f"`at` {value[:40]!r} is not an ISO 8601 date and time"
    tz = dt.tzinfo
    if tz is not timezone.utc:  # the common case skips the utcoffset() call
        off = dt.utcoffset()
        if off is None:
            return None, AT_NOT_UTC, f"`at` {value[:40]!r} has no time zone: it must be UTC (Z)"
        if off:
            return None, AT_NOT_UTC, f"`at` {value[:40]!r} is not UTC (offset {off}); use Z"
    return (dt - _EPOCH) // _US, None, ""
