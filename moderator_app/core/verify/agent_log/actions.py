"""Actions: what an action is compared by (canonical JSON of `[name, args]`, as an 8-byte
digest), and the compact per-response state the `action` rules need (the only state that
grows with the log: see _skim_table.h for what is kept and why it must grow)."""

from __future__ import annotations

import hashlib
import os
from array import array
from collections.abc import Callable
from typing import Any

import orjson

from moderator_app.core.formats import native
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


def _blake8(blob: bytes) -> bytes:
    return hashlib.blake2b(blob, digest_size=8).digest()


class ActionDigests:
    """`(name, args) -> 8 bytes` standing for the action's canonical JSON, kept per requested
    action and compared with each action run. `hash_fn` turns the canonical bytes into the 8
    bytes: the checker's `Responses.digest` (keyed, in C) or blake2b.

    A run repeats a handful of actions (`press A`) thousands of times: the digest is cached
    under the name and orjson's plain dump of the args, which is the same text only for the
    same value (member order included, `1` and `1.0` and `true` apart), so a hit is exact.
    Only small actions are cached: 4,096 distinct 1 MB args would otherwise hold 4 GB."""

    def __init__(self, hash_fn: Callable[[bytes], bytes] = _blake8) -> None:
        self._hash = hash_fn
        self._cache: dict[tuple[str, bytes], bytes] = {}

    def __call__(self, name: Any, args: Any) -> bytes:
        if type(args) is dict and type(name) is str:
            try:
                key = (name, _dumps(args))
            except TypeError:  # beyond 64-bit integers or 255 levels: no cache
                key = None
            if key is not None and len(key[1]) + len(name) <= 512:  # 4,096 small entries
                got = self._cache.get(key)
                if got is None:
                    got = self._hash(action_blob(name, args))
                    if len(self._cache) >= 4096:
                        self._cache.clear()
                    self._cache[key] = got
                return got
        return self._hash(action_blob(name, args))


action_digest = ActionDigests()

# Responses.consume's verdicts (the C table returns the same numbers).
OK, REPEAT, NOT_REQUESTED, UNLISTED = 0, 1, 2, 3

# The table's bound (log.too_many_responses): ~110 MB of responses and ~145 MB of requested
# actions in C, under the hostile bound of 512 MiB with the rest of the process. An honest
# log is far below: the realistic 469 MB log has 200,000 responses; at one response a second,
# 2,000,000 is 23 days.
MAX_RESPONSES = 2_000_000
MAX_SLOTS = 16_000_000
INDEX_MIN = 32  # a response listing more actions is looked up by digest (_skim_table.h too)


def new_responses() -> Any:
    """The per-response state: the C table (`_skim.Responses`, _skim_table.h: about 50 bytes
    per response and 9 per requested action, whatever the ids' length) with a key of its own,
    or `PyResponses` without the accelerator. Both answer the same calls alike."""
    mod = native.SKIM
    if mod is None:
        return PyResponses()
    return mod.Responses(os.urandom(16), MAX_RESPONSES, MAX_SLOTS)


class PyResponses:
    """The pure-Python engine's per-response state: exact ids (a dict) and flat arrays. The
    C table answers the same calls with hashes of the ids instead of the ids."""

    def __init__(self) -> None:
        self.ordinal: dict[str, int] = {}
        self.line = array("q")
        self.el = array("d")  # elapsedMs, NaN when unknown
        self.first_slot = array("q")
        self.n_slots = array("l")  # -1: the response lists no actions
        self.digests = bytearray()
        self.used = bytearray()  # one byte per slot: whether that action ran
        self._index: dict[int, dict[bytes, list[int]]] = {}  # big responses' slots by digest

    digest = staticmethod(_blake8)

    def find(self, rid: str) -> int:
        return self.ordinal.get(rid, -1)

    def full(self) -> bool:
        """At the bound: no more responses are taken (log.too_many_responses)."""
        return len(self.line) >= MAX_RESPONSES or len(self.used) >= MAX_SLOTS

    def line_of(self, k: int) -> int:
        return self.line[k]

    def el_of(self, k: int) -> float:
        return self.el[k]

    def add(self, rid: str, line: int, el: float, digests: bytes | None) -> None:
        self.ordinal[rid] = len(self.line)
        self.line.append(line)
        self.el.append(el)
        self.first_slot.append(len(self.used))
        if digests is None:  # no `actions` member: it cannot vouch (a warning, docs/DESIGN.md)
            self.n_slots.append(-1)
            return
        self.n_slots.append(len(digests) // 8)
        self.digests += digests
        self.used.extend(bytes(len(digests) // 8))

    def consume(self, k: int, digest: bytes) -> int:
        """OK (first run of a requested action), REPEAT, NOT_REQUESTED or UNLISTED (the
        response lists no actions). The first listed slot of the digest not yet run is taken;
        past INDEX_MIN slots through a per-response index of the slots by digest (as the C
        table does by sorting): a scan per action made one response of N actions answered
        by N lines N^2 (QA session 14, G10)."""
        n = self.n_slots[k]
        if n < 0:
            return UNLISTED
        first = self.first_slot[k]
        if n > INDEX_MIN:
            index = self._index.get(k)
            if index is None:
                index = self._index[k] = {}
                for s in range(first + n - 1, first - 1, -1):  # reversed: pop() is the first
                    index.setdefault(bytes(self.digests[s * 8:s * 8 + 8]), []).append(s)
            slots = index.get(digest)
            if slots is None:
                return NOT_REQUESTED
            if not slots:
                return REPEAT
            self.used[slots.pop()] = 1
            return OK
        seen = False
        for s in range(first, first + n):
            if self.digests[s * 8:s * 8 + 8] == digest:
                if self.used[s] == 0:
                    self.used[s] = 1
                    return OK
                seen = True
        return REPEAT if seen else NOT_REQUESTED

    def unrun_next(self, start: int) -> tuple[int, int, int, int] | None:
        """(k, line, missing, total) for the first response from ordinal `start` on whose
        requested actions did not all run, or None."""
        for k in range(max(start, 0), len(self.line)):
            n = self.n_slots[k]
            if n <= 0:
                continue
            first = self.first_slot[k]
            missing = n - sum(self.used[first:first + n])
            if missing:
                return k, self.line[k], missing, n
        return None
