"""Fragmented MP4 recordings whose own clocks start far later, joined by `cat`: where each is
shown (session 31, issue 12: "the frame exported for each event is the true frame"; "no
false video warnings on honest files"; DECISIONS session 30 "video", left open).

Session 30 read a joined Matroska recording's end from its header's Duration and chained the
shifts (`joined_clock._own_end`, `_shifts_to`); a fragmented MP4's end was still its header's
start + duration, where FFmpeg's duration of an `empty_moov` file is its last fragment's
decode-time end counted from 0 (a recording from 30 s of 2 s: 32 s, read as 62 s). A first
recording from 30 s then showed a false 30 s `video.footage_gap` at the join (90 of 150
moments "no footage"), a third recording from 7200 s after a second from 3600 s was placed
3600 s late (a 3600 s gap), and one whose clock goes on from the second's was not shifted
with it (a 3598 s gap). Now an MP4 recording's end is read from its last packets.

Built by ffmpeg (`frag_keyframe+empty_moov+default_base_moof`, x264 with 2 B-frames), each
part's fragments' decode times (`tfdt`) moved on by its clock origin
(`video_corpus.moved_on`, as a recorder whose clock started earlier writes them): 30 fps
parts of 2 s, 3 s and 2 s whose `draw_frame` numbers go on across the recordings."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import cv2
import pytest
import video_corpus as vc

from moderator_app.cli import main
from moderator_app.core.video.decoder import ExactDecoder
from moderator_app.core.video.export import frame_for_time, read_frames
from moderator_app.core.video.opening import open_container
from moderator_app.core.video.probe import probe_video

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

_FRAG = ["-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "30", "-pix_fmt",
         "yuv420p", "-threads", "1", "-movflags", "+frag_keyframe+empty_moov+default_base_moof",
         "-f", "mp4"]
TICKS = 15360  # the muxer's clock at 30 fps, a second
FRAMES = (60, 90, 60)  # 2 s, 3 s, 2 s at 30 fps
#: each file's recordings' own clock origins (s)
LAYOUTS = {"0-3600": (0, 3600), "30-3600": (30, 3600), "0-3600-7200": (0, 3600, 7200),
           "30-3600-7200": (30, 3600, 7200), "0-3600-3603": (0, 3600, 3603)}
#: what the probe's method says of each (video time of the join, own clock past the end)
SAID = {"0-3600": [(2.0, 3598.0)], "30-3600": [(2.0, 3568.0)],
        "0-3600-7200": [(2.0, 3598.0), (5.0, 3597.0)],
        "30-3600-7200": [(2.0, 3568.0), (5.0, 3597.0)],
        "0-3600-3603": [(2.0, 3598.0)]}  # the third's clock goes on from the second's


@pytest.fixture(scope="module")
def joins(tmp_path_factory) -> dict[str, tuple[Path, list[Path]]]:
    """Each `LAYOUTS` file (and its part files), its recordings drawn 0-59, 60-149, 150-209."""
    d = tmp_path_factory.mktemp("fmp4_origins")
    out = {}
    for name, origins in LAYOUTS.items():
        parts, first = [], 0
        for k, origin in enumerate(origins):
            made = vc.encode(d / f"{name}_{k}.made.mp4", _FRAG, frames=FRAMES[k], fps="30",
                             first=first)
            part = d / f"{name}_{k}.mp4"
            part.write_bytes(vc.moved_on(made.read_bytes(), origin * TICKS))
            parts.append(part)
            first += FRAMES[k]
        path = d / f"{name}.mp4"
        path.write_bytes(b"".join(p.read_bytes() for p in parts))
        out[name] = (path, parts)
    return out


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_each_recording_goes_on_from_where_the_one_before_is_shown_to_end(joins, name):
    """The frame count ffprobe gives each part (summed), the duration the parts add up to, no
    footage gap, the probe saying each far-later clock, every moment its frame, every picture
    its number (on main: 30-3600 a 30 s gap and 90 moments "no footage"; 0-3600-7200 and
    30-3600-7200 the third recording 3600 s late; 0-3600-3603 a 3598 s gap). No
    `video.header_mismatch`: the header's duration is the last recording's own clock, the
    frames' end plus the time the clocks skipped (session 32; QA s31 Section 2)."""
    path, parts = joins[name]
    p = probe_video(path, path.name)
    assert p.ok and p.index is not None
    assert p.frame_count == sum(vc.ffprobe_frames(q) for q in parts) == sum(FRAMES[:len(parts)])
    assert round(p.duration_s, 3) == len(parts) * 2 + 1  # duration-ok: 2 s + 3 s (+ 2 s)
    assert not p.gaps and not p.no_footage
    assert not [f.message for f in p.findings if f.rule in (
        "video.footage_gap", "video.joined_undecodable", "video.tail_undecodable",
        "video.variable_rate", "video.timestamp_gap", "video.header_mismatch")]
    words = p.method.split("; ")
    assert [w for w in words if "its own clock" in w] == [
        f"a recording joined at {a:.3f} s has its own clock {b:.3f} s past the end of the "
        "one before: shown right after it" for a, b in SAID[name]]
    n = sum(FRAMES[:len(parts)])
    moments = [(t, k) for k in range(n) for t in (k / 30 + 0.0005, (k + 0.5) / 30,
                                                 (k + 1) / 30 - 0.0015)]
    shown = [frame_for_time(p.index, t, no_footage=p.no_footage) for t, _ in moments]
    assert shown == [k for _, k in moments]
    images = read_frames(path, p.index, list(range(p.frame_count)))
    assert [None if i is None else vc.read_code(i) for i in images] == list(range(n))


