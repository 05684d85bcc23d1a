"""The optional C accelerators, or None where they are not built.

`_jcs` (moderator_app/core/formats/_jcs.c, built by `make setup` through setup.py) checks each line of
a block as strict JSON, writes its RFC 8785 form and hashes the chain link in one pass; it
declines every line it is not sure of, which then takes the Python path that alone words
findings. `_skim` (`_skim.c`) does the same for the agent-log verifier: it consumes the run of
ordinary lines (requests and observations in order) that the checker would pass without a
finding, and stops at the first it cannot vouch for. `_unescape` (`_unescape.c`) decodes the
secrets readers' percent, character and `\\u` escape views (`secrets_decode`) and a line's
JSON escapes (`secrets.unescape_json`), byte for byte as the Python fallback does. Without a
C compiler the install still succeeds and the verifiers are only slower: the verdicts are the
same (tests run both paths).
`MODERATOR_APP_NATIVE=0` turns them off.
"""

from __future__ import annotations

import hashlib
import os
from types import ModuleType

# The `_jcs` build the Python side is written for (`ABI` in _jcs.c). A build older than its
# source (a checkout moved on without `make setup`, or `.venv/bin/moderator-app` run after a
# pull) returned 12 values where 13 were read: `verify` ended in an internal error. A build
# of another ABI is not used; the Python path gives the same verdicts.
JCS_ABI = 2


def load() -> ModuleType | None:
    if os.environ.get("MODERATOR_APP_NATIVE", "1") == "0":
        return None
    hashlib.sha256()  # OpenSSL's libcrypto is loaded: _jcs takes its SHA-256 from there
    try:
        from moderator_app.core.formats import _jcs  # type: ignore[attr-defined]  # C, no source
    except ImportError:
        return None
    return _jcs if getattr(_jcs, "ABI", None) == JCS_ABI else None


def load_skim() -> ModuleType | None:
    if os.environ.get("MODERATOR_APP_NATIVE", "1") == "0":
        return None
    try:
        from moderator_app.core.formats import _skim  # type: ignore[attr-defined]  # C, no source
    except ImportError:
        return None
    # A build older than its source (a checkout moved on without `make setup`) is not used:
    # its skim takes other arguments. The Python path gives the same verdicts.
    return _skim if hasattr(_skim, "Responses") else None


# The `_unescape` build `secrets_decode` is written for (`ABI` in _unescape.c). Bumped with
# each change of what a function returns, not only with a new function: 9e8f6c0's build and
# 0013efd's (a listed join's empty items) were both 7, so a stale build read lists the old way.
UNESCAPE_ABI = 22  # (17: `dump_next`, session 38 odc; 18: `esc_run`, session 39 mixed;
#  19: `dump_rows`, session 39 dumps; 20: `html_run`, session 40 speed; 21: `spelled_gate`,
#  session 41 speed; 22: `gate_open`, session 44 speed)


def load_unescape() -> ModuleType | None:
    if os.environ.get("MODERATOR_APP_NATIVE", "1") == "0":
        return None
    try:
        from moderator_app.core.formats import _unescape  # type: ignore[attr-defined]  # C, no source
    except ImportError:
        return None
    return _unescape if getattr(_unescape, "ABI", None) == UNESCAPE_ABI else None


JCS = load()
SKIM = load_skim()
UNESCAPE = load_unescape()
