"""`queue`, `claim` and `release`: the review queue and claims, on the command line.

    moderator-app queue DIR [--json] [--no-verify]
                            [--state pending|claimed|accepted|rejected|unknown]
                            [--verdict pass|fail|unreadable|timed_out|unverified] [--game G]
                            [--category C] [--time-limit SECONDS]

The text listing streams: each row is printed as soon as it and every older row are known
(cached ones at once), in the order of the whole listing; `--json` prints one object at the
end. `--no-verify` lists at once from the report cache alone: a submission not in it is
`unverified`, its state `unknown`.
    moderator-app claim PATH... [--minutes 30] [--reviewer NAME] [--override-claim NOTE]
    moderator-app release PATH... [--reviewer NAME] [--override-claim NOTE]

Exit codes: 0 done; 1 (claim/release) refused because someone else holds the claim;
2 unreadable folder or submission, unusable store, invalid arguments.
"""

from __future__ import annotations

import argparse
import sys

EXIT_OK, EXIT_CONFLICT, EXIT_ERROR = 0, 1, 2


def add_queue_commands(sub: argparse._SubParsersAction, store_args) -> None:
    """Register `queue`, `claim` and `release` (store_args adds --store/--store-file)."""
    from moderator_app.cli.common import utf8_text
    from moderator_app.core.ledger.claims import DEFAULT_CLAIM_MINUTES, MAX_CLAIM_MINUTES
    from moderator_app.core.queue import STATES, SUBMISSION_TIME_LIMIT_S, VERDICTS

    q = sub.add_parser(
        "queue", help="list a folder of submissions with verdicts and decision states",
        description="Each subfolder or bundle of DIR is a submission. Lists each with its "
                    "verification verdict (exactly what `verify` gives), game, category, "
                    "model, evidence digest and decision state, oldest first, each row as soon "
                    "as it is known. Reports are cached by evidence digest: an unchanged "
                    "submission is never verified twice.")
    q.add_argument("folder", metavar="DIR")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("--no-verify", action="store_true",
                   help="list at once without examining anything: what the report cache "
                        "does not hold is shown as unverified")
    q.add_argument("--state", choices=STATES)
    q.add_argument("--verdict", choices=VERDICTS)
    q.add_argument("--game", metavar="SLUG")
    q.add_argument("--category", metavar="SLUG")
    q.add_argument("--kind", choices=("community", "official"))
    q.add_argument("--cache", metavar="FILE",
                   help="the report cache (default: per-user cache directory)")
    q.add_argument("--workers", type=int, metavar="N",
                   help="verifier processes (default: one per core)")
    q.add_argument("--time-limit", type=_seconds, default=SUBMISSION_TIME_LIMIT_S,
                   metavar="SECONDS",
                   help="stop examining a submission after this long: its verdict is then "
                        f"timed_out (default {SUBMISSION_TIME_LIMIT_S:g})")
    store_args(q)
    q.set_defaults(handler=cmd_queue)

    for name, helptext in (("claim", "claim submissions for review (others see it claimed)"),
                           ("release", "release your claim on submissions")):
        c = sub.add_parser(name, help=helptext)
        c.add_argument("paths", nargs="+", metavar="PATH",
                       help="a submission (folder, archive, or its files)")
        c.add_argument("--reviewer", type=utf8_text, metavar="NAME", help="default: $USER")
        c.add_argument("--override-claim", type=utf8_text, metavar="NOTE",
                       help="take over (or release) a claim held by someone else; the note "
                            "says why and is recorded")
        c.add_argument("--note", default="", type=utf8_text, metavar="TEXT")
        if name == "claim":
            c.add_argument("--minutes", type=float, default=DEFAULT_CLAIM_MINUTES,
                           help=f"how long (default {DEFAULT_CLAIM_MINUTES}, at most "
                                f"{MAX_CLAIM_MINUTES})")
        store_args(c)
        c.set_defaults(handler=cmd_claim, claim_action=name)


def _seconds(text: str) -> float:
    import math

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value


def _err(msg: str) -> None:
    from moderator_app.cli.common import safe_text

    print(f"moderator-app: {safe_text(msg)}", file=sys.stderr)


def _progress(done: int, total: int, name: str) -> None:
    if sys.stderr.isatty():
        print(f"\rverifying {done}/{total} {name[:40]:<40}", end="", file=sys.stderr,
              flush=True)


def _clear_progress() -> None:
    if sys.stderr.isatty():
        print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)


def _row(i) -> str:
    from moderator_app.cli.common import safe_text

    state = i.state
    if i.state == "claimed":
        state = f"claimed by {safe_text(i.claimed_by or '')} until {i.claimed_until}"
    elif i.state in ("accepted", "rejected"):
        state = f"{i.state} (#{i.decision_seq} by {safe_text(i.decided_by or '')})"
    what = " ".join(safe_text(x) for x in (i.game, i.category, i.model) if x) or "-"
    extra = f" duplicate of {safe_text(i.duplicate_of)}" if i.duplicate_of else ""
    err = f" — {safe_text(i.error)}" if i.error else ""
    digest = i.evidence_digest[:12] if i.evidence_digest else "-" * 12
    counts = ("  -E   -W" if i.errors is None or i.warnings is None
              else f"{i.errors:>3}E {i.warnings:>3}W")
    return (f"{i.submitted_at[:19]}  {i.verdict.upper():<10} {counts}  "
            f"{state:<24} {digest}  {safe_text(i.name)}  [{what}]{extra}{err}")


