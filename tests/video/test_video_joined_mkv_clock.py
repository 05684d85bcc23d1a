"""Matroska recordings of another clock joined byte for byte (session 29, issue 12: "the frame
exported for each event is the true frame, on every container").

A Matroska file's ticks are its TimecodeScale: ffmpeg writes 1 ms, mkvmerge
(`--timestamp-scale`) and other muxers may write another. FFmpeg's demuxer reads a cat-joined
file's second recording with the first one's scale: a 30 fps recording at 0.1 ms ticks after
one at 1 ms came out 10x slow (33.71 s for 5 s; 177 of 420 moments showed another frame, 90
none; 50 `audio.gap` warnings over its sound), and a third recording of another scale ended
the chain ("never read"). `joined_chain.own_read` now reads a second recording of another
time base from its own header, and `demux` gives every later recording's timestamps in the
file's clock (`rescaled`), as for fragmented MP4 (session 28). Built here by ffmpeg, then
written again at another TimecodeScale (`matroska_clock.rescale`: mkvmerge is not installed);
`draw_frame` pictures numbered on across the recordings (frame n shows n).

A recording whose own clock starts far past the end of the one before (ffmpeg's
`-output_ts_offset 3600`, a recorder's clock from its start-up: QA s29's 7200 s) was shown at
its own time, after a 3598 s `video.footage_gap` (270 of 420 moments "no footage");
`joined_clock.origin_shift` reads it with its times going on from the end of the one before."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import matroska_clock
import pytest
import video_corpus as vc

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video import joined_chain
from moderator_app.core.video.decoder import ExactDecoder
from moderator_app.core.video.export import frame_for_time, read_frames
from moderator_app.core.video.joined_headers import matroska_joins
from moderator_app.core.video.opening import open_container
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

_MKV = ["-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "30", "-pix_fmt",
        "yuv420p", "-threads", "1", "-write_crc32", "0", "-cluster_time_limit", "1000",
        "-f", "matroska"]
#: (frames, fps) of each recording: 2 s at 25 fps, 3 s at 30, 2 s at 30
PARTS = ((50, 25), (90, 30), (60, 30))
#: the TimecodeScale (ns) each recording is written at, by file
CLOCKS = {"second": (1_000_000, 100_000, 1_000_000), "first": (100_000, 1_000_000, 1_000_000),
          "third": (1_000_000, 1_000_000, 100_000), "odd": (1_000_000, 33_333, 1_000_000)}


def _tone(freq: int, seconds: int) -> list[str]:
    return ["-f", "lavfi", "-i", f"sine=frequency={freq}:sample_rate=48000:duration={seconds}",
            "-c:a", "aac"]


@pytest.fixture(scope="module")
def clocks(tmp_path_factory) -> dict[str, Path]:
    """Each `CLOCKS` file: the three recordings (drawn 0-49, 50-139, 140-199) at their
    TimecodeScale, joined by `cat`; and `sound` / `sound1ms`: the first two over AAC tones,
    the second at 0.1 ms / all at 1 ms, beside a run of 4.9 s."""
    d = tmp_path_factory.mktemp("mkv_clock")
    parts, first = [], 0
    for k, (frames, fps) in enumerate(PARTS):
        parts.append(vc.encode(d / f"p{k}.mkv", _MKV, frames=frames, fps=str(fps),
                               first=first).read_bytes())
        first += frames
    out = {}
    for name, scales in CLOCKS.items():
        out[name] = d / f"{name}.mkv"
        out[name].write_bytes(b"".join(
            p if s == 1_000_000 else matroska_clock.rescale(p, s)
            for p, s in zip(parts, scales, strict=True)))
    a = vc.encode(d / "a.mkv", [*_tone(440, 2), *_MKV], frames=50, fps="25").read_bytes()
    b = vc.encode(d / "b.mkv", [*_tone(660, 3), *_MKV], frames=90, fps="30",
                  first=50).read_bytes()
    for name, second in (("sound", matroska_clock.rescale(b, 100_000)), ("sound1ms", b)):
        out[name] = d / name / "video.mkv"
        out[name].parent.mkdir()
        out[name].write_bytes(a + second)
        assert 4.9 <= make_agent_log(out[name].parent / "agent-log.jsonl", n_events=8, seed=2,
                                     min_duration_s=4.9) < 5.0
    return out


def _truth() -> list[tuple[float, float, int]]:
    """(start, end, number) of every frame drawn, on the joined file's timeline."""
    out, at, n = [], 0.0, 0
    for frames, fps in PARTS:
        out += [(at + k / fps, at + (k + 1) / fps, n + k) for k in range(frames)]
        at, n = at + frames / fps, n + frames
    return out


