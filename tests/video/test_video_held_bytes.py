"""The video process's `held` request is bounded by bytes, not only by pictures (review V10):
it keeps the pictures a hold showed to compare each change with, and 32 of them were 265 MB
at 4K and 1.06 GB at 8K, over issue 15's 512 MiB (the child's own 3 GiB cap made it fail
safe, the warning kept, not read). Now `child_held.SHOWN_BYTES` (96 MiB) bounds them: fewer
pictures kept at 4K and above, three at 8K (the hold's first and the newest).

The clip: 8K (7680x4320) grey, still but for a 24x24 white square that steps 40 px right
each frame, 2 s at 10 frames a second: every frame is a picture the hold has not shown, so
every one is kept up to the bound. The child's peak resident memory is read by the process
that started it (`RUSAGE_CHILDREN`), in a fresh interpreter so no other child counts."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import video_corpus as vc

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

ROOT = Path(__file__).resolve().parents[2]

_PEAK = """
import resource, sys, av
from moderator_app.core.video.isolate import VideoProcess
path = sys.argv[1]
with av.open(path) as c:
    pts = sorted(p.pts for p in c.demux(c.streams.video[0]) if p.pts is not None)
with VideoProcess(path, timeout_s=300) as vp:
    a = vp.request({"op": "held", "spans": [[pts[1], pts[-1]]], "budget_s": 300}).header
span = a["spans"][0]
print(len(span["pts"]), sum(1 for s in span["seen"] if s >= 8),
      resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
"""


def test_the_held_request_on_an_8k_hold_stays_under_512_mib(tmp_path):
    """Before the bound: 18 new pictures of 33 MB kept (about 1 GB with the decoder's); after,
    two. The answer still reads every frame and finds each step a new picture."""
    out = tmp_path / "still_8k.mp4"
    vc._ffmpeg(["-f", "lavfi", "-i",
                "color=c=gray:s=7680x4320:r=10:d=2[bg];color=c=white:s=24x24:r=10:d=2[fg];"
                "[bg][fg]overlay=x='40*n':y=200", "-c:v", "libx264", "-preset", "ultrafast",
                "-g", "100", "-threads", "1", "-pix_fmt", "yuv420p", str(out)])
    got = subprocess.run([sys.executable, "-c", _PEAK, str(out)], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.split()
    frames, new, peak_mb = (int(x) for x in got)
    assert frames == 20 and new == 18  # frames 2-19 each a square at a place not shown
    assert peak_mb < 512, f"the held request's child peaked at {peak_mb} MB"


def test_a_mark_cycling_among_13_places_at_4k_is_shown_again_on_its_return(tmp_path):
    """Review s36 V3b: a 24x24 square stepping among 13 places every 0.5 s over a 4K still
    (8 s at 10 fps). Kept as whole pictures, 12 fitted in `SHOWN_BYTES` at 4K, so from the
    second cycle each return was a picture the hold had not shown (15 new: a clock); kept as
    the crops where they differ from the hold's first picture, 32 fit, and each return is
    seen again: 12 new (places 2-13; the first is the hold's first picture)."""
    out = tmp_path / "cycle_4k.mp4"
    vc._ffmpeg(["-f", "lavfi", "-i",
                "color=c=gray:s=3840x2160:r=10:d=8[bg];color=c=white:s=24x24:r=10:d=8[fg];"
                "[bg][fg]overlay=x='100+200*mod(floor(n/5),13)':y=200", "-c:v", "libx264",
                "-preset", "ultrafast", "-g", "100", "-threads", "1", "-pix_fmt", "yuv420p",
                str(out)])
    got = subprocess.run([sys.executable, "-c", _PEAK, str(out)], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.split()
    frames, new, peak_mb = (int(x) for x in got)
    assert frames == 80 and new == 12
    assert peak_mb < 512, f"the held request's child peaked at {peak_mb} MB"
