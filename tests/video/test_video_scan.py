"""The integrity scan on real files with scripted stretches (tests/video_corpus.py): each
finding within 0.5 s of where it was made, none on honest files, the cache by SHA-256, and the
signals `sync` reads."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.progress import CancelToken
from moderator_app.core.thresholds import ScanThresholds
from moderator_app.core.verify.sections import VideoScanSection
from moderator_app.core.video import scan_cuts
from moderator_app.core.video.isolate import VideoProcessError
from moderator_app.core.video.scan import frame_signals, run_scan

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))


def spans(result, rule=None):
    return [(s.rule, round(s.start_s, 1), round(s.end_s, 1)) for s in result.spans
            if rule is None or s.rule == rule]


def near(got, want, tol=0.5):
    return len(got) == len(want) and all(
        g[0] == w[0] and abs(g[1] - w[1]) <= tol and abs(g[2] - w[2]) <= tol
        for g, w in zip(got, want, strict=True))


def test_scripted_freeze_black_and_cut_are_found_where_made():
    r = run_scan(vc.build(vc.RECIPES["scan"]))
    # frozen frames 300-419 (10-14 s), black 600-689 (20-23 s), cut at frame 1200 (40 s)
    assert near(spans(r, "video.frozen"), [("video.frozen", 10.0, 14.0)])
    assert near(spans(r, "video.black"), [("video.black", 20.0, 23.0)])
    cuts = [s[1] for s in spans(r, "video.cut")]
    assert any(abs(c - 40.0) <= 0.5 for c in cuts)
    assert all(abs(c - 40.0) <= 0.5 or abs(c - 14.0) <= 0.5 for c in cuts)  # the freeze's end
    assert {s.severity for s in r.spans} <= {"warning", "info"}
    assert r.signals.frame_count == 1800 and not r.from_cache


def test_a_black_stretch_under_a_second_is_a_note_and_a_longer_one_a_warning():
    """3-D Tic-Tac-Toe blanks its whole screen for 0.5 s at each computer move (QA s19 M2):
    a black stretch that short is a note; the 3 s one of the scan recipe stays a warning."""
    short = run_scan(vc.build(vc.Recipe("black_short", script=vc.Script(frames=300,
                                                                         black=(120, 138)))))
    got = [(s.rule, s.severity, round(s.start_s, 1), round(s.end_s, 1)) for s in short.spans
           if s.rule == "video.black"]
    assert got == [("video.black", "info", 4.0, 4.6)]
    long = run_scan(vc.build(vc.RECIPES["scan"]))
    assert [s.severity for s in long.spans if s.rule == "video.black"] == ["warning"]


# A game recorded as a window of the screen: 320x240 centred in 1366x768 black bars (the game
# is 7 % of the picture), and top-left in a grey desktop. Over the whole picture its hard cut
# was motion 2.1 against cut_min_motion 20, and was missed (session 12 QA).
WINDOWED = {
    "centred_in_black": "pad=1366:768:523:264:black",
    "top_left_in_desktop": "pad=1366:768:0:0:0x202020",
}


@pytest.mark.parametrize("name", sorted(WINDOWED))
def test_a_hard_cut_in_a_game_window_of_a_screen_capture_is_a_cut_candidate(name):
    recipe = vc.Recipe(f"window_{name}", script=vc.Script(frames=600, cut=400),
                       post=("-vf", WINDOWED[name], "-c:v", "libx264", "-preset", "ultrafast",
                             "-pix_fmt", "yuv420p"))
    r = run_scan(vc.build(recipe))
    cuts = [s[1] for s in spans(r, "video.cut")]
    assert cuts == [pytest.approx(400 / 30, abs=0.05)]  # duration-ok: video time of the cut
    whole = run_scan(vc.build(recipe), cache=False,
                     thresholds=ScanThresholds(cut_window_share=0.0))
    assert spans(whole, "video.cut") == []  # judged on the whole picture, as before


def test_a_full_screen_flash_that_comes_back_is_no_cut_candidate(monkeypatch):
    """QA s14 G9: Bank Heist's full-screen flashes (the whole picture brightened at once, fading
    back in a few frames, in bursts of 4) were 28 `video.cut` notes on an honest 40 s run. Two
    bursts of 4 such flashes over a moving sprite: none (8 on main); the hard cut at 14.0 s and
    the splice behind a dip to white at 17.0 s (the picture after it another) stay."""
    r = run_scan(vc.build_lavfi("flashes", vc.FLASHES, "mp4"))
    assert spans(r, "video.cut") == [("video.cut", 14.0, 14.0), ("video.cut", 17.0, 17.0)]
    assert [s.rule for s in r.spans] == ["video.cut", "video.cut"]  # nothing else either
    no_flash = ScanThresholds(flash_uniform_share=math.inf)
    # the flash rule off, a change the game repeats is still none (session 29: the two bursts'
    # flashes change the same tiles the same way, scan_cuts._unique), with or without the
    # train rule (scan_cuts._lone), which alone leaves them: a burst's flashes are 0.2-0.3 s
    # apart, at most two others within 0.5 s
    every = [4.0, 4.3, 4.5, 4.8, 9.1, 9.3, 9.6, 9.9, 14.0, 17.0]  # the three rules off: as main
    monkeypatch.setattr(scan_cuts, "MERGE_S", 0.0)  # and a note per frame (no `_merged`)
    for recur, train, left in ((2, 3, [14.0, 17.0]), (2, 10**9, [14.0, 17.0]),
                               (10**9, 3, every), (10**9, 10**9, every)):
        monkeypatch.setattr(scan_cuts, "RECUR_MATCHES", recur)
        monkeypatch.setattr(scan_cuts, "TRAIN_OTHERS", train)
        off = run_scan(vc.build_lavfi("flashes", vc.FLASHES, "mp4"), cache=False,
                       thresholds=no_flash)
        assert [s[1] for s in spans(off, "video.cut")] == left

def test_changes_in_scattered_places_are_no_game_window():
    # the bundled sample: a counter, a timer and a full-width bar that flips every 4 s change
    # 14 tiles that fill 14 of the 48 of their bounding box; judged as a window, each flip
    # was a cut candidate (6 on the first screen a newcomer sees)
    sample = Path(__file__).resolve().parents[2] / "resources/samples/community-sample"
    r = run_scan(sample / "video.mp4")
    assert spans(r) == []


def test_dropped_footage_is_a_timestamp_gap():
    r = run_scan(vc.build(vc.RECIPES["gap"]))
    assert near(spans(r, "video.timestamp_gap"), [("video.timestamp_gap", 10.0, 12.0)])


def test_a_hole_where_the_picture_barely_moved_is_missing_footage():
    # the picture changed little across the hole (the square moved 10 px), but the recording
    # stores repeated frames (still from 7 s): its encoder did not drop the hole for repeats
    video = vc.build_lavfi("still_then_gap", vc.STILL_THEN_GAP, "mkv")
    r = run_scan(video)
    assert spans(r) == [("video.timestamp_gap", 8.0, 9.5)]
    # either rule finds it alone: the stored repeats, or the change over the hole's span
    repeats = run_scan(video, thresholds=ScanThresholds(moved_on_min=math.inf))
    assert spans(repeats) == [("video.timestamp_gap", 8.0, 9.5)]
    neither = run_scan(video, thresholds=ScanThresholds(moved_on_min=math.inf,
                                                        repeats_kept_frames=10**9))
    assert spans(neither) == []


def test_a_hole_in_busy_footage_is_missing_footage():
    # every frame changes a third of the picture: the change across the 1.5 s hole is only
    # ~1.5x one frame's, under the fixed 2x; it is as large as the change over 1.5 s before it
    r = run_scan(vc.build_busy())
    assert spans(r) == [("video.timestamp_gap", 10.0, 11.5)]
    # the share of points changed across it finds it too (2.1x the usual share): without the
    # span rule, and without both, the hole is taken for a hold
    fixed_ratio_only = run_scan(vc.build_busy(), cache=False,
                                thresholds=ScanThresholds(moved_on_min=math.inf))
    assert spans(fixed_ratio_only) == [("video.timestamp_gap", 10.0, 11.5)]


def test_a_hole_of_19_frames_in_moving_footage_is_missing_footage():
    # QA session 14 (G5): 19 frames (0.79 s) cut from 24 fps footage whose every frame changes
    # ~14 % of the points: across the hole the mean change was only 1.3-1.5x one frame's (and
    # under 0.8 of the change over the hole's span before it), so the hole was judged a VFR
    # hold; the share of points changed across it is 3.3x the usual
    recipe = vc.Recipe("gap24_19", script=vc.Script(frames=1000, fps=24, cut=0), ext="mkv",
                       encode=("-vf", "select='not(between(n\\,797\\,815))'",
                               "-fps_mode", "passthrough", *vc.X264))
    r = run_scan(vc.build(recipe))
    assert spans(r) == [("video.timestamp_gap", 33.2, 34.0)]
    assert "(0.791 s, 19 frame durations)" in r.spans[0].message


def test_a_dropped_pause_in_busy_footage_is_a_freeze_not_a_gap():
    # the same busy scene paused 4 s, its repeats dropped by the encoder (VFR): the change
    # across the hole is one frame's, far under the change the scene makes in 4 s
    r = run_scan(vc.build_busy(vc.BusyScene(dropped=None, held=(300, 420))))
    assert spans(r) == [("video.frozen", 10.0, 14.0)]


def test_a_hard_cut_in_busy_footage_is_a_cut_candidate():
    # motion saturates in content that changes a third of the picture every frame: the cut's
    # motion is under 2x the local level, but its share of changed points stands far out of
    # the frames' around it
    r = run_scan(vc.build_busy_cut())
    assert spans(r) == [("video.cut", 10.0, 10.0)]
    assert "% of the picture changed against" in r.spans[0].message
    m = r.signals.motion
    assert m[300] < 2 * np.median(m[285:300])  # what the motion-peak rule alone missed
    motion_only = run_scan(vc.build_busy_cut(), cache=False,
                           thresholds=ScanThresholds(cut_spread=math.inf))
    assert spans(motion_only) == []


def test_audio_hole_is_an_audio_gap():
    r = run_scan(vc.build(vc.RECIPES["audio_gap"]))
    assert near(spans(r, "audio.gap"), [("audio.gap", 5.0, 6.0)])
    assert r.has_audio and r.audio_envelope_db.shape[0] > 500


@pytest.mark.parametrize("name", ["mp4", "mkv_nocues", "webm", "cut", "fmp4", "audio_short"])
def test_honest_files_have_no_scan_findings(name):
    r = run_scan(vc.build(vc.RECIPES[name]))
    assert spans(r) == []


def test_a_freeze_through_keyframes_is_one_freeze():
    # CFR capture, keyframe every 2 s: the keyframes at 6 and 8 s recode the held picture
    # (0.1 % of the points move past codec noise), which split the freeze in two under 3 s
    video = vc.build_lavfi("capture_freeze", vc.CAPTURE_FREEZE)
    r = run_scan(video)
    assert spans(r) == [("video.frozen", 5.0, 9.0)]
    split = run_scan(video, thresholds=ScanThresholds(keyframe_noise_max=0.0))
    assert spans(split) == []


# keyframe every 1 s, 2 s, 8.3 s, and periodic intra refresh (no keyframe after the first)
GOPS = {"keyint30": ("-g", "30"), "keyint60": ("-g", "60"), "keyint250": ("-g", "250"),
        "intra_refresh": ("-g", "30", "-intra-refresh", "1")}


@pytest.mark.parametrize("gop", GOPS)
def test_a_still_screen_that_blinks_is_not_frozen_and_a_freeze_inserted_into_it_is(gop):
    """A square rests 3-9 s while a 6x6 spot blinks every 0.5 s (the rest of the picture is
    still): 14 of 15 frames are identical, the same spot changes every 0.5 s, and it was a
    `video.frozen` warning at 3.0-9.07 s. The same footage with frames 90-269 all showing frame
    90 (the blink stops too) is a freeze at 3-9 s, a warning, whatever the GOP."""
    living = run_scan(vc.build_lavfi("blink", vc.blink(GOPS[gop])))
    assert spans(living) == []
    frozen = run_scan(vc.build_lavfi("blink", vc.blink(GOPS[gop], frozen=True)))
    assert near(spans(frozen), [("video.frozen", 3.0, 9.0)])
    assert [s.severity for s in frozen.spans] == ["warning"]


@pytest.mark.parametrize("held, want", [((0, 120), (0.0, 4.0, "start")),
                                        ((240, 360), (8.0, 12.0, "end"))])
def test_a_picture_held_from_the_first_frame_or_to_the_last_is_listed_as_info(held, want):
    """A title, pre-start or game-over screen holds the picture at the ends of honest
    footage (every genuine Gopher run: frames 0-119 identical): listed, on the lane, as info;
    the sync analysis judges the log's actions under it (docs/DECISIONS.md)."""
    r = run_scan(vc.build(vc.Recipe("held_end", script=vc.Script(frames=360, frozen=held))))
    assert near(spans(r, "video.frozen"), [("video.frozen", want[0], want[1])])
    (f,) = [s for s in r.spans if s.rule == "video.frozen"]
    assert f.severity == "info" and f.message.endswith(f"at the {want[2]} of the footage")


