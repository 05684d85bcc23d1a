"""Archives inside an official submission, looked into for an agent log (issue 15, point 1).

The chain has no key: a failing community run given a self-made `events.jsonl` is refused as
ambiguous when its agent log sits beside it (`input.ambiguous_kind`). Session 26's hostile
sweep put the log one step out of sight instead, in a `logs.zip` beside the trajectory: the
nested archive was an "other file", never opened, and the run passed as `validated`. So an
official submission's nested archives are listed, one level down, by the same reader as a
submitted archive (its caps and refusals); an agent log found there, or an archive that cannot
be listed whole (unreadable, capped, too large, a format this tool does not open, an archive
inside it, a compressed `.jsonl`), makes the submission ambiguous: it cannot pass. Only names
are read, never the members' contents.

A nested `.tar.xz` or `.tar.bz2` (whose decompressors come with Python) is listed too, since
session 27: it gave a false FAIL for an honest official run carrying, say, its screenshots
so packed. What it decompresses to is capped (MAX_NESTED_UNPACKED) and so is the xz
decoder's memory (a header may ask for a 1.5 GiB dictionary): a bomb or a greedy header ends
as "cannot be listed whole", ambiguous as before. `.7z`, `.rar` and the rest stay unopened:
the run cannot pass, and the message names the format and the ones that would be looked into.
"""

from __future__ import annotations

import bz2
import io
import lzma
import shutil
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from moderator_app.core.errors import InputError
from moderator_app.core.formats.members import (
    AGENT_LOG_NAME,
    ARCHIVE_SUFFIXES,
    ROLE_LOG,
    ROLE_OTHER,
    Member,
)
from moderator_app.core.formats.submission import Submission, local_copy
from moderator_app.core.formats.zstream import BOMB_RATIO
from moderator_app.core.text import visible_form

# Archives and compressors this tool does not open: what they hold cannot be known.
UNOPENED = {".tar.lz4": "LZ4 tar", ".7z": "7-Zip", ".rar": "RAR", ".cpio": "cpio", ".ar": "ar"}
UNOPENED_SUFFIXES = tuple(UNOPENED)
# Compressed tars listed by name through Python's own decompressors (not in ARCHIVE_SUFFIXES:
# a submitted `.tar.xz` itself is still refused as unsupported).
PACKED_TARS = {".tar.xz": "xz", ".txz": "xz", ".tar.bz2": "bz2", ".tbz": "bz2", ".tbz2": "bz2"}
MAX_NESTED_UNPACKED = 2 << 30  # decompressed bytes read to list one such archive
_XZ_MEMLIMIT = 128 << 20  # the xz decoder's memory (`xz -9` needs 65 MiB)
_CHUNK = 1 << 16  # compressed bytes read at a time
# A nested archive that expands more than BOMB_RATIO times past this many bytes is a bomb:
# listing names needs its whole stream, and 2 GiB of bzip2'd zeros took 31-39 s (s28 hostile
# sweep). Honest nested archives (screenshots, notes) expand 1-20 times.
_NESTED_BOMB_FLOOR = 64 << 20
COMPRESSED_SUFFIXES = (".gz", ".zst", ".xz", ".bz2", ".lz4", ".br", ".lzma", ".z")
# A nested archive larger than this is not copied out to be listed (it cannot pass either),
# nor are more than MAX_NESTED archives listed (10,000 small zips: one listing each).
MAX_NESTED_BYTES = 1 << 30
MAX_NESTED = 16


def _archive_suffix(base: str) -> str | None:
    return next((s for s in sorted((*ARCHIVE_SUFFIXES, *PACKED_TARS), key=len, reverse=True)
                 if base.endswith(s)), None)


def _unopened_kind(base: str) -> str:
    """What a moderator calls the unopened format (s27 open item: `.7z` / `.rar` stay
    unopened, and the message says which format and why, not only "ambiguous")."""
    return next(f"{v}: no reader for it comes with this tool" for k, v in UNOPENED.items()
                if base.endswith(k))


def _hidden_log(base: str) -> bool:
    """A compressed `.jsonl` (`agent-log.jsonl.gz`): a log this tool does not read."""
    for suffix in COMPRESSED_SUFFIXES:
        if base.endswith(suffix):
            return base[: -len(suffix)].endswith((".jsonl", ".json"))
    return False


def read_form(name: str) -> str:
    """`name` as a person reads it: invisible characters gone, compatibility forms folded
    (NFKC: full-width `ａｇｅｎｔ－ｌｏｇ．ｊｓｏｎｌ` and the one-dot leader read ASCII), every
    dash (U+2010, U+2212, ...) a hyphen, case folded. s28 hostile sweep: a failing log named
    in full-width letters, or with U+2010 for its hyphen, beside a self-made chain passed."""
    folded = unicodedata.normalize("NFKC", visible_form(name))
    return "".join("-" if c == "\u2212" or unicodedata.category(c) == "Pd" else c
                   for c in folded).casefold()


def named_like_log(base: str) -> bool:
    """A name that reads `agent-log.` something (`read_form`): `agent-log.jsonl` + U+200B,
    `agent-log.jsonl.txt`, `Agent-Log.bak` (s27 hostile sweep: each passed beside a
    self-made chain). The official harness writes no such file."""
    return read_form(base).startswith(AGENT_LOG_NAME.split(".")[0] + ".")


