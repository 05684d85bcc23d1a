"""FFmpeg's frame threads and PyAV's log callback (session 14, issue 12): the callback takes the
GIL in FFmpeg's threads, and a decoder freed with the GIL held (PyAV's dealloc) waits for its
frame threads, so a frame thread that logs an error while its decoder is freed deadlocks the
process (reproduced on the 10-bit 4:4:4 HEVC file). The video process therefore never listens
to FFmpeg's log while it decodes; HEVC decodes with frame threads again."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import textwrap

import av
import pytest
import video_corpus as vc

from moderator_app.core.video import opening
from moderator_app.core.video.decoder import ExactDecoder
from moderator_app.core.video.opening import open_container
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

HEVC_444_10 = ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
               "log-level=none:keyint=30", "-pix_fmt", "yuv444p10le", "-f", "matroska"]


def _has_x265() -> bool:
    out = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                         text=True).stdout
    return "libx265" in out


def test_an_open_that_succeeds_never_listens_to_ffmpegs_log(tmp_path, monkeypatch):
    """Every open used to install PyAV's log callback for its duration; a frame-threaded
    decoder freed meanwhile (the garbage collector runs inside the open) with a frame thread
    logging an error deadlocked. Now nothing listens while a file that opens is opened (the
    level seen inside `av.open` was ERROR, now None)."""
    path = vc.encode(tmp_path / "v.mp4", ["-c:v", "libx264", "-preset", "ultrafast"],
                     frames=30)
    seen = []
    real = av.open

    def spy(*args, **kwargs):
        seen.append(av.logging.get_level())
        return real(*args, **kwargs)

    monkeypatch.setattr(av, "open", spy)
    open_container(str(path)).close()
    assert seen == [None]
    assert av.logging.get_level() is None


def test_a_refused_file_is_still_explained_with_the_collector_restored(tmp_path):
    """The second open that hears FFmpeg's reason runs with the garbage collected and the
    collector off; both are as they were afterwards."""
    import gc
    (tmp_path / "big.y4m").write_bytes(
        b"YUV4MPEG2 W30000 H30000 F30:1 Ip A1:1 C420jpeg\nFRAME\n" + bytes(1000))
    assert gc.isenabled()
    with pytest.raises(opening.OpenFailed, match="Picture size 30000x30000 is invalid"):
        open_container(str(tmp_path / "big.y4m"))
    assert gc.isenabled() and av.logging.get_level() is None


@pytest.mark.skipif(not _has_x265(), reason="this ffmpeg has no libx265 encoder")
def test_hevc_decodes_with_frame_threads_and_every_read_is_exact(tmp_path):
    """HEVC had slice threads only since session 12's deadlock; the trigger is gone, so it
    decodes with frame threads as H.264 does, and 60 random reads of the 10-bit 4:4:4 file
    (the deadlock's) are each the true frame."""
    path = vc.encode(tmp_path / "v.mkv", HEVC_444_10, frames=120)
    p = probe_video(path, "v.mkv")
    assert p.ok and p.index is not None and p.frame_count == 120
    dec = ExactDecoder(open_container(str(path)), p.index,
                       reopen=lambda: open_container(str(path)))
    assert dec.stream.thread_type.name == "AUTO"
    frames = [random.Random(14).randrange(120) for _ in range(60)]
    got = [vc.read_code(f.to_ndarray(format="rgb24")) if (f := dec.read(k)) is not None
           else None for k in frames]
    assert got == frames


@pytest.mark.skipif(not _has_x265(), reason="this ffmpeg has no libx265 encoder")
def test_frame_threaded_decoders_freed_while_a_refused_file_is_explained(tmp_path):
    """The deadlock's setting, in a process of its own: frame-threaded HEVC decoders left
    mid-decode in reference cycles (freed by the garbage collector, the way they were freed
    inside an open), and refused files explained between them, 40 times. The process ends
    (it hung before, every thread in a futex wait) and every read is exact."""
    path = vc.encode(tmp_path / "v.mkv", HEVC_444_10, frames=120)
    (tmp_path / "big.y4m").write_bytes(
        b"YUV4MPEG2 W30000 H30000 F30:1 Ip A1:1 C420jpeg\nFRAME\n" + bytes(1000))
    script = textwrap.dedent(f"""
        import random, sys
        sys.path.insert(0, {str(vc.__file__.rsplit('/', 1)[0])!r})
        import video_corpus as vc
        from moderator_app.core.video import decoder, opening
        from moderator_app.core.video.probe import probe_video
        path, big = {str(path)!r}, {str(tmp_path / 'big.y4m')!r}
        index = probe_video(path, "v.mkv").index
        rng, bad = random.Random(3), 0
        for i in range(40):
            dec = decoder.ExactDecoder(opening.open_container(path), index,
                                       reopen=lambda: opening.open_container(path))
            dec.cycle = dec  # garbage only the collector frees
            k = rng.randrange(120)
            f = dec.read(k)
            bad += f is None or vc.read_code(f.to_ndarray(format="rgb24")) != k
            del dec, f
            try:
                opening.open_container(big)
            except opening.OpenFailed:
                pass
        print("done", bad)
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=600)  # a hang guard, not a measurement
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["done", "0"]