def test_vfr_hold_is_a_freeze_not_missing_footage():
    r = run_scan(vc.build(vc.RECIPES["vfr"]))
    assert spans(r) == [("video.frozen", 10.0, 15.0)]


def test_short_audio_is_described():
    r = run_scan(vc.build(vc.RECIPES["audio_short"]))
    assert r.has_audio and r.audio_end_s == pytest.approx(20.0, abs=0.05)
    d = VideoScanSection.of(r).to_dict()
    assert d["ran"] is True and d["has_audio"] is True and d["findings"] == []


def test_cache_by_sha256_and_signals_for_sync():
    path = vc.build(vc.RECIPES["scan"])
    first = run_scan(path)
    again = run_scan(path)
    assert again.from_cache and spans(again) == spans(first)
    sig = frame_signals(path)
    assert sig.frame_count == 1800 and sig.tiles.shape == (1800, 8, 8)
    assert not sig.tiles.flags.writeable and not sig.pts.flags.writeable
    assert np.isnan(sig.motion[0]) and sig.times_s[0] == 0.0
    # the moving square lives in tile row 5 (y 150-190 of 240): motion there, none at the top
    # right (static background gradient moves slowly; the code blocks are top left)
    i = sig.frame_at(5.0)
    assert i == 150 and sig.tiles[i, 5].max() > sig.tiles[i, 0, 7]
    # frozen stretch: no motion anywhere
    assert float(np.nanmax(sig.tiles[sig.frame_at(11.0)])) < 1.0
    # sync's counts (16x16 tiles): the square's rows change, the frozen stretch does not
    assert sig.sync_tiles.shape == (1800, 16, 16) and sig.sync_tiles.dtype == np.uint8
    assert not sig.sync_tiles[0].any() and sig.sync_tiles[i, 10:13].sum() > 0
    assert not sig.sync_tiles[sig.frame_at(11.0)].any()


