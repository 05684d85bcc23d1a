"""Every adjustable threshold of the community-run checks, in one place.

The *rules* of the format (seq continuity, the 2 s clock rule, the 5 s coverage tolerance) are
not here: they are the format, and changing them would change what "valid" means. What is here
are the moderation signals of docs/DESIGN.md, which only ever raise warnings (things a moderator
should look at in the video), and the limits that keep the video probe bounded. Moderators can
tune them without touching the verifiers: pass a `Thresholds(...)` to `verify_agent_log` via
`VerifyOptions.thresholds` (when present) or change the defaults below.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Moderation-signal thresholds for agent logs (all produce warnings, never errors).

    gap_s: a stretch this long with no event at all is worth watching in the video (the agent
        log says nothing about what happened on screen). Reasoning models can think for a
        minute or two, so the default is generous.
    action_delay_s: an action executed this long after the response that asked for it is odd
        (a model's decision applied much later, or a human replaying an old response).
    min_response_s: a model cannot answer faster than this after its request; a quicker
        "response" suggests it was not produced by a model call at all.
    """

    gap_s: float = 120.0
    action_delay_s: float = 60.0
    min_response_s: float = 0.2
    # Log-video correspondence (core/sync; `sync.*` warnings). Measured on the real-game
    # corpus (tests/corpus): genuine runs peak at z 4.6 (Pong) to 11 (Breakout); offsets
    # elsewhere stay below 3.5.
    sync_min_z: float = 4.0            # the best offset's score, in spreads over the others
    sync_min_null_z: float = 5.0       # ... and over the same fit on the log's gaps shuffled
    sync_min_null_z_splice: float = 3.0  # or two stretches at two offsets, each this clear
    # the player's band is looked at when it stands this far above the shuffled logs' best
    # bands (genuine runs without a band: at most 3.3); below sync_min_null_z it suggests no
    # offset (a genuine Space Invaders run at 4.7: 1.09 frames off) and only says the log
    # gaps it shows being played (Pong's human stretch at 4.2)
    sync_band_min_null_z: float = 4.0
    sync_min_actions: int = 6          # fewer supporting actions: "not enough signal"
    sync_reaction_z: float = 2.5       # a frame's novelty over the local motion level
    sync_jump_s: float = 0.25          # smaller offset changes are not reported
    sync_drift_pct: float = 1.0        # |speed - 1| from which a drift is reported
    # the findings' and the reaction lane's reactions: the per-action reader
    # (`reactions.answers`, within 0.15 s) rather than the novelty's (within 0.5 s); the rules
    # that ask whether a press was answered at all read the 0.5 s answer each Reaction
    # carries (`Reaction.missed`). On since session 36 (docs/DECISIONS.md): at the truth of the
    # wide set and QA s28-s35 (222 genuine runs) the lane's reactions right within a frame
    # 1,339 -> 1,784 of 3,344 shown presses, false 1,135 -> 634; no new warning in the wide,
    # corpus v2 or QA sweeps
    sync_per_action_reader: bool = True
    # ... and a frame whose onsets at the scan's finer positions (16x16, and 8x8 moved half a
    # tile) stand over their own second's chance answers too (`reactions.finer_surprising`):
    # a press that changes the course of a sprite already moving (QA s35 / s36 T1). Session
    # 37: right within a frame 1,773 -> 1,946 of 3,436 shown presses (232 genuine runs, wide
    # and QA s28-s36), false 636 -> 675, chance answers 0.5 s off the truth 1,978 -> 2,175;
    # at auto and the truth no cell of the wide set's 228 runs changed, and of corpus v2's and
    # QA s28-s36's 312 runs one: QA s34's earthworld-genuine@r22rv10rm loses its false
    # `sync.no_reaction` 8.90-23.11 s (a chance answer at 14.09 s splits its run of misses)
    sync_finer_reader: bool = True
    sync_no_reaction_actions: int = 3  # consecutive actions with no reaction ...
    sync_no_reaction_s: float = 2.0    # ... spanning at least this long
    sync_activity_gap_s: float = 4.0   # a stretch with no action at least this long ...
    sync_activity_events: int = 3      # ... with at least this many input-like reactions
    # a still picture inside the footage this long, under this many actions at every offset
    # considered (core/sync/freeze.py): a held picture, found with no fitted offset; two
    # presses unanswered over a picture still this long are frozen footage at the fitted
    # offset too (local_findings), a shorter still picture must stand out against the run's
    sync_freeze_s: float = 3.0
    sync_freeze_actions: int = 2
    # a held picture that resumes this soon after a logged press (at the offset used), of a
    # kind none of the presses it held had, is the game waiting for that button, not frozen
    # footage (core/sync/freeze.py `waits_for`): 99 % of the answered presses of the corpus'
    # and QA's genuine runs show within 0.153 s (1,540 presses; the longest 0.307 s)
    sync_wait_reaction_s: float = 0.2
    # the game's own animation clock (core/sync/pace.py): the console's frame rate its cycles
    # are counted in (Atari 2600 NTSC), and how far above the spectrum's median power a line
    # must stand to be read (see docs/DECISIONS.md, session 17 for the figures)
    sync_pace_console_hz: float = 60.0
    sync_pace_min_strength: float = 100.0


