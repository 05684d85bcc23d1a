"""One line to its facts: the reference path every other path must agree with, and the only
one that words findings (stateless: runs in the main process or in the worker)."""

from __future__ import annotations

import re
from hashlib import sha256

import orjson

from moderator_app.core.formats.canonical import (
    CanonicalError,
)
from moderator_app.core.formats.jsonline import LineError, parse_line_compact, underflowing_number
from moderator_app.core.formats.secrets import scan_line
from moderator_app.core.formats.streams import MAX_LINE
from moderator_app.core.verify.seeds import SECRET_LEAK, SEED_LEAK, SeedCheck
from moderator_app.core.verify.trajectory.canonical_event import FloatSpelling, event_canonical
from moderator_app.core.verify.trajectory.facts import OK, UNREADABLE, UNSUPPORTED, Extra, Facts
from moderator_app.core.verify.trajectory.rules import (
    AGENT,
    AGENT_TRUST,
    AGENT_TRUSTED,
    BAD_JSON,
    EVAL_UNTRUSTED,
    EVALUATOR,
    EVALUATOR_TRUST,
    FIELD_MISSING,
    FIELD_TYPE,
    HASH_FORMAT,
    LINE_ENDING,
    LINE_ERROR_RULES,
    SCHEMA,
    SCHEMA_UNSUPPORTED,
    SECRET,
    TOO_LONG,
    UNREPRESENTABLE,
    WALL_FORMAT,
)
from moderator_app.core.verify.trajectory.spelling import (
    SPELL_ALL,
    line_spelling,
    spelling_check_default,
)
from moderator_app.core.verify.trajectory.walltime import parse_wall_time

_HEX64 = re.compile(r"[0-9a-f]{64}")
SCORE_CLAIM_TYPES = frozenset(("eval_result", "score", "score_claim", "self_reported_score"))
_SECRET_MESSAGE = ("the evaluator secret appears in this event (not shown): whoever reads the "
                   "stream can make a commitment for any seed")


class LineContext:
    """What `examine_line` needs besides the line: caches and the leak scanner (the seeds
    and the evaluator secret, to spot them in the stream; neither is ever put in a finding)."""

    def __init__(self, leak: SeedCheck | None = None, spelling: bool | None = None) -> None:
        self.spelling = FloatSpelling()
        self.leak = leak if leak is not None and leak.scans else None
        # Candidate spellings to compute (see `spelling_mask`): a superset of the checker's
        # set; 0 when the check is off.
        on = spelling_check_default() if spelling is None else spelling
        self.spell_hint = SPELL_ALL if on else 0


