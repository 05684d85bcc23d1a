"""One entry point for verification, used by the CLI, the GUI worker and the decision store.

    result = verify_paths(["submission/"], VerifyOptions(offset=1.5))
    result.report.verdict  # "pass" | "fail"

The kind-specific verifiers (`agent_log` for community runs, `trajectory` for official runs)
stream the evidence once, fill the report and return the run span; this module then checks
the video against that span and digests every file, so both kinds share one coverage path.
"""

from __future__ import annotations

import tempfile
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from moderator_app.core.errors import TooManyErrors
from moderator_app.core.formats.event_index import EventIndex
from moderator_app.core.formats.members import ROLE_LOG, ROLE_OTHER, ROLE_TRAJECTORY
from moderator_app.core.formats.streams import CHUNK, HashingReader
from moderator_app.core.formats.submission import (
    Submission,
    VideoRatioError,
    load_submission,
    local_copy,
)
from moderator_app.core.kinds import Kind
from moderator_app.core.progress import CancelToken, ProgressFn
from moderator_app.core.verify.coverage import compute_coverage, coverage_findings
from moderator_app.core.verify.input_rules import (
    AMBIGUOUS_KIND,
    CHANGED_WHILE_READ,
    FOLDER_LINK,
    MISSING_VIDEO,
    SEVERAL_LOGS,
    SEVERAL_VIDEOS,
    TOO_MANY_ERRORS,
    UNREADABLE_MEMBER,
)
from moderator_app.core.verify.options import KindResult, VerifyOptions
from moderator_app.core.verify.report import FileDigest, Report

if TYPE_CHECKING:
    from moderator_app.core.video.probe import VideoProbe
    from moderator_app.core.video.scan import ScanResult


@dataclass
class VerifyResult:
    submission: Submission
    report: Report
    index: EventIndex | None = None
    video_path: Path | None = None  # a local file for the checked video, for the player
    run_duration_s: float | None = None
    video_probe: VideoProbe | None = None  # with the frame index (core/video/probe.py)
    # The inputs' run times for the sync analysis (`formats.input_events`), read by the
    # workstation's verification process (`child.py`) so that the window never parses the
    # log; a text when they could not be read there (why); None: not read (the CLI reads
    # them itself when `--sync` asks).
    input_times: array | str | None = None
    # Beside `input_times`, each input's kind (`formats.input_events.inputs`: a press's
    # button), read with them; None when not read.
    input_kinds: tuple[str, ...] | None = None
    # Beside `input_times`, the log's idle stretches (run times from, to:
    # `formats.input_events.idle_stretches`, `sync.silent_log`), read with them; None when
    # not read.
    log_idle: tuple[tuple[float, float], ...] | None = None
    # The whole integrity scan `verify --scan` ran (None: not run, or stopped at its budget):
    # the sync analysis reads its signals here rather than reading the scan's cache again
    # (`sync.run.analyze_result`; 3-4 ms of a 40 s run's `--sync`, session 14). Never sent
    # from the workstation's verification process (`child.py` picks its fields).
    scan: ScanResult | None = None


def verify_paths(paths: Sequence[str | Path], options: VerifyOptions | None = None,
                 progress: ProgressFn | None = None,
                 cancel: CancelToken | None = None) -> VerifyResult:
    """Load and verify a submission. Raises InputError when it cannot be read at all."""
    return verify_submission(load_submission(paths), options or VerifyOptions(), progress, cancel)


ERROR_BUDGET = 20_000  # errors counted before a verification stops examining lines


def verify_submission(sub: Submission, options: VerifyOptions,
                      progress: ProgressFn | None = None,
                      cancel: CancelToken | None = None) -> VerifyResult:
    """Verify a loaded submission. Temporary files (a video copied out of an archive) go to
    `options.spool_dir` when given (the GUI keeps them for the player); otherwise to a folder
    of our own that is removed before this returns, whether it succeeds, fails or is
    interrupted (KeyboardInterrupt and SystemExit unwind through the `with`)."""
    if options.spool_dir is not None:
        return _verify(sub, options, progress, cancel)
    with tempfile.TemporaryDirectory(prefix="moderator-app-") as tmp:
        result = _verify(sub, replace(options, spool_dir=Path(tmp)), progress, cancel)
        if result.video_path is not None and Path(tmp) in result.video_path.parents:
            result.video_path = None  # about to be removed: no player outside the GUI
        return result