def test_a_scan_past_its_cpu_budget_stops_says_where_and_is_not_cached():
    # any budget is spent by the first look at it (every 256 frames): the scan stops at
    # frame 256 of 1800 (8.533 s at 30 fps), before the freeze at 10-14 s, and says so
    path = vc.build(vc.RECIPES["scan"])
    cut = run_scan(path, total=1800, budget_s=1e-6)
    assert not cut.complete and cut.signals.frame_count == 256 and not cut.from_cache
    assert spans(cut) == [("video.scan_stopped", 8.5, 8.5)]
    stop = cut.spans[0]
    assert stop.severity == "info" and "256 of 1,800 frames" in stop.message
    assert "cover 0-8.533 s only" in stop.message and "1e-06 CPU seconds" in stop.message
    section = VideoScanSection.of(cut).to_dict()
    assert section["complete"] is False and section["frames"] == 256
    assert section["duration_s"] == pytest.approx(256 / 30)
    # nothing was cached: the next scan decodes the whole video, and that one is cached
    whole = run_scan(path, budget_s=600.0)
    assert whole.complete and not whole.from_cache and whole.signals.frame_count == 1800
    assert near(spans(whole, "video.frozen"), [("video.frozen", 10.0, 14.0)])
    again = run_scan(path, budget_s=1e-6)  # a cached scan is whole, whatever the budget
    assert again.from_cache and again.complete and spans(again) == spans(whole)
    assert VideoScanSection.of(again).to_dict()["complete"] is True


