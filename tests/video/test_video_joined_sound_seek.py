"""The player's sound after a seek into a later recording of a joined file (session 29, issue
12: "the player must stay in sync").

`child_audio` sought the sound of joined recordings whose timestamps restart by the byte of
a keyframe of the picture; FFmpeg's MP4 demuxer cannot seek by bytes, so in a fragmented MP4
of two recordings joined by `cat` every window of sound was silence (the first request failed
and the track with it), in either recording. A Matroska recording was read from its own
header but with no end: the file's demuxer went on into the next recording with this one's
header (a sound of 44.1 kHz decoded with a 48 kHz setup, ticks of another TimecodeScale in
the first's), and a seek within 1 s before such a join gave noise (correlation 0.09-0.31
with the truth). Now each recording is read from its own header, ended at the next, and its
sound placed by its own clock and the index's shift of its picture. Judged against the
truth: each part file alone played by the same seam, placed at its join; pink noise, so the
lag found is the only one."""

from __future__ import annotations

import shutil
from pathlib import Path

import matroska_clock
import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.video.audio import AudioTrack
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

_X264 = ["-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "30", "-pix_fmt",
         "yuv420p", "-threads", "1"]
_FRAG = ["-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-f", "mp4"]
_PLAIN = ["-movflags", "+frag_keyframe+empty_moov", "-f", "mp4"]
_MKV = ["-write_crc32", "0", "-cluster_time_limit", "1000", "-f", "matroska"]
JOIN = 2.0  # the first recording's length: 2 s, then 3 s
RATE = 48000


def _noise(rate: int, seed: int, seconds: int) -> list[str]:
    return ["-f", "lavfi", "-i", f"anoisesrc=d={seconds}:c=pink:r={rate}:a=0.3:s={seed}",
            "-c:a", "aac", "-ar", str(rate), "-ac", "1"]


@pytest.fixture(scope="module")
def joins(tmp_path_factory) -> dict[str, tuple[Path, Path, Path]]:
    """(joined file, first part, second part): `fmp4` 30 fps + 30 fps, the second's sound at
    44.1 kHz; `fmp4rate` 25 + 30 fps (another MP4 time scale); `mkv` 25 + 30 fps, the
    second at 0.1 ms ticks and 44.1 kHz; `mkvorigin` the second's clock from 3600 s
    (`joined_clock.origin_shift`)."""
    d = tmp_path_factory.mktemp("sound_seek")
    out = {}
    for name, (f1, f2, box, scale) in {
            "fmp4": (("30", 60), ("30", 90), _FRAG, None),
            "fmp4rate": (("25", 50), ("30", 90), _PLAIN, None),
            "mkv": (("25", 50), ("30", 90), _MKV, 100_000),
            "mkvorigin": (("25", 50), ("30", 90), _MKV, None)}.items():
        ext = ".mkv" if box is _MKV else ".mp4"
        a = vc.encode(d / f"{name}_a{ext}", [*_noise(RATE, 1, 2), *_X264, *box],
                      frames=f1[1], fps=f1[0])
        origin = ["-output_ts_offset", "3600"] if name == "mkvorigin" else []
        b = vc.encode(d / f"{name}_b{ext}", [*_noise(44100, 2, 3), *origin, *_X264, *box],
                      frames=f2[1], fps=f2[0], first=f1[1])
        if scale:
            b.write_bytes(matroska_clock.rescale(b.read_bytes(), scale))
        out[name] = (d / f"{name}{ext}", a, b)
        out[name][0].write_bytes(a.read_bytes() + b.read_bytes())
    return out


def _played(path: Path, t0: float, t1: float) -> np.ndarray:
    """The left channel the player is given for [t0, t1) right after a seek (a fresh track:
    the player's restart)."""
    p = probe_video(path, path.name)
    assert p.index is not None
    track = AudioTrack.for_index(path, p.index)
    try:
        pcm = track.pcm(t0, t1)
        assert track.failed is None
    finally:
        track.close()
    return np.frombuffer(pcm, np.int16).reshape(-1, 2)[:, 0].astype(np.float64)


def _lag(got: np.ndarray, truth: np.ndarray, at: int, reach: int = 480) -> tuple[int, float]:
    """The lag (samples) at which `got` best matches `truth` from sample `at`, and how well
    (normalised correlation, 1.0 the same sound)."""
    best = (0, 0.0)
    for lag in range(-reach, reach + 1):
        ref = truth[at + lag:at + lag + len(got)]
        c = float(np.dot(got, ref) / (np.linalg.norm(got) * np.linalg.norm(ref) + 1e-9))
        if c > best[1]:
            best = (lag, c)
    return best


@pytest.mark.parametrize("name", ["fmp4", "fmp4rate", "mkv", "mkvorigin"])
def test_the_sound_after_a_seek_is_the_recordings_own_in_sync(joins, name):
    """Seeks into the first recording, just before the join and into the second: 0.1 s of
    sound each, its own recording's (correlation > 0.95; before: silence in the fragmented
    MP4s, noise within 1 s after a Matroska join of another clock and rate) within 1 ms of
    where the part file alone plays it (Matroska rounds times to the ms)."""
    path, a, b = joins[name]
    p = probe_video(path, path.name)
    assert p.index is not None
    second = int(np.nonzero(p.index.times_s >= JOIN - 0.01)[0][0])
    # each part's sound where the joined file shows its first picture (the second's: 2.0 s)
    assert abs(p.index.time_of(second) - JOIN) < 0.001  # duration-ok: the join's place
    truth = np.zeros(int(6 * RATE))
    for part, at in ((a, 0.0), (b, p.index.time_of(second))):
        alone = _played(part, 0.0, 3.0)
        i = int(round(at * RATE))
        truth[i:i + len(alone)] = alone
    rows = []
    for t in (0.7, 1.6, 2.1, 2.5, 3.3):
        got = _played(path, t, t + 0.1)
        assert np.abs(got).max() > 0, (t, "silent")
        lag, corr = _lag(got, truth, int(round(t * RATE)))
        rows.append((t, lag, corr > 0.95))
    assert [r[2] for r in rows] == [True] * 5, rows
    assert max(abs(r[1]) for r in rows) <= RATE // 1000, rows  # duration-ok: sound's lag
