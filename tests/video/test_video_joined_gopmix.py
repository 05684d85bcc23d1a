"""A join of H.264 recordings made with other encoder settings: every recording read with its
own header, every picture its own, and never a wrong picture (sessions 26-27, issue 12; QA
s26 T6 and T9: three cat-joined recordings of other GOP / B-frame settings; `frame --time
11.06` wrote a uniform green picture as "frame 202" for the true frame 276 (T6), then the
second recording, which decodes whole from its own header, was refused: 434 of 600 frames,
FAIL by coverage.missing (T9)).

FFmpeg's Matroska demuxer plays the second recording with the first's header (SPS/PPS). A
recording with 3 B-frames played with the header of one without gives no frame for most of
its packets and a few garbled ones far into it. Where its first pictures come out otherwise
that way than from its own header (`joined_chain.own_read`), every reader reads it from its
own header: the index, the scan, the joined check and the decoder after a seek. Where it is
still played with the first's header (not so decided), the joined check compares the first
pictures that come out, and a recording that does not decode is refused as a whole. Built
here by ffmpeg: `draw_frame` pictures numbered on across the recordings (frame n shows n),
QA's settings (x264 veryfast: no B-frames GOP 1 s; 3 B-frames, one keyframe; 1 B-frame GOP
0.4 s)."""

from __future__ import annotations

import random
import shutil
import subprocess
import time
from pathlib import Path

import av
import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video import child_segments, joined_chain
from moderator_app.core.video.decoder import ExactDecoder
from moderator_app.core.video.export import frame_for_time, read_frames
from moderator_app.core.video.index import build_index
from moderator_app.core.video.joined_headers import joined_reorder, matroska_joins
from moderator_app.core.video.opening import open_container
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

FPS = 25


def _h264(bf: int, g: int) -> list[str]:
    return ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-threads", "1",
            "-bf", str(bf), "-g", str(g), "-f", "matroska"]


#: QA s26's f26_h264_gopmix_cat_mkv_25, shorter: (encoder args, frames) a recording
_PARTS = [(_h264(0, 25), 50), (_h264(3, 250), 100), (_h264(1, 10), 50)]
TOTAL = sum(n for _, n in _PARTS)


def _joined(d: Path) -> Path:
    blobs, first = [], 0
    for k, (args, n) in enumerate(_PARTS):
        blobs.append(vc.encode(d / f"{k}.mkv", args, frames=n, fps=str(FPS),
                               first=first).read_bytes())
        first += n
    out = d / "joined" / "video.mkv"
    out.parent.mkdir()
    out.write_bytes(b"".join(blobs))
    make_agent_log(out.parent / "agent-log.jsonl", n_events=20, seed=2)
    return out


@pytest.fixture(scope="module")
def gopmix(tmp_path_factory) -> Path:
    return _joined(tmp_path_factory.mktemp("gopmix"))


def _ffmpeg_rgb(part: Path) -> np.ndarray:
    """Every picture of one recording's own file as ffmpeg decodes it (RGB, in its order)."""
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(part), "-f", "rawvideo",
                          "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, vc.H, vc.W, 3)