def test_scan_is_cancellable():
    token = CancelToken()
    seen = []

    def progress(done, total):
        seen.append(done)
        token.cancel()

    with pytest.raises(VideoProcessError, match="cancelled"):
        run_scan(vc.build(vc.RECIPES["scan"]), progress=progress, cancel=token, cache=False)
    assert seen == [256]


def test_activity_envelope_for_the_lane():
    from moderator_app.core.video.activity import activity_envelope
    sig = run_scan(vc.build(vc.RECIPES["scan"])).signals
    env = activity_envelope(sig, -10.0, 70.0, 80)  # one column per second
    assert np.isnan(env[:10]).all() and np.isnan(env[70:]).all()  # no footage there
    assert (env[21:24] < 1.0).all()  # frozen 10-14 s: nothing moves (col 20 = 10-11 s)
    assert (env[11:20] > 1.0).all() and env[50] > 20.0  # 40 s: the cut
    assert not np.isnan(env[10:70]).any()


def test_an_honest_vfr_recording_of_a_small_sprite_has_no_gaps():
    video = vc.build_lavfi("sprite_vfr", vc.SPRITE_VFR, "mkv")
    r = run_scan(video)
    assert [s for s in spans(r) if s[0] == "video.timestamp_gap"] == []
    # counting the sprite's steps as stored repeats, as before, makes its rests missing footage
    as_before = run_scan(video, thresholds=ScanThresholds(repeat_changed_max=1.0,
                                                          repeat_motion_max=1e9))
    assert len([s for s in spans(as_before) if s[0] == "video.timestamp_gap"]) >= 3


