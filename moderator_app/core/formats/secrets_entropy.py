"""Whether a run of a key's alphabet reads as random (the reader's high-entropy rule, (c) of
`secrets_read`): moved out of `secrets_read` (session 44, redact), unchanged, so that
`secrets_glued` can ask it without an import cycle (`secrets` -> `secrets_glued` ->
`secrets_read` -> `secrets`); `secrets_read` imports it from here."""

from __future__ import annotations

import math
import re

# The null model of (c): the 1st percentile of the Shannon entropy (bits per character) of
# uniformly random strings over [A-Za-z0-9] of length 20, 21, ... 64 (4,000 draws each,
# seed 15; scripts in docs/rules-community.md). A key's random part reaches it 99 times in
# 100; camel-case identifiers and words repeat letters and stay under it (`getElementById2Async`
# 3.78 bits at 20 characters, the floor 3.62 ... `ControlLeftShiftLeft2` 3.50).
_FLOOR = (3.62, 3.69, 3.79, 3.83, 3.86, 3.94, 3.98, 4.03, 4.04, 4.09, 4.12, 4.2, 4.22, 4.23,
          4.28, 4.3, 4.33, 4.36, 4.38, 4.43, 4.43, 4.47, 4.51, 4.51, 4.56, 4.6, 4.6, 4.61,
          4.63, 4.67, 4.69, 4.69, 4.7, 4.73, 4.75, 4.77, 4.78, 4.8, 4.81, 4.82, 4.84, 4.86,
          4.88, 4.88, 4.91)
_MIN, _MAX = 20, 128


def _entropy(text: str) -> float:
    n = len(text)
    counts: dict[str, int] = {}
    for c in text:
        counts[c] = counts.get(c, 0) + 1
    return -sum(k / n * math.log2(k / n) for k in counts.values())


def _mixed(text: str, least: int = 2) -> bool:
    """Upper and lower case and 2+ digits (`secrets._random`'s rule, on text; `least`
    digits)."""
    digits = sum(c.isdigit() for c in text)
    return digits >= least and any(c.isupper() for c in text) and any(c.islower() for c in text)


def high_entropy(run: str, digits: int = 2, slack: float = 0.0) -> bool:
    """Whether `run` (a key's alphabet) reads as random: 20-128 characters, mixed (above), and
    its entropy per character at least the null model's floor for its length; the letters and
    digits alone are measured (`sk_live_`'s underscores and a base64 key's `+` / `/` are its
    frame). `digits`: the least count of digits (a glued family's key after its prefix asks
    none: `secrets_glued._random_part`); `slack`: bits under the floor still read as random
    (a key after a prefix no word spells: the floor alone misses 1 key in 100)."""
    if not _MIN <= len(run) <= _MAX:
        return False
    core = "".join(c for c in run if c.isalnum())
    if len(core) < _MIN or not _mixed(core, digits):
        return False
    return _entropy(core) >= _FLOOR[min(len(core), 64) - _MIN] - slack and not _words(run)


# A run's letter parts: split at case changes (`requestAnimationFrame60Hz`: request, Animation,
# Frame, Hz), digits and separators; one letter against a digit (`R1`, `32B`, `v0`, `P1`) is
# a version's or a size's mark, no part.
_PARTS = re.compile(r"(?<![0-9])[A-Za-z](?=[0-9])|(?<=[0-9])[A-Za-z](?![A-Za-z])"
                    r"|([A-Z]?[a-z]+|[A-Z]+(?![a-z]))")
_VOWELS = frozenset("aeiouyAEIOUY")


def _words(run: str) -> bool:
    """Whether `run` reads as words (an identifier, a model id, a package name), not random:
    80%+ of its parts' letters in parts of 3+ letters holding a vowel (or acronyms of 3-5
    capitals: `GGUF`), its parts 4+ letters long on average, and at most one mark more than parts
(`AKIAA1b2C3d4E5f6G7h8I9` is marks). Uniformly random keys over
    [A-Za-z0-9] read so 0.46% of the time at 20 characters, 0.07% at 32, 0.03% at 40, none
    of 20,000 at 64 (seed 15): the null model's miss rate grows by that.
    `Python3DotElevenVersion2024` 1.0 / 5.5, `DeepSeek-R1-Distill-Qwen-32B-GGUF` 1.0 / 4.6,
    `sizeEndCentDir64Locator` 1.0 / 4.2 (session 32's review of 5e90ce4)."""
    found = [m.group(1) for m in _PARTS.finditer(run)]
    parts = [p for p in found if p]
    letters = sum(len(p) for p in parts)
    if not parts or 4 * len(parts) > letters or len(found) > 2 * len(parts) + 1:
        return False
    worded = sum(len(p) for p in parts if len(p) >= 3 and (
        not _VOWELS.isdisjoint(p) or (p.isupper() and len(p) <= 5)))
    return 5 * worded >= 4 * letters