def examine_line(raw: bytes, ctx: LineContext) -> Facts:
    """Everything about one line that does not depend on other lines (see `Facts`)."""
    if len(raw) > MAX_LINE:
        return Facts(UNREADABLE, found=[
            (TOO_LONG, f"line of {len(raw)} bytes is longer than {MAX_LINE}")])
    found = None
    if raw[-1:] == b"\r":
        found = [(LINE_ENDING, "line ends with \\r\\n; lines must end with \\n only")]
    got = parse_line_compact(raw)
    if isinstance(got, LineError):
        r = LINE_ERROR_RULES.get(got.kind, BAD_JSON)
        if got.kind == "json" and "infinity" in got.message:
            r = UNREPRESENTABLE
        found = [*(found or ()), (r, got.message)]
        if ctx.leak is not None and ctx.leak.secret_leak(raw, None):
            found.append((SECRET_LEAK, _SECRET_MESSAGE))
        return Facts(UNREADABLE, found=found)
    event, compact = got
    recorded = event.pop("hash", None)
    prev = event.get("prev_hash")
    hash_ok = True
    for name, value in (("prev_hash", prev), ("hash", recorded)):
        if type(value) is not str or len(value) != 64 or _HEX64.fullmatch(value) is None:
            hash_ok = False
            if found is None:
                found = []
            if value is None:
                found.append((FIELD_MISSING, f"missing member {name!r}"))
            else:
                found.append((HASH_FORMAT, f"{name} is not 64 lowercase hex characters: "
                                           f"{str(value)[:80]!r}"))
    computed = None
    canon = None
    # Members are read from a snapshot: canonicalisation may swap a value for a
    # pre-serialised fragment (a float, an object with a member name outside the BMP).
    get = dict(event).get
    payload = get("payload")
    # A member name outside the BMP may hide in an ASCII line as a `\ud83d\ude00` escape.
    non_ascii = not raw.isascii() or b"\\u" in raw
    # orjson's compact form never spells a zero but as `0.0`: only other lines can hold a
    # token that underflows to zero (`1e-400`), which no double holds (as `1e400`).
    tiny = None if compact else underflowing_number(raw)
    if tiny is not None:
        found = [*(found or ()), (UNREPRESENTABLE, f"cannot hash the event canonically: the "
                                  f"number {tiny[:40]} is not zero but no double holds it "
                                  "(below 5e-324, it would be read as 0)")]
    elif type(prev) is str and prev.isascii():
        try:
            canon = event_canonical(event, non_ascii, ctx.spelling)
        except CanonicalError as exc:
            if found is None:
                found = []
            found.append((UNREPRESENTABLE, f"cannot hash the event canonically: {exc}"))
        else:
            computed = sha256(prev.encode() + canon).hexdigest()
    schema = get("schema")
    if schema != SCHEMA:
        if found is None:
            found = []
        found.append((SCHEMA_UNSUPPORTED, "no `schema` member" if schema is None else
                      f"unsupported schema {str(schema)[:80]!r} (this tool reads {SCHEMA!r})"))
        etype = get("type")
        return Facts(UNSUPPORTED, recorded, prev, computed, hash_ok, found,
                     etype=etype if type(etype) is str else "?")
    producer = get("producer")
    trust = get("trust_level")
    etype = get("type")
    run_id = get("run_id")
    seq = get("producer_sequence")
    wall = get("wall_time")
    if (type(producer) is not str or type(trust) is not str or type(etype) is not str
            or type(run_id) is not str):
        if found is None:
            found = []
        for name, value in (("run_id", run_id), ("producer", producer),
                            ("trust_level", trust), ("type", etype)):
            if value is None:
                found.append((FIELD_MISSING, f"missing member {name!r}"))
            elif type(value) is not str:
                found.append((FIELD_TYPE, f"{name} must be a string, not "
                                          f"{type(value).__name__}"))
        producer = producer if type(producer) is str else "?"
        trust = trust if type(trust) is str else None
        etype = etype if type(etype) is str else "?"
        run_id = run_id if type(run_id) is str else None
    if type(payload) is not dict:
        if found is None:
            found = []
        if payload is None:
            found.append((FIELD_MISSING, "missing member 'payload'"))
        else:
            found.append((FIELD_TYPE, f"payload must be an object, not "
                                      f"{type(payload).__name__}"))
        payload = None
    if type(seq) is not int:
        if found is None:
            found = []
        if seq is None:
            found.append((FIELD_MISSING, "missing member 'producer_sequence'"))
        else:
            found.append((FIELD_TYPE, f"producer_sequence must be an integer, not "
                                      f"{type(seq).__name__}"))
        seq = None
    t = None
    if type(wall) is str:
        t = parse_wall_time(wall)
        if t is None:
            if found is None:
                found = []
            found.append((WALL_FORMAT, f"wall_time {wall[:60]!r} is not RFC 3339 UTC"))
    else:
        if found is None:
            found = []
        if wall is None:
            found.append((FIELD_MISSING, "missing member 'wall_time'"))
        else:
            found.append((FIELD_TYPE, f"wall_time must be a string, not "
                                      f"{type(wall).__name__}"))
    if producer == AGENT and trust is not None and trust != AGENT_TRUST:
        if found is None:
            found = []
        found.append((AGENT_TRUSTED, f"the agent claims trust level {trust[:40]!r}; the agent "
                                     f"is always {AGENT_TRUST!r}"))
    extra = None
    if etype in SCORE_CLAIM_TYPES:
        if etype == "eval_result" and not (producer == EVALUATOR and trust == EVALUATOR_TRUST):
            if found is None:
                found = []
            found.append((EVAL_UNTRUSTED, f"eval_result from producer {producer[:40]!r} with "
                                          f"trust {str(trust)[:40]!r}: only the evaluator "
                                          f"({EVALUATOR_TRUST}) publishes the score"))
        extra = Extra(payload)
    if payload is not None and ("seed_commitment" in payload or etype == "seed_commitment"):
        value = payload.get("seed_commitment")
        if value is None and etype == "seed_commitment":
            value = payload.get("commitment")
        if value is not None:
            extra = Extra(extra.score_payload if extra else None, value)
    if ctx.leak is not None:
        leaked = ctx.leak.scan_leak(raw, event)
        if leaked is not None:
            if found is None:
                found = []
            found.append((SEED_LEAK, f"a raw seed (seed #{leaked} of the seeds file) appears "
                                     "in this event: only commitments may be recorded"))
        if ctx.leak.secret_leak(raw, event):
            if found is None:
                found = []
            found.append((SECRET_LEAK, _SECRET_MESSAGE))
    hits = scan_line(raw)
    if hits:
        if found is None:
            found = []
        for hit in hits:
            where = f"once {hit.how}" if hit.how else f"at column {hit.column}"
            found.append((SECRET, f"looks like a {hit.label} {where}: {hit.excerpt}"))
    spell = None
    hint = ctx.spell_hint
    if hint and hash_ok and computed is not None and computed == recorded:
        if found is not None and raw[-1:] == b"\r":  # the line ending has its own rule
            raw = raw[:-1]
            compact = orjson.dumps(orjson.loads(raw)) == raw
        spell = line_spelling(raw, hint, compact, canon, recorded, event.keys())
    return Facts(OK, recorded, prev, computed, hash_ok, found, producer, trust, etype, seq, t,
                 run_id, extra, spell)


def split_lines(block: bytes) -> list[bytes]:
    lines = block.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines
