"""The sync analysis of a verified submission, and its place in the report.

    analysis = analyze_result(result, thresholds)   # None when there is no readable video
    add_to_report(result.report, analysis, video_name)

Kept above `verify` (layers: sync > verify): the verification pipeline does not know about sync;
the CLI and the GUI call this after `verify_paths`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from moderator_app.core.errors import InputError
from moderator_app.core.rules import Finding, Severity
from moderator_app.core.sync import align, stats
from moderator_app.core.sync import rules as R
from moderator_app.core.sync.analysis import SyncAnalysis, SyncFinding, analyze
from moderator_app.core.sync.colour_answers import answered_in_colour, marks
from moderator_app.core.sync.finer_beat import video_look
from moderator_app.core.sync.hidden import hides_no_press
from moderator_app.core.sync.inputs import idle_stretches, inputs
from moderator_app.core.sync.signals import frame_signals, from_scan
from moderator_app.core.sync.silent import READ_FLOOR_S, with_silent
from moderator_app.core.text import safe_text
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS, Thresholds

SCHEMA = "moderator-app/sync/v1"


# The most actions the sync analysis takes, in the workstation and on the command line alike
# (`verify --sync`, `--offset auto`): a bound about the input, not the machine. The analysis
# grows with the actions (on a 150 s Pong video: 20,000 actions 2.8 s of CPU and +15 MiB,
# 100,000 11 s and +49 MiB, 200,000 17 s and +92 MiB, 1,000,000 74 s and +436 MiB: past the
# hostile bound of 30 s and 512 MiB); an honest run presses a few times a second (a 40 s Atari
# run: ~30-120 actions; 100,000 is hours of 10 presses a second).
MAX_ACTIONS = 100_000
# A recording the sync analysis reads (`TooFineFrames`): at most 1,000 frames a second (a
# game capture runs at 25-240), and past 50,000 frame periods from its first frame to its
# last (14 minutes at 60 fps), at least a frame in every GAPS periods.
MAX_FPS = 1000.0
MAX_PERIODS = 50_000
GAPS = 4

# The analysis takes the actions of the stretch of run time the footage could show (its span
# at the fastest speed searched, `align.SPEEDS`, plus REACH_MARGIN_S) that holds the most of
# them. Its work and memory grow with the run's span, not only the actions: a log whose last
# 12 actions claimed 63,000 years of elapsed time asked the band search for a 4 PiB spectrum
# and stepped the local track every 2 s up to there (QA session 13: 48-53 s, then out of
# memory; the workstation past 1 GB). A run the footage covers (within the 5 s coverage
# allows) is always whole: the margin leaves every corpus run unchanged.
REACH_MARGIN_S = 300.0


def within_reach(times, video_span_s: float) -> list[float]:
    """`times` (in their order) of the densest stretch of run time, REACH_MARGIN_S longer
    than the footage could show at the fastest speed searched; all of them when the run is
    no longer than that."""
    ts = np.sort(np.asarray(times, float))
    reach = max(video_span_s, 0.0) * float(align.SPEEDS[-1]) + REACH_MARGIN_S
    if len(ts) == 0 or not np.isfinite(ts).all() or float(ts[-1] - ts[0]) <= reach:
        return list(times)
    ends = np.searchsorted(ts, ts + reach, side="right")
    first = int(np.argmax(ends - np.arange(len(ts))))
    lo, hi = float(ts[first]), float(ts[first]) + reach
    return [t for t in times if lo <= t <= hi]


class InputsUnreadable(InputError):
    """The verification's process could not read the inputs' times (the text says why): no
    analysis, and the window shows why instead of reading the log itself."""


class TooFineFrames(InputsUnreadable):
    """Frames closer together than `MAX_FPS`, or a span of more frame periods than
    `MAX_PERIODS` that its frames fill less than a quarter of: nothing analysed. The
    analysis's windows, lookup tables and correlations are counted in frame periods of the
    span, not in frames: 100 frames 1 ns apart (1e9 fps) asked for a loop of 10^8 steps and
    22 GB; 11 frames at 60 fps, the last at 3,000 s, ran past 99 s and at 30,000 s past
    512 MiB (session 25). An honest recording has about a frame per period."""

    def __init__(self, fps: float, periods: float, frames: int) -> None:
        super().__init__(
            f"the video's {frames:,} frames are {1 / fps:.3g} s apart ({fps:,.4g} a second) "
            f"over {periods:,.0f} frame periods from its first frame to its last: more than "
            f"{MAX_FPS:,.0f} frames a second, or more than {MAX_PERIODS:,} periods with "
            f"under one frame in {GAPS}, is more than the sync analysis reads: none analysed "
            "(its time and memory grow with the periods, not the frames)")
        self.fps, self.periods, self.frames = fps, periods, frames


class TooManyActions(InputsUnreadable):
    """More actions than `MAX_ACTIONS`: nothing analysed. The text says what and why, the
    same words in the Sync panel, `verify --sync`'s `sync.not_analysed` note and
    `--offset auto`'s refusal."""

    def __init__(self, n: int, cap: int) -> None:
        super().__init__(
            f"{n} actions, more than the {cap} the sync analysis takes: none analysed (its "
            "time and memory grow with the actions; an honest run presses a few times a "
            "second)")
        self.actions, self.cap = n, cap