def _verify(sub: Submission, options: VerifyOptions, progress: ProgressFn | None,
            cancel: CancelToken | None) -> VerifyResult:
    report = Report(kind=sub.kind, input_name=sub.display_name, offset=options.offset)
    for f in sub.findings:
        report.add(f)
    for name in sub.links:
        report.add(FOLDER_LINK.at(f"{name} is a symbolic link: refused, never followed", name))
    logs, trajectories = sub.by_role(ROLE_LOG), sub.by_role(ROLE_TRAJECTORY)
    if logs and trajectories:
        # The chain has no key: anyone can write a valid events.jsonl. Its mere presence must
        # not turn a community run (whose log may fail) into an official one, so a submission
        # holding both kinds of evidence is refused as ambiguous (docs/DECISIONS.md).
        report.add(AMBIGUOUS_KIND.at(
            f"the submission holds both an agent log ({logs[0].name}) and a trajectory "
            f"({trajectories[0].name}): it is ambiguous which is the run's evidence; "
            f"verifying {sub.evidence.name} only, and the submission cannot pass",
            logs[0].name if sub.kind == Kind.OFFICIAL else trajectories[0].name))
    elif trajectories and sub.by_role(ROLE_OTHER):
        # ... nor may a log moved into a nested archive beside it (core/verify/nested.py)
        from moderator_app.core.verify.nested import nested_problems
        for name, why in nested_problems(sub, options.spool_dir):
            report.add(AMBIGUOUS_KIND.at(
                f"{why}; beside the trajectory ({trajectories[0].name}) it is ambiguous which "
                "is the run's evidence, and the submission cannot pass", name))
    evidence = sub.by_role(sub.kind.evidence_role)
    if len(evidence) > 1:
        report.add(SEVERAL_LOGS.at(
            "several evidence files: " + ", ".join(m.name for m in evidence)
            + f"; verifying {evidence[0].name}", evidence[1].name))
    report.error_budget = ERROR_BUDGET
    if options.probe_video and sub.videos:
        # The video's isolated process starts now and imports PyAV and numpy (~0.2 s of CPU)
        # on the other core while the evidence is verified; with verify --scan the same
        # process probes and then scans (`_check_video`; core/video/isolate.py). Forked from
        # this process where that is safe (the CLI: core/video/forking.py), it has numpy
        # already and imports PyAV alone.
        from moderator_app.core.video.isolate import prestart
        prestart(1, fork=True)
    try:
        kind_result: KindResult = _verifier(sub.kind)(sub, options, report, progress, cancel)
    except TooManyErrors as exc:
        report.error_budget = None
        report.complete = False
        report.add(TOO_MANY_ERRORS.at(
            f"more than {ERROR_BUDGET} errors: verification stopped at line {exc.line}; the "
            "rest of the file was hashed but not examined", sub.evidence.name, exc.line))
        kind_result = KindResult(None, None)
    report.error_budget = None
    result = VerifyResult(sub, report, kind_result.index, None, kind_result.run_duration_s)
    if options.probe_video:
        _check_video(sub, options, report, result, cancel)
    _digest_remaining(sub, report, cancel)
    _check_unchanged(sub, report)
    return result


def _check_unchanged(sub: Submission, report: Report) -> None:
    """`input.changed` for each file read that is not what it was when listed. The log is
    digested as it is parsed, but the video is probed, scanned and digested in separate
    reads, by path: a video swapped between the probe and the digest gave a report judged on
    one file and a digest (the decision's binding) of another, with nothing said."""
    for path in sub.changed_files():
        name = next((m.name for m in sub.members
                     if m.local_path is not None and str(m.local_path) == path), None)
        report.add(CHANGED_WHILE_READ.at(
            f"{name or Path(path).name} changed while it was being verified (replaced, "
            "rewritten or removed): the findings and the digests may describe different "
            "bytes; verify the submission again once it holds still", name))