def test_a_frame_rate_change_mid_stream_is_a_stream_change():
    r = run_scan(vc.build_lavfi("rate_change", vc.RATE_CHANGE, "mkv"))
    assert spans(r) == [("video.stream_change", 6.0, 8.0)]


def _ffprobe_rate_steps(path) -> list[float]:
    """Where the frame interval changes for good, from ffprobe's own timestamps: each interval
    named by the nearest of 60, 30 and 20 fps, a change where the name changes (from the
    first frame, as video time counts)."""
    import json
    import subprocess

    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "frame=best_effort_timestamp_time", "-of", "json", str(path)],
                         capture_output=True, check=True, text=True).stdout
    ts = sorted(float(f["best_effort_timestamp_time"]) for f in json.loads(out)["frames"])
    d = np.diff(ts)
    kind = np.argmin(np.abs(d[:, None] - np.array([1 / 60, 1 / 30, 1 / 20])[None, :]), axis=1)
    return [ts[i + 1] - ts[0] for i in np.nonzero(kind[1:] != kind[:-1])[0]]


def test_every_frame_rate_change_is_found_where_ffprobe_sees_it():
    """Issue 12: a VFR WebM whose rate changes every 3 s (60, 30, 20 fps in turn) reported one
    change; fixed 2 s windows saw only those on a window's edge. Each change within 0.5 s of
    ffprobe's timestamps, none more."""
    video = vc.build_lavfi("rate_steps", vc.RATE_STEPS, "webm")
    want = _ffprobe_rate_steps(video)
    assert len(want) == 11
    got = [s for s in run_scan(video).spans if s.rule == "video.stream_change"]
    assert len(got) == len(want)
    assert all(abs(g.start_s - w) <= 0.5 for g, w in zip(got, want, strict=True))  # duration-ok: a video time
    assert got[0].message == "the frame rate changes from 60.00 to 30.00 fps at 3.000 s"


