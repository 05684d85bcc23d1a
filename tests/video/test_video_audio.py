"""Audio in step with the picture, up to the sink (this machine has no sound device): exact
sample windows on the video's clock, silence where the track has none, muted off 1x."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video.audio import RATE, AudioFeeder, AudioTrack, NullSink, samples

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def stereo(pcm: bytes) -> np.ndarray:
    return np.frombuffer(pcm, np.int16).reshape(-1, 2)


def peak_hz(x: np.ndarray) -> float:
    spec = np.abs(np.fft.rfft(x[:, 0].astype(np.float64)))
    return float(np.argmax(spec) * RATE / x.shape[0])


@pytest.fixture
def track():
    t = AudioTrack(vc.build(vc.RECIPES["audio_short"]))
    yield t
    t.close()


def test_a_window_is_exact_and_is_the_tone(track):
    x = stereo(track.pcm(5.0, 5.5))
    assert x.shape == (samples(0.5), 2)
    assert abs(peak_hz(x) - 440.0) < 3.0 and np.abs(x).max() > 1000


def test_windows_join_without_a_seam(track):
    whole = stereo(track.pcm(7.0, 7.4)).astype(int)
    parts = stereo(track.pcm(7.0, 7.2) + track.pcm(7.2, 7.4)).astype(int)
    # the same samples at the same places (AAC decoded from another seek point may differ in
    # the last bit); a seam of one sample would differ by ~1000 at 440 Hz
    assert whole.shape == parts.shape and np.abs(whole - parts).max() <= 2


def test_silence_where_the_track_has_no_sound(track):
    assert not stereo(track.pcm(25.0, 25.5)).any()  # audio ends at 20 s, video at 30 s
    assert not stereo(track.pcm(-1.0, -0.1)).any()
    edge = stereo(track.pcm(19.5, 20.5))
    assert edge[:samples(0.4)].any() and not edge[samples(0.6):].any()


def test_no_audio_track_is_silence_not_an_error():
    t = AudioTrack(vc.build(vc.RECIPES["mp4"]))
    try:
        assert len(t.pcm(1.0, 1.25)) == samples(0.25) * 4
        assert not stereo(t.pcm(1.0, 1.25)).any() and t.failed is None
    finally:
        t.close()


def test_an_audio_hole_stays_a_hole():
    t = AudioTrack(vc.build(vc.RECIPES["audio_gap"]))
    try:
        assert stereo(t.pcm(4.0, 4.5)).any()
        assert not stereo(t.pcm(5.2, 5.8)).any()
        assert stereo(t.pcm(6.3, 6.8)).any()
    finally:
        t.close()


def test_feeder_plays_only_at_1x_unmuted_and_flushes_on_changes(track):
    sink = NullSink(keep=True)
    f = AudioFeeder(track, sink, lead_s=0.3, chunk_s=0.1)
    f.tick(10.0, playing=True, speed=1.0, muted=False)
    assert f.written_to == pytest.approx(10.3) and len(sink.data) == samples(0.3) * 4
    f.tick(10.1, playing=True, speed=1.0, muted=False)
    assert f.written_to == pytest.approx(10.4)
    fed = stereo(bytes(sink.data)).astype(int)  # continuous, on the video's clock
    assert np.abs(fed - stereo(track.pcm(10.0, 10.4)).astype(int)).max() <= 2
    before = sink.written
    f.tick(10.2, playing=True, speed=2.0, muted=False)  # 2x: muted, queue dropped
    f.tick(10.3, playing=True, speed=1.0, muted=True)
    f.tick(10.4, playing=False, speed=1.0, muted=False)
    assert sink.written == before and sink.flushes == 1 and f.written_to is None
    f.tick(15.0, playing=True, speed=1.0, muted=False)  # a seek: starts at the picture
    assert f.written_to == pytest.approx(15.3)