# What verifies the evidence of one kind of run (`verify_agent_log`, `verify_trajectory`).
Verifier = Callable[[Submission, VerifyOptions, Report, ProgressFn | None, CancelToken | None],
                    KindResult]


def _verifier(kind: Kind) -> Verifier:
    """The verifier of a kind, imported on first use (a community run never loads the
    trajectory engine, nor an official one the agent-log checker)."""
    if kind is Kind.OFFICIAL:
        from moderator_app.core.verify.trajectory import verify_trajectory
        return verify_trajectory
    from moderator_app.core.verify.agent_log import verify_agent_log
    return verify_agent_log


def _check_video(sub: Submission, options: VerifyOptions, report: Report,
                 result: VerifyResult, cancel: CancelToken | None = None) -> None:
    videos = sub.videos
    if not videos:
        if sub.kind.video_required:
            # a listing cut at its member cap says nothing of the names past it: a folder of
            # 100,000 files with video.mp4 among them was told "no video in the submission"
            capped = any(f.rule == "archive.too_many_members" for f in sub.findings)
            where = ("no video among the members listed (the listing stopped at its cap; the "
                     "rest were not looked at)" if capped else "no video in the submission")
            report.add(MISSING_VIDEO.at(
                f"{where}: a community run needs its full video "
                "(.mp4 .mkv .webm .mov .avi .ts .mpg ... any container FFmpeg plays)", None))
        return
    video = videos[0]
    if len(videos) > 1:
        report.add(SEVERAL_VIDEOS.at(
            f"{len(videos)} videos; checking the largest, {video.name}; also: "
            + ", ".join(v.name for v in videos[1:]), video.name))
    from moderator_app.core.verify.sections_video import ScanNotRun, VideoSection
    from moderator_app.core.video.probe import (
        probe_video,  # the video is read in an isolated process (core/video/isolate.py)
    )

    def record(sha256: str, size: int) -> None:  # digested while copied out of an archive
        report.files.append(FileDigest(video.name, video.role, size, sha256))

    try:
        path = local_copy(video, options.spool_dir, on_digest=record)
    except VideoRatioError as exc:  # bytes that are no video: what the probe would say
        from moderator_app.core.video.probe import UNREADABLE as VIDEO_UNREADABLE

        report.add(VIDEO_UNREADABLE.at(f"the video cannot be read: {exc}", video.name))
        return
    except OSError as exc:
        report.add(UNREADABLE_MEMBER.at(f"cannot read the video: {exc}", video.name))
        return
    shared = _scan_process(path) if options.scan_video else None
    scan = None
    try:
        if options.scan_video:
            if report.digest_for(video.name) is None:
                # the scan's cache is keyed by this digest: taken once, here, rather than by
                # the scan and again with the other members (two reads of the whole file)
                _digest_member(video, report, cancel)
            probe, scan = _probe_and_scan(path, video.name, report, options.scan_budget_s,
                                          shared)
        else:
            probe = probe_video(path, video.name)
            report.video_scan = ScanNotRun("not requested (verify --scan runs it)")
    finally:
        if shared is not None:
            shared.close()
    report.video = VideoSection.of(probe)
    for f in probe.findings:
        report.add(f)
    result.video_path = path if probe.ok else None
    result.video_probe = probe
    if scan is not None:
        for f in scan.findings(video.name):
            report.add(f)
        result.scan = scan if scan.complete else None
    if probe.ok and result.run_duration_s is not None and probe.duration_s is not None:
        cov = compute_coverage(result.run_duration_s, probe.duration_s, options.offset,
                               probe.gaps)
        report.coverage = cov
        for f in coverage_findings(cov, video.name, probe.gaps):
            report.add(f)


def _scan_process(path: Path):
    """verify --scan's one isolated process for the probe and then the scan of `path`: a
    second process cost a second start (the interpreter, PyAV and numpy: ~0.15-0.2 s of CPU,
    as much as the whole decode of a 24 s 320x240 video), and was started for nothing when
    the scan came from the cache. None when it cannot start: the probe then starts its own
    and says why it could not."""
    from moderator_app.core.video.isolate import VideoProcess, VideoProcessError

    try:
        return VideoProcess(path, fork=True)
    except VideoProcessError:
        return None


