"""Seed commitments (docs/DESIGN.md decision 9).

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
from typing import TypeGuard

import orjson

from moderator_app.core.rules import Finding, Severity, rule
from moderator_app.core.text import counted

COMMITMENT_UNMATCHED = rule(
    "seed.commitment_unmatched", Severity.ERROR,
    "A seed_commitment matches none of the supplied seeds with this run_id and secret.", "seed")
SEED_UNUSED = rule(
    "seed.unused", Severity.WARNING,
    "A supplied seed has no seed_commitment in the stream.", "seed")
SEED_LEAK = rule(
    "seed.leak", Severity.ERROR,
    "A raw seed appears in the stream: only commitments may be recorded.", "seed")
SECRET_LEAK = rule(
    "seed.secret_leak", Severity.ERROR,
    "The evaluator secret appears in the stream: whoever reads it can make commitments for "
    "any seed.", "seed")
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


def is_commitment(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and _HEX64.fullmatch(value) is not None


# What counts as a leak (docs/DECISIONS.md, "Seed leaks"). Short seeds (`42`, `7`) are
# everywhere in an honest run as scores, counters and sizes, so they count only where they
# are labelled as seeds; long ones are improbable by chance and count anywhere in text.
MIN_FREE_TEXT = 6  # a seed this long or longer is a leak as a whole token in any text
_WORD = rb"(?<![0-9A-Za-z_])(?:%s)(?![0-9A-Za-z_])"
# the word seed (or seeds), then at most 4 separators, then the seed: `--seed 42`,
# `seed=42`, `"seed": "42"`, `seeds: [42`
_LABELLED = rb"(?i:seeds?)[\s\"'=:,\[\]-]{0,4}(?:%s)(?![0-9A-Za-z_])"
# The evaluator secret (docs/DECISIONS.md, "Seed leaks"): a secret this long or longer is a
# leak as any substring of any text (it cannot be there by chance); a shorter one (at least
# MIN_FREE_TEXT) only as a whole token, and one shorter still is not searched (it would be
# found in honest text, and is guessable from the commitments anyway).
MIN_SECRET_TEXT = 8


def _alternatives(seeds: tuple[str, ...]) -> bytes:
    alts: set[bytes] = set()
    for s in seeds:
        alts.add(re.escape(s.encode("utf-8")))
        alts.add(re.escape(orjson.dumps(s)[1:-1]))
    longest_first = sorted(alts, key=len, reverse=True)
    return b"|".join(longest_first)


def _leak_patterns(seeds: tuple[str, ...]) -> tuple[re.Pattern[bytes] | None, re.Pattern[bytes]]:
    """(free-text pattern for the long seeds or None, labelled pattern for all seeds)."""
    long_ = tuple(s for s in seeds if len(s) >= MIN_FREE_TEXT)
    free = re.compile(_WORD % _alternatives(long_)) if long_ else None
    return free, re.compile(_LABELLED % _alternatives(seeds))


def _secret_pattern(secret: str | None) -> re.Pattern[bytes] | None:
    """The evaluator secret's spellings (its UTF-8 bytes and its JSON-escaped form), or None
    when it is not searched (see MIN_SECRET_TEXT)."""
    if not secret or len(secret) < MIN_FREE_TEXT:
        return None
    forms = _alternatives((secret,))
    return re.compile(forms if len(secret) >= MIN_SECRET_TEXT else _WORD % forms)


# Envelope members that cannot carry a seed the agent chose: hashes, counters, the timestamp
# (a seed `2026` would otherwise match every wall_time). The text members (`run_id`,
# `producer`, `trust_level`, `type`) are searched: a seed put there is still a leak.
_ENVELOPE = frozenset(("schema", "producer_sequence", "wall_time", "prev_hash", "hash"))
_SEED_WORD = re.compile(rb"(?i)seed")


def _may_hide(raw: bytes) -> bool:
    """Whether JSON escapes (`\\u0038` for `8`, `\\/` for `/`) could spell a seed that the
    byte search cannot see: then the parsed value must be searched."""
    return b"\\u" in raw or b"\\/" in raw


def _scalar_text(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return orjson.dumps(value).decode()
    return None


@dataclass
class SeedCheck:
    """Collects commitments while the stream is read, then judges them against the seeds; and
    spots raw seeds and the evaluator secret in the stream. `active`: seeds are checked;
    `scans`: lines must be searched for a leak (seeds, or the secret alone)."""

    seeds: tuple[str, ...] | None = None
    secret: str | None = field(default=None, repr=False)
    commitments: dict[str, int] = field(default_factory=dict)  # value -> first line
    leaks: int = 0

    def __post_init__(self) -> None:
        active = bool(self.seeds) and self.secret is not None
        self._active = active
        seeds = tuple(self.seeds or ())
        self._free: re.Pattern[bytes] | None
        self._labelled: re.Pattern[bytes] | None
        self._free, self._labelled = _leak_patterns(seeds) if active else (None, None)
        self._seed_index = {s: i for i, s in enumerate(seeds)}
        self._secret = _secret_pattern(self.secret)

    @property
    def active(self) -> bool:
        return self._active

    @property
    def scans(self) -> bool:
        return self._active or self._secret is not None

    def block_hit(self, block: bytes) -> bool:
        """Whether a seed or the secret may leak somewhere in `block` (then its lines are
        scanned one by one): a long seed's bytes, the word `seed` (a seed-bearing member or a
        labelled seed), the secret's bytes, or JSON escapes that could spell any of them. The
        C and the pure-Python block engines both ask this first."""
        if self._secret is not None and (self._secret.search(block) is not None
                                         or _may_hide(block)):
            return True
        if not self._active:
            return False
        return (_SEED_WORD.search(block) is not None or _may_hide(block)
                or (self._free is not None and self._free.search(block) is not None))

    def secret_leak(self, raw: bytes, event: dict | None) -> bool:
        """Whether the evaluator secret appears on this line: in any text of the event
        (member names, values, `run_id`, `producer`, `type`; JSON escapes decoded), or, on a
        line that is not an event, in its bytes. Like seeds, the envelope's hashes, counters
        and timestamp are not searched (an 8-hex-digit secret would be in some hash by
        chance). The secret is never part of the answer."""
        pattern = self._secret
        if pattern is None or (pattern.search(raw) is None and not _may_hide(raw)):
            return False
        if not isinstance(event, dict):
            return pattern.search(raw) is not None
        stack: list[object] = [v for k, v in event.items() if k not in _ENVELOPE]
        texts: list[str] = [k for k in event if k not in _ENVELOPE]
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                texts.extend(value)
                stack.extend(value.values())
            elif isinstance(value, list):
                stack.extend(value)
            else:
                text = _scalar_text(value)  # a number spelling a numeric secret too
                if text is not None:
                    texts.append(text)
        return any(pattern.search(t.encode("utf-8", "surrogatepass")) is not None
                   for t in texts)

    def scan_leak(self, raw: bytes, event: dict | None) -> int | None:
        """The 1-based number (in the seeds file) of a seed leaked on this line, or None.

        A leak is (1) a string or number value equal to a seed in a member whose name holds
        `seed` (any case), (2) a seed right after the word `seed` in any text, or (3) a seed
        of at least MIN_FREE_TEXT characters as a whole token in any text (member names
        included). The envelope's hashes, counters and timestamp are never searched."""
        if not self._active:
            return None
        if not isinstance(event, dict):  # an unparsed line: its bytes, by (2) and (3)
            return self._text_leak(raw)
        stack: list[tuple[object, bool]] = [
            (v, _SEED_WORD.search(k.encode("utf-8", "replace")) is not None)
            for k, v in event.items() if k not in _ENVELOPE]
        texts: list[str] = [k for k in event if k not in _ENVELOPE]
        while stack:
            value, bearing = stack.pop()
            if isinstance(value, dict):
                for k, v in value.items():
                    texts.append(k)
                    stack.append((v, bearing or _SEED_WORD.search(
                        k.encode("utf-8", "replace")) is not None))
            elif isinstance(value, list):
                stack.extend((v, bearing) for v in value)
            else:
                text = _scalar_text(value)
                if text is None:
                    continue
                if bearing and text in self._seed_index:
                    return self._seed_index[text] + 1
                if isinstance(value, str):
                    texts.append(value)
        for text in texts:
            found = self._text_leak(text.encode("utf-8", "surrogatepass"))
            if found is not None:
                return found
        return None

    def _text_leak(self, data: bytes) -> int | None:
        for pattern in (self._labelled, self._free):
            if pattern is None:
                continue
            m = pattern.search(data)
            if m is not None:
                return self._which(m.group())
        return None

    def _which(self, matched: bytes) -> int:
        text = matched.decode("utf-8", "replace")
        for s, i in sorted(self._seed_index.items(), key=lambda kv: -len(kv[0])):
            if text.endswith((s, orjson.dumps(s)[1:-1].decode("utf-8", "replace"))):
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
                f"{counted(len(self.commitments), 'seed commitment')} not checked (no seeds and "
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
