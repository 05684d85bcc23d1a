"""A Matroska join whose second recording has another picture size, same codec and encoder
settings (the capture resized between recordings; session 27, issue 12: "the frame exported
for each event is the true frame, on every container", and `video.stream_change`).

FFmpeg's Matroska demuxer plays a cat-joined file's second recording with the first
recording's header: H.264 320x240 then 480x360 gave 189 of its 240 packets damaged, and the
whole recording was refused ("its own header says h264 480x360; played as h264 320x240").
`joined_chain.own_read` reads such a recording from its own header (its codec and clock the
file's): every reader (index, scan, joined check, decoder after a seek) gives its frames at
their own size, and the scan says the size change at the join. Where it is still played
with the first's header, session 22's check refuses it (T6: never a wrong picture). A rate
change (25 then 30 fps, one size) reads as before. Built here by ffmpeg: `draw_frame`
pictures numbered on across the recordings (frame n shows n)."""

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

_H264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-threads", "1",
         "-bf", "2", "-g", "50", "-f", "matroska"]
N = 75  # frames a recording: 3 s at 25 fps
#: what verify --scan says of the 25 + 30 fps join (main before session 27's change said the
#: same): the restart, and the 2.754 s of the run past the video's end
RATE_RULES = ["coverage.partial", "video.header_mismatch", "video.stream_change",
              "video.timestamp_backwards"]


def _joined(d: Path, parts: list[tuple[list[str], str, int]]) -> Path:
    """`parts` (extra encoder args, rate, frames) encoded as Matroska files d/0.mkv, d/1.mkv,
    numbered on, and joined byte for byte into d/joined/video.mkv beside an 8.761 s run."""
    blobs, first = [], 0
    for k, (extra, fps, n) in enumerate(parts):
        blobs.append(vc.encode(d / f"{k}.mkv", [*extra, *_H264], frames=n, fps=fps,
                               first=first).read_bytes())
        first += n
    out = d / "joined" / "video.mkv"
    out.parent.mkdir()
    out.write_bytes(b"".join(blobs))
    assert make_agent_log(out.parent / "agent-log.jsonl", n_events=20, seed=2) == \
        pytest.approx(8.761)
    return out


@pytest.fixture(scope="module")
def resized(tmp_path_factory) -> Path:
    """320x240 3 s, then the same pictures scaled to 480x360 3 s (25 fps, same settings)."""
    return _joined(tmp_path_factory.mktemp("sizejoin"),
                   [([], "25", N), (["-vf", "scale=480:360"], "25", N)])


def _ffmpeg_rgb(part: Path, w: int, h: int) -> np.ndarray:
    """Every picture of one recording's own file as ffmpeg decodes it (RGB, in its order)."""
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(part), "-f", "rawvideo",
                          "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, h, w, 3)


def _diff(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())


def test_a_recording_of_another_size_is_read_at_its_own_size(resized):
    """150 frames (before: recording 2 one stretch of no footage), the restart at 3.0 s, and
    the middle of every frame's time exported as the frame drawn then, at its own size:
    each picture ffmpeg's decode of its own part file (within half a level; the next frame
    differs by far more)."""
    p = probe_video(resized, resized.name)
    assert p.ok and p.index is not None
    assert p.frame_count == 2 * N, [f.message for f in p.findings]
    assert not [f.message for f in p.findings if f.rule in (
        "video.joined_undecodable", "video.probe_incomplete")]
    first = int(p.index.pts[0])
    assert [round((a - first) * float(p.index.time_base), 3) for a, _ in p.index.segments] \
        == [3.0]  # duration-ok: video time of the restart
    joins = matroska_joins(str(resized))
    assert joined_chain.later_starts(str(resized)) == (joins, False)
    frames = [frame_for_time(p.index, (k + 0.5) / 25, no_footage=p.no_footage)
              for k in range(2 * N)]
    assert frames == list(range(2 * N))
    images = read_frames(resized, p.index, list(range(2 * N)))
    assert [None if img is None else vc.read_code(img) for img in images] == \
        list(range(2 * N))
    assert {img.shape for img in images[:N]} == {(240, 320, 3)}
    assert {img.shape for img in images[N:]} == {(360, 480, 3)}
    parts = [_ffmpeg_rgb(resized.parent.parent / "0.mkv", 320, 240),
             _ffmpeg_rgb(resized.parent.parent / "1.mkv", 480, 360)]
    assert [len(x) for x in parts] == [N, N]
    for r, own in enumerate(parts):
        diffs = [_diff(images[r * N + k], own[k]) for k in range(N)]
        assert max(diffs) <= 0.5, (r, max(diffs))
        assert min(_diff(images[r * N + k], own[k + 1]) for k in range(N - 1)) > 1.0


