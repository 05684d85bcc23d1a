"""What this process has walked of each ledger, so that the next check need not walk it again.

Why a module of its own: the chain's checks (`chained.check_row`, `walk`, `walk_from`) say
whether records are intact; this is the memory beside them, which prefix of which store was
found intact and the digest of its rows as read, kept per process under a lock (the decision
panel walks off the window's thread while an append walks on it). `chained.walk_from` reads a
remembered prefix by digest; `LedgerBase.walked_before_append` and the team store's walk
(`postgres`) remember what they found.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class WalkedPrefix:
    """A chain this process walked and found intact: how many records, the last hash, and a
    SHA-256 of every row exactly as the store gave it (`feed_row`). A later check that reads
    the same bytes for those rows need not check them again."""

    count: int
    head: str
    digest: bytes


def feed_row(h: Any, cols: dict[str, Any], raw: Any) -> None:
    """One row into the prefix digest, unambiguously: the mirrored columns' repr (types
    included: a number stored where text was is another row) and the record's bytes, length
    first."""
    h.update(repr(tuple(cols.values())).encode("utf-8", "surrogatepass"))
    if isinstance(raw, bytes | bytearray | memoryview):
        b = bytes(raw)
        h.update(b"b%d:" % len(b))
        h.update(b)
    else:
        h.update(b"r" + repr(raw).encode("utf-8", "surrogatepass"))


class _Walks:
    """What this process has walked, per store (`LedgerBase._walk_key`): the decision panel
    opens a store for each decision, and a walk of the whole chain before each append cost
    ~0.7 s of CPU at 10,000 decisions on the window's thread (session 29). Only intact
    chains are remembered; a check that finds damage forgets the store."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: dict[str, WalkedPrefix] = {}

    def get(self, key: str) -> WalkedPrefix | None:
        with self._lock:
            return self._known.get(key)

    def put(self, key: str, value: WalkedPrefix | None) -> None:
        with self._lock:
            if value is None:
                self._known.pop(key, None)
            elif len(self._known) < 64 or key in self._known:
                self._known[key] = value

    def clear(self) -> None:
        with self._lock:
            self._known.clear()


WALKS = _Walks()
