"""`decide` and `decisions` commands: record, list, export, verify and copy decisions.

Qt-free. `decide` verifies the submission with the same engine as `verify` and the GUI, then
appends a record bound to the evidence (`core.ledger.records.build_record`) to the store
(`core.ledger.config.open_store`: SQLite by default, PostgreSQL when configured). Exit codes:
0 done / ledger intact, 1 ledger not intact (`decisions verify`: also a file that is not a
readable ledger; `export`: written from a ledger that is not intact), 2 not done (unreadable
submission, corrupt or unreachable store, invalid arguments, a run claimed by someone else; for
every command, `verify` included, a store path that is a FIFO, a device, a socket, a directory
where the file should be, a symbolic link to nothing or a link loop, and a store that names
no place: an empty path, a path under a regular file, an address that is not
`postgresql://` or cannot be parsed, an unusable store file), 3 (`decide` on a team store)
the server went away during the commit and the outcome is unknown.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from moderator_app.cli.common import default_reviewer
from moderator_app.core.text import counted

EXIT_OK, EXIT_BAD_LEDGER, EXIT_ERROR = 0, 1, 2
EXIT_UNKNOWN = 3  # decide: the team store went away during the commit; check before retrying


def _store_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", metavar="STORE",
                   help="the decision store: an SQLite file (or a folder for it), or "
                        "postgresql://USER@HOST/DB for a team store; default "
                        "$MODERATOR_APP_STORE, else the per-user data directory")
    p.add_argument("--store-file", metavar="FILE",
                   help="read the store (e.g. a connection string with a password) from "
                        "FILE, which must be readable by its owner only")


def _open(args: argparse.Namespace, create: bool = True):
    from moderator_app.core.ledger.config import open_store, store_spec

    return open_store(store_spec(args.store, args.store_file), create=create)


def add_decision_commands(sub: argparse._SubParsersAction) -> None:
    """Register `decide` and `decisions` on the CLI's subparsers (set `handler` defaults)."""
    from moderator_app.cli.common import finite_seconds, utf8_text
    from moderator_app.core.ledger.records import CHECKLIST_IDS, REJECT_REASONS

    d = sub.add_parser(
        "decide", help="verify a submission and record an accept/reject decision",
        description="Verify the submission, then record the decision in the ledger, bound to "
                    "every file's SHA-256 and the report summary. Exit 0 when recorded.")
    d.add_argument("paths", nargs="+", metavar="PATH",
                   help="a folder, an archive, or the log/trajectory and video as files")
    g = d.add_mutually_exclusive_group(required=True)
    g.add_argument("--accept", dest="decision", action="store_const", const="accept")
    g.add_argument("--reject", dest="decision", action="store_const", const="reject")
    d.add_argument("--reason", metavar="CODE",
                   help="ok for accept (the default); required for reject, one of: "
                        + ", ".join(REJECT_REASONS))
    d.add_argument("--note", default="", type=utf8_text, metavar="TEXT", help="what you saw")
    d.add_argument("--reviewer", type=utf8_text, metavar="NAME", help="default: $USER")
    d.add_argument("--offset", type=finite_seconds, default=0.0, metavar="SECONDS",
                   help="video time at which run_start happens (default 0)")
    d.add_argument("--retime-start", type=finite_seconds, metavar="SECONDS",
                   help="video time of the retime start mark")
    d.add_argument("--retime-end", type=finite_seconds, metavar="SECONDS",
                   help="video time of the retime end mark")
    d.add_argument("--check", action="append", default=[], metavar="ITEM",
                   help="official walkthrough item done (repeatable; 'all' for every one): "
                        + ", ".join(CHECKLIST_IDS))
    d.add_argument("--override-note", type=utf8_text, metavar="TEXT",
                   help="official runs: why accepting with walkthrough items not done")
    d.add_argument("--override-claim", type=utf8_text, metavar="NOTE",
                   help="decide a run claimed by someone else; the note says why and is "
                        "recorded")
    _store_arg(d)
    d.set_defaults(handler=cmd_decide)

    ds = sub.add_parser("decisions", help="list, export or verify the decision ledger")
    dsub = ds.add_subparsers(dest="decisions_command", metavar="ACTION", required=True)
    lst = dsub.add_parser("list", help="one line per decision")
    _store_arg(lst)
    lst.set_defaults(handler=cmd_list)
    exp = dsub.add_parser("export", help="write every decision as JSON Lines or CSV")
    exp.add_argument("--format", choices=("jsonl", "csv"), required=True)
    exp.add_argument("--out", type=Path, required=True, metavar="FILE",
                     help="file to write ('-' writes the export to stdout)")
    _store_arg(exp)
    exp.set_defaults(handler=cmd_export)
    ver = dsub.add_parser("verify", help="check the hash chain: exit 0 intact, 1 not")
    _store_arg(ver)
    ver.add_argument("--jsonl", type=Path, metavar="FILE",
                     help="verify a JSON Lines export instead of the ledger")
    ver.set_defaults(handler=cmd_verify_ledger)
    cp = dsub.add_parser("copy", help="copy a whole ledger into an empty store, chain intact")
    cp.add_argument("--from", dest="source", required=True, metavar="STORE")
    cp.add_argument("--to", dest="target", required=True, metavar="STORE")
    cp.set_defaults(handler=cmd_copy)

    from moderator_app.cli.queue import add_queue_commands

    add_queue_commands(sub, _store_arg)


