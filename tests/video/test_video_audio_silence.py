"""No sound where there is no footage (session 23, issue 12 point 3): the player's picture says
"no footage at this time" in a footage gap, a joined recording that does not decode, and
before and after the video, and the sound of the file played on under it. The feeder now gives
the sink silence there, to the sample, from one answer (`export.no_footage_spans`, the same
spans `frame_for_time` gives no frame in). On a real ffmpeg-made file: no frame from 2.0 to
8.0 s over a 440 Hz tone that goes on through the hole (PCM, so exact)."""

from __future__ import annotations

import math
import shutil

import numpy as np
import pytest
from video_corpus import build_gap_and_join, build_gap_tone, build_two_tones_joined

from moderator_app.core.video.audio import RATE, AudioFeeder, AudioTrack, NullSink
from moderator_app.core.video.export import no_footage_spans
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

INF = math.inf
TONE = 2896  # ffmpeg's sine (1/8 of full scale) mixed from mono to stereo (-3 dB)


@pytest.fixture(scope="module")
def gap_tone(tmp_path_factory):
    return build_gap_tone(tmp_path_factory.mktemp("gap_tone"))


def fed(path, index, silent, t0: float, t1: float) -> np.ndarray:
    """The stereo samples a playing feeder gives its sink from video time t0 (ticks every
    0.1 s up to t1), as int16 frames (n, 2)."""
    track = AudioTrack.for_index(path, index)
    sink = NullSink(keep=True)
    feeder = AudioFeeder(track, sink, silent=silent)
    try:
        for k in range(int(round((t1 - t0) * 10)) + 1):
            feeder.tick(t0 + k / 10, True, 1.0, False)
    finally:
        feeder.close()
    return np.frombuffer(bytes(sink.data), np.int16).reshape(-1, 2)


def test_the_spans_without_a_picture_are_the_spans_without_sound(tmp_path):
    video = build_gap_and_join(tmp_path)
    p = probe_video(video, "gap_join.mkv")
    assert [(s.rule, s.start_s, s.end_s) for s in p.no_footage] == [
        ("video.footage_gap", 2.0, 8.0), ("video.joined_undecodable", 10.0, 13.0)]
    assert p.index is not None and p.index.duration_s == 13.0
    # before the video, the gap, and the joined recording merged with after the video
    assert no_footage_spans(p.index, no_footage=p.no_footage) == (
        (-INF, 0.0), (2.0, 8.0), (10.0, INF))
    # without the probe's spans (an index alone): only a hold past 5 s is no footage
    assert no_footage_spans(p.index) == ((-INF, 0.0), (6.9, 8.0), (13.0, INF))


def test_the_sink_is_fed_silence_in_a_footage_gap_to_the_sample(gap_tone):
    p = probe_video(gap_tone, "gap_tone.mkv")
    assert p.index is not None
    silent = no_footage_spans(p.index, no_footage=p.no_footage)
    assert silent == ((-INF, 0.0), (2.0, 8.0), (10.0, INF))
    edge = int(round(0.5 * RATE))  # the sample at 2.0 s, from 1.5 s
    before = fed(gap_tone, p.index, (), 1.5, 2.6)  # as the player fed it
    assert before.shape[0] >= int(1.4 * RATE)
    assert int(np.abs(before[:edge]).max()) == TONE
    assert int(np.abs(before[edge:]).max()) == TONE  # the tone went on in the hole
    now = fed(gap_tone, p.index, silent, 1.5, 2.6)
    assert now.shape == before.shape  # the clock's sound, same length: silence, not a cut
    assert np.array_equal(now[:edge], before[:edge])
    assert int(np.abs(now[:edge][-480:]).max()) == TONE  # the tone up to 2.0 s ...
    assert not now[edge:].any()  # ... and nothing from 2.0 s
    # out of the gap at 8.0 s the tone is back, from its first sample
    after = fed(gap_tone, p.index, silent, 7.5, 8.6)
    edge = int(round(0.5 * RATE))
    assert not after[:edge].any() and int(np.abs(after[edge:edge + 480]).max()) == TONE


def alone(path, t0: float, t1: float) -> np.ndarray:
    """The samples of a recording played alone (its own file, its own clock) for [t0, t1)."""
    track = AudioTrack(path, 0.0)
    try:
        return np.frombuffer(track.pcm(t0, t1), np.int16).reshape(-1, 2)
    finally:
        track.close()


def test_a_joined_matroska_plays_each_recordings_sound_after_any_seek(tmp_path):
    """Session 24: a seek into a cat-joined MKV played no sound up to the file's second cluster
    (FFmpeg's Matroska byte seek resyncs from the cluster it last read: silence for 0-1.685 s)
    and the second recording played the first one's tone. Now, after a seek anywhere, the
    sound fed is the recording's own, sample for sample as that recording alone plays it at
    its own time, from the first sample; and silence where there is no footage."""
    video = build_two_tones_joined(tmp_path)
    p = probe_video(video, "two_tones.mkv")
    assert p.index is not None and len(p.index.segments) == 1  # two recordings
    silent = no_footage_spans(p.index, no_footage=p.no_footage)
    assert silent == ((-INF, 0.0), (2.0, 8.0), (13.0, INF))
    n = int(0.3 * RATE)
    for t, own, start in [(0.0, "gap_tone.mkv", 0.0), (0.7, "gap_tone.mkv", 0.0),
                          (1.5, "gap_tone.mkv", 0.0), (8.0, "gap_tone.mkv", 0.0),
                          (9.0, "gap_tone.mkv", 0.0), (10.0, "b660.mkv", 10.0),
                          (10.6, "b660.mkv", 10.0), (11.3, "b660.mkv", 10.0),
                          (12.0, "b660.mkv", 10.0)]:
        got = fed(video, p.index, silent, t, t + 0.3)[:n]
        want = alone(tmp_path / own, t - start, t - start + 0.3)[:n]
        assert int(np.abs(want[:480]).max()) == TONE, (t, own)  # the tone from the seek on
        assert np.array_equal(got, want), (t, int(np.abs(got[:480]).max()))
    # inside the gap: silence after a seek, and the tone from 8.0 s to the sample
    assert not fed(video, p.index, silent, 3.0, 3.3).any()
    got = fed(video, p.index, silent, 7.8, 8.1)[:n]
    edge = int(round(0.2 * RATE))
    assert not got[:edge].any()
    assert np.array_equal(got[edge:], alone(tmp_path / "gap_tone.mkv", 8.0, 8.1)[:n - edge])
