"""The public (withheld) version of an agent log, by the seed's withholding rules.

`model_request` data becomes `{"withheld": true}`; a `model_response` keeps `id`, `model`,
`usage` and `actions` and loses everything else (`text`, `reasoning`, and any extra member that
could carry model output). Every other line is copied byte for byte: actions, observations and
timing always stay public, and `seq` is untouched, so the public log verifies like the original.

A line that cannot be parsed is refused (WithholdError names it) rather than copied: unknown
bytes could be a prompt, and a withholding tool must not publish what it cannot read. The output
is written to a temporary file beside the target and renamed over it only when complete, so a
failure never leaves a half-withheld file that looks finished.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import orjson

from moderator_app.core.atomic import atomic_writer
from moderator_app.core.formats.jsonline import LineError, parse_line
from moderator_app.core.formats.streams import iter_lines

RESPONSE_KEEP = ("id", "model", "usage", "actions")


class WithholdError(ValueError):
    """The log cannot be withheld safely; the message names the line."""


@dataclass(frozen=True, slots=True)
class WithholdStats:
    lines: int
    requests_withheld: int
    responses_stripped: int


def withhold_event(ev: dict) -> dict | None:
    """The public form of one event, or None when the event is public as it is."""
    typ, data = ev.get("type"), ev.get("data")
    if typ == "model_request":
        if data == {"withheld": True}:
            return None
        return {**ev, "data": {"withheld": True}}
    if typ == "model_response" and isinstance(data, dict):
        kept = {k: data[k] for k in RESPONSE_KEEP if k in data}
        if len(kept) == len(data):
            return None
        return {**ev, "data": kept}
    return None


def withhold_log(src: str | os.PathLike, dst: str | os.PathLike) -> WithholdStats:
    """Write the public version of `src` to `dst` atomically. Raises WithholdError for a line
    that cannot be parsed, OSError when a file cannot be read or written."""
    src, dst = Path(src), Path(dst)
    if dst.exists() and src.exists() and os.path.samefile(src, dst):
        raise WithholdError("the output must be another file than the input")
    lines = requests = responses = 0
    with open(src, "rb") as fin, atomic_writer(dst) as fout:
        for _, raw in iter_lines(fin):
            lines += 1
            if raw is None:
                raise WithholdError(f"line {lines}: too long to read; nothing written")
            body = raw[:-1] if raw.endswith(b"\r") else raw
            if lines == 1 and body.startswith(b"\xef\xbb\xbf"):
                body = body[3:]
            if not body.strip():
                # A blank line holds nothing to withhold: copied as is, so that a log that
                # verifies (a trailing blank line is only a warning) can be withheld.
                fout.write(body + b"\n")
                continue
            try:
                ev = parse_line(body)
            except (TypeError, ValueError, RecursionError):
                ev = LineError("json", "JSON nested too deeply to be checked")
            if isinstance(ev, LineError):
                raise WithholdError(f"line {lines}: {ev.message}; nothing written")
            public = withhold_event(ev)
            if public is None:
                fout.write(body + b"\n")
                continue
            if ev.get("type") == "model_request":
                requests += 1
            else:
                responses += 1
            try:
                fout.write(orjson.dumps(public) + b"\n")
            except TypeError as exc:  # nested deeper than orjson writes
                raise WithholdError(f"line {lines}: cannot be rewritten ({exc}); "
                                    "nothing written") from exc
    return WithholdStats(lines, requests, responses)
