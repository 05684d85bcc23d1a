"""The integrity scan's rules and its finding record (`Span`), apart from scan.py so that the
modules that judge one kind of stretch (scan_holds.py: frozen and black; scan_gaps.py:
timestamp gaps; scan_cuts.py: cuts) share them without importing the scan's runner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from moderator_app.core.rules import Severity, rule

if TYPE_CHECKING:
    from moderator_app.core.thresholds import ScanThresholds

    from .scan import FrameSignals

G = "video-scan"
FROZEN = rule("video.frozen", Severity.WARNING,
              "The picture does not stay the same for 3 s or more (a frozen or held frame; "
              "a note where, decoded again at full resolution, a fifth or more of its "
              "colour samples move by 3 levels or more off a keyframe, again and again, "
              "less than a second apart, with no 3 s without, and so too, 3 or more times, "
              "in the 1.5 s before it or after it (a palette whose colours turn a step at a "
              "time at one brightness, each step too small for the scan; "
              "`core/video/held_colour.py`), where they stop for 3 s or more a warning "
              "there; where its colours turn so only while it holds, a warning that says it "
              "(a held frame recoloured by an edit); where its mean brightness drifts more "
              "than a level within a second and nothing else moves, a note that says "
              "whether its colours turn so too (a palette) or not (a fade: a game's, or a "
              "held frame faded by an edit); "
              "a note when held from the first frame or to the last, and when its frames, "
              "decoded again at full resolution, change inside it so that no 3 s stay the "
              "same: a clock's digit, a cursor or a small sprite the scan's sample points "
              "miss, packed pixels off a keyframe and the two frames after it, each a picture "
              "the hold had not shown there unless 100 or more pixels moved: a small mark "
              "blinking over held frames is no change, nor is one where most of the pixels "
              "that moved took colours the frame before the hold did not hold (a mark drawn "
              "or blended over held frames); "
              "`core/video/held_finer.py`); a picture still to the last frame that, "
              "decoded again at full resolution, changes at least every second most of the "
              "time it lives, warns of each stretch of 3 s or more in which it stops, with 3 "
              "or more changes at that pace after it (a cursor's blinking stopped: held "
              "inside the run, not the footage's end; a second such stretch or a shorter "
              "hold elsewhere silences none), and, read place by place, of each stretch of "
              "3 s or more in which nothing changes over a mark that changes at that pace, "
              "3 or more times, before it and after it (a beacon of a few pixels on and off "
              "by turns; a mark drawn elsewhere meanwhile silences none; a cursor moved and "
              "living elsewhere meanwhile warns of nothing), but not of a stretch such a mark "
              "beats through at that pace, on past both its edges; a warning inside the run "
              "whose mark beats in part of it, 3 or more times, and stops 3 s or more is "
              "said where it stops (where no such stop is found, the warning stays whole). "
              "Beside a log "
              "(`verify --sync`, the workstation), a note when the log shows the game waiting "
              "for a button: the hold ends at a press of a button none of its presses named, "
              "with the game's next frame, or at a press of the button several of the run's "
              "holds end at, at their lag (with no offset suggested, the offset at which three "
              "or more holds agree), or at a press of the button that started the game after "
              "its opening hold, at that lag, or at the first press of a button inside it when "
              "three or more holds end so, at one lag, or at that lag after the first press "
              "of another button inside it when two or more holds end so at that button "
              "(an earlier press of that button inside it counted as shown when the picture "
              "changed faintly at that lag after it), or by itself when no button was "
              "pressed under it before that press and it resumes under 3 times the "
              "picture's usual change, or, no one button agreeing, at the "
              "first press of any button inside it when three or more holds end so within a "
              "frame of one lag and so close an agreement is unlikely by chance "
              "(`core/sync/waits.py`); or when it lies inside such a held picture; or when "
              "the sync's finer picture answers two or more presses inside it at the run's "
              "own delay (a game's small changes: a frozen recording answers none); or when "
              "its colour alone changes in a mark (4 or fewer of the scan's chroma tiles) at "
              "two or more button presses inside it at the run's own delay and nowhere else "
              "in it (a lamp a game toggles between two hues of one brightness; "
              "`core/sync/colour_answers.py`); or when "
              "it hides no button press of the log: held from before the log's first button "
              "press and resumed before it, or, inside the run, ended by the picture's "
              "answer to a button press at the run's own delay with one or more buttons "
              "pressed under it before that one, every one answered at that delay "
              "(`core/sync/hidden.py`; a hold inside the run under NOOPs only is no evidence "
              "by the log, since an edited freeze under NOOPs reads the same: only the resume "
              "test above takes it). The "
              "report's `video_scan` section says it as its findings do; the scan's cache "
              "keeps the warning.", G)
BLACK = rule("video.black", Severity.WARNING,
             "No stretch of black frames of 0.5 s or more (a note under 1 s: a game's own "
             "blank screen is as short).", G)
TS_GAP = rule("video.timestamp_gap", Severity.WARNING,
              "Frame timestamps advance without jumps of several frame durations (dropped or "
              "cut footage).", G)
TS_BACK = rule("video.timestamp_backwards", Severity.WARNING,
               "Timestamps never go back (a bad remux or a splice).", G)
STREAM_CHANGE = rule("video.stream_change", Severity.WARNING,
                     "Resolution and frame rate stay the same through the stream (a note "
                     "where a file that drops repeated frames falls to a whole fraction of its "
                     "rate for good: a game drawing less often looks the same).", G)
LOW_RATE = rule("video.low_frame_rate", Severity.WARNING,
                "The video shows 2 or more pictures a second (not a slideshow of stills).", G)
CUT = rule("video.cut", Severity.INFO,
           "Candidates for hard cuts: a content change far above the local motion level, "
           "or a smaller one where the picture held still around it that stands out of "
           "every other such change in the file but one (a splice of the same scene), or a "
           "frame where moving things vanish and others appear elsewhere at once, 3x more "
           "of them than at any other frame of the file (listed to look at, one note for "
           "the changes within 0.5 s; a full-screen flash that comes back, a change the "
           "game repeats, or a train of changes within a second, is none, but for the "
           "train's one change that stands out of it: a cut beside an explosion).", G)
CLOCK_JUMP = rule("video.clock_jump", Severity.INFO,
                  "A joined recording's own clock goes on from the end of the one before (one "
                  "whose clock starts more than 5 s later is shown right after it, and said: "
                  "the time its clock skipped is not in the file).", G)
SCAN_STOPPED = rule("video.scan_stopped", Severity.INFO,
                    "The integrity scan covered the whole video (verify --scan stops at its CPU "
                    "budget, --scan-budget; its findings then cover the video up to there).", G)
AUDIO_GAP = rule("audio.gap", "warning",
                 "The audio track has no holes (its timestamps do not jump forward).", "audio")
AUDIO_DISC = rule("audio.discontinuity", "warning",
                  "The audio timestamps never go back or overlap (a splice).", "audio")





@dataclass(frozen=True)
class Span:
    """One scan finding with its time span in video seconds (end exclusive)."""

    rule: str
    severity: str
    start_s: float
    end_s: float
    message: str



def end_of(sig: FrameSignals, k: int) -> float:
    """When frame k stops being shown."""
    if k + 1 < sig.frame_count:
        return float(sig.times_s[k + 1])
    return float(sig.times_s[k]) + sig.frame_duration_s



def gap_limit(sig: FrameSignals, th: ScanThresholds) -> float:
    """The interval between two frames beyond which the file holds no frame for a while (a
    timestamp gap): `gap_frames` frame durations, and at least `gap_min_s`."""
    return max(th.gap_min_s, th.gap_frames * sig.frame_duration_s)
