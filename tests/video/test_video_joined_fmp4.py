"""Fragmented MP4 recordings joined byte for byte, each read from its own header (session 28,
issue 12: "the frame exported for each event is the true frame, on every container", and
`video.stream_change` at a change of picture size).

FFmpeg's MP4 demuxer reads every recording of two fragmented MP4s joined by `cat` as one
stream with the first recording's header (`avcC`): another profile or picture size came out
as pictures it could not decode (session 22's check refused the recording: no footage), and
even a recording of the same settings lost its first fragment (the demuxer marks its packets
discarded: their decode times go back), 2 s whose moments showed the first recording's last
picture. `joined_headers.mp4_joins` finds each recording's header on the file's top level
(an `ftyp`, or a `moov` sent again after movie fragments), and `joined_chain.mp4_own` reads
each from there: every frame is its own part's, pixel for pixel ffmpeg's decode of the part
file alone. Built here by ffmpeg: `draw_frame` pictures numbered on across the recordings
(frame n shows n); `init` is the 400x300 recording with its fragments' times moved on by 2 s
(`tfdt`), as a stream whose initialisation segment changes mid-stream writes it (no restart
of the timestamps)."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video import joined_chain
from moderator_app.core.video.decoder import ExactDecoder
from moderator_app.core.video.export import frame_for_time, read_frames
from moderator_app.core.video.joined_headers import mp4_joins
from moderator_app.core.video.opening import open_container
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

_X264 = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-threads", "1", "-g", "60"]
_VF = [*_X264, "-preset", "veryfast", "-bf", "2"]
_FRAG = ["-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-f", "mp4"]
_BIG = ["-vf", "scale=400:300"]
A, B = 60, 240  # frames: 2 s then 8 s at 30 fps
KINDS = ("profile", "size", "init", "same")
#: the second part of each joined file, and the picture size it has
SECOND = {"profile": ("main.mp4", 320), "size": ("big.mp4", 400), "init": ("big.mp4", 400),
          "same": ("b.mp4", 320)}


@pytest.fixture(scope="module")
def joined(tmp_path_factory) -> dict[str, Path]:
    """`a.mp4` (2 s, 320x240, veryfast, 2 B-frames, drawn 0-59) joined with 8 s drawn 60-299:
    `profile` main profile; `size` the same encoder at 400x300; `init` that one with its
    times moved on by 2 s; `same` the first's encoder. Each beside a run of 9.9 s."""
    d = tmp_path_factory.mktemp("joined_fmp4")
    vc.encode(d / "a.mp4", [*_VF, *_FRAG], frames=A)
    vc.encode(d / "main.mp4", [*_X264, "-preset", "veryfast", "-profile:v", "main", *_FRAG],
              frames=B, first=A)
    vc.encode(d / "big.mp4", [*_BIG, *_VF, *_FRAG], frames=B, first=A)
    vc.encode(d / "b.mp4", [*_VF, *_FRAG], frames=B, first=A)
    out = {}
    for kind in KINDS:
        second = (d / SECOND[kind][0]).read_bytes()
        if kind == "init":
            second = vc.moved_on(second, 2 * 15360)  # 2 s at the muxer's 15360 ticks a second
        out[kind] = d / kind / "video.mp4"
        out[kind].parent.mkdir()
        out[kind].write_bytes((d / "a.mp4").read_bytes() + second)
        run = make_agent_log(out[kind].parent / "agent-log.jsonl", n_events=20, seed=2,
                             min_duration_s=9.9)
        assert 9.9 <= run < 10.0
    return out


def _ffmpeg_rgb(part: Path, w: int, h: int) -> np.ndarray:
    """Every picture of one recording's own file as ffmpeg decodes it (RGB, in its order)."""
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(part), "-f", "rawvideo",
                          "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, h, w, 3)


def _diff(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())


