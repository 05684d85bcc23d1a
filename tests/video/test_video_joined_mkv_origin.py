"""Matroska recordings whose own clocks start far later, joined by `cat`: where each is shown
(session 30, issue 12: "the frame exported for each event is the true frame"; "no false video
warnings on honest files").

Session 29's `joined_clock.origin_shift` took the end of the recording before a joined one as
its header's start plus its duration, where a Matroska header's Duration is already its end
(ffmpeg writes 32 s for 2 s from 30 s): a first recording from 30 s and a second from 3600 s
showed a false 30 s `video.footage_gap` at the join (270 of 420 moments "no footage"), and a
third recording from 7200 s after a second from 3600 s was never shifted (a 7195 s footage
gap, 200 frames over 7202 s). Now a recording's end is its header's Duration, and the shifts
chain: each recording goes on from where the one before is shown to end.

Built by ffmpeg (`-output_ts_offset`, a recorder's clock from its start-up), 30 fps parts of
2 s, 3 s and 2 s whose `draw_frame` numbers go on across the recordings (frame n shows n)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
import video_corpus as vc

from moderator_app.cli import main
from moderator_app.core.video.decoder import ExactDecoder
from moderator_app.core.video.export import frame_for_time, read_frames
from moderator_app.core.video.opening import open_container
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

_MKV = ["-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "30", "-pix_fmt",
        "yuv420p", "-threads", "1", "-write_crc32", "0", "-cluster_time_limit", "1000",
        "-f", "matroska"]
FRAMES = (60, 90, 60)  # 2 s, 3 s, 2 s at 30 fps
#: each file's recordings' own clock origins (s; None: ffmpeg's own, 0)
LAYOUTS = {"0-3600": (None, "3600"), "30-3600": ("30", "3600"),
           "0-3600-7200": (None, "3600", "7200"), "30-3600-7200": ("30", "3600", "7200"),
           "0-3600-3603": (None, "3600", "3603")}
#: what the probe's method says of each (video time of the join, own clock past the end)
SAID = {"0-3600": [(2.0, 3598.0)], "30-3600": [(2.0, 3568.0)],
        "0-3600-7200": [(2.0, 3598.0), (5.0, 3597.0)],
        "30-3600-7200": [(2.0, 3568.0), (5.0, 3597.0)],
        "0-3600-3603": [(2.0, 3598.0)]}  # the third's clock goes on from the second's


@pytest.fixture(scope="module")
def joins(tmp_path_factory) -> dict[str, tuple[Path, list[Path]]]:
    """Each `LAYOUTS` file (and its part files), its recordings drawn 0-59, 60-149, 150-209."""
    d = tmp_path_factory.mktemp("mkv_origins")
    out = {}
    for name, origins in LAYOUTS.items():
        parts, first = [], 0
        for k, origin in enumerate(origins):
            args = (["-output_ts_offset", origin] if origin else []) + _MKV
            parts.append(vc.encode(d / f"{name}_{k}.mkv", args, frames=FRAMES[k], fps="30",
                                   first=first))
            first += FRAMES[k]
        path = d / f"{name}.mkv"
        path.write_bytes(b"".join(p.read_bytes() for p in parts))
        out[name] = (path, parts)
    return out


def _truth(recordings: int) -> list[tuple[float, float, int]]:
    """(start, end, number) of every frame drawn, on the joined file's timeline."""
    n = sum(FRAMES[:recordings])
    return [(k / 30, (k + 1) / 30, k) for k in range(n)]


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_each_recording_goes_on_from_where_the_one_before_is_shown_to_end(joins, name):
    """The frame count ffprobe gives each part (summed: FFmpeg's demuxer reads the joined
    file's first two recordings only, 150 of 210), the duration the parts add up to, no
    footage gap, the probe saying each far-later clock, every moment its frame, every
    picture its number."""
    path, parts = joins[name]
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None
    assert p.frame_count == sum(vc.ffprobe_frames(q) for q in parts) == sum(FRAMES[:len(parts)])
    if len(parts) == 2:
        assert p.frame_count == vc.ffprobe_frames(path)
    assert round(p.duration_s, 3) == len(parts) * 2 + 1  # duration-ok: 2 s + 3 s (+ 2 s)
    assert not p.gaps and not p.no_footage
    assert not [f.message for f in p.findings if f.rule in (
        "video.footage_gap", "video.joined_undecodable", "video.tail_undecodable",
        "video.variable_rate")]
    said = [(a, b) for a, b in SAID[name]]
    words = p.method.split("; ")
    assert [w for w in words if "its own clock" in w] == [
        f"a recording joined at {a:.3f} s has its own clock {b:.3f} s past the end of the "
        "one before: shown right after it" for a, b in said]
    truth = _truth(len(parts))
    moments = [(t, n) for a, b, n in truth for t in (a + 0.0005, (a + b) / 2, b - 0.0015)]
    shown = [frame_for_time(p.index, t, no_footage=p.no_footage) for t, _ in moments]
    assert shown == [n for _, n in moments]
    images = read_frames(path, p.index, list(range(p.frame_count)))
    assert [None if i is None else vc.read_code(i) for i in images] == list(range(p.frame_count))


