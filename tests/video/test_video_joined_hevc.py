"""HEVC recordings of two picture sizes joined byte for byte (`cat a.mkv b.mkv`; QA s22 P1).

libx265 writes its VPS/SPS/PPS into the Matroska header only (the muxer asks for a global
header; x265's `repeat-headers` is off): the second recording's keyframes carry none, so the
file played as one stream decodes it with the first's parameters (FFmpeg: every frame the
first's size, "cu_qp_delta outside the valid range", smeared pictures whose top-left corner
still reads right). That was no footage, as for H.264 (N4/N6); since session 27 it is read
from its own header (`joined_chain.own_read`), every picture right at its own size. With `repeat-headers=1` each
keyframe carries its own parameter sets: the decoder switches to the new size at the join,
every picture is right, and the join is a size change (`video.stream_change`), no finding of
undecodable footage (the scan reports the size change as `video.stream_change`). The check's evidence is the size the decoder gives, not the header alone."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import video_corpus as vc

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video.export import read_frames
from moderator_app.core.video.probe import probe_video


def _has_libx265() -> bool:
    if shutil.which("ffmpeg") is None:
        return False
    out = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                         text=True, check=False).stdout
    return " libx265 " in out


pytestmark = pytest.mark.skipif(not _has_libx265(), reason="needs ffmpeg with libx265 "
                                "(`ffmpeg -encoders` lists none): HEVC joins NOT TESTED")

_X265 = "keyint=60:log-level=error"
_PAD = ["-vf", "pad=400:300:0:0"]


def _enc(params: str) -> list[str]:
    return ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", params, "-pix_fmt",
            "yuv420p", "-f", "matroska"]


@pytest.fixture(scope="module")
def joined(tmp_path_factory) -> dict[str, Path]:
    """2 s 320x240 (60 frames) + 8 s 400x300 (240 frames), libx265, 30 fps, an 8.761 s run:
    `inband` with repeat-headers=1, `header` without (QA's join_mkv_hevc_res shape)."""
    d = tmp_path_factory.mktemp("joined_hevc")
    out = {}
    for name, params in {"inband": f"{_X265}:repeat-headers=1", "header": _X265}.items():
        a = vc.encode(d / f"{name}-a.mkv", _enc(params), frames=60)
        b = vc.encode(d / f"{name}-b.mkv", [*_PAD, *_enc(params)], frames=240)
        out[name] = d / name / "video.mkv"
        out[name].parent.mkdir()
        out[name].write_bytes(a.read_bytes() + b.read_bytes())
        run = make_agent_log(out[name].parent / "agent-log.jsonl", n_events=20, seed=2)
        assert run == pytest.approx(8.761)
    return out


def _sizes(path: Path) -> set[str]:
    out = subprocess.run(["ffprobe", "-v", "quiet", "-select_streams", "v", "-show_entries",
                          "frame=width,height", "-of", "csv=p=0", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return {ln.strip(",") for ln in out.split() if ln.strip(",")}


def test_an_hevc_join_with_its_parameter_sets_in_band_is_footage(joined):
    """Every picture decodes right at its own size: a size change, PASS, no undecodable."""
    path = joined["inband"]
    assert _sizes(path) == {"320,240", "400,300"}  # FFmpeg switches size at the join
    p = probe_video(path, "video.mkv")
    assert p.ok and p.frame_count == vc.ffprobe_frames(path) == 300
    assert [f.rule for f in p.findings] == ["video.header_mismatch"]  # the restart only
    assert p.gaps == ()
    report = verify_paths([path.parent]).report
    assert report.verdict == "pass", [f.to_dict() for f in report.findings]
    assert report.coverage is not None and report.coverage.missing_gaps_s == 0.0


def test_an_hevc_join_with_its_parameter_sets_in_the_header_only_is_read_from_it(joined):
    """QA s22 P1's file: FFmpeg decodes the second recording with the first's VPS/SPS/PPS
    (320x240 frames throughout); sessions 22-26 made it no footage from the join to the end
    (FAIL). Read from its own header: 300 frames, the second at 400x300 each the one drawn,
    PASS."""
    path = joined["header"]
    assert _sizes(path) == {"320,240"}  # the first's size throughout: wrong parameters
    p = probe_video(path, "video.mkv")
    assert p.ok and p.frame_count == vc.ffprobe_frames(path) == 300
    assert [f.rule for f in p.findings] == ["video.header_mismatch"]
    assert p.gaps == ()
    assert p.index is not None
    images = read_frames(path, p.index, [0, 59, 60, 150, 299])
    assert [None if i is None else (i.shape[1], vc.read_code(i[:240, :320]))
            for i in images] == [(320, 0), (320, 59), (400, 0), (400, 90), (400, 239)]
    report = verify_paths([path.parent]).report
    assert report.verdict == "pass", [f.to_dict() for f in report.findings]