@pytest.mark.parametrize("name", ["30-3600-7200", "0-3600-3603"])
def test_seeks_into_each_recording_land_on_their_frame(joins, name):
    """The player's seam: frames on each side of both joins and 24 more in random order, by
    one decoder, each its own number, none by a decode from the file's start."""
    path, _ = joins[name]
    p = probe_video(path, path.name)
    assert p.index is not None
    dec = ExactDecoder(open_container(str(path)), p.index,
                       reopen=lambda: open_container(str(path)))
    frames = [150, 10, 209, 149, 60, 59, 0, 180, *random.Random(31).sample(range(210), 24)]
    got = [vc.read_code(f.to_ndarray(format="rgb24")) if (f := dec.read(n)) is not None
           else None for n in frames]
    assert got == frames
    assert dec.fallbacks == 0


@pytest.mark.parametrize("name", ["30-3600-7200", "30-3600"])
def test_the_frame_exported_on_each_side_of_each_join_is_the_one_drawn(joins, name, tmp_path):
    """`moderator-app frame --time`: the first and last frame of the file and of each
    recording, 0.5 ms into each and at its middle; past the end, exit 1."""
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
    frame's span, how far), fresh and from the cache; no footage gap, no timestamp gap."""
    from moderator_app.core.samples.community import make_agent_log
    from moderator_app.core.verify.options import VerifyOptions
    from moderator_app.core.verify.pipeline import verify_paths

    path, _ = joins[name]
    run = tmp_path / "run"
    run.mkdir()
    shutil.copyfile(path, run / "video.mp4")
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
        assert not [f for f in report.findings if f.rule in (
            "video.footage_gap", "video.timestamp_gap", "coverage.missing")]


@pytest.fixture(scope="module")
def tones(tmp_path_factory) -> dict[str, Path]:
    """Three recordings over AAC tones of 440, 660 and 990 Hz, own clocks from 0 (or 30 s),
    3600 s and 7200 s (each track's `tfdt` moved on in its own ticks), joined by `cat`."""
    d = tmp_path_factory.mktemp("fmp4_origin_tones")
    out = {}
    for name, origins in (("0-3600-7200", (0, 3600, 7200)), ("30-3600-7200", (30, 3600, 7200))):
        data, first = b"", 0
        for k, (origin, hz) in enumerate(zip(origins, (440, 660, 990), strict=True)):
            tone = ["-f", "lavfi", "-i", f"sine=frequency={hz}:sample_rate=48000:"
                    f"duration={FRAMES[k] / 30}", "-c:a", "aac"]
            made = vc.encode(d / f"{name}_{k}.mp4", [*tone, *_FRAG], frames=FRAMES[k],
                             fps="30", first=first)
            data += vc.moved_on(made.read_bytes(), seconds=origin)
            first += FRAMES[k]
        out[name] = d / f"{name}.mp4"
        out[name].write_bytes(data)
    return out


@pytest.mark.parametrize("name", ["0-3600-7200", "30-3600-7200"])
def test_each_recording_sounds_where_its_picture_is(tones, name):
    """The player's sound (`AudioTrack.for_index(...).pcm`, a fresh track a window, as after a
    seek): 0.3 s windows in each recording hold its own tone, and the picture its 210
    frames over 7 s."""
    import numpy as np

    from moderator_app.core.video.audio import RATE, AudioTrack

    path = tones[name]
    p = probe_video(path, path.name)
    assert p.index is not None and p.frame_count == 210
    assert round(p.duration_s, 3) == 7.0  # duration-ok: the three recordings' footage
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


def test_a_join_is_not_read_from_a_scan_session_30_cached(joins):
    """Session 30's scan cache (`.mp4j30`) holds this join read as 35 s with a false 30 s gap
    (the reviewer's /tmp/rv/fmp4/sub); its key is not this session's (`.mp4j31`), so such
    arrays are a miss and the file is scanned again. A file of one recording keeps its bare
    key (every other cached scan stays valid)."""
    from moderator_app.core.video.scan_cache import cache_key

    path, parts = joins["30-3600"]
    assert cache_key(path, "sha") == "sha.mp4j31" != "sha.mp4j30"
    assert cache_key(parts[0], "sha") == "sha"
