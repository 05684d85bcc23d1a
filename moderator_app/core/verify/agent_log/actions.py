"""Actions: what an action is compared by (canonical JSON of `[name, args]`, as an 8-byte
digest), and the compact per-response state the `action` rules need."""

from __future__ import annotations

import hashlib
from array import array
from typing import Any

import orjson

from moderator_app.core.formats.canonical import MAX_SAFE_INTEGER as _MAX_SAFE
from moderator_app.core.formats.canonical import CanonicalError, canonical_json_fast

_dumps = orjson.dumps


def action_blob(name: Any, args: Any) -> bytes:
    """The canonical JSON (RFC 8785) of `[name, args]`: what an action is compared by.

    Most args are a flat object of ASCII-named strings, booleans and small integers; for those
    orjson's sorted compact output is already the canonical form (same escaping, same member
    order, no floats to format), ten times faster than the general path."""
    if type(args) is dict and isinstance(name, str):
        for k, v in args.items():
            t = type(v)
            if not k.isascii() or not (t is str or t is bool or v is None or (
                    t is int and -_MAX_SAFE <= v <= _MAX_SAFE)):
                break
        else:
            return orjson.dumps([name, args], option=orjson.OPT_SORT_KEYS)
    try:
        return canonical_json_fast([name, args])
    except (CanonicalError, TypeError, RecursionError):
        # Not representable in JCS (an integer beyond 2^53) or nested too deeply for orjson:
        # compare the exact text instead.
        import json

        try:
            return json.dumps([name, args], sort_keys=True, ensure_ascii=False).encode(
                "utf-8", "surrogatepass")
        except RecursionError:
            return repr([name, args]).encode("utf-8", "surrogatepass")


_DIGESTS: dict[tuple[str, bytes], bytes] = {}


def action_digest(name: Any, args: Any) -> bytes:
    """8 bytes standing for (name, args) as canonical JSON, kept per requested action.

    A run repeats a handful of actions (`press A`) thousands of times: the digest is cached
    under the name and orjson's plain dump of the args, which is the same text only for the
    same value (member order included, `1` and `1.0` and `true` apart), so a hit is exact."""
    if type(args) is dict and type(name) is str:
        try:
            key = (name, _dumps(args))
        except TypeError:  # beyond 64-bit integers or 255 levels: no cache
            key = None
        if key is not None:
            got = _DIGESTS.get(key)
            if got is None:
                got = hashlib.blake2b(action_blob(name, args), digest_size=8).digest()
                if len(_DIGESTS) >= 4096:
                    _DIGESTS.clear()
                _DIGESTS[key] = got
            return got
    return hashlib.blake2b(action_blob(name, args), digest_size=8).digest()


class Responses:
    """Compact per-response state: ordinal by id; line, time and requested-action digests in
    flat arrays: about 200 bytes per response (measured), most of it the id and its dict slot.
    This is the only state that grows with the log; everything else is per line."""

    def __init__(self) -> None:
        self.ordinal: dict[str, int] = {}
        self.line = array("q")
        self.el = array("d")  # elapsedMs, NaN when unknown
        self.first_slot = array("q")
        self.n_slots = array("l")  # -1: the response lists no actions
        self.digests = bytearray()
        self.used = bytearray()  # one byte per slot: how many times that action ran (max 255)

    def add(self, rid: str, line: int, el: float, digests: list[bytes] | None) -> None:
        self.ordinal[rid] = len(self.line)
        self.line.append(line)
        self.el.append(el)
        self.first_slot.append(len(self.used))
        if digests is None:  # no `actions` member: it cannot vouch (a warning, docs/DESIGN.md)
            self.n_slots.append(-1)
            return
        self.n_slots.append(len(digests))
        for d in digests:
            self.digests += d
            self.used.append(0)

    def consume(self, k: int, digest: bytes) -> str:
        """'ok' (first run of a requested action), 'repeat', 'none' (not requested) or
        'unlisted' (the response lists no actions)."""
        n = self.n_slots[k]
        if n < 0:
            return "unlisted"
        first = self.first_slot[k]
        seen = False
        for s in range(first, first + n):
            if self.digests[s * 8:s * 8 + 8] == digest:
                if self.used[s] == 0:
                    self.used[s] = 1
                    return "ok"
                seen = True
        if seen:
            for s in range(first, first + n):
                if self.digests[s * 8:s * 8 + 8] == digest and self.used[s] < 255:
                    self.used[s] += 1
                    break
            return "repeat"
        return "none"

    def unrun(self):
        """(line, number of requested actions that never ran) for each such response."""
        for k in range(len(self.line)):
            n = self.n_slots[k]
            if n <= 0:
                continue
            first = self.first_slot[k]
            missing = sum(1 for s in range(first, first + n) if self.used[s] == 0)
            if missing:
                yield self.line[k], missing, n
