"""The C sampler of the scan's grids (`_grid.sample`, session 26) gives the points numpy's
gathers give, byte for byte: the luma grid of a picture at least as large as the grid and
the chroma grid of every planar picture, on sizes whose sample columns follow each other (a
256-wide picture), repeat (a chroma plane narrower than the grid) or skip, and rows likewise.
The scan's arrays, its cache and the reports are made of these bytes, so a slip would change
verdicts silently. And an index outside a plane is refused before anything is read: the
planes come from an untrusted video."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import av
import numpy as np
import pytest
from av.video.reformatter import VideoReformatter

from moderator_app.core.video import chroma, signals
from moderator_app.core.video.signals_rows import _native

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


@pytest.fixture
def sample():
    grid = _native()
    if grid is None or not hasattr(grid, "sample"):
        pytest.skip("the C module is not built here")
    return grid.sample


def clip(out: Path, size: str, pix_fmt: str, frames: int = 12) -> Path:
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    f"testsrc2=size={size}:rate=30", "-frames:v", str(frames), "-c:v",
                    "libx264", "-preset", "ultrafast", "-pix_fmt", pix_fmt, str(out)],
                   check=True)
    return out


@pytest.mark.parametrize(("size", "pix_fmt"), [
    ("160x210", "yuv420p"),   # an Atari picture: chroma 80x105, columns and rows repeat
    ("256x144", "yuv420p"),   # luma columns a run (copied as one), rows skip
    ("480x270", "yuv420p"),   # QA's small MKV's size: columns skip unevenly
    ("333x257", "yuv444p"),   # odd sizes, full chroma
    ("640x360", "yuv422p"),   # half-width chroma
])
def test_the_c_sampler_gives_numpys_points(tmp_path, sample, size, pix_fmt):
    path = clip(tmp_path / "v.mp4", size, pix_fmt)
    scaler = VideoReformatter()
    seen = 0
    with av.open(str(path)) as c:
        for f in c.decode(c.streams.video[0]):
            want_c = chroma.chroma_grid(f, scaler)
            got_c = chroma.chroma_grid(f, scaler, sample)
            assert got_c.tobytes() == want_c.tobytes(), f.pts
            if signals._sampled(f):
                want = signals._luma_grid(f, scaler)
                got = signals._luma_grid(f, scaler, sample)
                assert got.dtype == want.dtype and got.shape == want.shape
                assert got.tobytes() == want.tobytes(), f.pts
            seen += 1
    assert seen == 12


def test_the_scan_gathers_no_point_through_numpy_when_the_c_module_is_built(
        tmp_path, monkeypatch):
    # the numpy gathers (a fancy index per plane) cost ~15 us a plane a frame at 160x210,
    # more than the C sampler's whole grid: the scan must not take them where it is built
    if _native() is None:
        pytest.skip("the C module is not built here")
    flat: list[tuple] = []
    real = chroma._points
    monkeypatch.setattr(chroma, "_points", lambda *a: flat.append(a) or real(*a))
    rows: list[tuple] = []
    real_luma = signals._points
    monkeypatch.setattr(signals, "_points", lambda *a: rows.append(a) or real_luma(*a))
    path = clip(tmp_path / "v.mp4", "256x144", "yuv420p", frames=40)
    with av.open(str(path)) as c:
        arrays, _ = signals.scan_container(c)
    assert arrays["luma"].shape == (40,) and arrays["chroma_changed"].shape == (40,)
    assert flat == []  # every chroma plane sampled in C
    assert len(rows) == 40  # every luma grid sampled, at the points `_points` places


def test_an_index_outside_a_plane_is_refused_before_any_read(sample):
    plane = np.arange(100 * 64, dtype=np.uint32).astype(np.uint8)  # 100 rows of 64
    out = np.zeros((4, 32), np.uint8)
    ys = np.array([0, 10, 50, 99], np.int64)
    xs = np.array([0, 5, 63], np.int64)
    sample(plane, 64, ys, xs, out, 32, 3)
    assert out[:, 3:6].tobytes() == plane.reshape(100, 64)[ys][:, xs].tobytes()
    bad = [
        (plane, 64, np.array([100], np.int64), xs, out, 32, 0),   # a row past the plane
        (plane, 64, ys, np.array([64], np.int64), out, 32, 0),    # a column past the line
        (plane, 64, np.array([-1], np.int64), xs, out, 32, 0),    # before the plane
        (plane, 64, ys, np.array([-3], np.int64), out, 32, 0),
        (plane, 64, ys, xs, out, 32, 30),                         # past the output's row
        (plane, 64, np.arange(5, dtype=np.int64), xs, out, 32, 0),  # more rows than out
        (plane[:64 * 99 + 10], 64, ys, xs, out, 32, 0),          # a last row cut short
        (plane, 0, ys, xs, out, 32, 0),
    ]
    for args in bad:
        before = out.copy()
        with pytest.raises(ValueError):
            sample(*args)
        assert out.tobytes() == before.tobytes()  # nothing written either