@dataclass(frozen=True, slots=True)
class VideoLimits:
    """Bounds of the video probe: beyond them a video is absurd (a finding, not a hang).

    max_side: pixels on either side (16384 is the largest texture GPUs decode; 8K is 7680).
    max_duration_s: 48 hours; no community run is longer, and a header claiming more is a lie
        or an attack on the prober.
    max_frames: 48 hours at 240 fps.
    max_index_frames: the most packets the probe indexes, a memory bound (session 13: a 1x1
        video of 10^7 frames, 70 MB, made a 1.7 GB probe process). 2^22 (19 h at 60 fps,
        4.8 h at 240 fps) cost ~34 bytes each in the video process at the peak, sent to the
        verifier as 16 bytes each. A longer stream is indexed to there and measured as one the
        time budget cut: its end read from its last packets, the rest not checked (a note).
    decode_all_frames, decode_all_pixels: videos with at most this many frames (by the header)
        and this many pixels in all (frames x width x height: about 100 s of 320x180 at 30 fps,
        or 100 frames of 1080p) are decoded to the end; others are measured by seeking near the
        end, which costs one keyframe interval of decoding whatever the length.
    time_budget_s: budget of one probe in the reading process's CPU seconds; past it the
        probe stops and says so. CPU, not wall clock: what the probe says about a file must
        not depend on how loaded the machine is.
    footage_gap_s: two frames further apart than this leave the time between them without
        footage (`video.footage_gap`); that time counts toward the coverage tolerance as
        missing (issue 15: three frames at 0, 1 and 29 s do not cover 29 s). 5 s, the coverage
        tolerance itself: encoders that drop repeated frames of a still screen (VFR) leave
        honest holes of a few seconds, and a single hole shorter than the tolerance could not
        fail coverage on its own anyway.
    """

    max_side: int = 16384
    max_duration_s: float = 48 * 3600.0
    max_frames: int = 48 * 3600 * 240
    max_index_frames: int = 1 << 21
    decode_all_frames: int = 3000
    decode_all_pixels: int = 200_000_000
    time_budget_s: float = 20.0
    footage_gap_s: float = 5.0


DEFAULT_THRESHOLDS = Thresholds()
DEFAULT_VIDEO_LIMITS = VideoLimits()


