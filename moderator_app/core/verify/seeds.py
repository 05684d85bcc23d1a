"""Seed commitments (DESIGN.md decision 9).

    seed_commitment = SHA256(seed || run_id || evaluator_secret)   (UTF-8 strings concatenated)

A trusted reviewer supplies the hidden seeds and the evaluator secret; each commitment in the
stream must then be explained by one seed, every seed should be used, and no raw seed may
appear anywhere in the stream. The secret is only ever an input to SHA-256 here: it is never
put in a message, a report, a log or a file, and neither are the raw seeds (seeds are named by
their line in the seeds file, so that a report can be shared).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

import orjson

from moderator_app.core.rules import Finding, Severity, rule

COMMITMENT_UNMATCHED = rule(
    "seed.commitment_unmatched", Severity.ERROR,
    "A seed_commitment matches none of the supplied seeds with this run_id and secret.", "seed")
SEED_UNUSED = rule(
    "seed.unused", Severity.WARNING,
    "A supplied seed has no seed_commitment in the stream.", "seed")
SEED_LEAK = rule(
    "seed.leak", Severity.ERROR,
    "A raw seed appears in the stream: only commitments may be recorded.", "seed")
NOT_CHECKED = rule(
    "seed.not_checked", Severity.INFO,
    "The stream carries seed commitments; run with --seeds and the evaluator secret to check "
    "them.", "seed")
COMMITMENT_FORMAT = rule(
    "seed.commitment_format", Severity.ERROR,
    "A seed_commitment is not 64 lowercase hex characters.", "seed")

_HEX64 = re.compile(r"[0-9a-f]{64}")


def commitment(seed: str, run_id: str, secret: str) -> str:
    """The commitment of a seed: lowercase hex SHA-256 of the UTF-8 concatenation."""
    return hashlib.sha256((seed + run_id + secret).encode("utf-8")).hexdigest()


def is_commitment(value: object) -> bool:
    return isinstance(value, str) and _HEX64.fullmatch(value) is not None


def _leak_pattern(seeds: tuple[str, ...]) -> re.Pattern[bytes] | None:
    """One regex for every seed, as raw UTF-8 and as a JSON string body would spell it, bounded
    so that seed `42` does not match inside `1423` (it still matches a bare `42` value)."""
    alts = set()
    for s in seeds:
        alts.add(re.escape(s.encode("utf-8")))
        alts.add(re.escape(orjson.dumps(s)[1:-1]))
    if not alts:
        return None
    body = b"|".join(sorted(alts, key=len, reverse=True))
    return re.compile(rb"(?<![0-9A-Za-z_])(?:" + body + rb")(?![0-9A-Za-z_])")


# Envelope members that cannot carry a seed the agent chose: hashes, counters, the timestamp
# (a seed `2026` would otherwise match every wall_time). The text members (`run_id`,
# `producer`, `trust_level`, `type`) are searched: a seed put there is still a leak.
_ENVELOPE = frozenset(("schema", "producer_sequence", "wall_time", "prev_hash", "hash"))


def _may_hide(raw: bytes) -> bool:
    """Whether JSON escapes (`\\u0038` for `8`, `\\/` for `/`) could spell a seed that the
    byte search cannot see: then the parsed value must be searched."""
    return b"\\u" in raw or b"\\/" in raw


@dataclass
class SeedCheck:
    """Collects commitments while the stream is read, then judges them against the seeds."""

    seeds: tuple[str, ...] | None = None
    secret: str | None = field(default=None, repr=False)
    commitments: dict[str, int] = field(default_factory=dict)  # value -> first line
    leaks: int = 0

    def __post_init__(self) -> None:
        active = bool(self.seeds) and self.secret is not None
        self._leak = _leak_pattern(tuple(self.seeds or ())) if active else None
        self._seed_index = {s: i for i, s in enumerate(self.seeds or ())}

    @property
    def active(self) -> bool:
        return self._leak is not None

    def block_hit(self, block: bytes) -> bool:
        """Whether a seed may appear anywhere in `block` (then its lines are scanned)."""
        return self._leak is not None and (self._leak.search(block) is not None
                                           or _may_hide(block))

    def scan_leak(self, raw: bytes, event: dict | None) -> int | None:
        """The 1-based number (in the seeds file) of a seed leaked on this line, or None."""
        if self._leak is None:
            return None
        m = self._leak.search(raw)
        if m is None and not (isinstance(event, dict) and _may_hide(raw)):
            return None
        if isinstance(event, dict):  # confirm outside the envelope (hashes, counters)
            rest = orjson.dumps({k: v for k, v in event.items() if k not in _ENVELOPE})
            m = self._leak.search(rest)
            if m is None:
                return None
        found = m.group().decode("utf-8", "replace")
        for s, i in self._seed_index.items():
            if found in (s, orjson.dumps(s)[1:-1].decode("utf-8", "replace")):
                return i + 1
        return 0

    def add(self, value: object, line: int, file: str | None = None) -> Finding | None:
        if not is_commitment(value):
            return COMMITMENT_FORMAT.at(
                f"seed_commitment is not 64 lowercase hex characters: {str(value)[:80]!r}",
                file, line)
        self.commitments.setdefault(value, line)
        return None

    def judge(self, run_id: str | None, file: str | None) -> list[Finding]:
        """Findings once the whole stream is read. Never mentions the secret or a seed's text."""
        if not self.commitments and not self.active:
            return []
        if not self.active:
            return [NOT_CHECKED.at(
                f"{len(self.commitments)} seed commitment(s) not checked (no seeds and "
                "evaluator secret given)", file, None)]
        out: list[Finding] = []
        expected = {commitment(s, run_id or "", self.secret or ""): i
                    for i, s in enumerate(self.seeds or ())}
        used: set[int] = set()
        for value, line in sorted(self.commitments.items(), key=lambda kv: kv[1]):
            i = expected.get(value)
            if i is None:
                out.append(COMMITMENT_UNMATCHED.at(
                    f"seed_commitment {value[:12]}… matches none of the "
                    f"{len(self._seed_index)} supplied seeds for run_id {run_id!r}", file, line))
            else:
                used.add(i)
        for i in self._seed_index.values():
            if i not in used:
                out.append(SEED_UNUSED.at(
                    f"seed #{i + 1} of the seeds file has no seed_commitment in the stream",
                    file, None))
        return out

    def summary(self) -> dict:
        return {"commitments": len(self.commitments), "checked": self.active}
