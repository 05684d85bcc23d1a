"""The integrity scan's cache: the decoded signals of a video, by its SHA-256, in the user's
cache folder (or `$MODERATOR_APP_CACHE`), and one decode per video at a time in a process.

Apart from scan.py (what the signals mean): the workstation's scan, its sync analysis and the
CLI's `--scan` share one decode of a file through it; anything in the folder that is not what
`store` wrote is a miss (a planted or damaged file stands for no video).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import threading
from pathlib import Path

import numpy as np

from .signals import pack_arrays, unpack_arrays

CACHE_VERSION = 12  # the cached arrays (2: + sync_tiles, 3: + hole_span_motion, 4: joined
# recordings' timestamps shifted, + splice_pts/splice_back, 5: their sound shifted too,
# 6: + chroma_changed/chroma_tiles, 7: B-frame reordering no restart: `index.reorder_ticks`,
# 8: and the joined Matroska recordings' own: `joined_headers.joined_reorder`, 9: a guessed
# decode time going back with its pts within that window is no restart: `Timeline._later`,
# 10: the window's edge in it, 11: a picture the decoder gives again at its drain dropped,
# `signals._given_again`, 12: a guessed decode time going on at a restart: `Timeline._restarts`);
# a bump rebuilds old caches


def cache_root() -> Path:
    env = os.environ.get("MODERATOR_APP_CACHE")
    if env:
        return Path(env) / "video-scan"
    from platformdirs import user_cache_dir
    return Path(user_cache_dir("moderator-app")) / "video-scan"


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def cache_key(path: Path, sha: str) -> str:
    """The cache's key for a video: its SHA-256, tagged for an Ogg file (its first bytes
    "OggS"): since session 18 the scan dates an Ogg Theora stream by its pages' granules
    and says where its frames are missing (ogg_theora.py); arrays cached before did not. A tag rather than a
    version bump: every other file's cache stays valid (1.1 GB of the corpus' scans). Tagged
    `.mkvj27s` for a Matroska file of recordings joined (`matroska_joins`: a walk of its top
    level, no decoding): since session 27 the second one may be read from its own header
    (`joined_chain.own_read`: other encoder settings, `.mkvj27`; then another picture size
    too, `.mkvj27s`; then another clock, another TimecodeScale, `.mkvj29`: `rescaled`; then a clock
    that starts far later, `.mkvj29b`: `origin_shift`; then such clocks read from the
    header's Duration as the end and chained over three recordings or more, `.mkvj30`), and
    arrays cached before decoded it with the first's (or read its times 10x off). Tagged `.mp4j28b`
    for a fragmented MP4 of recordings joined (`mp4_joins`): since session 28 each is read
    from its own header (`joined_chain.mp4_own`), and arrays cached before lost the first
    fragment of each (and `.mp4j28`, written for an hour of session 28, lost the first
    recording's last second of sound: `joined_chain.demux`; `.mp4j28a` left a recording of
    another time base, another frame rate, to the whole file's demuxer: `rescaled`). Both
    tagged `.mkvj30` / `.mp4j30` since session 30: the scan notes where a recording's clock
    was moved (`scan_clocks.MovedClocks`), which arrays cached before do not hold. `.mp4j31`
    since session 31: a fragmented MP4 recording's end is read from its last packets
    (`joined_clock._last_packets_end`), and arrays cached before placed a far-later clock's
    recording after a false gap (a join of 30 s + 3600 s cached by session 30: 35.0 s, fresh
    5.0 s)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(8)
    except OSError:
        head = b""
    if head[:4] == b"OggS":
        return f"{sha}.ogg2"
    if head[:4] == b"\x1a\x45\xdf\xa3":
        from .joined_headers import matroska_joins
        if matroska_joins(str(path), 1):
            return f"{sha}.mkvj30"
    if head[4:8] == b"ftyp":
        from .joined_headers import mp4_joins
        if mp4_joins(str(path), 1):
            return f"{sha}.mp4j31"
    return sha


def cache_file(sha: str) -> Path:
    return cache_root() / f"{sha}.v{CACHE_VERSION}.npz"


# The cached arrays that run in step: each group's arrays have one length (frames, packets,
# audio stretches, holes, splices), and every array is numbers.
_IN_STEP = (("pts", "luma", "motion", "luma_max", "changed", "tiles", "sync_tiles", "size",
             "chroma_changed", "chroma_tiles"),
            ("packet_pts", "packet_dts", "packet_size", "packet_key"),
            ("audio_start", "audio_end"), ("hole_pts", "hole_span_motion"),
            ("splice_pts", "splice_back"))
_META = frozenset(("time_base", "audio_rate", "envelope_s", "has_audio"))


def load_cached(sha: str) -> tuple[dict, dict] | None:
    """The cached arrays and meta, or None: a miss, and the video is decoded again. Anything
    but what `store` writes is a miss, never an error (a truncated or empty file was an
    internal error, exit 2): a file that is not a regular file of this user's or that others
    may write (a shared MODERATOR_APP_CACHE, a file planted there: it would stand for the
    scan of any video with that SHA-256), one that cannot be read as the arrays, or arrays
    out of step. A file this user wrote is trusted as the user's own (docs/DECISIONS.md)."""
    f = cache_file(sha)
    try:
        fd = os.open(f, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o022 or (
                    hasattr(os, "getuid") and st.st_uid != os.getuid()):
                return None
            arrays = unpack_arrays(fh.read())
        meta = json.loads(arrays.pop("meta").tobytes().decode())
        if not (isinstance(meta, dict) and meta.keys() >= _META):
            return None
        for group in _IN_STEP:
            if len({arrays[k].shape[:1] for k in group}) != 1 or arrays[group[0]].ndim < 1:
                return None
        if any(a.dtype.kind not in "biuf" for a in arrays.values()):
            return None
        return arrays, meta
    except Exception:  # noqa: BLE001 - any damage (BadZipFile, EOFError, KeyError...) is a miss
        return None


def store(sha: str, arrays: dict, meta: dict) -> None:
    f = cache_file(sha)
    try:
        f.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        blob = pack_arrays(dict(arrays, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8)))
        tmp = f.with_name(f.name + f".{os.getpid()}.tmp")
        # 0600 whatever the umask: `load_cached` ignores a file others may write
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            if hasattr(os, "fchmod"):  # (Windows: no group bits to clear)
                os.fchmod(fh.fileno(), 0o600)
            fh.write(blob)
        os.replace(tmp, f)
    except OSError:
        pass  # a cache that cannot be written only costs time


_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def sha_lock(sha: str) -> threading.Lock:
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(sha, threading.Lock())