def nested_problems(sub: Submission, workdir: Path | None) -> Iterator[tuple[str, str]]:
    """(member name, why it makes the run ambiguous) for each nested archive or compressed
    log of `sub` (members whose role is `other`) that may hold community evidence."""
    listed = 0
    for member in sub.by_role(ROLE_OTHER):
        base = read_form(member.basename)  # `logs.zip` + U+200B is a zip too, as `logs．zip`
        suffix = _archive_suffix(base)
        if suffix is not None and listed >= MAX_NESTED:
            yield member.name, (f"{member.name} is one archive more than the {MAX_NESTED} "
                                "nested archives this tool looks into: it may hold an agent log")
            return
        if suffix is None:
            if base.endswith(UNOPENED_SUFFIXES):
                yield member.name, (f"{member.name} is an archive this tool does not open "
                                    f"({_unopened_kind(base)}): what it holds (an agent "
                                    "log?) cannot be checked; repacked as .zip, .tar.gz, "
                                    ".tar.xz or .tar.bz2 it would be looked into")
            elif _hidden_log(base):
                yield member.name, (f"{member.name} is a compressed log this tool does not "
                                    "read: it may be the run's agent log")
            elif named_like_log(base):
                yield member.name, (f"{member.name} is named like the agent log "
                                    f"({AGENT_LOG_NAME}): it may be the run's agent log")
            continue
        listed += 1
        why = _look_into(member, suffix, workdir)
        if why is not None:
            yield member.name, why


def _look_into(member: Member, suffix: str, workdir: Path | None) -> str | None:
    from moderator_app.core.formats.archive import open_archive

    if member.size > MAX_NESTED_BYTES and not (
            member.local_path is not None and member.local_path.name.lower().endswith(suffix)):
        return (f"{member.name} is an archive of {member.size} bytes, too large to be looked "
                "into: it may hold an agent log")
    copied: Path | None = None
    try:
        if member.local_path is not None and member.local_path.name.lower().endswith(suffix):
            path = member.local_path
        else:
            copied = local_copy(member, workdir)
            path = copied.with_name("member" + suffix)
            copied.rename(path)
            copied = path
        if suffix in PACKED_TARS:
            from moderator_app.core.formats.archive import list_tar_stream

            kind = PACKED_TARS[suffix]
            inner, findings = list_tar_stream(path, lambda p: _Unpacked(p, kind))
        else:
            inner, findings = open_archive(path)
    except (OSError, InputError) as exc:
        return (f"{member.name} is an archive that cannot be listed ({exc}): it may hold an "
                "agent log")
    finally:
        if copied is not None:
            shutil.rmtree(copied.parent, ignore_errors=True)
    logs = [m.name for m in inner if m.role == ROLE_LOG]
    if logs:
        return f"{member.name} holds an agent log ({logs[0]})"
    deeper = [m.name for m in inner if _archive_suffix(m.basename.lower()) is not None
              or m.basename.lower().endswith(UNOPENED_SUFFIXES) or _hidden_log(
                  m.basename.lower())]
    if deeper:
        return (f"{member.name} holds {deeper[0]}, an archive or compressed log not looked "
                "into: it may hold an agent log")
    capped = [f.message for f in findings]  # a member refused (encrypted, a link...) or a cap
    if capped:
        return f"{member.name} could not be listed whole ({capped[0]}): it may hold an agent log"
    return None


class _Unpacked(io.RawIOBase):
    """The decompressed bytes of a `.tar.xz` / `.tar.bz2` (concatenated streams too), ending
    as an OSError past MAX_NESTED_UNPACKED bytes or on damaged data (which the tar listing
    reports as "cannot be read past N members", so the archive is not listed whole).

    Its own loop over the public decompressor objects, as `lzma.open` reads (a new
    decompressor at each stream's end; bytes after the last stream that start no stream are
    ignored): session 27 borrowed the stdlib's private `_compression.DecompressReader`, which
    Python 3.14 moved to `compression._common`, so an upgrade would have ended the verify
    with an ImportError traceback (s28 hostile sweep)."""

    def __init__(self, path: Path, kind: str) -> None:
        self._fh = open(path, "rb")  # noqa: SIM115 - closed with this reader
        self._xz = kind == "xz"
        self._dec = self._decompressor()
        self._total = 0
        self._ended = False

    def _decompressor(self) -> lzma.LZMADecompressor | bz2.BZ2Decompressor:
        return lzma.LZMADecompressor(memlimit=_XZ_MEMLIMIT) if self._xz else \
            bz2.BZ2Decompressor()

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        want = size if size is not None and size >= 0 else 1 << 20
        try:
            data = self._next(want) if want else b""
        except (lzma.LZMAError, EOFError, MemoryError) as exc:
            raise OSError(f"damaged or too demanding compressed data ({exc})") from None
        self._total += len(data)
        if self._total > MAX_NESTED_UNPACKED:
            raise OSError(f"more than {MAX_NESTED_UNPACKED} bytes once decompressed")
        read = self._fh.tell()
        if self._total > _NESTED_BOMB_FLOOR and self._total > BOMB_RATIO * max(read, 1):
            raise OSError(f"{self._total} bytes decompressed from {read} (more than "
                          f"{BOMB_RATIO} times): a decompression bomb, not read further")
        return data

    def _next(self, want: int) -> bytes:
        while not self._ended:
            if self._dec.eof:
                raw = self._dec.unused_data or self._fh.read(_CHUNK)
                if not raw:
                    self._ended = True
                    break
                self._dec = self._decompressor()
                try:
                    data = self._dec.decompress(raw, want)
                except (lzma.LZMAError, OSError):  # trailing bytes that start no stream
                    self._ended = True
                    break
            else:
                raw = self._fh.read(_CHUNK) if self._dec.needs_input else b""
                if self._dec.needs_input and not raw:
                    raise EOFError("the compressed data ends before its stream does")
                data = self._dec.decompress(raw, want)
            if data:
                return data
        return b""

    def close(self) -> None:
        self._fh.close()
        super().close()
