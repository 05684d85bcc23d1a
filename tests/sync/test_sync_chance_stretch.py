"""A stretch of the track that lines up by chance is no offset (issue 13, session 10).

Skiing (held out after both sets: the slope scrolls all the time, its flags pass at a steady
pace) idles 9 s in its `pause` run. At 4x4 tiles the track split the run at the pause and its
first 8 actions stood 7.27 spreads over their shuffled logs at 24.26 s (truth 2.03 s), so the
analysis took that stretch's offset: 1,335 frames off, confidence 0.58, and a false
`sync.offset_jump` of -16.88 s at video 31.90 s. The whole run's learned fit stands 1.24
spreads at that offset; a true splice's stretch leaves a mark there (3.25 spreads at least in
the corpus): `reading.PART_MIN_WHOLE_Z`. The lowest of those, Boxing's cut at 4x4, keeps
its jump.
"""

from __future__ import annotations

import corpus
import pytest

from moderator_app.core.sync.analysis import analyze, analyze_at
from moderator_app.core.sync.signals import frame_signals
from moderator_app.core.thresholds import DEFAULT_THRESHOLDS

needs_corpus = pytest.mark.skipif(corpus.available() is not None,
                                  reason=f"corpus cannot be built: {corpus.available()}")


def _run(name: str, monkeypatch):
    monkeypatch.setenv("MODERATOR_APP_CACHE", str(corpus.cache_dir() / "scan-cache"))
    run = corpus.build(name)
    e = run.action_times
    return run.truth, e, frame_signals(run.video)


@needs_corpus
def test_skiing_pause_is_not_enough_signal_not_a_wrong_offset(monkeypatch):
    truth, e, sig = _run("skiing-pause", monkeypatch)
    assert truth["kind"] == "pause" and len(e) == 23
    coarse = analyze_at(e, sig.coarser(4), DEFAULT_THRESHOLDS)
    assert coarse.suggested_offset_s is None  # was 24.2808 s
    assert coarse.findings == []  # was sync.offset_jump -16.88 s at video 31.90 s
    a = analyze(e, sig, DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is None
    assert a.reason == "the video's reactions do not single out one offset"
    assert a.findings == []


@needs_corpus
def test_a_cut_found_from_a_stretch_of_the_run_is_still_found(monkeypatch):
    """Boxing's cut at 4x4: the analysis takes the offset of the 22 actions after the cut
    (the whole run stands 3.25 spreads there, the lowest of the corpus' true stretches) and
    reports the jump with its size, 0.93 s after the cut's frame at that scale as before;
    both scales together place it at the cut's frame."""
    truth, e, sig = _run("boxing-cut", monkeypatch)
    t, frame = truth["tamper"], 1 / truth["fps"] + 1e-6
    a = analyze_at(e, sig.coarser(4), DEFAULT_THRESHOLDS)
    assert a.suggested_offset_s is not None, a.reason
    assert abs(a.suggested_offset_s - (truth["offset_s"] + t["size_s"])) <= frame  # duration-ok: a video time
    [f] = a.findings
    assert f.rule == "sync.offset_jump"
    assert abs(f.video_start_s - 17.75) <= frame  # duration-ok: a video time (cut 16.82 s)
    assert abs(f.size_s - t["size_s"]) <= frame  # duration-ok: a video time
    [f] = analyze(e, sig, DEFAULT_THRESHOLDS).findings
    assert f.rule == "sync.offset_jump"
    assert abs(f.video_start_s - t["video_s"]) <= frame  # duration-ok: a video time
    assert abs(f.size_s - t["size_s"]) <= frame  # duration-ok: a video time
