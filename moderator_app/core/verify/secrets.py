"""Things in a trajectory that look like secrets (docs/DESIGN.md decision 10): warnings with location.

The trajectory must hold no API keys, private keys or bearer tokens. We cannot know a secret
when we see one, so this is a heuristic: warnings, never errors. It runs on every line of a
300 MB stream, so each precompiled pattern runs only on lines that contain its
literal marker (a C-speed substring test), and it reports a redacted excerpt, never the
suspected secret itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# (literal marker, label, pattern). A line is searched with a pattern only when it holds the
# pattern's marker, so the usual line costs a handful of C-speed substring tests.
_PATTERNS = (
    (b"PRIVATE KEY", "private key block", rb"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----"),
    (b"sk-", "API key (sk-...)", rb"(?<![A-Za-z0-9])sk-(?:ant-|proj-|live-|test-)?"
                                 rb"[A-Za-z0-9_\-]{20,}"),
    (b"AKIA", "AWS access key id", rb"(?<![A-Z0-9])AKIA[0-9A-Z]{16}(?![0-9A-Z])"),
    (b"ghp_", "GitHub token", rb"ghp_[A-Za-z0-9]{30,}"),
    (b"github_pat_", "GitHub token", rb"github_pat_[A-Za-z0-9_]{22,}"),
    (b"xox", "Slack token", rb"xox[abposr]-[A-Za-z0-9\-]{10,}"),
    (b"AIza", "Google API key", rb"AIza[0-9A-Za-z_\-]{35}"),
    (b"hf_", "Hugging Face token", rb"(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}"),
    (b"earer", "bearer token", rb"[Bb]earer\s+[A-Za-z0-9._~+/\-]{20,}=*"),
)
_COMPILED = tuple((marker, label, re.compile(p)) for marker, label, p in _PATTERNS)


@dataclass(frozen=True, slots=True)
class SecretHit:
    """A suspected secret: what it looks like, where (1-based byte column), a redacted excerpt."""

    label: str
    column: int
    excerpt: str


def _redact(token: bytes) -> str:
    text = token.decode("utf-8", "replace")
    keep = 4 if len(text) > 12 else 2
    return text[:keep] + "…" + f"[{len(text)} chars]"


def scan_line(raw: bytes, limit: int = 3) -> list[SecretHit]:
    """Suspected secrets in one line (at most `limit`), by column; [] fast for a usual line."""
    hits: list[SecretHit] = []
    for marker, label, pattern in _COMPILED:
        if marker not in raw:
            continue
        for m in pattern.finditer(raw):
            hits.append(SecretHit(label, m.start() + 1, _redact(m.group())))
    hits.sort(key=lambda h: h.column)
    return hits[:limit]


MARKERS = tuple(marker for marker, _, _ in _PATTERNS)


# One rare two-byte piece of each marker (all but `earer`, whose pieces are common English):
# numpy compares a block against them as 16-bit words at both alignments, ~3x faster than
# nine substring searches. No piece present means no marker present; any piece present
# falls back to the exact substring tests.
_PIECES = (b"VA", b"k-", b"KI", b"hp", b"b_", b"xo", b"Iz", b"hf")
_NUMPY_MIN = 1 << 16
_codes = None


_EA, _RE = (int.from_bytes(p, "little") for p in (b"ea", b"re"))


def _pieces_absent(block: bytes) -> bool:
    """No rare piece, and no `ea` word followed by an `re` word (`earer` at an even or odd
    offset is one of these): numpy compares, ~2x faster than `b"earer" in block` (whose
    letters are common, so a substring search skips little)."""
    global _codes
    try:
        import numpy as np
    except ImportError:  # numpy comes with OpenCV; without it, the exact tests only
        return False
    if _codes is None:
        _codes = [np.uint16(int.from_bytes(p, "little")) for p in _PIECES]
    for off in (0, 1):
        words = np.frombuffer(block, np.uint16, count=(len(block) - off) // 2, offset=off)
        for code in _codes:
            if (words == code).any():
                return False
    for off in (0, 1):
        words = np.frombuffer(block, np.uint16, count=(len(block) - off) // 2, offset=off)
        ea = words[:-1] == _EA
        if ea.any() and (ea & (words[1:] == _RE)).any():
            return False
    return True


def markers_in(block: bytes) -> tuple[bytes, ...]:
    """The markers present anywhere in `block` (many lines): lines of a block without any
    need no scan at all."""
    if len(block) >= _NUMPY_MIN and _pieces_absent(block):
        return ()
    return tuple(m for m in MARKERS if m in block)