def analyze_result(result, thresholds: Thresholds | None = None,
                   offset_s: float | None = None, cancel=None,
                   max_actions: int | None = None) -> SyncAnalysis | None:
    """Analyse a `VerifyResult`; None when it has no readable video. The picture's signals
    come from the integrity scan (its cache when `verify --scan` or the player ran it: no
    second decode). `cancel`: a CancelToken; a cancelled analysis raises Cancelled. The
    inputs' times are `result.input_times` when the workstation's verification process read
    them (the window never parses the log), else read from the log here, before the video
    is decoded. More than `max_actions` actions (default `MAX_ACTIONS`): TooManyActions,
    nothing analysed and nothing decoded. The signals of a whole scan the verification
    ran (`result.scan`, verify --scan) are read from it."""
    if result.video_path is None:
        return None
    cap = MAX_ACTIONS if max_actions is None else max_actions
    times = getattr(result, "input_times", None)
    kinds = getattr(result, "input_kinds", None)
    if isinstance(times, str):  # the verification's process could not read them: why
        raise InputsUnreadable(times)
    # the log's idle stretches (`sync.silent_log`), read beside the times
    idle = getattr(result, "log_idle", None)
    if times is None:  # not read beside the verification (the CLI): read them now
        times, kinds = inputs(result.submission)
        idle = idle_stretches(result.submission, READ_FLOOR_S)
    if len(times) > cap:
        raise TooManyActions(len(times), cap)
    scan = getattr(result, "scan", None)
    if scan is not None:  # verify --scan's whole scan: its signals, not its cache read again
        sig = from_scan(scan.signals)
        if len(sig) == 0:
            raise OSError(f"no frame could be decoded: {result.video_path}")
    else:
        videos = result.submission.videos
        digest = result.report.digest_for(videos[0].name) if videos else None
        sig = frame_signals(result.video_path, sha256=digest.sha256 if digest else None,
                            cancel=cancel)
    if cancel is not None:
        cancel.check()
    span = float(sig.times[-1] - sig.times[0]) if len(sig.times) else 0.0
    periods = span * sig.fps
    if sig.fps > MAX_FPS or (periods > MAX_PERIODS and periods > GAPS * len(sig)):
        raise TooFineFrames(sig.fps, periods, len(sig))
    kept = within_reach(times, span)
    # the kinds stand beside whole runs only (a run the footage cannot cover is read
    # without them: `kinds` is a refinement of a suggestion, not evidence)
    kinds = list(kinds) if kinds is not None and len(kept) == len(times) == len(kinds) \
        else None
    th = thresholds or DEFAULT_THRESHOLDS
    a = analyze(kept, sig, th, offset_s, getattr(result, "run_duration_s", None),
                input_kinds=kinds, look=video_look(result.video_path, _scan_of(result, scan)))
    # the frames whose colour alone changed in a mark: a held picture answering presses in
    # colour (`wait_note`, colour_answers.py)
    a = replace(a, colour_marks=marks(sig.times, sig.hue))
    return with_silent(a, idle, th.sync_activity_gap_s)