def _err(msg: str) -> None:
    from moderator_app.cli.common import safe_text

    print(f"moderator-app: {safe_text(msg)}", file=sys.stderr)


def cmd_decide(args: argparse.Namespace) -> int:
    from moderator_app.cli.common import safe_text
    from moderator_app.core.errors import InputError
    from moderator_app.core.ledger.chained import LedgerError
    from moderator_app.core.ledger.errors import ClaimConflict, OutcomeUnknown
    from moderator_app.core.ledger.records import (
        ACCEPT_REASONS,
        CHECKLIST_IDS,
        REJECT,
        REJECT_REASONS,
        DecisionError,
        build_record,
        missing_checklist,
        suggested_reason,
    )
    from moderator_app.core.text import has_undecodable
    from moderator_app.core.verify.options import VerifyOptions
    from moderator_app.core.verify.pipeline import verify_paths

    allowed = REJECT_REASONS if args.decision == REJECT else ACCEPT_REASONS
    if args.reason is not None and args.reason not in allowed:
        _err(f"--reason {args.reason!r} is not valid with --{args.decision}; use one of: "
             + ", ".join(allowed))
        return EXIT_ERROR
    checks = list(CHECKLIST_IDS) if "all" in args.check else args.check
    unknown = [c for c in checks if c not in CHECKLIST_IDS]
    if unknown:
        _err("unknown --check item(s): " + ", ".join(unknown) + "; known: "
             + ", ".join(CHECKLIST_IDS) + ", all")
        return EXIT_ERROR
    reviewer = (args.reviewer or default_reviewer()).strip()
    if not reviewer or has_undecodable(reviewer):  # $USER may hold bytes that are not UTF-8
        _err("no usable reviewer name: pass --reviewer NAME")
        return EXIT_ERROR
    try:  # the store first: an unreachable team store is told before any long work
        ledger = _open(args, create=False)  # created by the append, not before
    except (LedgerError, OSError) as exc:
        _err(f"decision NOT recorded: {exc}")
        return EXIT_ERROR
    with ledger:
        try:
            result = verify_paths(args.paths, VerifyOptions(offset=args.offset))
        except InputError as exc:
            _err(f"cannot verify the submission: {exc}")
            return EXIT_ERROR
        report = result.report
        if args.decision == REJECT and args.reason is None:
            _err("--reject needs --reason CODE (one of: " + ", ".join(REJECT_REASONS)
                 + f"); the findings suggest {suggested_reason(report, REJECT)}")
            return EXIT_ERROR
        try:
            record = build_record(
                result, args.decision, reason=args.reason, note=args.note, reviewer=reviewer,
                offset_s=args.offset, retime_start_s=args.retime_start,
                retime_end_s=args.retime_end, checklist=checks,
                override_note=args.override_note, claim_override=args.override_claim)
            stored = ledger.append(record)
            path = ledger.display
        except DecisionError as exc:
            _err(str(exc))
            return EXIT_ERROR
        except ClaimConflict as exc:
            _err(f"decision NOT recorded: {exc}")
            return EXIT_ERROR
        except OutcomeUnknown as exc:  # neither "recorded" nor "not recorded": the truth
            _err(f"decision outcome UNKNOWN: {exc}")
            return EXIT_UNKNOWN
        except (LedgerError, OSError) as exc:
            _err(f"decision NOT recorded: {exc}")
            return EXIT_ERROR
    s = report.summary()
    print(f"Recorded decision #{stored.seq}: {record.decision} ({record.reason}) on "
          f"{report.kind} submission {safe_text(record.submission)!r}")
    print(f"  verification: {s['verdict']}, {counted(s['errors'], 'error')}, "
          f"{counted(s['warnings'], 'warning')}")
    for f in record.files:
        print(f"  {safe_text(f.name)}  {f.size} bytes  sha256 {f.sha256}")
    if record.chain_head:
        print(f"  chain head {record.chain_head}")
    print(f"  evidence {record.evidence_digest}")
    print(f"  ledger {path}, hash {stored.hash}")
    if args.decision != REJECT and not report.passed:
        print("  note: accepted although the verification failed", file=sys.stderr)
    missing = missing_checklist(report.kind, record.checklist)
    if args.decision != REJECT and missing and not record.override_note:
        print("  note: official walkthrough items not marked done: " + ", ".join(missing),
              file=sys.stderr)
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    from moderator_app.cli.common import safe_text
    from moderator_app.core.ledger.chained import LedgerError
    from moderator_app.core.text import safe_cut

    try:
        with _open(args, create=False) as ledger:
            items = ledger.entries()
            path = ledger.display
            outcome = ledger.verify()
    except LedgerError as exc:
        _err(str(exc))
        return EXIT_ERROR
    if not items:
        print(f"No decisions in {path}")
        return EXIT_OK
    n = 0
    for d in items:
        r = d.record
        if not d.is_decision:  # a claim or a release
            until = f" until {r.expires_at}" if r.expires_at else ""
            over = (" — override: " + safe_cut(r.override_note.replace("\n", " "), 80)
                    if r.override_note else "")
            print(f"#{d.seq:<4} {r.at}  {r.action:<7} {safe_text(r.reviewer):<12}"
                  f"{until}  {safe_text(r.submission)}  evidence "
                  f"{r.evidence_digest[:12]}{over}")
            continue
        n += 1
        note = (" — " + safe_cut(r.note.replace("\n", " "), 80)) if r.note else ""
        over = (" — claim override: " + safe_cut(r.claim_override.replace("\n", " "), 80)
                if r.claim_override else "")
        print(f"#{d.seq:<4} {r.decided_at}  {r.decision:<6} {r.reason:<14} "
              f"{safe_text(r.reviewer):<12} {r.kind:<9} {safe_text(r.submission)}  "
              f"[{r.summary.verdict}] evidence {r.evidence_digest[:12]}{note}{over}")
    claims = len(items) - n
    print(f"{n} decisions in {path}" + (f" (and {claims} claim records)" if claims else ""))
    if not outcome.ok:
        _err("WARNING: " + outcome.describe() + " (run `moderator-app decisions verify`)")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from moderator_app.core.ledger.chained import LedgerError

    to_stdout = str(args.out) == "-"

    try:
        with _open(args, create=False) as ledger:
            outcome = ledger.verify()
            if to_stdout:  # `--out -`: the export itself on stdout, the summary on stderr
                data, n = ledger.export_bytes(args.format)
                sys.stdout.buffer.write(data)
                sys.stdout.buffer.flush()
            else:
                n = ledger.export(args.format, args.out)
    except LedgerError as exc:
        _err(str(exc))
        return EXIT_ERROR
    except OSError as exc:
        _err(f"cannot write {args.out}: {exc}")
        return EXIT_ERROR
    print(f"Wrote {n} decisions to {'stdout' if to_stdout else args.out} ({args.format})",
          file=sys.stderr if to_stdout else sys.stdout)
    if not outcome.ok:
        _err(outcome.describe() + " — the export holds what is stored; treat it as suspect")
        return EXIT_BAD_LEDGER
    return EXIT_OK