@dataclass(frozen=True, slots=True)
class ScanThresholds:
    """Thresholds of the video integrity scan (core/video/scan.py); all findings are warnings
    or notes. Times in seconds of video; picture measures on the 0-255 luma scale.

    freeze_s: the same picture this long is `video.frozen` (a game pause is legitimate, but a
        moderator should see it).
    black_s, black_luma_max: frames whose brightest sample is at most black_luma_max (video
        black is 16 in limited range, plus codec noise) for this long are `video.black`
        (0.5 s: no honest recording of 517 scanned has a black stretch of 0.3 s; QA s17's
        inserted one was 0.8 s, under the 1 s it was; docs/DECISIONS.md).
    black_warning_s: a black stretch shorter than this is a note, not a warning: 3-D
        Tic-Tac-Toe blanks its whole screen for 0.5 s at each computer move (QA s19 M2), so a
        short black stretch alone is no sign of tampering; a longer one stays a warning.
    same_changed_max: a frame is "the same picture" as the one before when at most this
        fraction of its 256x128 sample points changed beyond codec noise (0.1 %).
    held_identical_share, held_window_s: same-picture frames are a frozen picture where, within
        held_window_s around each, this share of the frames is identical to the one before (no
        sample point changed beyond codec noise): a frozen capture repeats one picture, while
        a still game screen that lives changes a few points in most frames (Tennis between
        points: 17-41 % identical; inserted freezes 88-100 %; docs/DECISIONS.md).
    live_gap_s: same-picture frames between two changes of the same spot (a 16x16 tile with a
        point moved beyond the sync signals' noise, neither change at a keyframe) at most this
        far apart are a still screen that lives (a blink, a cursor, an idle sprite), not held
        (H.E.R.O.'s idle hero: every 1.07 s; docs/DECISIONS.md).
    keyframe_noise_max: a keyframe inside a still stretch (the frames before and after it are
        the same picture) whose change is at most this fraction of sample points is the held
        picture coded afresh, not a change: an intra frame re-quantises the whole picture, and
        on textured content 0.1-2 % of the points move by more than codec noise (a capture at
        CFR with a keyframe every 2 s split a 4 s freeze into two under 3 s, issue 12 QA).
    drift_max, drift_median_s: same-picture frames are not held where the picture's mean luma,
        its running median over drift_median_s (a flash that comes back is no drift), spans
        more than drift_max levels within held_window_s around them: a picture whose colours
        turn a step at a time under every still bar (QA s39 T3's hue cycle: 3.95 levels a
        step at most, 16.26 over 6 s) is no held frame; a held frame repeats one mean
        (edited freezes in the census of sessions 39-40: at most 0.23 levels). Such a
        stretch is a note, not dropped: a held frame faded by an edit drifts too (review
        s40 R2).
    hold_ratio, hold_motion_min: across a timestamp gap, a change of at most hold_ratio times
        the median per-frame motion before it (or hold_motion_min) means the encoder dropped
        repeats of a still picture (VFR) or the game paused, not that footage is missing.
    moved_on_min, moved_on_span_share: across a hole, a change above moved_on_min times the
        usual per-frame motion and at least moved_on_span_share of the change the picture made
        over the hole's own length before it (itself above moved_on_min times the usual) is
        footage that moved on, not a hold.
    repeats_kept_frames, repeats_kept_s: that many stored repeats in a row at the usual
        spacing within this time of a timestamp gap show an encoder that stores repeats: the
        gap is missing footage even when the picture barely changed across it.
    repeat_changed_max, repeat_motion_max: a frame with at most this share of changed points
        and this motion energy is a stored repeat (decoded identical to the frame before). Not
        the "same picture" of a freeze: a Breakout ball moving a few pixels is the same picture
        at the scan's resolution (motion 0-0.03, but some points changed), and a VFR recorder
        that drops only exact repeats keeps such frames; counted as repeats, 20 holes of an
        honest VFR Breakout recording were reported as missing footage.
    gap_frames, gap_min_s: a jump of more than this many frame durations, and at least
        gap_min_s, is `video.timestamp_gap`.
    rate_window_s, rate_min_s, rate_change_ratio, rate_regular_share: where the rolling median
        frame interval steps, the stretches before and after (each up to rate_window_s, at
        least rate_min_s) whose medians differ by more than this ratio are
        `video.stream_change`, when each is regular (this share of its intervals within 10 %
        of its median): a VFR recorder's stretches, irregular, say nothing of a rate change
        (core/video/rates.py).
    rate_steady_ratio: a smaller step (above this ratio, up to rate_change_ratio: 25 -> 30
        fps is 1.2) is `video.stream_change` too where both stretches are steady (this share
        of their intervals within 3 % of their median, or 1 ms) in a file that does not drop
        repeated frames: a capture's clock changing rate, not a VFR recorder's content.
    cut_min_motion, cut_ratio, cut_window_frames: a frame whose motion energy is above
        cut_min_motion, cut_ratio times the median motion of the cut_window_frames before and of
        those after it, and 1.5 times both its neighbours (an isolated peak) is a `video.cut`
        candidate.
    cut_spread, cut_spread_isolation: in content that changes a large part of the picture every
        frame, motion energy saturates and a hard cut is only ~1.5-2.5x the local level. There a
        frame above cut_min_motion, at a regular interval from the one before, whose share of
        changed points stands out of the local distribution (above its median by more than
        cut_spread times its 10-90 % spread, over the cut_window_frames either side) and above
        cut_spread_isolation times both neighbours' share, is a candidate too.
    cut_context_frames: a candidate needs this many frames before and after it (the first
        change of a recording has nothing before it to be cut from).
    cut_window_share: a picture whose changing tiles are at most this share of the whole
        (a game in a window of a desktop capture, or in black bars) is judged for cuts on those
        tiles alone: a 320x240 game centred in 1366x768 changes 8 of 64 tiles, and its hard cut
        (motion 31 in its tiles) was 2.1 over the whole picture, under cut_min_motion.
    flash_uniform_share, flash_return_s, flash_return_share: a candidate whose change is the
        whole picture brightening or darkening at once (its mean luminance moves by at least
        flash_uniform_share of its motion energy: every point the same way) and whose picture
        comes back within flash_return_s (every 8x8 tile within flash_return_share of the
        flash's largest tile excursion, each step between also uniform) is a flash, not a cut:
        Bank Heist's full-screen flashes were 28 candidates on an honest 40 s run (QA s14 G9).
    audio_gap_s: audio timestamps jumping forward (back) by more than this are `audio.gap`
        (`audio.discontinuity`).
    low_rate_interval_s: a video whose median interval between frames is longer than this
        (under 2 frames a second over the whole file) is `video.low_frame_rate`: a slideshow.
        Its holes are its own frame duration, so `video.timestamp_gap` cannot see them. Honest
        recordings measured at most 0.2 s (a VFR sprite that steps 5 times a second; the
        real-game VFR recordings 0.017 s): repeats dropped on a still screen make few long
        intervals, not a long median (docs/DECISIONS.md, session 9).
    """

    freeze_s: float = 3.0
    black_s: float = 0.5
    black_warning_s: float = 1.0
    black_luma_max: float = 40.0
    same_changed_max: float = 0.001
    held_identical_share: float = 0.75
    held_window_s: float = 1.0
    live_gap_s: float = 1.5
    keyframe_noise_max: float = 0.05
    drift_max: float = 1.0
    drift_median_s: float = 0.3
    hold_ratio: float = 2.0
    hold_motion_min: float = 2.0
    moved_on_min: float = 1.25
    moved_on_span_share: float = 0.8
    repeats_kept_frames: int = 3
    repeats_kept_s: float = 2.0
    repeat_changed_max: float = 0.0
    repeat_motion_max: float = 0.005
    gap_frames: float = 4.0
    gap_min_s: float = 0.25
    rate_window_s: float = 2.0
    rate_min_s: float = 1.0
    rate_change_ratio: float = 1.3
    rate_regular_share: float = 0.9
    rate_steady_ratio: float = 1.1
    cut_min_motion: float = 20.0
    cut_ratio: float = 3.0
    cut_window_frames: int = 15
    cut_spread: float = 4.0
    cut_spread_isolation: float = 1.4
    cut_context_frames: int = 5
    cut_window_share: float = 0.5
    flash_uniform_share: float = 0.9
    flash_return_s: float = 0.5
    flash_return_share: float = 0.05
    audio_gap_s: float = 0.1
    low_rate_interval_s: float = 0.5


DEFAULT_SCAN_THRESHOLDS = ScanThresholds()