def _scan_of(result, scan):
    """The integrity scan a full-resolution look reads its frames' times from
    (`finer_beat.video_look`): the verification's, else the scan's cache, read when asked
    (the signals were read from it: a cache hit, no decode)."""
    def scan_of():
        if scan is not None:
            return scan
        from moderator_app.core.video.scan import run_scan

        videos = result.submission.videos
        digest = result.report.digest_for(videos[0].name) if videos else None
        return run_scan(result.video_path, sha256=digest.sha256 if digest else None,
                        finer=False)

    return scan_of


def _r(x, nd=3):
    return None if x is None else round(float(x), nd)


@dataclass(frozen=True)
class SyncSection:
    """The report's `sync` section (`verify --sync`): the analysis it is written from. A
    report section (`verify.sections.Section`) kept here, above verify, which never imports
    sync; readers of the report use `analysis`, never the JSON's keys."""

    analysis: SyncAnalysis

    def to_dict(self) -> dict[str, Any]:
        a = self.analysis
        d = _analysis_dict(a)
        d["findings"] = [{"rule": f.rule, "video_start_s": f.video_start_s,
                          "video_end_s": f.video_end_s, "run_start_s": f.run_start_s,
                          "run_end_s": f.run_end_s, "size_s": f.size_s, "percent": f.percent,
                          "actions": f.actions} for f in a.findings]
        return d


def _analysis_dict(a: SyncAnalysis) -> dict[str, Any]:
    delays = sorted(r.delay_s for r in a.reactions if r.delay_s is not None)

    def q(p):
        return _r(delays[min(len(delays) - 1, int(p * len(delays)))]) if delays else None

    return {
        "schema": SCHEMA,
        "suggested_offset_s": a.suggested_offset_s,
        "confidence": a.confidence,
        "confidence_note": a.confidence_note or None,
        "supporting_actions": a.supporting_actions,
        "actions": a.actions,
        "not_enough_signal": a.suggested_offset_s is None,
        "reason": a.reason or None,
        "offset_used_s": _r(a.offset_used_s, 4),
        "drift_percent": a.drift_percent,
        # measured: the reader attributed the answering frame (its window); without_reaction:
        # no answer within the 0.5 s `sync.no_reaction` counts misses in (`Reaction.missed`);
        # answered_late: the rest, answered within 0.5 s but not attributed (review s36 V2)
        "reactions_summary": {"measured": len(delays),
                              "without_reaction": sum(r.missed for r in a.reactions),
                              "answered_late": sum(r.video_s is None and not r.missed
                                                   for r in a.reactions),
                              "delay_s_p10": q(0.1), "delay_s_median": q(0.5),
                              "delay_s_p90": q(0.9)},
        "reactions": [{"action": r.index, "run_s": _r(r.run_s),
                       "expected_video_s": _r(r.expected_video_s), "video_s": _r(r.video_s),
                       "delay_s": _r(r.delay_s), "confidence": _r(r.confidence, 2),
                       "missed": r.missed}
                      for r in a.reactions],
        "offset_track": [{"run_s": p.run_s, "offset_s": p.offset_s, "z": p.z} for p in a.track],
        "segments": [{"run_start_s": _r(s0), "run_end_s": _r(s1), "offset_s": _r(o, 4)}
                     for s0, s1, o in a.segments],
    }


def finding_message(f) -> str:
    parts = [f.message]
    if f.video_start_s is not None:
        span = f"video {f.video_start_s:.2f} s" + (
            f" to {f.video_end_s:.2f} s" if f.video_end_s is not None else "")
        parts.append(span)
    if f.run_start_s is not None:
        parts.append(f"run {f.run_start_s:.2f} s to {f.run_end_s:.2f} s")
    return "; ".join(parts)