@pytest.mark.parametrize("kind", KINDS)
def test_every_frame_of_a_joined_fragmented_mp4_is_its_own_part(joined, kind):
    """300 frames (before: 240, the second recording's first fragment lost, and the rest
    refused where its settings or size differ), the middle of every frame's time exported
    as the frame drawn then, at its own size, each pixel for pixel ffmpeg's decode of its
    own part file (the next frame differs by far more)."""
    path = joined[kind]
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None
    assert p.frame_count == A + B, [f.message for f in p.findings]
    assert p.duration_s == 10.0  # duration-ok: the joined footage's span
    assert not [f.message for f in p.findings if f.rule in (
        "video.joined_undecodable", "video.probe_incomplete")]
    assert p.gaps == ()
    head = (path.parent.parent / "a.mp4").stat().st_size
    assert mp4_joins(str(path)) == [head]
    assert joined_chain.later_starts(str(path)) == ([head], False)
    first = int(p.index.pts[0])
    restarts = [round((a - first) * float(p.index.time_base), 3) for a, _ in p.index.segments]
    assert restarts == ([] if kind == "init" else [2.0])  # duration-ok: video time of the join
    frames = [frame_for_time(p.index, (k + 0.5) / 30, no_footage=p.no_footage)
              for k in range(A + B)]
    assert frames == list(range(A + B))
    images = read_frames(path, p.index, list(range(A + B)))
    assert [None if img is None else vc.read_code(img) for img in images] == list(range(A + B))
    width = SECOND[kind][1]
    assert {img.shape for img in images[:A]} == {(240, 320, 3)}
    assert {img.shape for img in images[A:]} == {(width * 3 // 4, width, 3)}
    parts = [_ffmpeg_rgb(path.parent.parent / "a.mp4", 320, 240),
             _ffmpeg_rgb(path.parent.parent / SECOND[kind][0], width, width * 3 // 4)]
    assert [len(x) for x in parts] == [A, B]
    for r, (at, own) in enumerate(zip((0, A), parts, strict=True)):
        diffs = [_diff(images[at + k], own[k]) for k in range(len(own))]
        assert max(diffs) <= 0.5, (r, max(diffs))
        assert min(_diff(images[at + k], own[k + 1]) for k in range(len(own) - 1)) > 1.0


@pytest.mark.parametrize("kind", ["profile", "init"])
def test_seeks_into_a_joined_fragmented_mp4_land_on_their_frame(joined, kind):
    """The player's seam: 40 frames in random order by one decoder (into the second
    recording and back), each its own number at its own size, none by a decode from the
    file's start."""
    path = joined[kind]
    p = probe_video(path, path.name)
    assert p.index is not None
    dec = ExactDecoder(open_container(str(path)), p.index,
                       reopen=lambda: open_container(str(path)))
    frames = [100, 10, 60, 299, 59, 80, 0, *random.Random(28).sample(range(A + B), 33)]
    got = []
    for n in frames:
        f = dec.read(n)
        got.append((n, None if f is None else
                    (vc.read_code(f.to_ndarray(format="rgb24")), f.width)))
    width = SECOND[kind][1]
    assert got == [(n, (n, 320 if n < A else width)) for n in frames]
    assert dec.fallbacks == 0


@pytest.mark.parametrize("kind", KINDS)
def test_the_scan_of_a_joined_fragmented_mp4_says_the_join_and_passes(joined, kind):
    """verify --scan: 300 frames over 10.0 s, the size change at the join as
    `video.stream_change` (a warning) where there is one, no joined recording undecodable,
    PASS (before: FAIL, 6 s of no footage, where the settings or the size differ)."""
    path = joined[kind]
    report = verify_paths([path.parent], VerifyOptions(scan_video=True)).report
    assert report.video is not None
    assert (report.video.frame_count, report.video.duration_s) == (A + B, 10.0)
    changes = [(f.severity.value, f.video_start_s, f.message) for f in report.findings
               if f.rule == "video.stream_change"]
    assert changes == ([] if SECOND[kind][1] == 320 else [
        ("warning", 2.0,  # duration-ok: video time of the join
         "the picture size changes from 320x240 to 400x300 at 2.000 s")])
    assert not [f.message for f in report.findings if f.rule == "video.joined_undecodable"]
    assert report.verdict == "pass", [(f.rule, f.message) for f in report.findings]


@pytest.fixture(scope="module")
def rates(tmp_path_factory) -> Path:
    """2 s at 25 fps (drawn 0-49) then 3 s at 30 fps (drawn 50-139), each recorded by ffmpeg
    with plain `frag_keyframe+empty_moov` (no `default_base_moof`: its fragments' data
    offsets are absolute in its own file) and joined by `cat`; the MP4 muxer's clocks
    differ, 12800 ticks a second then 15360. Beside a run of 4.9 s."""
    d = tmp_path_factory.mktemp("fmp4rate")
    frag = ["-movflags", "+frag_keyframe+empty_moov", "-f", "mp4"]
    vc.encode(d / "a25.mp4", [*_VF, *frag], frames=50, fps="25")
    vc.encode(d / "b30.mp4", [*_VF, *frag], frames=90, fps="30", first=50)
    path = d / "j" / "video.mp4"
    path.parent.mkdir()
    path.write_bytes((d / "a25.mp4").read_bytes() + (d / "b30.mp4").read_bytes())
    assert 4.9 <= make_agent_log(path.parent / "agent-log.jsonl", n_events=8, seed=2,
                                 min_duration_s=4.9) < 5.0
    return path


def test_a_joined_fragmented_mp4_of_another_clock_is_read_exactly(rates):
    """A 25 -> 30 fps join (the second recording's MP4 time scale another: 15360 after
    12800) is read from its own header, its timestamps in the file's clock: 140 frames
    (before: 115, its first fragment lost, then 26 packets read at the first recording's
    bytes, "recording 2 does not decode"), the restart at 2.000 s, and the frame shown at
    moments both sides of the join is the one drawn then, pixel for pixel ffmpeg's decode
    of its part file alone; a decoder's seeks land on their frame without a fallback."""
    path = rates
    head = (path.parent.parent / "a25.mp4").stat().st_size
    assert joined_chain.later_starts(str(path)) == ([head], False)
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None
    assert p.frame_count == 140, [f.message for f in p.findings]
    assert not [f.message for f in p.findings if f.rule in (
        "video.joined_undecodable", "video.probe_incomplete")]
    first = int(p.index.pts[0])
    restarts = [round((a - first) * float(p.index.time_base), 3) for a, _ in p.index.segments]
    assert restarts == [2.0]  # duration-ok: video time of the join
    # moments inside a frame (25 fps: 40 ms; 30 fps: 33.3 ms), both sides of the join
    want = [0, 17, 49, 50, 51, 53, 89, 139]
    times = [(n + 0.5) / 25 if n < 50 else 2 + (n - 50 + 0.5) / 30 for n in want]
    assert [frame_for_time(p.index, t, no_footage=p.no_footage) for t in times] == want
    images = read_frames(path, p.index, want)
    assert [None if img is None else vc.read_code(img) for img in images] == want
    parts = [_ffmpeg_rgb(path.parent.parent / "a25.mp4", 320, 240),
             _ffmpeg_rgb(path.parent.parent / "b30.mp4", 320, 240)]
    assert [len(x) for x in parts] == [50, 90]
    for n, img in zip(want, images, strict=True):
        own = parts[0][n] if n < 50 else parts[1][n - 50]
        assert _diff(img, own) <= 0.5, n
    dec = ExactDecoder(open_container(str(path)), p.index,
                       reopen=lambda: open_container(str(path)))
    frames = [100, 10, 50, 139, 49, 75, 0, *random.Random(28).sample(range(140), 25)]
    got = [(n, None if (f := dec.read(n)) is None else
            vc.read_code(f.to_ndarray(format="rgb24"))) for n in frames]
    assert got == [(n, n) for n in frames]
    assert dec.fallbacks == 0


def test_the_scan_of_a_joined_fragmented_mp4_of_another_clock_says_the_rate(rates):
    """verify --scan: 140 frames, the restart and the 25 -> 30 fps step at the join (a
    `video.stream_change`), nothing missing, PASS (before: 115 frames, 3.0-5.0 s undecodable,
    FAIL)."""
    report = verify_paths([rates.parent], VerifyOptions(scan_video=True)).report
    assert report.video is not None and report.video.frame_count == 140
    assert [(f.severity.value, f.video_start_s, f.message) for f in report.findings
            if f.rule.startswith(("video.stream_change", "video.joined", "video.timestamp"))
            ] == [("warning", 2.0,  # duration-ok: video time of the join
                   "the frame rate changes from 25.00 to 30.00 fps at 2.000 s"),
                  ("warning", 2.0,  # duration-ok: video time of the join
                   "the timestamps go back by 1.960 s at 2.000 s (recordings joined, or a "
                   "splice): the footage after it is shown in file order")]
    assert report.verdict == "pass", [(f.rule, f.message) for f in report.findings]


def test_the_sound_of_a_joined_fragmented_mp4_runs_on_over_the_join(tmp_path):
    """4 s 320x240 + 6 s 400x300, each with its AAC tone: FFmpeg's MP4 demuxer gives the
    second recording's first packets (their times restart) before the first one's last
    sound, so a demux ended at the second's header lost that sound (a false `audio.gap`,
    2.902-3.933 s); it is passed over instead. verify --scan: 300 frames, the size change at
    4.000 s, no sound missing, PASS (main: 240 frames, 6-10 s refused, `audio.gap`
    4.017-5.950 s)."""
    d = tmp_path / "j"
    d.mkdir()
    parts = []
    for name, size, secs, hz in (("a", "320x240", 4, 440), ("b", "400x300", 6, 660)):
        parts.append(tmp_path / f"{name}.mp4")
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i",
                        f"testsrc2=s={size}:r=30:d={secs}", "-f", "lavfi", "-i",
                        f"sine=f={hz}:d={secs}", *_VF, "-c:a", "aac", *_FRAG, str(parts[-1])],
                       check=True)
    (d / "video.mp4").write_bytes(b"".join(p.read_bytes() for p in parts))
    assert 9.9 <= make_agent_log(d / "agent-log.jsonl", n_events=20, seed=2,
                                 min_duration_s=9.9) < 10.0
    report = verify_paths([d], VerifyOptions(scan_video=True)).report
    assert report.video is not None and report.video.frame_count == 300
    assert [(f.rule, f.video_start_s) for f in report.findings
            if f.rule.startswith(("audio.", "video.stream_change", "video.joined"))] == [
        ("video.stream_change", 4.0)]  # duration-ok: video time of the join
    assert report.verdict == "pass", [(f.rule, f.message) for f in report.findings]