def _ffprobe_times(path) -> np.ndarray:
    import json
    import subprocess

    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "frame=best_effort_timestamp_time", "-of", "json", str(path)],
                         capture_output=True, check=True, text=True).stdout
    ts = np.sort([float(f["best_effort_timestamp_time"]) for f in json.loads(out)["frames"]])
    return ts - ts[0]


def test_a_rate_change_in_a_jittery_capture_is_found_and_steady_jitter_is_none():
    """Issue 12: a capture whose timestamps jitter by +-30 % of its interval had steps of the
    median of 9 everywhere and no regular stretch, so its real change (30 -> 60 fps at 5 s)
    was not reported. The jitter pass (a median of 31, stretches that keep to a clock) finds
    it where ffprobe's timestamps change clock; the same jitter at a steady 60 fps is none."""
    video = vc.build_lavfi("jitter_rate", vc.JITTER_RATE, "mkv")
    ts = _ffprobe_times(video)
    before = np.mean(np.diff(ts[ts < 4.5]))  # a jittered clock keeps its rate on average
    after = np.mean(np.diff(ts[ts > 5.5]))
    assert round(1 / before) == 30 and round(1 / after) == 60  # what was made, by ffprobe
    got = [s for s in run_scan(video).spans if s.rule == "video.stream_change"]
    assert len(got) == 1
    assert abs(got[0].start_s - 5.0) <= 0.5  # duration-ok: a video time
    assert got[0].message.startswith("the frame rate changes from 30.")
    steady = vc.build_lavfi("jitter_steady", vc.JITTER_STEADY, "mkv")
    assert [s for s in spans(run_scan(steady)) if s[0] == "video.stream_change"] == []


def test_a_game_drawn_every_4th_frame_in_a_file_that_drops_repeats_is_no_rate_change(
        monkeypatch):
    """A real VFR recording (repeats dropped) of Space Invaders: the game draws every 4th frame
    for a while, twice, so its timestamps step from 60 to 15 fps twice; the file drops single
    repeats elsewhere, so a whole-number step is the content's. A file that drops none (the
    WebM above) keeps every step."""
    import corpus

    from moderator_app.core.video import rates
    from moderator_app.core.video.probe import probe_video

    if corpus.available() is not None:
        pytest.skip(f"corpus cannot be built: {corpus.available()}")
    run = corpus.build("space_invaders-genuine@vfr")
    assert [s for s in spans(run_scan(run.video)) if s[0] == "video.stream_change"] == []
    # the same timestamps judged as a capture's that drops no repeat: the two steps, and the
    # return to 60 fps at 17.7 s (seen by the clock pass, which runs only in such files)
    times = probe_video(run.video, "v").index.times_s
    monkeypatch.setattr(rates, "drops_repeats", lambda d, m: False)
    got = rates.rate_changes(times, 2.0, 1.0, 1.3, 0.9)
    assert [(round(t, 1), round(1 / a), round(1 / b)) for t, a, b, _ in got] == [
        (10.3, 60, 15), (14.5, 60, 15), (17.7, 15, 60)]


