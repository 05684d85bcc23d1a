"""The scan's batched signals equal the per-frame reference definition (`frame_row`) to the
bit, through the C reduction and through numpy's: on a small (160x210, scaled by swscale) and a 1080p (sampled) video, across batch
boundaries, a mid-stream size change, 10-bit frames, and a real game's recording when the
corpus is built. The cached arrays, the reports and sync read these numbers, so a batching
slip would change verdicts silently."""

from __future__ import annotations

import shutil
import subprocess
import threading
from pathlib import Path

import av
import numpy as np
import pytest
from av.video.reformatter import VideoReformatter

from moderator_app.core.video import signals

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")
KEYS = ("luma", "luma_max", "motion", "changed", "tiles", "sync_tiles")


@pytest.fixture(autouse=True, params=["native", "numpy"])
def reduction(request, monkeypatch) -> str:
    """Both reductions of a batch: the C one (`video/_grid.c`, one pass per grid) and numpy's
    (where no compiler built it, or MODERATOR_APP_NATIVE=0): each must equal `frame_row`."""
    if request.param == "numpy":
        monkeypatch.setenv("MODERATOR_APP_NATIVE", "0")
        assert signals._native() is None
    elif signals._native() is None:
        pytest.skip("the C reduction is not built here")
    return request.param


def ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", *args], check=True)


def clip(out: Path, size: str, frames: int, pix_fmt: str = "yuv420p",
         src: str = "testsrc2", *extra: str) -> Path:
    ffmpeg("-f", "lavfi", "-i", f"{src}=size={size}:rate=60", "-frames:v", str(frames),
           "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", pix_fmt, *extra, str(out))
    return out


def reference(path: Path) -> dict:
    """The signals frame by frame through the reference definition."""
    rows, prev, size = [], None, None
    scaler = VideoReformatter()
    with av.open(str(path)) as c:
        for f in c.decode(c.streams.video[0]):
            if f.pts is None:
                continue
            g = signals._luma_grid(f, scaler)
            if (f.width, f.height) != size:
                prev = None
            rows.append(signals.frame_row(g, prev))
            prev, size = g, (f.width, f.height)
    cols = list(zip(*rows, strict=True))
    return {"luma": np.asarray(cols[0], np.float32), "luma_max": np.asarray(cols[1], np.float32),
            "motion": np.asarray(cols[2], np.float32),
            "changed": np.asarray(cols[3], np.float32),
            "tiles": np.stack(cols[4]).astype(np.float32), "sync_tiles": np.stack(cols[5])}


def assert_identical(path: Path) -> dict:
    with av.open(str(path)) as c:
        got, _ = signals.scan_container(c)
    want = reference(path)
    for k in KEYS:
        assert got[k].dtype == want[k].dtype and got[k].shape == want[k].shape, k
        assert got[k].tobytes() == want[k].tobytes(), k  # NaN rows included, bit for bit
    return got


def test_small_video_batched_equals_reference(tmp_path):
    # 150 frames: two full batches and a partial one; the picture moves every frame
    got = assert_identical(clip(tmp_path / "small.mp4", "160x210", 150))
    assert got["luma"].shape == (150,)
    assert np.isnan(got["motion"][0]) and not np.isnan(got["motion"][1:]).any()
    assert got["sync_tiles"][1:].sum() > 0  # the comparison covers moving pictures


@pytest.mark.parametrize("idle", [0, 1])
def test_reduction_beside_the_decoding_equals_reference(tmp_path, monkeypatch, idle):
    # the work on each frame (grid, batches, holes) on a second thread (an idle core) or
    # inline (none): the same rows in the same order, the last partial batch included
    monkeypatch.setattr(signals, "_idle_cores", lambda: idle)
    got = assert_identical(clip(tmp_path / "small.mp4", "160x210", 101, "yuv420p",
                                "testsrc2", "-vf", "negate=enable='gt(mod(n,37),30)'"))
    assert got["luma"].shape == (101,)


def test_a_failure_in_the_reduction_reaches_the_decoding_loop(tmp_path, monkeypatch):
    # a MemoryError under the child's RLIMIT_AS on the frames' thread is raised where the
    # child turns it into its answer, not lost with the thread
    monkeypatch.setattr(signals, "_idle_cores", lambda: 1)

    def no_memory(self, buf, n, invalid):
        raise MemoryError
    monkeypatch.setattr(signals._Rows, "_reduce", no_memory)
    path = clip(tmp_path / "small.mp4", "160x210", 40)
    with av.open(str(path)) as c, pytest.raises(MemoryError):
        signals.scan_container(c)


def test_repeated_tiny_pictures_equal_reference_and_are_scaled_once(tmp_path, monkeypatch,
                                                                   reduction):
    # a 16x16 picture that changes every 4th frame (lossless: its 3 repeats decode byte for
    # byte the same), as a tiny capture at a rate above its game's (QA's 1,000,000-frame
    # 16x16 MKV at 1000 fps repeats 98.8 % of its frames): a repeat takes the grid of the
    # picture before it instead of scaling it again, and the C reduction takes a grid equal
    # to the one before as such; the numbers stay the reference's to the bit
    path = clip(tmp_path / "tiny.mp4", "16x16", 120, "yuv420p", "testsrc2", "-vf",
                "noise=alls=40:allf=t,select='not(mod(n\\,4))',fps=60", "-qp", "0")
    scaled = []
    real = signals._luma_grid
    monkeypatch.setattr(signals, "_luma_grid",
                        lambda f, *args: scaled.append(f.pts) or real(f, *args))
    with av.open(str(path)) as c:
        signals.scan_container(c)
    monkeypatch.setattr(signals, "_luma_grid", real)
    assert len(scaled) == (30 if reduction == "native" else 120)
    got = assert_identical(path)
    assert int((got["changed"][1:] == 0).sum()) == 90
    assert int((got["changed"][1:] > 0).sum()) == 29  # and every 4th frame changed