# A scan's held picture and the sync's are read at different resolutions: their ends (the
# first changed frame) fall 1-2 frames apart (Human Cannonball at 25 fps: 8.32 / 8.28 s,
# 25.52 / 25.44 s, 33.04 / 33.00 s).
WAIT_MATCH_S = 0.1
# ... and the scan's can end later still: its same-picture share takes a game's first small
# reaction frame for the held picture (Casino in H.264 at 25 fps: the sync's 255 points at
# 20.00 s, 0.8 % of its points, the next change at 20.12 s, where the scan's hold ends).
WAIT_MATCH_LATE_S = 0.2
FROZEN_RULE = "video.frozen"
# A scan's held picture inside which the sync's finer picture answers this many presses of the
# log (`_answered`) ...
ANSWERED_MIN = 2
# ... each a reaction of at least this confidence ...
ANSWERED_CONFIDENCE = 0.7
# ... at the run's own delay (the median of its confident reactions outside the span), this
# either side: a recording that repeats one frame answers none; a splice's jump inside a hold
# is one change at no press's lag (QA s26's Human Cannonball cut: 0.23 and 0.35 s late)
ANSWERED_LAG_S = 0.05


def wait_note(f: Finding, a: SyncAnalysis) -> Finding:
    """`f` as the report says it beside the sync analysis `a`: a scan's `video.frozen`
    warning whose held picture ends where one of `a.waits` does (the game waiting for a
    button: core/sync/waits.py `game_waits`) becomes a note saying so; any other finding
    unchanged. The scan's own result (its cache) is not changed: only how its finding reads
    beside a log. Why: a scan finding has no log; a game that holds its picture until a
    button is pressed (Human Cannonball, until FIRE shoots the cannon: QA s26 T3) shows a
    warning for every shot on a genuine run, while footage frozen by an edit resumes where
    the cut lands, at no such press (the corpus' freezes and pauses keep their warnings). A
    wait taken by the game's button alone (`GameWait.agreed`) must hold a press of the
    log's before the ending one inside the scan's hold: a pause holds none; or begin before
    the run does at that offset, its ending press the log's first there (the game's title
    waiting for its first button: QA s28's Blackjack, held from 0.93 s, the run starting at
    3.72 s, its first press a FIRE at 4.76 s answered at the lag four later holds agree
    on), where no press of the log could have been held. A scan's hold that lies inside a
    wait's held picture and ends before it is part of that picture (the sync's finer one saw
    no change where the scan's stopped counting frames as identical: QA s28's Blackjack in
    Theora at 12 fps, the scan's 20.58-24.00 s inside the wait 20.67-24.33 s)."""
    if f.rule != FROZEN_RULE or f.severity is not Severity.WARNING or f.video_end_s is None:
        return f
    for w in a.waits:
        inside = f.video_start_s is not None and \
            w.start_s - WAIT_MATCH_S <= f.video_start_s and f.video_end_s <= w.end_s
        if not (inside or -WAIT_MATCH_S <= f.video_end_s - w.end_s <= WAIT_MATCH_LATE_S) or \
                (f.video_start_s is not None and f.video_start_s >= w.end_s):
            continue
        opens = w.held_s is None and f.video_start_s is not None and \
            f.video_start_s <= w.offset_s and w.start_s <= w.offset_s
        if w.agreed and not opens and (w.held_s is None or (
                f.video_start_s is not None and w.held_s < f.video_start_s - WAIT_MATCH_S)):
            continue
        if not w.agreed and not w.opening_s and _off_the_games_lag(w, a):
            continue
        button = _button(w.kind)
        if w.opening_s is not None:
            why = (f"the game, held from before the log's first press and ignoring the "
                   f"presses until then, started with a button {button} names at "
                   f"{w.opening_s:.2f} s, its "
                   f"picture changing {w.lags[0]:+.2f} s from that press at this offset: "
                   f"the button the game waits for, and its reaction; this one resumes at "
                   f"{w.end_s:.2f} s")
        elif not w.agreed:
            why = (f"no press held before it was {button}; the picture resumes at "
                   f"{w.end_s:.2f} s with the game's next frame")
        else:
            lo, hi = w.lags
            first = button if w.agreed_kind is None else _button(w.agreed_kind)
            why = (f"{w.agreed} held pictures of the run end {lo:.2f} to {hi:.2f} s after a "
                   f"{first} at this offset: " + (
                       "the button the game waits for, and its reaction" if w.agreed_kind
                       is None else f"the game's reaction to its buttons; this one ends at "
                       f"that lag after a {button}, the first inside it")
                   + f"; this one resumes at {w.end_s:.2f} s"
                   + ("" if a.offset_used_s is not None else
                      "; no offset suggested: the one those held pictures agree on"))
        return replace(f, severity=Severity.INFO, message=(
            f"{f.message}: held until {button}, pressed at video {w.press_s:.2f} s at the "
            f"offset {w.offset_s:.3f} s ({why}): the game waiting for the button, not "
            f"frozen footage"))
    if f.video_start_s is not None:
        hidden = hides_no_press(f.video_start_s, f.video_end_s, a)
        if hidden is not None:  # a held picture that hides no press (hidden.py)
            return replace(f, severity=Severity.INFO, message=f"{f.message}: {hidden}")
    answered = _answered(f, a)
    if answered:
        shown = ", ".join(f"{v:.2f}" for v in answered)
        return replace(f, severity=Severity.INFO, message=(
            f"{f.message}: the picture answers {len(answered)} presses inside it (video "
            f"{shown} s, at the run's own delay at the offset {a.offset_used_s:.3f} s): a "
            f"game's small changes the scan's share does not count, not a held picture"))
    coloured = answered_in_colour(f.video_start_s, f.video_end_s, a) \
        if f.video_start_s is not None else []
    if coloured:
        shown = ", ".join(f"{v:.2f}" for v in coloured)
        return replace(f, severity=Severity.INFO, message=(
            f"{f.message}: its colour alone changes inside it, in a mark, at video {shown} s "
            f"and nowhere else, each the answer to a button pressed there at the run's own "
            f"delay at the offset {a.offset_used_s:.3f} s: a game answering in colour at one "
            f"brightness (a lamp), not a held picture"))
    return f


