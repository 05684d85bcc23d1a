"""The queue's report cache: an unchanged submission is never verified twice.

Two small tables in a private SQLite file (per user, in the cache directory):

- `seen`: stat fingerprint (see `scan`) and app version -> evidence digest. Listing an
  unchanged queue reads only this and `reports`: no submission byte is read.
- `reports`: evidence digest and cache key (the app version and the verify options) -> the
  report summary the queue shows. A submission whose files were touched, copied or renamed
  gets a new fingerprint, is digested again (reading its bytes, not verifying them), and
  finds its report by digest.

A newer app version misses every entry (its verifiers may judge differently), so what the
queue shows is always exactly what this version's `verify` gives. The cache is a copy of
results, never evidence: deleting it only costs time.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from moderator_app import __version__

CACHE_FILE = "queue-cache.sqlite3"
#: Part of the key: the verify options the queue uses (defaults, offset 0). Change it when
#: the queue starts verifying differently.
OPTIONS_KEY = "offset=0"


def cache_key() -> str:
    return f"{__version__}|{OPTIONS_KEY}"


_TEXT_OR_NONE = ("verification_level", "first_error_rule", "kind", "game", "category", "model",
                 "error")
_HEX64 = frozenset("0123456789abcdef")


def valid_summary(s: Any) -> bool:
    """Whether a cached value is a summary as `examine.summarise`/`unreadable` write it. A
    damaged row (an array, `{}`, a number where a count goes) was an internal error of the
    whole listing; it is now a miss, and the submission is verified again."""
    if not isinstance(s, dict) or s.get("verdict") not in ("pass", "fail", "unreadable"):
        return False
    for k in ("errors", "warnings"):
        if type(s.get(k)) is not int or s[k] < 0:
            return False
    line = s.get("first_error_line")
    if line is not None and type(line) is not int:
        return False
    if any(s.get(k) is not None and type(s[k]) is not str for k in _TEXT_OR_NONE):
        return False
    d = s.get("evidence_digest")
    return d is None or (type(d) is str and len(d) == 64 and _HEX64.issuperset(d))


def _private(path: Path) -> bool:
    """Whether an existing cache file is this user's and nobody else may write it: a cache
    others can write (a shared folder, a file planted there) could list any submission as
    passed, so it is not used (every submission is then verified)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return True
    return not (st.st_mode & 0o022) and (not hasattr(os, "getuid") or st.st_uid == os.getuid())


def default_cache_path() -> Path:
    import platformdirs

    return platformdirs.user_cache_path("moderator-app") / CACHE_FILE


class ReportCache:
    """Open (creating when needed) the cache at `path`. Any failure of the cache makes it a
    miss, never an error: the queue then verifies again."""

    def __init__(self, path: str | os.PathLike | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self.key = cache_key()
        self._conn: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            if not self.path.exists():
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
                os.close(fd)
            if not _private(self.path):
                return
            conn = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.executescript(
                "CREATE TABLE IF NOT EXISTS seen (fingerprint TEXT, key TEXT, digest TEXT "
                "NOT NULL, PRIMARY KEY (fingerprint, key));"
                "CREATE TABLE IF NOT EXISTS reports (digest TEXT, key TEXT, summary TEXT "
                "NOT NULL, PRIMARY KEY (digest, key));")
            self._conn = conn
        except (OSError, sqlite3.Error):
            self._conn = None  # no cache: everything is a miss

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> ReportCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _one(self, sql: str, params: tuple) -> Any:
        if self._conn is None:
            return None
        try:
            row = self._conn.execute(sql, params).fetchone()
        except sqlite3.Error:
            return None
        return row[0] if row else None

    def _put(self, sql: str, params: tuple) -> None:
        if self._conn is None:
            return
        with contextlib.suppress(sqlite3.Error):
            self._conn.execute(sql, params)

    def digest_for(self, fingerprint: str) -> str | None:
        return self._one("SELECT digest FROM seen WHERE fingerprint = ? AND key = ?",
                         (fingerprint, self.key))

    def summary(self, digest: str) -> dict[str, Any] | None:
        text = self._one("SELECT summary FROM reports WHERE digest = ? AND key = ?",
                         (digest, self.key))
        try:
            got = json.loads(text) if text else None
        except ValueError:
            return None
        return got if valid_summary(got) else None

    def remember(self, fingerprint: str, digest: str, summary: dict[str, Any] | None) -> None:
        if summary is not None:
            self._put("INSERT OR REPLACE INTO reports VALUES (?, ?, ?)",
                      (digest, self.key, json.dumps(summary, sort_keys=True)))
        self._put("INSERT OR REPLACE INTO seen VALUES (?, ?, ?)",
                  (fingerprint, self.key, digest))

    def remember_many(self, rows: list[tuple[str, str, dict[str, Any] | None]]) -> None:
        """`remember` each (fingerprint, digest, summary) in order, in one transaction. The
        queue's parent process writes what its workers found in batches: one commit per
        submission (each worker its own connection, opened and closed per submission, the
        close checkpointing the WAL) was 1.3 of the 1.9 ms a cached-by-digest submission
        cost (session 17)."""
        if self._conn is None or not rows:
            return
        key = self.key
        try:
            with self._conn:  # BEGIN ... COMMIT (rolled back on an error)
                self._conn.execute("BEGIN IMMEDIATE")
                for fingerprint, digest, summary in rows:
                    if summary is not None:
                        self._conn.execute("INSERT OR REPLACE INTO reports VALUES (?, ?, ?)",
                                           (digest, key, json.dumps(summary, sort_keys=True)))
                    self._conn.execute("INSERT OR REPLACE INTO seen VALUES (?, ?, ?)",
                                       (fingerprint, key, digest))
        except sqlite3.Error:
            return  # a cache that cannot be written is a miss next time, never an error

    def lookup_many(self, fingerprints: list[str]) -> dict[str, dict[str, Any]]:
        """fingerprint -> cached summary, for every fingerprint the cache knows (one query
        per table: a thousand cached submissions list in milliseconds)."""
        if self._conn is None or not fingerprints:
            return {}
        try:
            seen = dict(self._conn.execute(
                "SELECT fingerprint, digest FROM seen WHERE key = ?", (self.key,)).fetchall())
            wanted = {seen[f] for f in fingerprints if f in seen}
            reports = {d: s for d, s in self._conn.execute(
                "SELECT digest, summary FROM reports WHERE key = ?", (self.key,))
                if d in wanted}
        except sqlite3.Error:
            return {}
        out = {}
        for f in fingerprints:
            text = reports.get(seen.get(f, ""))
            if text:
                with contextlib.suppress(ValueError):
                    got = json.loads(text)
                    if valid_summary(got):
                        out[f] = got
        return out
