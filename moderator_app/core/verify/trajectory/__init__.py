"""Verifying an official run: the hash chain of `events.jsonl(.zst)` and the event rules.

docs/DESIGN.md decisions 1-11, in one pass over the stream (flat memory, one read of each byte):

* every line is parsed strictly (one JSON object, valid UTF-8, no repeated member);
* every hash is recomputed as `SHA256(prev_hash || canonical_json(event_without_hash))`;
* each chain break is located and classified: an event whose own hash does not recompute was
  **edited**; an event that recomputes but whose `prev_hash` is not the previous event's hash
  marks a **link** break (a deletion, insertion or reordering just before it). Verification
  goes on; the report names the first break. The link is checked against both the recorded
  and the recomputed hash of the previous readable event, so one edit is reported once, at
  its own line, instead of again at the next line;
* envelope rules (schema, types, per-producer sequence, one run_id, trust levels, who may
  publish an `eval_result`), wall-time warnings, seed commitments and a secrets scan.

Speed: where it is built, the C accelerator (`_jcs.c`, see `native`) does the per-line work in
one pass and sums up whole blocks (`_native_summary`, `_native_columns`), declining every line
it is not sure of to `examine_line`; the rest of this docstring is the pure-Python engine, which
gives the same reports (the tests run both). RFC 8785 in pure Python costs ~200 us per 1.5 KB
event. For a line that is exactly
orjson's compact form (true of orjson/serde writers), `orjson.dumps(event, OPT_SORT_KEYS)` *is*
the canonical form unless the line holds a float whose orjson spelling differs from the
ECMAScript one (`56.0`, `1e+16`), an integer of 16+ digits, or a character outside the Basic
Multilingual Plane (keys then sort differently in UTF-16). A byte-level regex finds those
lines, which take `canonical_json_fast` (orjson with ECMAScript number fragments and UTF-16
member order); tests hold both to the reference `canonical_json`.

Blocks of ~1 MiB are checked column by column (`_block_columns`): one orjson parse of the
block, set-of-types checks, one hex decode. A "plain" event (the ten envelope members, a flat
payload without floats, no member name outside the BMP) needs no walk: its sorted dump
without `hash` is its canonical form, and that dump being exactly 74 bytes (the `hash` member)
shorter than the line proves no member was repeated (every token of a float-free line is
spelled at least as long as orjson spells it, so a dropped duplicate shows as a shorter dump).
A block consistent in itself travels as a summary of a few hundred bytes (`scan_block`),
applied by `TrajectoryChecker.apply_summary` after checking how it joins the blocks before;
anything else is applied line by line from `examine_line`'s facts, which alone word findings
(tests/verify/test_trajectory_perf.py holds the two to the same report). Blocks alternate between
this process and a worker process (`spawn`) for inputs of 8 MB and more.

The package, by concern (each module's docstring says more):

* `rules`: every rule id this verifier emits, and the schema's constants;
* `walltime`: `wall_time` parsing; `canonical_event`: the bytes a hash covers;
* `spelling`: which serialisers spell a line's bytes (`chain.respelled`);
* `line`: one line to its facts (`examine_line`, the reference path, the only one that words
  findings); `columns` and `native_blocks`: a whole block at once, by orjson or by the C
  accelerator; `blocks`: picks between them;
* `checker`: `TrajectoryChecker`, the stateful pass from facts to findings and report sections;
* `stream`: `check_stream`/`verify_trajectory`, the driver; `worker`: the second process.
"""

from __future__ import annotations

from moderator_app.core.verify.trajectory.blocks import examine_block, scan_block
from moderator_app.core.verify.trajectory.canonical_event import (
    FloatSpelling,
    canonical_bytes,
    event_canonical,
    fast_path_ok,
)
from moderator_app.core.verify.trajectory.checker import TrajectoryChecker
from moderator_app.core.verify.trajectory.facts import (
    OK,
    UNREADABLE,
    UNSUPPORTED,
    BlockSummary,
    Extra,
    Facts,
    ProducerSpan,
)
from moderator_app.core.verify.trajectory.line import LineContext, examine_line
from moderator_app.core.verify.trajectory.rules import SCHEMA
from moderator_app.core.verify.trajectory.spelling import (
    SPELL_ALL,
    SPELL_BITS,
    SPELL_JCS,
    SPELL_NAMES,
    SPELL_ORJSON,
    SPELL_ORJSON_SORTED,
    line_spelling,
    spelling_check_default,
    spelling_mask,
    spelling_names,
)
from moderator_app.core.verify.trajectory.stream import BLOCK, check_stream, verify_trajectory
from moderator_app.core.verify.trajectory.walltime import parse_wall_time
from moderator_app.core.verify.trajectory.worker import PARALLEL_MIN_BYTES

__all__ = [
    "BLOCK", "OK", "BlockSummary", "Extra", "Facts", "FloatSpelling", "ProducerSpan", "PARALLEL_MIN_BYTES", "SCHEMA", "SPELL_ALL", "SPELL_BITS", "SPELL_JCS",
    "SPELL_NAMES", "SPELL_ORJSON", "SPELL_ORJSON_SORTED", "UNREADABLE", "UNSUPPORTED",
    "LineContext", "TrajectoryChecker", "canonical_bytes", "check_stream", "event_canonical",
    "examine_block", "examine_line", "fast_path_ok", "line_spelling", "parse_wall_time",
    "scan_block", "spelling_check_default", "spelling_mask", "spelling_names",
    "verify_trajectory",
]