def _answered(f: Finding, a: SyncAnalysis) -> list[float]:
    """The video times of the presses the picture answers inside the scan's held picture `f`
    (not at its first frame nor at its end: the change into it and the press that ends it),
    at the offset `a` used: reactions of `ANSWERED_CONFIDENCE` or more whose delay lies
    `ANSWERED_LAG_S` from the median of the run's other confident reactions; empty when
    fewer than `ANSWERED_MIN`. Why: the scan counts a frame "the same picture" when under
    `same_changed_max` of its points changed (codec noise), and a game whose answers are a
    few digits (QA s29's Basic Math in FFV1: 0.08-0.6 % of the points, 96-442 of the sync's)
    reads frozen for 10.6 s while the sync's finer picture shows four presses answered at
    0.005-0.018 s. A recording that repeats one frame answers no press; changing the scan's
    test instead broke all-intra recordings (DECISIONS, session 30)."""
    if a.offset_used_s is None or f.video_start_s is None or f.video_end_s is None:
        return []
    lo, hi = f.video_start_s + WAIT_MATCH_S, f.video_end_s - WAIT_MATCH_S
    sure = [(float(r.video_s), float(r.delay_s)) for r in a.reactions
            if r.video_s is not None and r.delay_s is not None
            and r.confidence >= ANSWERED_CONFIDENCE]
    inside = [(v, d) for v, d in sure if lo <= v <= hi]
    others = [d for v, d in sure if not f.video_start_s <= v <= f.video_end_s]
    if len(inside) < ANSWERED_MIN or not others:
        return []
    usual = stats.median(np.asarray(others))
    times = [v for v, d in inside if abs(d - usual) <= ANSWERED_LAG_S]
    return times if len(times) >= ANSWERED_MIN else []