def test_a_recording_of_other_settings_is_read_from_its_own_header(gopmix):
    """Every frame counted (200: before, 59 of the second recording's 100 gave no frame and it
    was one `video.joined_undecodable` stretch, 2.0-6.0 s), each recording placed where the one
    before ends, and the middle of every frame's time exported (`read_frames`, as `moderator-app
    frame` and File > Save frame read) the frame drawn then; in the second recording each
    picture is ffmpeg's decode of that recording's own file, pixel for pixel within a level."""
    p = probe_video(gopmix, gopmix.name)
    assert p.ok and p.index is not None
    assert p.frame_count == TOTAL, [f.message for f in p.findings]
    assert not [f.message for f in p.findings if f.rule in (
        "video.joined_undecodable", "video.probe_incomplete")]
    first = int(p.index.pts[0])
    assert [round((a - first) * float(p.index.time_base), 3) for a, _ in p.index.segments] \
        == [2.0, 6.0]  # duration-ok: video times of the restarts
    # the second recording is read from its own header (`joined_chain.later_starts`)
    joins = matroska_joins(str(gopmix))
    assert joined_chain.later_starts(str(gopmix)) == (joins, False)
    moments = [(k + 0.5) / FPS for k in range(TOTAL)]  # every frame
    frames = [frame_for_time(p.index, t, no_footage=p.no_footage) for t in moments]
    assert frames == list(range(TOTAL))
    images = read_frames(gopmix, p.index, list(range(TOTAL)))
    assert [None if img is None else vc.read_code(img) for img in images] == list(range(TOTAL))
    own = _ffmpeg_rgb(gopmix.parent.parent / "1.mkv")
    assert own.shape[0] == 100
    diffs = [float(np.abs(images[50 + k].astype(np.int16) - own[k].astype(np.int16)).mean())
             for k in range(100)]
    assert max(diffs) <= 0.5, max(diffs)  # 0.0 measured; the next frame: 3.6 or more


def test_seeks_into_the_recording_of_other_settings_land_on_their_frame(gopmix):
    """The player's seam: 40 frames read in random order by one decoder (a jump into the second
    recording, then back, then on), each its own number, none by a decode from the file's start
    (the second recording sought in a reader of its own header)."""
    p = probe_video(gopmix, gopmix.name)
    assert p.index is not None
    dec = ExactDecoder(open_container(str(gopmix)), p.index,
                       reopen=lambda: open_container(str(gopmix)))
    frames = [120, 10, 75, 149, 51, 199, 50, *random.Random(27).sample(range(TOTAL), 33)]
    got = [(n, None if (f := dec.read(n)) is None else
            vc.read_code(f.to_ndarray(format="rgb24"))) for n in frames]
    assert got == [(n, n) for n in frames]
    assert dec.fallbacks == 0


def test_the_scan_and_the_verdict_read_every_recording(gopmix):
    """verify --scan: 200 frames over 8.0 s (before 109 frames and the second recording
    missing), no joined recording undecodable, the run passes."""
    report = verify_paths([gopmix.parent], VerifyOptions(scan_video=True)).report
    assert report.video is not None
    assert (report.video.frame_count, report.video.duration_s) == (TOTAL, TOTAL / FPS)
    assert not [f.message for f in report.findings if f.rule == "video.joined_undecodable"]
    assert report.verdict == "pass", [(f.rule, f.message) for f in report.findings]


def test_a_recording_still_played_with_the_first_header_shows_no_picture(gopmix, monkeypatch):
    """Where the second recording is played with the first's header (not decided otherwise:
    `own_read` answering none, as for a header it cannot open), the joined check compares the
    first pictures that come out: none of its first 12 places gives a frame, two garbled ones
    come out later, and the whole recording is one stretch of no footage (QA s26 T6: those
    two were shown, one as "frame 202"). Never a wrong picture: refused."""
    monkeypatch.setattr(joined_chain, "own_read", lambda source, joins: ())
    with av.open(str(gopmix)) as c:
        st = c.streams.video[0]
        index = build_index(c, 10**6, None, joined_reorder(str(gopmix), st),
                            joined_chain.demux(c, [st], str(gopmix)))
    assert index.frame_count == TOTAL
    with av.open(str(gopmix)) as c:
        kept, found = child_segments.check_joined(c, index, time.process_time() + 60,
                                                  str(gopmix))
    assert [(s["recording"], s["packets"]) for s in found["stretches"]] == [(2, 100)]
    stretch = found["stretches"][0]
    assert stretch["params"]["pictures"][0] > 0
    # its frames that give no frame are not frames; those that come out are no footage
    assert kept.frame_count == TOTAL - stretch["none"]
