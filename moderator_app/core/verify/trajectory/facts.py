"""What travels between the stateless examination of lines and the stateful checker: the
facts of one line (`Facts`) and the summary of a block consistent in itself (`BlockSummary`).

Both are named tuples: they cross the pipe to the worker process (pickled), the pure-Python
block path builds `Facts` by the million straight from zipped columns (`make_facts`, no Python
call per line), and reading a field by name costs what reading it by index does.
"""

from __future__ import annotations

from functools import partial
from itertools import groupby
from typing import Any, Literal, NamedTuple

from moderator_app.core.rules import Rule

# `Facts.status`: the line is an event of the schema (every field below is meaningful), it
# could not be read as an event at all (only `found`), or it is an event of another schema
# (only the chain fields, `found` and `etype`).
OK, UNREADABLE, UNSUPPORTED = 0, 1, 2


class Extra(NamedTuple):
    """The rarer facts of a line: a score claim's payload, a seed commitment's value."""

    score_payload: dict | None = None
    commitment: Any = None


class Facts(NamedTuple):
    """Everything about one line that does not depend on other lines (see `examine_line`)."""

    status: int
    recorded: Any = None  # the `hash` member as found (a well-formed one when `hash_ok`)
    prev: Any = None  # the `prev_hash` member as found
    computed: str | None = None  # the recomputed hash, None when it cannot be computed
    hash_ok: bool = False  # both hashes are 64 lowercase hex characters
    found: list[tuple[Rule, str]] | None = None  # this line's findings, None when none
    producer: str = "?"
    trust: str | None = None
    etype: str = "?"
    seq: int | None = None
    t: float | None = None  # wall_time in epoch seconds, None when absent or malformed
    run_id: str | None = None
    extra: Extra | None = None
    spell: int | None = None  # `line_spelling(...)`; None: hash not intact, or check off


# A `Facts` from a tuple of its 14 fields, without the Python-level `__new__`.
make_facts = partial(tuple.__new__, Facts)


class ProducerSpan(NamedTuple):
    """One producer's events within a block."""

    name: str
    trust: str
    events: int
    first_index: int  # 0-based, within the block
    last_index: int
    first_seq: int
    last_seq: int
    first_t: float
    last_t: float


class BlockSummary(NamedTuple):
    """A block whose lines are all ordinary and consistent among themselves, in a few hundred
    bytes (`scan_block`); `TrajectoryChecker.apply_summary` checks how it joins the blocks
    before it."""

    events: int
    first_prev: str
    last_hash: str
    run_id: str
    producers: tuple[ProducerSpan, ...]
    t_min: float
    t_max: float
    t_start: float | None  # the first run_start's time
    t_end: float | None  # the last run_end's time
    spell: int | None  # None (check off) or `hint << SPELL_BITS | spellings every line has`
    # When no one spelling reproduces every line (`spell` has none: a writer nobody knows,
    # such as PHP's `\/`, or a line edited in place): each line's `spell` fact, as runs of
    # (lines, fact), which `TrajectoryChecker.apply_summary` applies as the line facts would.
    spell_runs: tuple[tuple[int, int], ...] | None = None


def spell_runs(values: list) -> tuple[tuple[int, int], ...]:
    """Each line's `spell` fact as runs of (lines, fact) (`BlockSummary.spell_runs`)."""
    first = values[0]
    if values.count(first) == len(values):  # a writer's whole block: one run
        return ((len(values), first),)
    return tuple((sum(1 for _ in g), v) for v, g in groupby(values))


# (length of the line without its `\n`, its facts) for each line of a block
LineFacts = list[tuple[int, Facts]]
# `scan_block`'s answer: ("s", a summary) or ("f", every line's facts); the driver's own
# ("b", lines, length) for a block of blank lines (`stream.blank_lines`)
Scan = (tuple[Literal["s"], BlockSummary] | tuple[Literal["f"], LineFacts]
        | tuple[Literal["b"], int, int])