def test_a_rate_that_halves_to_the_end_in_a_file_that_drops_repeats_is_a_note():
    """A recorder that drops repeats and halves its rate at 10 s for good said nothing (its
    whole-number step is what a game drawing every 2nd frame writes, module doc of rates.py):
    now an info `video.stream_change` there (none on main). The same fall that comes back to
    60 fps at 15 s (the game drawing at full rate again): nothing, as before."""
    from moderator_app.core.video import rates

    video = vc.build_lavfi("drop_rate_fall", vc.drop_rate_fall(), "mkv")
    got = [(s.rule, s.severity, round(s.start_s, 2), s.message[:47])
           for s in run_scan(video).spans]
    assert got == [("video.stream_change", "info", 10.0,
                    "the frame rate falls from 60.00 to 30.00 fps at")]
    t = np.asarray(run_scan(video).signals.times_s)
    assert rates.drops_repeats(np.diff(t), rates.rolling_median(np.diff(t)))
    back = vc.build_lavfi("drop_rate_fall_back", vc.drop_rate_fall(15.0), "mkv")
    assert spans(run_scan(back)) == []

@pytest.mark.parametrize("name", ["steps_vfr", "sprite_vfr", "obs_jitter"])
def test_an_honest_vfr_recording_has_no_frame_rate_change(name):
    """Dropped repeats (intervals that follow the content), OBS-like jitter of +-2 ms with a
    frame dropped now and then: no rate change."""
    args = {"steps_vfr": vc.STEPS_VFR, "sprite_vfr": vc.SPRITE_VFR,
            "obs_jitter": vc.OBS_JITTER}[name]
    video = vc.build_lavfi(name, args, "mkv")
    assert [s for s in spans(run_scan(video)) if s[0] == "video.stream_change"] == []


def test_a_damaged_or_planted_cache_file_is_a_miss_never_an_error_or_a_clean_scan(tmp_path):
    """The scan cache, keyed by the video's SHA-256 (issue 15, fourth hostile pass): a
    truncated or empty cache file was an internal error (BadZipFile, EOFError: exit 2), and
    arrays out of step (3 frames of a 1,800-frame video) were taken as the scan. A file that
    others may write (a shared MODERATOR_APP_CACHE) would stand for any video with that
    SHA-256. Each is now a miss: the video is decoded again and the cache rewritten, 0600."""
    import os
    import stat

    from moderator_app.core.video.scan import file_sha256
    from moderator_app.core.video.signals import pack_arrays, unpack_arrays

    path = vc.build(vc.RECIPES["scan"])
    first = run_scan(path)
    (cached,) = (tmp_path / "cache" / "video-scan").glob(f"{file_sha256(path)}.*.npz")
    assert stat.S_IMODE(cached.stat().st_mode) == 0o600
    good = cached.read_bytes()
    arrays = unpack_arrays(good)
    short = pack_arrays({k: (v if k == "meta" else v[:3]) for k, v in arrays.items()})
    out_of_step = pack_arrays({k: (v[:3] if k == "luma" else v) for k, v in arrays.items()})
    damaged = {"truncated": good[:5000], "empty": b"", "zip magic then noise": b"PK\x03\x04" + bytes(
        range(256)) * 8, "out of step": out_of_step, "text": b"not a cache"}
    for what, blob in damaged.items():
        cached.write_bytes(blob)
        again = run_scan(path)
        assert not again.from_cache, what
        assert again.signals.frame_count == 1800 and spans(again) == spans(first), what
        assert cached.read_bytes() == good, what  # rewritten
    # a consistent but forged scan (3 frames, no finding) in a file others may write
    cached.write_bytes(short)
    os.chmod(cached, 0o666)
    again = run_scan(path)
    assert not again.from_cache and again.signals.frame_count == 1800
    assert stat.S_IMODE(cached.stat().st_mode) == 0o600


SLIDESHOW = ("-f", "lavfi", "-i", "testsrc2=size=320x240:rate=0.21", "-t", "33.3",
             "-c:v", "libx264", "-pix_fmt", "yuv420p")


