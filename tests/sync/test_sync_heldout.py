"""The second held-out set (tests/corpus/heldout.py: six games and ten recorders sync was never
tuned on). Its full table: `bench/sync_table.py --held-out` (docs/submitter-guide.md). The
tests check the generator's truth cheaply and build one small new run.
"""

from __future__ import annotations

import corpus
import numpy as np
import pytest
from corpus import heldout
from corpus.build import GAMES
from corpus.record import Recorder, keep

from moderator_app.core.sync.analysis import analyze
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS


def test_a_recorder_at_a_divisor_of_60_keeps_every_nth_frame():
    """30 fps is frames[::2], as the first set's runs were made (their videos stay the same)."""
    for n in (120, 121):
        assert keep(n, Recorder(fps=30), "s").tolist() == list(range(0, n, 2))
    assert keep(7, Recorder(fps=60), "s").tolist() == list(range(7))


def test_a_50_fps_recorder_shows_the_frame_on_screen_at_each_tick():
    """Tick i at i/50 s shows emulator frame floor(i * 1.2): one in six is never captured."""
    assert keep(12, Recorder(fps=50), "s").tolist() == [0, 1, 2, 3, 4, 6, 7, 8, 9, 10]


def test_a_dropping_recorder_repeats_its_last_capture_deterministically():
    rec = Recorder(fps=25, drop=0.2)
    a, b = keep(600, rec, "seed"), keep(600, rec, "seed")
    assert a.tolist() == b.tolist()
    plain = keep(600, Recorder(fps=25), "seed")
    missed = np.nonzero(a != plain)[0]
    assert 0 < len(missed) < 0.4 * len(a)
    assert all(a[i] == a[i - 1] for i in missed)


def test_every_held_out_name_resolves_and_others_do_not():
    for name in corpus.HELD_OUT_NAMES:
        game, kind, _, rec, _ = heldout.spec(name)
        assert kind in heldout.KINDS2 + heldout.EXTRA_KINDS and (rec is not None or game in GAMES)
    assert len(set(corpus.HELD_OUT_NAMES)) == len(corpus.HELD_OUT_NAMES)
    assert not set(corpus.HELD_OUT_NAMES) & set(corpus.NAMES)
    for bad in ("freeway-nope", "breakout-genuine@vhs", "tetris-genuine", "breakout-speed3"):
        with pytest.raises(KeyError):
            corpus.build(bad)


@pytest.mark.skipif(corpus.available() is not None,
                    reason=f"corpus cannot be built: {corpus.available()}")
def test_variable_frame_rate_recording_right_offset_and_no_sync_warning(monkeypatch):
    """Breakout through a recorder that skips repeated frames (1 in 4 written, timestamps
    kept), built here. Before the skipped frames came back as still ones (signals.fill_still)
    the analysis said "not enough signal"; now the offset of the constant-rate recording
    (+0.17 frame) and no sync finding."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    run = corpus.build("breakout-genuine@vfr")
    truth = run.truth
    assert truth["recorder"] == "vfr" and run.video.name == "video.mp4"
    assert 1.5 <= truth["offset_s"] <= 2.5 and truth["fps"] == 60  # duration-ok: video time
    shown = [x for x in truth["actions"] if x["shows_video_s"] is not None]
    assert len(shown) >= len(truth["actions"]) // 2
    assert all(x["shows_video_s"] >= truth["offset_s"] + x["elapsed_ms"] / 1000 - 0.5 / 60  # duration-ok: video times
               for x in shown)
    from moderator_app.core.video.scan import run_scan

    decoded = len(run_scan(run.video).signals.times_s)
    assert decoded < truth["frames"] // 2  # the file is really variable-rate
    e = run.action_times
    a = analyze(e, frame_signals(run.video), DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None, a.reason
    assert abs(a.suggested_offset_s - truth["offset_s"]) <= 1 / truth["fps"]  # duration-ok: a measured video time, not a time taken
    assert a.findings == []


@pytest.mark.skipif(corpus.available() is not None,
                    reason=f"corpus cannot be built: {corpus.available()}")
@pytest.mark.parametrize("name", ["boxing-cut", "boxing-insert"])
def test_boxing_splices_are_placed_at_their_frame_with_their_size(name, monkeypatch):
    """Boxing (built here): the Viterbi boundary came a chance match early (the cut 1.3 s, the
    insertion 2.1 s) and the later stretch's offset was a window's peak (sizes -4.04, +3.96
    s). Now the splice is searched where it explains the most actions, and that stretch's
    offset is refined as the global one is."""
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    run = corpus.build(name)
    truth, t = run.truth, run.truth["tamper"]
    e = run.action_times
    a = analyze(e, frame_signals(run.video), DEFAULT_THRESHOLDS)
    [f] = a.findings
    frame = 1 / truth["fps"] + 1e-6
    assert f.rule == "sync.offset_jump"
    assert abs(f.video_start_s - t["video_s"]) <= frame  # duration-ok: a video time
    assert abs(f.size_s - t["size_s"]) <= frame  # duration-ok: a video time
    if "video_end_s" in t:
        assert abs(f.video_end_s - t["video_end_s"]) <= frame  # duration-ok: a video time