def test_seeks_into_the_resized_recording_land_on_their_frame(resized):
    """The player's seam: 40 frames in random order by one decoder (into recording 2 and
    back), each its own number at its own size, none by a decode from the file's start."""
    p = probe_video(resized, resized.name)
    assert p.index is not None
    dec = ExactDecoder(open_container(str(resized)), p.index,
                       reopen=lambda: open_container(str(resized)))
    frames = [100, 10, 75, 149, 74, 80, 0, *random.Random(27).sample(range(2 * N), 33)]
    got = []
    for n in frames:
        f = dec.read(n)
        got.append((n, None if f is None else
                    (vc.read_code(f.to_ndarray(format="rgb24")), f.width)))
    assert got == [(n, (n, 320 if n < N else 480)) for n in frames]
    assert dec.fallbacks == 0


def test_the_scan_says_the_size_change_and_the_run_passes(resized):
    """verify --scan: 150 frames over 6.0 s, `video.stream_change` (a warning) at the join,
    no joined recording undecodable, PASS (before: FAIL, 3 s of no footage)."""
    report = verify_paths([resized.parent], VerifyOptions(scan_video=True)).report
    assert report.video is not None
    assert (report.video.frame_count, report.video.duration_s) == (2 * N, 6.0)
    changes = [(f.severity.value, f.video_start_s, f.message) for f in report.findings
               if f.rule == "video.stream_change"]
    assert changes == [("warning", 3.0,  # duration-ok: video time of the join
                        "the picture size changes from 320x240 to 480x360 at 3.000 s")]
    assert not [f.message for f in report.findings if f.rule == "video.joined_undecodable"]
    assert report.verdict == "pass", [(f.rule, f.message) for f in report.findings]


def test_a_resized_recording_played_with_the_first_header_is_refused(resized, monkeypatch):
    """Where recording 2 is played with the first's header (`own_read` answering none, as
    for a header whose pictures do not come out), session 22's check finds its pictures not
    its own and refuses the whole recording (T6: never a wrong picture)."""
    monkeypatch.setattr(joined_chain, "own_read", lambda source, joins: ())
    with av.open(str(resized)) as c:
        st = c.streams.video[0]
        index = build_index(c, 10**6, None, joined_reorder(str(resized), st),
                            joined_chain.demux(c, [st], str(resized)))
    with av.open(str(resized)) as c:
        kept, found = child_segments.check_joined(c, index, time.process_time() + 60,
                                                  str(resized))
    assert [(s["recording"], s["packets"]) for s in found["stretches"]] == [(2, N)]
    assert kept.frame_count == index.frame_count - found["stretches"][0]["none"]


def test_a_rate_change_at_a_join_still_reads(tmp_path):
    """25 fps 3 s then 30 fps 3 s, one size: every frame (75 + 90), the rate change said at
    the join, PASS (as before session 27's change)."""
    path = _joined(tmp_path, [([], "25", N), ([], "30", 90)])
    report = verify_paths([path.parent], VerifyOptions(scan_video=True)).report
    assert report.video is not None
    assert report.video.frame_count == N + 90
    images = read_frames(path, probe_video(path, path.name).index, [0, 74, 75, 120, 164])
    assert [None if img is None else vc.read_code(img) for img in images] == \
        [0, 74, 75, 120, 164]
    # 30 / 25 = 1.2: under the rule's step (rate_change_ratio 1.3), said because both
    # stretches are steady (rate_steady_ratio; session 27 said nothing)
    assert sorted({f.rule for f in report.findings}) == RATE_RULES, \
        [(f.rule, f.message) for f in report.findings]
    changes = [(f.severity.value, f.video_start_s, f.message) for f in report.findings
               if f.rule == "video.stream_change"]
    assert changes == [("warning", 3.0,  # duration-ok: the join's time in the video
                        "the frame rate changes from 25.00 to 30.00 fps at 3.000 s")]
    assert not [f.message for f in report.findings if f.rule == "video.joined_undecodable"]
    assert report.verdict == "pass", [(f.rule, f.message) for f in report.findings]