def _probe_and_scan(path: Path, name: str, report: Report, budget_s: float | None,
                    process=None) -> tuple[VideoProbe, ScanResult | None]:
    """verify --scan's probe, then its scan, in `process`. The scan decodes every frame, so
    it also says which is the last that decodes: the probe leaves that decode to it (the
    tail pass decoded the last GOPs a second time: 0.13 s of a 2.1 s decode floor on a 20 s
    1080p50 MPEG-2 file, QA session 15 H5), and is judged with the scan's frames. A scan
    that failed or stopped at its budget does not say it: the probe then runs whole, in a
    process of its own, as without --scan."""
    from moderator_app.core.verify.sections_video import VideoScanSection
    from moderator_app.core.video.probe import last_decoded, probe_for_scan, probe_video

    probe, pending = probe_for_scan(path, name, process)
    scan = _scan_video(probe, path, name, report, budget_s, process)
    if pending is not None:
        last = last_decoded(pending.index, scan.signals.pts) \
            if scan is not None and scan.complete else None
        probe = pending.judge(last) if last is not None else probe_video(path, name)
    if scan is not None and probe.no_footage:
        # no picture finding where the probe says there is no footage (`ScanResult.outside`),
        # in the findings and in the section alike
        scan = scan.outside(probe.no_footage)
        report.video_scan = VideoScanSection.of(scan)
    return probe, scan


def _scan_video(probe: VideoProbe, path: Path, name: str, report: Report,
                budget_s: float | None, process=None) -> ScanResult | None:
    """The integrity scan (verify --scan) and the `video_scan` section; its findings are the
    caller's to add (after the probe's). `process`: the isolated process that probed the
    video, which decodes it (else its own). None: not run or failed."""
    from moderator_app.core.verify.sections_video import ScanNotRun, VideoScanSection
    from moderator_app.core.video.isolate import VideoProcessError
    from moderator_app.core.video.scan import run_scan

    if not probe.ok:
        report.video_scan = ScanNotRun("the video cannot be read")
        return None
    digest = report.digest_for(name)
    try:
        scan = run_scan(path, sha256=digest.sha256 if digest else None,
                        total=probe.frame_count or 0, budget_s=budget_s, process=process)
    except VideoProcessError as exc:
        report.video_scan = ScanNotRun(f"the scan could not decode the video: {exc.reason}")
        return None
    report.video_scan = VideoScanSection.of(scan)
    return scan


def _digest_remaining(sub: Submission, report: Report, cancel: CancelToken | None) -> None:
    """SHA-256 of every evidence member (log, trajectory, videos) the verifier did not
    already digest while reading it. Members that no role needs are not read at all: a
    16 GiB sparse or zero-filled member would cost minutes and prove nothing, and a
    decision binds the evidence, not the extras (docs/DECISIONS.md)."""
    unreadable = {f.file for f in report.findings if f.rule == UNREADABLE_MEMBER.id}
    for m in sub.members:
        if (m.role == ROLE_OTHER or report.digest_for(m.name) is not None
                or m.name in unreadable):  # already failed once: a bomb is not read twice
            continue
        _digest_member(m, report, cancel)
    order = {m.name: i for i, m in enumerate(sub.members)}
    report.files.sort(key=lambda f: order.get(f.name, len(order)))


def _digest_member(m, report: Report, cancel: CancelToken | None) -> None:
    """SHA-256 of one member into `report.files` (a finding when it cannot be read)."""
    try:
        with m.open() as raw:
            reader = HashingReader(raw, m.size, None, cancel)
            while reader.read(CHUNK):
                pass
            report.files.append(FileDigest(m.name, m.role, reader.bytes_read,
                                           reader.hexdigest()))
    except OSError as exc:
        report.add(UNREADABLE_MEMBER.at(f"cannot read: {exc}", m.name))