@pytest.mark.parametrize("name", sorted(CLOCKS))
def test_every_moment_of_a_join_of_another_clock_shows_its_frame(clocks, name):
    """200 frames (before, a second recording at 0.1 ms: 33.71 s, 177 of 420 moments on
    another frame and 90 on none), restarts at 2.0 and 5.0 s, and three moments in each
    frame (its first 0.5 ms, its middle, its last 1.5 ms) exported as the frame drawn then."""
    path = clocks[name]
    joins = matroska_joins(str(path))
    assert len(joins) == 2
    assert joined_chain.later_starts(str(path)) == (
        joins if name in ("second", "first", "odd") else joins[1:], False)
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None
    assert p.frame_count == 200, [f.message for f in p.findings]
    assert not [f.message for f in p.findings if f.rule in (
        "video.joined_undecodable", "video.probe_incomplete", "video.variable_rate")]
    first = int(p.index.pts[0])
    restarts = [round((a - first) * float(p.index.time_base), 3) for a, _ in p.index.segments]
    assert restarts == [2.0, 5.0]  # duration-ok: video times of the joins
    truth = _truth()
    moments = [(t, n) for a, b, n in truth for t in (a + 0.0005, (a + b) / 2, b - 0.0015)]
    shown = [frame_for_time(p.index, t, no_footage=p.no_footage) for t, _ in moments]
    assert shown == [n for _, n in moments]
    images = read_frames(path, p.index, list(range(200)))
    assert [None if img is None else vc.read_code(img) for img in images] == list(range(200))


def test_seeks_into_a_recording_of_another_clock_land_on_their_frame(clocks):
    """The player's seam: 40 frames in random order by one decoder, each its own number, none
    by a decode from the file's start."""
    path = clocks["second"]
    p = probe_video(path, path.name)
    assert p.index is not None
    dec = ExactDecoder(open_container(str(path)), p.index,
                       reopen=lambda: open_container(str(path)))
    frames = [100, 10, 60, 199, 49, 50, 140, 0, *random.Random(29).sample(range(200), 32)]
    got = []
    for n in frames:
        f = dec.read(n)
        got.append(None if f is None else vc.read_code(f.to_ndarray(format="rgb24")))
    assert got == frames
    assert dec.fallbacks == 0


def test_the_scan_of_a_join_of_another_clock_says_what_the_same_clock_says(clocks):
    """verify --scan: 140 frames over the join's 5 s, and exactly the findings of the same
    join at one clock (the restart and the 25 -> 30 fps change at 2.000 s); no `audio.gap`
    (before: 33.71 s, 50 of them, and `video.variable_rate`)."""
    got = {}
    for name in ("sound", "sound1ms"):
        report = verify_paths([clocks[name].parent], VerifyOptions(scan_video=True)).report
        assert report.video is not None
        assert report.video.frame_count == 140
        got[name] = [(f.rule, f.video_start_s, f.message) for f in report.findings
                     if f.rule.startswith(("video.", "audio."))]
        assert report.verdict == "pass"
    assert got["sound"] == got["sound1ms"]
    assert [r for r, _, _ in got["sound"]] == [
        "video.header_mismatch", "video.stream_change", "video.timestamp_backwards"]
    assert ("video.stream_change", 2.0,  # duration-ok: video time of the join
            "the frame rate changes from 25.00 to 30.00 fps at 2.000 s") in got["sound"]


@pytest.fixture(scope="module")
def origins(tmp_path_factory) -> dict[str, Path]:
    """2 s at 25 fps (drawn 0-49) then 3 s at 30 fps (drawn 50-139) whose own clock starts
    at 3600 s (`far`), at 1000.02 s, off the frame grid (`offgrid`), or at 3600 s and 0.1 ms
    ticks (`far100us`), joined by `cat`."""
    d = tmp_path_factory.mktemp("mkv_origin")
    a = vc.encode(d / "a.mkv", _MKV, frames=50, fps="25").read_bytes()
    out = {}
    for name, origin, scale in (("far", "3600", None), ("offgrid", "1000.02", None),
                                ("far100us", "3600", 100_000)):
        b = vc.encode(d / f"b_{name}.mkv", ["-output_ts_offset", origin, *_MKV], frames=90,
                      fps="30", first=50).read_bytes()
        out[name] = d / f"{name}.mkv"
        out[name].write_bytes(a + (matroska_clock.rescale(b, scale) if scale else b))
    return out


@pytest.mark.parametrize("name", ["far", "offgrid", "far100us"])
def test_a_join_whose_clock_starts_far_later_is_shown_right_after(origins, name):
    """140 frames over 5.007 s (before: 3603.007 s, a footage gap of 3598 s and 270 of 420
    moments without footage), every moment its frame, every picture its number, the probe
    saying where the clock was moved, and seeks by one decoder without a fallback."""
    path = origins[name]
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None
    assert (p.frame_count, round(p.duration_s, 3)) == (140, 5.007)  # duration-ok: footage
    assert not [f.message for f in p.findings if f.rule in (
        "video.footage_gap", "video.joined_undecodable", "video.tail_undecodable")]
    shift = 3598.0 if name != "offgrid" else 998.02
    assert p.method.endswith(f"a recording joined at 2.000 s has its own clock {shift:.3f} s "
                             "past the end of the one before: shown right after it")
    truth = [t for t in _truth() if t[2] < 140]
    moments = [(t, n) for a, b, n in truth for t in (a + 0.0005, (a + b) / 2, b - 0.0015)]
    shown = [frame_for_time(p.index, t, no_footage=p.no_footage) for t, _ in moments]
    assert shown == [n for _, n in moments]
    images = read_frames(path, p.index, list(range(140)))
    assert [None if img is None else vc.read_code(img) for img in images] == list(range(140))
    dec = ExactDecoder(open_container(str(path)), p.index,
                       reopen=lambda: open_container(str(path)))
    frames = [100, 10, 60, 139, 49, 50, 0, *random.Random(2).sample(range(140), 20)]
    got = [vc.read_code(f.to_ndarray(format="rgb24")) if (f := dec.read(n)) is not None
           else None for n in frames]
    assert got == frames
    assert dec.fallbacks == 0