def cmd_verify_ledger(args: argparse.Namespace) -> int:
    from moderator_app.core.ledger.chained import LedgerError, verify_jsonl
    from moderator_app.core.ledger.errors import LedgerPathError

    if args.jsonl is not None:
        try:
            outcome = verify_jsonl(args.jsonl)
        except OSError as exc:
            _err(f"cannot read {args.jsonl}: {exc}")
            return EXIT_ERROR
        print(f"{args.jsonl}: {outcome.describe('export')}")
        return EXIT_OK if outcome.ok else EXIT_BAD_LEDGER

    try:
        with _open(args, create=False) as ledger:
            outcome = ledger.verify()
            path = ledger.display
            empty = outcome.ok and outcome.count == 0
    except LedgerPathError as exc:  # a FIFO, a link to nothing, `--store ""`: 2, as every command
        _err(str(exc))
        return EXIT_ERROR
    except LedgerError as exc:  # unreadable, unreachable or not a ledger: not shown intact
        _err(str(exc))
        return EXIT_BAD_LEDGER
    for note in outcome.notes:
        _err("note: " + note)
    if outcome.ok:
        print(f"{path}: {outcome.describe()}" if not empty else f"{path}: no ledger yet "
              "(0 decisions)")
        return EXIT_OK
    print(f"{path}: {outcome.describe()}")
    return EXIT_BAD_LEDGER


def cmd_copy(args: argparse.Namespace) -> int:
    """Copy a verified ledger, byte for byte, into an empty store; verify the copy."""
    from moderator_app.core.ledger.chained import LedgerError
    from moderator_app.core.ledger.config import open_store

    try:
        with open_store(args.source, create=False) as src:
            outcome = src.verify()
            if not outcome.ok:
                print(f"{src.display}: {outcome.describe()}")
                _err("not copied: the source ledger does not verify")
                return EXIT_BAD_LEDGER
            raws = [raw for _, raw in src.iter_raw()]
            src_name = src.display
        with open_store(args.target) as dst:
            n = dst.import_raw(raws)
            copied = dst.verify()
            dst_name = dst.display
    except LedgerError as exc:
        _err(f"not copied: {exc}")
        return EXIT_ERROR
    if not copied.ok or copied.head != outcome.head or copied.count != outcome.count:
        print(f"{dst_name}: {copied.describe()}")
        _err("the copy does not verify to the source's head")
        return EXIT_BAD_LEDGER
    print(f"Copied {n} records from {src_name} to {dst_name}; head {copied.head}")
    return EXIT_OK
