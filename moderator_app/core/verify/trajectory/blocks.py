"""A block of whole lines to facts or a summary: the C accelerator where built, else orjson
columns, else line by line; all three give the same facts."""

from __future__ import annotations

from moderator_app.core.formats import native
from moderator_app.core.verify.trajectory.columns import Columns, block_columns
from moderator_app.core.verify.trajectory.facts import LineFacts, Scan
from moderator_app.core.verify.trajectory.line import LineContext, examine_line, split_lines
from moderator_app.core.verify.trajectory.native_blocks import native_columns, native_summary


def examine_block(block: bytes, ctx: LineContext) -> LineFacts:
    """(length, facts) for each `\\n`-terminated line of `block` (the last line may lack its
    `\\n`), the same as `examine_line` on each line.

    Most blocks are entirely ordinary; `block_columns` proves that with whole-block C-level
    operations (one parse of the block as a JSON array, set-of-types checks, one hex decode)
    and only then skips the per-line checks. Anything unusual sends the block, or the line,
    through `examine_line`, which alone words findings."""
    cols = columns_of(block, ctx)
    if cols is not None:
        return cols.facts(ctx)
    return [(len(raw), examine_line(raw, ctx)) for raw in split_lines(block)]


def scan_block(block: bytes, ctx: LineContext, summary: bool = True) -> Scan:
    """`("s", summary)` for a block whose lines are all ordinary and consistent among
    themselves (the hashes recompute, each links to the one before, one run_id, each
    producer's sequence increasing and clock not going back, one trust level each): a few
    hundred bytes instead of a tuple per line, applied by `TrajectoryChecker.apply_summary`,
    which checks how the block joins what came before. Otherwise `("f", examine_block(...))`.
    """
    if summary and native.JCS is not None:
        got = native_summary(block, ctx, native.JCS)
        if got is not None:
            return ("s", got)
    if type(block) is not bytes:  # a view of the worker's shared slot: the summary did not do
        block = bytes(block)
    cols = columns_of(block, ctx)
    if cols is None:
        return ("f", [(len(raw), examine_line(raw, ctx)) for raw in split_lines(block)])
    if summary:
        got = cols.summary()
        if got is not None:
            return ("s", got)
    return ("f", cols.facts(ctx))


def columns_of(block: bytes, ctx: LineContext) -> Columns | None:
    """The block's columns by the C accelerator where it is built, else by orjson (then
    blocks of a few lines go line by line: the columns would not pay for themselves)."""
    if native.JCS is not None:
        return native_columns(block, ctx, native.JCS)
    lines = split_lines(block)
    return block_columns(block, lines, ctx) if len(lines) > 8 else None