class _OrderedPrinter:
    """Prints the rows that pass the filters in the listing's order, each once it and every
    older row are final: the streamed text is the whole listing's text (a newer copy's
    `duplicate of` is settled once its older copy is examined, which precedes it)."""

    def __init__(self, keep, with_unverified: bool) -> None:
        from moderator_app.core.queue import UNVERIFIED

        self.keep = keep
        self.unverified = UNVERIFIED
        self.with_unverified = with_unverified
        self.items: list = []
        self.next = 0  # the first row not printed yet

    def rows(self, items) -> None:
        self.items = list(items)
        self._flush()

    def changed(self, changed) -> None:
        for pos, item in changed:
            self.items[pos] = item
        self._flush()

    def _flush(self) -> None:
        out = []
        while self.next < len(self.items):
            item = self.items[self.next]
            if item.verdict == self.unverified and not self.with_unverified:
                break
            if self.keep(item):
                out.append(_row(item))
            self.next += 1
        if out:
            _clear_progress()
            sys.stdout.write("\n".join(out) + "\n")
            sys.stdout.flush()


def cmd_queue(args: argparse.Namespace) -> int:
    from moderator_app.core.ledger.chained import LedgerError
    from moderator_app.core.ledger.config import describe_store, store_spec
    from moderator_app.core.queue import UNKNOWN_STATE
    from moderator_app.core.queue.listing import QUEUE_SCHEMA, filter_items, stream_queue

    def keep(item) -> bool:
        return bool(filter_items([item], args.state, args.verdict, args.game, args.category,
                                 args.kind))

    printer = None if args.json else _OrderedPrinter(keep, args.no_verify)
    try:
        spec = store_spec(args.store, args.store_file)
        items = stream_queue(args.folder, spec, args.cache, _progress, args.workers,
                             args.time_limit, verify=not args.no_verify,
                             on_rows=printer.rows if printer else None,
                             on_items=printer.changed if printer else None)
    except LedgerError as exc:
        _err(str(exc))
        return EXIT_ERROR
    except OSError as exc:
        _err(f"cannot read the queue folder {args.folder}: {exc.strerror or exc}")
        return EXIT_ERROR
    finally:
        _clear_progress()
    shown = filter_items(items, args.state, args.verdict, args.game, args.category, args.kind)
    if args.json:
        import orjson

        counts: dict[str, int] = {}
        for i in items:
            counts[i.state] = counts.get(i.state, 0) + 1
        sys.stdout.write(orjson.dumps({
            "schema": QUEUE_SCHEMA, "folder": str(args.folder),
            "store": describe_store(spec), "total": len(items), "counts": counts,
            "items": [i.to_dict() for i in shown]}, option=orjson.OPT_INDENT_2).decode() + "\n")
        return EXIT_OK
    pending = sum(1 for i in items if i.state == "pending")
    unknown = sum(1 for i in items if i.state == UNKNOWN_STATE)
    print(f"{len(shown)} of {len(items)} submissions shown; {pending} pending"
          + (f", {unknown} unverified (not in the report cache)" if unknown else "")
          + f" (store {describe_store(spec)})")
    return EXIT_OK


def cmd_claim(args: argparse.Namespace) -> int:
    from moderator_app.cli.common import default_reviewer, safe_text
    from moderator_app.core.errors import InputError
    from moderator_app.core.formats.submission import load_submission
    from moderator_app.core.ledger.chained import LedgerError
    from moderator_app.core.ledger.claims import ClaimConflict, new_claim
    from moderator_app.core.ledger.config import open_store, store_spec
    from moderator_app.core.queue.examine import digest_submission

    reviewer = (args.reviewer or default_reviewer()).strip()
    if not reviewer:
        _err("no reviewer name: pass --reviewer NAME")
        return EXIT_ERROR
    try:
        sub = load_submission(args.paths)
        digest = digest_submission(sub)
    except (InputError, OSError) as exc:
        _err(f"cannot read the submission: {exc}")
        return EXIT_ERROR
    try:
        record = new_claim(args.claim_action, reviewer, digest, sub.display_name,
                           getattr(args, "minutes", 30), args.note, args.override_claim)
    except ValueError as exc:
        _err(str(exc))
        return EXIT_ERROR
    try:
        with open_store(store_spec(args.store, args.store_file)) as store:
            stored = store.append(record)
    except ClaimConflict as exc:
        _err(f"{args.claim_action} NOT recorded: {exc}")
        return EXIT_CONFLICT
    except (LedgerError, OSError) as exc:
        _err(f"{args.claim_action} NOT recorded: {exc}")
        return EXIT_ERROR
    if record.action == "claim":
        print(f"Claimed {safe_text(sub.display_name)!r} for {safe_text(reviewer)} until "
              f"{record.expires_at} (record #{stored.seq}, evidence {digest})")
    else:
        print(f"Released {safe_text(sub.display_name)!r} (record #{stored.seq}, evidence "
              f"{digest})")
    return EXIT_OK
