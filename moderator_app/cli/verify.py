"""`verify`, `withhold` and `rules`: the submitter's self-check commands."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from moderator_app.cli.common import (
    EXIT_FAIL,
    EXIT_PASS,
    EXIT_UNREADABLE,
    SECRET_ENV,
    finite_seconds,
    safe_json,
    safe_text,
)
from moderator_app.core.text import counted, has_undecodable
from moderator_app.core.verify.options import DEFAULT_SCAN_BUDGET_S


def add_verify_commands(sub: argparse._SubParsersAction) -> None:
    v = sub.add_parser("verify", help="check a submission; exit 0 pass, 1 fail, 2 unreadable")
    v.add_argument("paths", nargs="+", metavar="PATH",
                   help="a folder, an archive, or the log/trajectory and video as files")
    v.add_argument("--json", action="store_true", help="print one JSON report on stdout")
    v.add_argument("--offset", type=_offset_arg, default=0.0, metavar="SECONDS|auto",
                   help="video time at which run_start happens (default 0); `auto`: the "
                        "offset the video's reactions to the actions suggest (implies --sync; "
                        "exit 2 when there is not enough signal)")
    v.add_argument("--sync", action="store_true",
                   help="also check that the picture reacts to the logged actions at one "
                        "offset (decodes every frame; the `sync` section and sync.* warnings)")
    v.add_argument("--scan", action="store_true",
                   help="also run the video integrity scan (decodes every frame: frozen and "
                        "black stretches, timestamp jumps, cuts, audio gaps; the `video_scan` "
                        "section and video.*/audio.* warnings)")
    v.add_argument("--scan-budget", type=_budget_arg, default=DEFAULT_SCAN_BUDGET_S,
                   metavar="SECONDS",
                   help="CPU seconds the integrity scan may spend (default "
                        f"{DEFAULT_SCAN_BUDGET_S:g}; 0: no bound); past it the scan stops and "
                        "says where (video.scan_stopped): its findings cover the video up to "
                        "there")
    v.add_argument("--seeds", type=Path, metavar="FILE",
                   help="official runs: one seed per line; the evaluator secret is read from "
                        f"${SECRET_ENV} or a prompt, never from an argument")

    v.set_defaults(handler=cmd_verify)

    w = sub.add_parser("withhold", help="write the public (withheld) version of an agent log")
    w.add_argument("log", type=Path, metavar="agent-log.jsonl")
    w.add_argument("-o", "--out", type=Path, required=True, metavar="public.jsonl")
    w.set_defaults(handler=cmd_withhold)

    r = sub.add_parser("rules", help="list every rule id with its severity and summary")
    r.set_defaults(handler=cmd_rules)


def _budget_arg(text: str) -> float | None:
    """`--scan-budget`: CPU seconds, 0 for no bound (None)."""
    seconds = finite_seconds(text)
    if seconds < 0:
        raise argparse.ArgumentTypeError(f"a budget is 0 (no bound) or more seconds: {text!r}")
    return None if seconds == 0 else seconds


def _offset_arg(text: str) -> float | str:
    return "auto" if text.strip().lower() == "auto" else finite_seconds(text)


def _run_sync(args, result, options) -> int | None:
    """The sync analysis (verify --sync / --offset auto). With `auto`, re-checks coverage at the
    suggested offset; returns an exit code when it cannot go on."""
    from moderator_app.core.sync.run import TooFineFrames, TooManyActions, analyze_result

    auto = args.offset == "auto"
    try:
        analysis = analyze_result(result, options.thresholds,
                                  None if auto else float(args.offset))
    except (TooManyActions, TooFineFrames) as exc:  # a bound on the input: said, never a
        # 74 s analysis (1,000,000 actions) or a 22 GB one (frames 1 ns apart)
        if auto:
            return _unreadable(args, f"--offset auto: {exc}; give --offset SECONDS")
        from moderator_app.core.sync.rules import NOT_ANALYSED

        video = result.report.video
        result.report.add(NOT_ANALYSED.at(f"sync analysis not run: {exc}",
                                          None if video is None else video.file))
        return None
    except OSError as exc:
        if auto:
            return _unreadable(args, f"--offset auto: cannot decode the video: {exc}")
        print(f"moderator-app: sync analysis: cannot decode the video: {safe_text(exc)}",
              file=sys.stderr)
        return None
    if analysis is None:
        if auto:
            return _unreadable(args, "--offset auto needs a readable video")
        return None
    if auto and analysis.suggested_offset_s is None:
        return _no_suggestion(args, result, analysis, "Found without an offset:",
                              "--offset auto: not enough signal to suggest an offset "
                              f"({analysis.reason}); give --offset SECONDS")
    if auto:
        from moderator_app.core.sync.records import APPLY_MIN_CONFIDENCE, apply_withheld

        if apply_withheld(analysis.confidence):
            # the workstation's bar for one-click Apply (session 18): a suggestion under it
            # is shown, never used for a verdict without the moderator's own offset
            at = f"{analysis.suggested_offset_s:.3f} s"
            return _no_suggestion(
                args, result, analysis,
                f"Found at the suggested offset {at} (confidence {analysis.confidence:.2f}):",
                f"--offset auto: the suggestion, run_start at video {at}, has confidence "
                f"{analysis.confidence:.2f}, under {APPLY_MIN_CONFIDENCE:.2f} (the workstation "
                "withholds one-click Apply too)"
                + (f": {analysis.confidence_note}" if analysis.confidence_note else "")
                + "; check it on the sync lanes and give --offset SECONDS")
    return analysis


def _no_suggestion(args, result, analysis, heading: str, message: str) -> int:
    """`--offset auto` with no suggestion, or one under the one-click bar: exit 2 as before
    (no offset is guessed, and the video's coverage of the run cannot be judged without
    one), but what was found is said beside the refusal instead of dropped: the sync
    analysis' findings (with no suggestion, those made without an offset: a held picture
    under the log's actions at every offset at which the video covers the run, a slowdown's
    evenly repeated frames, a log gap the player's band plays) and every other finding but
    coverage's, the integrity scan's included. Session 13's recall table
    (docs/qa/session13-sync.md): on 44 tampered runs of six low-signal games `--scan --offset
    auto` reported 1 tampering, the freezes and a slowdown it had found being thrown away
    with the report."""
    from moderator_app.core.sync.run import add_to_report

    report = result.report
    video = report.video
    add_to_report(report, analysis, None if video is None else video.file)
    kept = [f for f in report.findings.sorted() if not f.rule.startswith("coverage.")]
    scan = report.video_scan
    extra = {"findings": [f.to_dict() for f in kept],
             "sync": None if report.sync is None else report.sync.to_dict(),
             "video_scan": None if scan is None else scan.to_dict()}
    if not args.json:
        said = [f for f in kept if f.severity.value != "info"]
        if said:
            print(heading)
        for f in said:
            loc = safe_text(f.file or report.input_name) + (f":{f.line}" if f.line else "")
            print(f"  {loc}  {f.severity.value:<7}  {f.rule}  {safe_text(f.message)}")
    return _unreadable(args, message, extra)


class SecretError(ValueError):
    """The evaluator secret cannot be used; the message never holds the secret."""


def _read_secret() -> str | None:
    secret = os.environ.get(SECRET_ENV)
    where = f"${SECRET_ENV}"
    if not secret and sys.stdin is not None and sys.stdin.isatty():
        import getpass  # here: only a prompt needs it (its termios is ~0.3 ms of every start)

        try:
            secret = getpass.getpass("Evaluator secret (input hidden): ")
        except UnicodeDecodeError:
            secret = "\udcff"  # reported below, like an undecodable environment value
        where = "the prompt"
    if not secret:
        return None
    if has_undecodable(secret):
        # commitments hash the secret as UTF-8 text: bytes that are not UTF-8 cannot be it
        raise SecretError(f"the evaluator secret from {where} is not valid UTF-8 text")
    return secret


def _read_seeds(path: Path) -> tuple[str, ...]:
    # utf-8-sig: a seeds file saved by a Windows editor starts with a BOM that is not seed text.
    from moderator_app.core.atomic import open_regular

    with open_regular(path) as fh:
        text = fh.read().decode("utf-8-sig")
    return tuple(s for s in (line.strip() for line in text.splitlines()) if s)


def _unreadable(args: argparse.Namespace, message: str, extra: dict | None = None) -> int:
    """Exit 2, saying why on stderr and, with --json, as the one `unreadable` object on stdout
    (a script reading stdout always gets one JSON object, whatever stopped the command);
    `extra`: keys added to that object (what was found before the command stopped)."""
    if args.json:
        sys.stdout.write(safe_json({"schema": "moderator-app/report/v1",
                                    "verdict": "unreadable", "error": message,
                                    **(extra or {})}) + "\n")
    print(f"moderator-app: {safe_text(message)}", file=sys.stderr)
    return EXIT_UNREADABLE


def cmd_verify(args: argparse.Namespace) -> int:
    """`verify`. Temporary files (a video copied out of an archive, kept for the sync
    analysis) live in one folder that is removed when the command ends, however it ends."""
    with tempfile.TemporaryDirectory(prefix="moderator-app-") as tmp:
        return _verify_command(args, Path(tmp))


def _verify_command(args: argparse.Namespace, spool: Path) -> int:
    from moderator_app.core.errors import InputError
    from moderator_app.core.verify.options import VerifyOptions
    from moderator_app.core.verify.pipeline import verify_paths

    seeds = secret = None
    if args.seeds is not None:
        try:
            seeds = _read_seeds(args.seeds)
        except (OSError, UnicodeDecodeError) as exc:
            return _unreadable(args, f"cannot read seeds file {args.seeds}: {exc}")
        try:
            secret = _read_secret()
        except SecretError as exc:
            return _unreadable(args, str(exc))
        if secret is None:
            return _unreadable(args, f"--seeds needs the evaluator secret: set {SECRET_ENV} "
                                     "or run in a terminal to be prompted")
    auto = args.offset == "auto"
    options = VerifyOptions(offset=0.0 if auto else args.offset, seeds=seeds, secret=secret,
                            scan_video=args.scan, scan_budget_s=args.scan_budget,
                            spool_dir=spool)
    try:
        result = verify_paths(args.paths, options)
        if auto or args.sync:
            analysis = _run_sync(args, result, options)
            if isinstance(analysis, int):
                return analysis
            if auto:  # the report at the suggested offset: only coverage depends on it,
                # so it is recomputed without reading the evidence again (core/verify/at_offset)
                from moderator_app.core.verify.at_offset import result_at_offset

                result = result_at_offset(result, analysis.suggested_offset_s)
            if analysis is not None:
                from moderator_app.core.sync.run import add_to_report

                video = result.report.video
                add_to_report(result.report, analysis, None if video is None else video.file)
    except InputError as exc:
        return _unreadable(args, str(exc))
    report = result.report
    if args.json:
        sys.stdout.write(safe_json(report.to_dict(), indent=True) + "\n")
    else:
        print(format_report(report))
    return EXIT_PASS if report.passed else EXIT_FAIL


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def format_report(report) -> str:
    """Human output in the manner of `aws cloudtrail validate-logs`: what was read, counts,
    each finding as `file:line  rule  message`, the verdict last."""
    from moderator_app.core.verify.sections_video import VideoScanSection

    out = [f"Verifying {report.kind} submission {safe_text(report.input_name)!r}"]
    for f in report.files:
        out.append(f"  {safe_text(f.name)}  ({f.role}, {_size(f.size)}, sha256 {f.sha256[:16]}…)")
    out.append(f"Read {report.events} {report.kind.units}" + ("" if report.complete else " (INCOMPLETE)"))
    if report.chain is not None:
        c = report.chain
        brk = c.first_break
        out.append(
            "Chain: " + ("complete" if c.complete else "INCOMPLETE")
            + f", {c.events} events, head {str(c.head or '-')[:16]}…"
            + (f"; first break at line {brk.line} ({brk.kind})" if brk else "; no break"))
    if report.video:
        v = report.video
        if v.ok:
            out.append(
                f"Video {safe_text(v.file)}: {v.fps or 0.0:.3f} fps, "
                f"{v.frame_count} frames, {v.width}x{v.height}, "
                f"{v.duration_s or 0.0:.3f} s ({v.method})")
        else:
            out.append(f"Video {safe_text(v.file)}: unreadable")
    if report.coverage:
        c = report.coverage
        out.append(
            f"Coverage: run {c.run_duration_s:.3f} s from video time {c.offset_s:.3f} s; "
            f"missing {c.missing_s:.3f} s (limit {c.tolerance_s:g} s): "
            + ("covered" if c.covered else "NOT COVERED"))
    scan = report.video_scan
    if isinstance(scan, VideoScanSection):
        out.append(f"Scan: {counted(scan.frames, 'frame')} decoded"
                   + (" (cached)" if scan.from_cache else "")
                   + ("" if scan.complete else
                      f" (STOPPED at its CPU budget, at {scan.duration_s:.3f} s)")
                   + ", " + counted(len(scan.findings), "finding"))
    findings = report.findings.sorted()
    if findings:
        out.append("Findings:")
        for f in findings:
            loc = safe_text(f.file or report.input_name) + (f":{f.line}" if f.line else "")
            out.append(f"  {loc}  {f.severity.value:<7}  {f.rule}  {safe_text(f.message)}")
        if report.findings.dropped:
            out.append(f"  … and {report.findings.dropped} more (see --json summary counts)")
    out.append(f"Results: {counted(report.findings.errors, 'error')}, "
               f"{counted(report.findings.warnings, 'warning')}, "
               f"{counted(report.findings.infos, 'note')}")
    out.append(f"Verdict: {report.verdict.upper()} ({report.verification_level})")
    return "\n".join(out)


def cmd_withhold(args: argparse.Namespace) -> int:
    from moderator_app.core.formats.withhold import WithholdError, withhold_log

    try:
        stats = withhold_log(args.log, args.out)
    except WithholdError as exc:  # a line that cannot be parsed: refuse, name the line
        print(f"moderator-app: cannot withhold {safe_text(str(args.log))}: "
              f"{safe_text(str(exc))}", file=sys.stderr)
        return EXIT_FAIL
    except OSError as exc:
        # An error opening a file names it; one while writing (a full disk, a file-size
        # limit: "[Errno 27] File too large") did not say which file or that nothing was
        # written (s29 hostile sweep). The write is atomic: the target is left as it was.
        said = safe_text(str(exc)) if exc.filename else (
            f"cannot write the public version of {safe_text(str(args.log))} to "
            f"{safe_text(str(args.out))}: {safe_text(exc.strerror or str(exc))}; nothing "
            "was written")
        print(f"moderator-app: {said}", file=sys.stderr)
        return EXIT_UNREADABLE
    print(f"Wrote {safe_text(args.out)}: {stats.lines} lines, {stats.requests_withheld} requests and "
          f"{stats.responses_stripped} responses withheld")
    if stats.redacted:  # (review s41 R2: a key's shape in base64 data is redacted, not refused)
        shown = ", ".join(map(str, stats.redacted[:10])) + (" ..." if len(stats.redacted) > 10
                                                            else "")
        print(f"Redacted: {len(stats.redacted)} lines held a key's shape inside base64 of "
              f"binary data, published with those characters as '*' (lines {shown}; "
              "verify names them: secret.redacted)")
    return EXIT_PASS


def cmd_rules(args: argparse.Namespace) -> int:
    from moderator_app.core.catalogue import all_rules

    for r in all_rules():
        print(f"{r.id:<32} {r.severity.value:<8} {r.summary}")
    return EXIT_PASS