def test_large_changes_count_as_large(tmp_path):
    # every other frame negated: differences up to 255, where a wrapping uint8 difference
    # would read 250 as 6 (a bug the corpus's transport-stream file caught)
    got = assert_identical(clip(tmp_path / "flip.mp4", "160x210", 40, "yuv420p", "testsrc2",
                                "-vf", "negate=enable='mod(n,2)'"))
    assert got["changed"][1:].min() > 0.5


def test_1080p_batched_equals_reference(tmp_path):
    assert_identical(clip(tmp_path / "big.mp4", "1920x1080", 70))


def test_size_change_mid_stream_restarts_motion(tmp_path):
    a = clip(tmp_path / "a.ts", "160x210", 40)
    b = clip(tmp_path / "b.ts", "320x180", 40)
    joined = tmp_path / "joined.ts"
    ffmpeg("-i", f"concat:{a}|{b}", "-c", "copy", str(joined))
    got = assert_identical(joined)
    assert np.isnan(got["motion"][[0, 40]]).all()
    assert not np.isnan(got["motion"][41:]).any()
    assert not got["sync_tiles"][40].any()


def test_ten_bit_frames_take_the_reference_path(tmp_path):
    got = assert_identical(clip(tmp_path / "ten.mkv", "320x240", 80, "yuv420p10le"))
    assert not np.isnan(got["motion"][1:]).any()


def test_still_picture_has_no_motion(tmp_path):
    got = assert_identical(clip(tmp_path / "still.mp4", "160x210", 70, "yuv420p", "smptebars",
                                "-qp", "0"))  # lossless: every frame the same picture
    assert got["motion"][1:].max() == 0.0 and got["changed"][1:].max() == 0.0


def test_real_game_recording_batched_equals_reference():
    # one named run, built here when missing: the first video of whatever earlier tests had
    # built was another recording in another test order, and none (a skip) when this test
    # ran before them on a fresh clone
    import corpus
    why = corpus.available()
    if why is not None:
        pytest.skip(f"the real-game corpus cannot be built here: {why}")
    assert_identical(corpus.build("breakout-genuine").video)


def test_a_failure_in_the_decoding_loop_ends_the_frames_thread(tmp_path, monkeypatch):
    # the decoding side fails (here its progress callback): the frames' thread is ended, not
    # left waiting on its queue
    monkeypatch.setattr(signals, "_idle_cores", lambda: 1)
    path = clip(tmp_path / "small.mp4", "160x210", 300)
    before = set(threading.enumerate())

    def fail(done, total):
        raise ValueError("stop")
    with av.open(str(path)) as c, pytest.raises(ValueError):
        signals.scan_container(c, fail)
    assert set(threading.enumerate()) <= before


@pytest.mark.parametrize(("cores", "load", "runnable", "idle"), [
    (2, 1.7, 1, 2),     # quiet: the average still counts the previous minute's runs
    (2, 1.7, 2, 1),     # one other task running now
    (2, 18.0, 15, 0),   # a busy machine
    (2, 0.2, 6, 1),     # a burst now, but little over the last minute: the average
    (2, 0.9, None, 1),  # no instant figure (not Linux): the average alone
])
def test_idle_cores_counts_the_work_running_now(cores, load, runnable, idle):
    assert signals.idle_cores(cores, load, runnable) == idle


def plain_row(g: np.ndarray, prev: np.ndarray) -> tuple:
    """`frame_row` as first written (numpy means over the blocks, summed sync tiles): the
    definition the cached signals of every video were made by."""
    def thumb(a):
        return a.reshape(32, 4, 64, 4).mean(axis=(1, 3))
    g, p = g.astype(np.float32), prev.astype(np.float32)
    t, d, dg = thumb(g), np.abs(thumb(g) - thumb(p)), np.abs(g - p)
    return (float(t.mean()), float(g.max()), float(d.mean()),
            float(np.count_nonzero(dg > signals.CHANGE_LEVEL)) / g.size,
            d.reshape(8, 4, 8, 8).mean(axis=(1, 3)),
            (dg > signals.SYNC_NOISE).reshape(16, 8, 16, 16).sum(axis=(1, 3), dtype=np.uint8))


@pytest.mark.parametrize("levels", [4, 1])  # 10-bit grids (quarter levels) and 8-bit ones
def test_frame_row_equals_its_first_definition(levels):
    rng = np.random.default_rng(levels)
    prev = rng.integers(0, 256 * levels, (128, 256)).astype(np.float32) / levels
    for k in range(40):
        # a noisy copy of the previous grid (few points moved) or a new one (all moved)
        g = prev + rng.integers(-30, 31, prev.shape).astype(np.float32) / levels if k % 2 \
            else rng.integers(0, 256 * levels, (128, 256)).astype(np.float32) / levels
        g = np.clip(g, 0, 255.75 if levels == 4 else 255).astype(np.float32)
        got, want = signals.frame_row(g, prev), plain_row(g, prev)
        for a, b in zip(got, want, strict=True):
            assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
        prev = g
