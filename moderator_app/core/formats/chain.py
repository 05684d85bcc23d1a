"""The hash-chain rule, shared by trajectories and the decision ledger.

    event.hash = SHA256(prev_hash || canonical_json(event_without_hash))

`prev_hash` enters as its 64-character lowercase hex text (ASCII); `event_without_hash` is the
event with only the `hash` member removed (`prev_hash` stays); the first event's `prev_hash`
is 64 zeros (docs/DESIGN.md decisions 2-3). The trajectory verifier may take a faster path for
the canonical bytes, but its hashes must equal `event_hash`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from moderator_app.core.formats.canonical import canonical_json

ZERO_HASH = "0" * 64


def event_hash(prev_hash: str, event_without_hash: dict[str, Any],
               canon: Callable[[Any], bytes] = canonical_json) -> str:
    """The rule above; `canon` another engine of the same bytes where a caller has a
    faster one (the ledger's walk: `chained._canonical`)."""
    return hashlib.sha256(prev_hash.encode("ascii") + canon(event_without_hash)).hexdigest()


def seal(event: dict[str, Any], prev_hash: str) -> dict[str, Any]:
    """A copy of `event` with `prev_hash` set and `hash` computed: the next link of a chain."""
    body = {k: v for k, v in event.items() if k != "hash"}
    body["prev_hash"] = prev_hash
    body["hash"] = event_hash(prev_hash, body)
    return body