@pytest.mark.parametrize("name", ["30-3600-7200", "0-3600-7200"])
def test_seeks_into_each_recording_land_on_their_frame(joins, name):
    """The player's seam, with the shifts now chained (`joined_seek` adds each recording's
    back to seek in its own ticks): frames on each side of both joins and 24 more in random
    order, by one decoder, each its own number, none by a decode from the file's start (as
    on main, where the third recording kept its own times)."""
    path, _ = joins[name]
    p = probe_video(path, path.name)
    assert p.index is not None
    dec = ExactDecoder(open_container(str(path)), p.index,
                       reopen=lambda: open_container(str(path)))
    frames = [150, 10, 209, 149, 60, 59, 0, 180, *random.Random(30).sample(range(210), 24)]
    got = [vc.read_code(f.to_ndarray(format="rgb24")) if (f := dec.read(n)) is not None
           else None for n in frames]
    assert got == frames
    assert dec.fallbacks == 0


@pytest.mark.parametrize("name", ["30-3600-7200", "0-3600-7200", "30-3600"])
def test_the_frame_exported_on_each_side_of_each_join_is_the_one_drawn(joins, name, tmp_path):
    """`moderator-app frame --time`: the first and last frame of the file and of each
    recording, 0.5 ms into each and at its middle (before: on 30-3600-7200, 2.5 s and on
    "no footage", exit 1)."""
    path, parts = joins[name]
    firsts = [sum(FRAMES[:k]) for k in range(len(parts) + 1)]
    wanted = sorted({n for f in firsts for n in (f - 1, f) if 0 <= n < firsts[-1]})
    for n in wanted:
        for t in (n / 30 + 0.0005, (n + 0.5) / 30):
            out = tmp_path / f"{n}_{t:.4f}.png"
            assert main(["frame", str(path), "--time", f"{t:.4f}", "-o", str(out)]) == 0
            assert vc.read_code(cv2.imread(str(out), cv2.IMREAD_COLOR)) == n
    out = tmp_path / "past.png"
    assert main(["frame", str(path), "--time", f"{firsts[-1] / 30 + 0.01:.3f}",
                 "-o", str(out)]) == 1
    assert not out.exists()