def test_a_slideshow_is_a_low_frame_rate():
    # 7 stills in 33.3 s: each hole is the file's own frame duration, so no gap rule sees it
    r = run_scan(vc.build_lavfi("slideshow", SLIDESHOW))
    assert spans(r, "video.low_frame_rate") == [("video.low_frame_rate", 0.0, 33.3)]
    assert "7 frames in 33.3 s" in [s.message for s in r.spans
                                    if s.rule == "video.low_frame_rate"][0]
    # at 0.21 fps it passes only when the limit is over its 4.76 s interval
    lenient = run_scan(vc.build_lavfi("slideshow", SLIDESHOW),
                       thresholds=ScanThresholds(low_rate_interval_s=5.0))
    assert spans(lenient, "video.low_frame_rate") == []


@pytest.mark.parametrize("name", ["sprite_vfr", "steps_vfr"])
def test_honest_vfr_recordings_are_not_a_low_frame_rate(name):
    # sprite_vfr's median interval is 0.2 s (a sprite stepping 5 times a second, repeats
    # dropped), the slowest honest recording measured
    video = vc.build_lavfi(name, getattr(vc, name.upper()), "mkv")
    assert spans(run_scan(video), "video.low_frame_rate") == []


@pytest.mark.parametrize("name", ["tennis-genuine", "tennis-genuine3", "tennis-genuine@r30",
                                  "riverraid-freeze", "ms_pacman-freeze",
                                  "space_invaders-freeze"])
def test_a_still_screen_that_lives_is_not_frozen_and_an_inserted_freeze_is(name):
    """Real-game recordings: Tennis between points is a near-still screen (under 0.1 % of the
    sample points change, the "same picture" tolerance) where a few points change in most
    frames, and it got 1-2 `video.frozen` warnings per genuine run. A frozen picture is now
    held: within 1 s around each frame, 75 % of the frames identical to the one before.
    Genuine: none; an inserted freeze (the corpus's truth): found within 0.5 s (River Raid's
    started 1.2 s early: near-still frames before it, now told apart)."""
    import corpus

    if corpus.available() is not None:
        pytest.skip(f"corpus cannot be built: {corpus.available()}")
    run = corpus.build(name)
    got = [(s.start_s, s.end_s) for s in run_scan(run.video).spans if s.rule == "video.frozen"]
    tamper = run.truth.get("tamper") or {}
    if tamper.get("kind") != "freeze":
        assert got == []
        return
    want = (tamper["video_start_s"], tamper["video_end_s"])
    assert len(got) == 1
    assert abs(got[0][0] - want[0]) <= 0.5 and abs(got[0][1] - want[1]) <= 0.5  # duration-ok


def test_the_activity_lane_is_scaled_to_its_run_so_a_real_game_reads():
    """QA session 12: on real games the lane drew a 1-2 px line (motion / 40). Scaled by the
    run's 99th percentile (floor 0.1), Pong's ever-moving ball and paddle fill a third of
    the lane in the middle column, not a 50th; the scale is the same at every zoom."""
    import corpus

    from moderator_app.core.video.activity import (
        SCALE_FLOOR,
        activity_envelope,
        activity_levels,
        activity_scale,
    )
    why = corpus.available()
    if why:
        pytest.skip(why)
    sig = run_scan(corpus.build("pong-genuine").video).signals
    motion = sig.motion[np.isfinite(sig.motion)]
    scale = activity_scale(sig)
    assert scale == max(SCALE_FLOOR, float(np.percentile(motion, 99)))
    end = float(sig.times_s[-1])
    old = np.nan_to_num(activity_envelope(sig, 0.0, end, 1000), nan=0.0) / 40.0
    new = activity_levels(sig, 0.0, end, 1000, scale)
    assert float(np.median(old)) < 0.01
    assert float(np.median(new)) > 0.2
    assert float(new.max()) == 1.0 and float(new.min()) >= 0.0
