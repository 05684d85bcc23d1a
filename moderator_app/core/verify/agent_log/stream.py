"""The driver: read the submission's agent log once (hashing it), feed its lines to
`LogChecker`, fill the report."""

from __future__ import annotations

import tempfile
from pathlib import Path

from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.formats.streams import BlankRun, HashingReader, LineSpool, iter_lines
from moderator_app.core.formats.submission import Submission
from moderator_app.core.progress import CancelToken, ProgressFn
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS
from moderator_app.core.verify.agent_log.checker import LogChecker
from moderator_app.core.verify.agent_log.skim import skimmer
from moderator_app.core.verify.input_rules import UNREADABLE_MEMBER
from moderator_app.core.verify.options import KindResult, VerifyOptions
from moderator_app.core.verify.report import FileDigest, Report


def verify_agent_log(sub: Submission, options: VerifyOptions, report: Report,
                     progress: ProgressFn | None = None,
                     cancel: CancelToken | None = None) -> KindResult:
    """Check the submission's agent log; fill `report` (findings, events, run, its digest).

    Returns the `KindResult`: the event index when `options.build_index`, and the run
    duration for the coverage check (run_end's elapsedMs; else the last valid elapsedMs).
    """

    member = sub.evidence
    thresholds = options.thresholds or DEFAULT_THRESHOLDS
    index = None
    spool = None
    if options.build_index:
        # An archived log is copied to a plain file for the event table in the same pass that
        # verifies it: a second decompression doubled the GUI's time on a bomb (32 s vs 14 s)
        source = member.local_path
        if source is None:
            folder = Path(tempfile.mkdtemp(prefix="moderator-app-", dir=options.spool_dir))
            source = folder / "member.jsonl"
            # (over-long lines are holes: never shown, never written; `LineSpool`)
            spool = LineSpool(open(source, "wb"))  # noqa: SIM115 - closed in the finally below
        index = EventIndex(source=source)
    checker = LogChecker(report, member.name, thresholds, index)
    try:
        with member.open() as raw:
            reader = HashingReader(raw, member.size, progress, cancel, copy_to=spool)
            # Ordinary lines in order are consumed in C, the rest come here (skim.py).
            for offset, line in iter_lines(reader, blank_runs=True, skim=skimmer(checker)):
                if type(line) is BlankRun:  # 64 MiB of newlines: a few regex matches
                    checker.blanks(line.count, offset, len(line.raw))
                else:
                    checker.feed(offset, line)
                    if checker.stopped:  # the response table's bound (log.too_many_responses)
                        reader.drain()
                        report.complete = False
                        break
            report.files.append(FileDigest(member.name, member.role, reader.bytes_read,
                                           reader.hexdigest()))
    except OSError as exc:
        report.add(UNREADABLE_MEMBER.at(f"cannot read the log after line {checker.lines}: "
                                        f"{exc}", member.name))
        report.complete = False
    except BaseException:
        report.complete = False
        raise
    finally:
        checker.unread_streams()  # (one finding for the lines a spent allowance refused)
        if spool is not None:
            spool.close()
    report.events = checker.content_lines
    duration = checker.finish()
    report.run = checker.run
    return KindResult(index, duration)