@pytest.mark.parametrize("name", ["30-3600-7200", "0-3600-3603"])
def test_the_scan_notes_each_far_later_clock_at_its_join(joins, name, tmp_path):
    """verify --scan: a `video.clock_jump` note at each join whose own clock jumped (its first
    frame's span, how far), in `video_scan` and the findings, the same from the cache; none
    where the third's clock goes on from the second's (before: said in `method` only)."""
    from moderator_app.core.samples.community import make_agent_log
    from moderator_app.core.verify.options import VerifyOptions
    from moderator_app.core.verify.pipeline import verify_paths

    path, parts = joins[name]
    run = tmp_path / "run"
    run.mkdir()
    shutil.copyfile(path, run / "video.mkv")
    make_agent_log(run / "agent-log.jsonl", n_events=8, seed=2, min_duration_s=6.9)
    tail = ("past the end of the one before: shown right after it, that time is not in the "
            "file (a recorder's clock from its start-up, or a recording missing between the "
            "two)")
    said = [(a, round(a + 1 / 30, 3), f"a recording joined at {a:.3f} s has its own clock "
             f"{b:.3f} s {tail}") for a, b in SAID[name]]
    for cached in (False, True):
        report = verify_paths([run], VerifyOptions(scan_video=True)).report
        scan = report.video_scan.to_dict()
        assert scan["from_cache"] is cached
        assert [(f["start_s"], f["end_s"], f["message"]) for f in scan["findings"]
                if f["rule"] == "video.clock_jump"] == said
        assert {f["severity"] for f in scan["findings"] if f["rule"] == "video.clock_jump"} \
            == {"info"}
        notes = [f for f in report.findings if f.rule == "video.clock_jump"]
        assert [(round(f.video_start_s, 3), f.message) for f in notes] == \
            [(a, m) for a, _, m in said]
        assert not [f for f in report.findings if f.rule in (
            "video.footage_gap", "video.timestamp_gap", "coverage.missing")]


@pytest.fixture(scope="module")
def tones(tmp_path_factory) -> dict[str, Path]:
    """Three recordings over AAC tones of 440, 660 and 990 Hz, own clocks from 0 (or 30 s),
    3600 s and 7200 s, joined by `cat`."""
    d = tmp_path_factory.mktemp("mkv_origin_tones")
    out = {}
    for name, origins in (("0-3600-7200", (None, "3600", "7200")),
                          ("30-3600-7200", ("30", "3600", "7200"))):
        data, first = b"", 0
        for k, (origin, hz) in enumerate(zip(origins, (440, 660, 990), strict=True)):
            tone = ["-f", "lavfi", "-i", f"sine=frequency={hz}:sample_rate=48000:"
                    f"duration={FRAMES[k] / 30}", "-c:a", "aac"]
            args = [*tone, *(["-output_ts_offset", origin] if origin else []), *_MKV]
            data += vc.encode(d / f"{name}_{k}.mkv", args, frames=FRAMES[k], fps="30",
                              first=first).read_bytes()
            first += FRAMES[k]
        out[name] = d / f"{name}.mkv"
        out[name].write_bytes(data)
    return out


@pytest.mark.parametrize("name", ["0-3600-7200", "30-3600-7200"])
def test_each_recording_sounds_where_its_picture_is(tones, name):
    """The player's sound (`AudioTrack.for_index(...).pcm`, a fresh track a window, as after a
    seek): 0.3 s windows in each recording hold its own tone (before: silence in the third,
    and on 30-3600-7200 in the second too)."""
    from moderator_app.core.video.audio import RATE, AudioTrack

    path = tones[name]
    p = probe_video(path, path.name)
    assert p.index is not None
    heard = []
    for t in (0.5, 1.6, 2.3, 4.5, 5.2, 6.5):
        track = AudioTrack.for_index(path, p.index)
        track.open()
        try:
            x = np.frombuffer(track.pcm(t, t + 0.3), np.int16).reshape(-1, 2)[:, 0]
        finally:
            track.close()
        x = x.astype(np.float64)
        peak = np.fft.rfftfreq(x.shape[0], 1 / RATE)[np.argmax(np.abs(np.fft.rfft(x)))] \
            if x.shape[0] and np.abs(x).max() > 0 else None
        heard.append(None if peak is None else int(round(peak / 10) * 10))
    assert heard == [440, 440, 660, 660, 990, 990]