def _button(kind: str) -> str:
    """The log's own name for a press's button (capped at KIND_MAX_CHARS): one line."""
    return safe_text(kind.split("=", 1)[-1] if kind.startswith("press button=") else kind)


def _off_the_games_lag(w, a: SyncAnalysis) -> bool:
    """Does the one-hold wait `w` resume further from its press than the lag the run's
    agreed waits answer their button at (their lags' band, WAIT_MATCH_S either side)? A
    game answers its button at one lag; footage frozen by an edit resumes where the cut
    lands. QA s28's Blackjack with 4 s frozen at 20.10 s: read at the truth, the freeze ended
    0.64 s after an UP and was taken as a wait, while five of the run's holds end 0.02-0.07 s
    after a FIRE. False with no agreed wait at `w`'s offset (nothing to compare with)."""
    agreed = [x for x in a.waits if x.agreed and abs(x.offset_s - w.offset_s) <= WAIT_MATCH_S]
    if not agreed:
        return False
    # (only where the agreed waits were read at `w`'s own offset: a moderator's offset is
    # searched a second either side for them, and a press `w` ends at there is another)
    lag = w.end_s - w.press_s
    lo, hi = min(x.lags[0] for x in agreed), max(x.lags[1] for x in agreed)
    return not lo - WAIT_MATCH_S <= lag <= hi + WAIT_MATCH_S


def wait_notes(findings, a) -> list[Finding]:
    """`findings` with `wait_note` beside `a` (a SyncAnalysis; anything else: unchanged)."""
    if not isinstance(a, SyncAnalysis):
        return list(findings)
    return [wait_note(f, a) for f in findings]


def add_to_report(report, a: SyncAnalysis, video_name: str | None) -> None:
    """The `sync` section and the `sync.*` findings (warnings; a note for no suggestion);
    a scan's `video.frozen` the game's wait explains said as a note (`wait_note`)."""
    report.sync = SyncSection(a)
    if a.waits or a.reactions:
        report.findings = report.findings.rewording(lambda f: wait_note(f, a))
        report.video_scan = _scan_said(report.video_scan, a)
    if a.suggested_offset_s is None:
        report.add(R.NOT_ENOUGH_SIGNAL.at(f"no offset suggested: {a.reason}", video_name))
    for f in a.findings:
        report.add(sync_finding(f, video_name))


def _scan_said(section, a: SyncAnalysis):
    """The report's `video_scan` section with its `video.frozen` spans as the findings list
    says them beside `a` (`wait_note`): one report, one severity for one span. The section
    kept the scan's own warning while the findings said the note (QA s29's judge reads the
    section: Hangman's wait 4.75-10.13 s, a note at the truth, counted a warning there)."""
    spans = getattr(section, "findings", None)
    if not spans or not any(s.rule == FROZEN_RULE for s in spans):
        return section
    said = []
    for s in spans:
        f = wait_note(Finding(Severity(s.severity), s.rule, s.message,
                              video_start_s=s.start_s, video_end_s=s.end_s), a)
        said.append(replace(s, severity=f.severity.value, message=f.message))
    return replace(section, findings=tuple(said))


def sync_finding(f: SyncFinding, video_name: str | None) -> Finding:
    """One sync finding as the report words it (also the workstation's findings list), with
    its times: the actions' run times, which stay where they are whatever offset the
    moderator sets (a click goes there: `core/verify/moments.py`), and its video times, which
    hold at the offset the analysis used."""
    return R.BY_ID[f.rule].at(finding_message(f), video_name,
                              video_start_s=f.video_start_s, video_end_s=f.video_end_s,
                              run_start_s=f.run_start_s, run_end_s=f.run_end_s)
