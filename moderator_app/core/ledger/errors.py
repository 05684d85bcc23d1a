"""The ledger's errors, in one place below every store (claims and stores both raise them)."""

from __future__ import annotations


class LedgerError(Exception):
    """The ledger cannot be used (not a ledger, corrupt, unreadable, unreachable), or the
    record was refused. Never auto-repaired. The message never holds a credential."""


class LedgerPathError(LedgerError):
    """No ledger can be read at the store's path: it is a FIFO, a device, a socket, a
    directory where the ledger file should be, a symbolic link to nothing or a link loop, a
    path under a regular file; or the store names no usable place at all: an empty path
    (`--store ""`, which was the current folder), a NUL character, a connection address
    that is not a PostgreSQL one or cannot be parsed. Every `decisions` command (and
    `decide`, `claim`, `release`, `queue`) exits 2 on it, as for any input that cannot be
    read at all; `decisions verify` keeps 1 for a ledger it read and found not intact."""


class ClaimConflict(LedgerError):
    """The record would act on a submission someone else holds (or a claim you do not hold).
    Nothing was written. The message says who holds it until when, and how to override."""


class OutcomeUnknown(LedgerError):
    """The store went away while committing and could not be asked afterwards: the record
    may or may not be stored. Never reported as recorded, nor as refused."""
