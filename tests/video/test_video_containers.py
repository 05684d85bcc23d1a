"""A recording in any container the reader plays is the submission's video (issue 12, session 8).

The submission lister knew five suffixes (`.mp4 .mkv .webm .mov .avi`): an MPEG-TS capture
(what OBS and capture cards write), a `.mpg`, a `.flv` ... inside a folder or an archive was not
the video, so a community run was refused with `input.no_video` while `frame` played the same
file alone. Each test encodes a small file with the real ffmpeg into its tmp_path; every picture
carries its source frame number (`video_corpus.draw_frame`).
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tarfile
import zipfile

import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.formats.members import ROLE_OTHER, ROLE_VIDEO, classify
from moderator_app.core.formats.submission import load_submission
from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video.export import read_frames

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")

FRAMES = 90
MPEG2 = ("-c:v", "mpeg2video", "-bf", "2", "-g", "15", "-q:v", "4")
# suffix -> encoder and muxer arguments (what capture and conversion tools write there)
CONTAINERS = {
    "ts": (*vc.X264, "-f", "mpegts"),
    "m2ts": (*vc.X264, "-f", "mpegts", "-mpegts_m2ts_mode", "1"),
    "mts": (*vc.X264, "-f", "mpegts", "-mpegts_m2ts_mode", "1"),
    "mpg": (*MPEG2, "-f", "mpeg"),
    "vob": (*MPEG2, "-f", "vob"),
    "flv": (*vc.X264, "-f", "flv"),
    "ogv": ("-c:v", "libtheora", "-q:v", "7", "-g", "30", "-f", "ogg"),
    "wmv": ("-c:v", "wmv2", "-q:v", "4", "-f", "asf"),
    "3gp": (*vc.X264, "-f", "3gp"),
    "m4v": (*vc.X264, "-f", "mp4"),
    "nut": ("-c:v", "mpeg4", "-q:v", "4", "-f", "nut"),
    "ivf": ("-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-g", "30",
            "-b:v", "400k", "-f", "ivf"),
    "mkv": (*vc.X264, "-f", "matroska"),
    "avi": (*vc.X264, "-f", "avi"),
}


def _ffmpeg_codes(path) -> list[int]:
    """The frame numbers of the pictures ffmpeg decodes from `path`, in its output order."""
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(path), "-fps_mode",
                          "passthrough", "-pix_fmt", "gray", "-f", "rawvideo", "-"],
                         capture_output=True, check=True).stdout
    return [vc.read_code(img) for img in np.frombuffer(raw, np.uint8).reshape(-1, vc.H, vc.W)]


def _submission(folder, ext: str):
    folder.mkdir()
    make_agent_log(folder / "agent-log.jsonl", n_events=8, seed=2)
    return vc.encode(folder / f"run.{ext}", list(CONTAINERS[ext]), frames=FRAMES)


def _check_video_found(paths, video, spool) -> None:
    """The video is found, probed as ffprobe counts it, and read exactly (`spool`: where a
    member of an archive is copied, kept until the test reads it)."""
    spool.mkdir()
    res = verify_paths(paths, VerifyOptions(spool_dir=spool))
    rules = [f.rule for f in res.report.findings]
    assert "input.no_video" not in rules and "input.several_videos" not in rules
    probe = res.video_probe
    assert probe is not None and probe.ok and probe.index is not None, rules
    shown = _ffmpeg_codes(video)
    assert probe.frame_count == vc.ffprobe_frames(video) == len(shown)
    assert not [r for r in rules if r.startswith("video.")], rules  # an honest file
    frames = list(range(probe.frame_count))
    random.Random(12).shuffle(frames)
    frames = frames[:24]
    got = read_frames(res.video_path, probe.index, frames)
    assert [None if g is None else vc.read_code(g) for g in got] == [shown[n] for n in frames]


@pytest.mark.parametrize("ext", sorted(CONTAINERS))
def test_a_recording_in_a_folder_is_the_video_whatever_its_container(tmp_path, ext):
    """Exact frames (24 shuffled, against ffmpeg's own decode) and ffprobe's frame count."""
    folder = tmp_path / "sub"
    video = _submission(folder, ext)
    _check_video_found([folder], video, tmp_path / "spool")


@pytest.mark.parametrize("ext,kind", [("ts", "zip"), ("mpg", "tar"), ("m2ts", "tar"),
                                      ("flv", "zip")])
def test_a_recording_in_an_archive_is_the_video(tmp_path, ext, kind):
    """Copied out under `member.<its suffix>` and read exactly (a zip member is sniffed when
    opened, a tar member in the listing's one pass)."""
    folder = tmp_path / "sub"
    video = _submission(folder, ext)
    bundle = tmp_path / f"sub.{kind}"
    if kind == "zip":
        with zipfile.ZipFile(bundle, "w") as zf:
            for p in sorted(folder.iterdir()):
                zf.write(p, f"sub/{p.name}")
    else:
        with tarfile.open(bundle, "w") as tf:
            for p in sorted(folder.iterdir()):
                tf.add(p, f"sub/{p.name}")
    _check_video_found([bundle], video, tmp_path / "spool")


def test_typescript_named_ts_is_not_a_video(tmp_path):
    """`.ts` is also TypeScript's suffix: an agent's harness source beside its recording is not
    a second video (no `input.several_videos`, and it is never the one checked); a transport
    stream is told by its sync bytes (0x47 every 188 bytes, or 192 in M2TS)."""
    folder = tmp_path / "sub"
    video = _submission(folder, "mkv")
    (folder / "agent.ts").write_text("export const play = (s: string): number => 1;\n" * 400)
    sub = load_submission([folder])
    assert [m.name for m in sub.videos] == ["run.mkv"]
    source = folder / "agent.ts"
    assert classify("agent.ts", lambda: source.open("rb")) == ROLE_OTHER
    _check_video_found([folder], video, tmp_path / "spool")
    capture = vc.encode(tmp_path / "cap.m2ts", list(CONTAINERS["m2ts"]), frames=10)
    cut = tmp_path / "cut.ts"
    cut.write_bytes(capture.read_bytes()[1000:])  # cut mid-packet: the sync found further on
    for p in (capture, cut):
        assert classify(p.name.replace(".m2ts", ".ts"), lambda p=p: p.open("rb")) == ROLE_VIDEO


def test_two_recordings_check_the_largest_and_say_so(tmp_path):
    """As decided (docs/DECISIONS.md, Inputs): several videos, the largest is checked, with
    `input.several_videos` naming the others; now whatever their containers."""
    folder = tmp_path / "sub"
    video = _submission(folder, "ts")
    vc.encode(folder / "preview.mpg", list(CONTAINERS["mpg"]), frames=10)
    res = verify_paths([folder], VerifyOptions())
    several = [f for f in res.report.findings if f.rule == "input.several_videos"]
    assert len(several) == 1
    assert several[0].message == "2 videos; checking the largest, run.ts; also: preview.mpg"
    assert res.video_probe is not None and res.video_probe.frame_count == FRAMES
    assert res.video_path == video


def _ogg(src, out, *inputs_and_maps: str) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *inputs_and_maps, "-f", "ogg",
                    str(out)], check=True, cwd=src)


@pytest.mark.parametrize("kind", ["folder", "zip"])
def test_theora_with_sound_named_ogg_is_the_video(tmp_path, kind):
    """ffmpeg names Theora + Vorbis `.ogg`: such a recording was `input.no_video` and the run
    FAILed (QA s17 K1). It is the video when one of its streams is a picture codec, here the
    second one (the sound's first page comes first), and is read exactly, also from an archive
    (copied out as `member.bin`: the reader goes by the bytes)."""
    folder = tmp_path / "sub"
    theora = _submission(folder, "ogv")
    video = folder / "run.ogg"
    _ogg(folder, video, "-f", "lavfi", "-i", "sine=d=2", "-i", theora.name, "-map", "0:a",
         "-map", "1:v", "-c:v", "copy", "-c:a", "libvorbis", "-shortest")
    theora.unlink()
    assert classify("run.ogg", lambda: video.open("rb")) == ROLE_VIDEO
    paths = [folder]
    if kind == "zip":
        paths = [tmp_path / "sub.zip"]
        with zipfile.ZipFile(paths[0], "w") as zf:
            for p in sorted(folder.iterdir()):
                zf.write(p, f"sub/{p.name}")
    _check_video_found(paths, video, tmp_path / "spool")


def test_sound_only_ogg_beside_a_recording_is_not_a_second_video(tmp_path):
    """Vorbis or Opus alone in `.ogg` (a soundtrack, a voice note), or text under that name,
    is an extra file: no `input.several_videos`, and the recording is the one checked."""
    folder = tmp_path / "sub"
    video = _submission(folder, "mkv")
    _ogg(folder, folder / "voice.ogg", "-f", "lavfi", "-i", "sine=d=1", "-c:a", "libopus")
    _ogg(folder, folder / "music.ogg", "-f", "lavfi", "-i", "sine=d=1", "-c:a", "libvorbis")
    (folder / "notes.ogg").write_text("OggS but not really\n")
    sub = load_submission([folder])
    assert [m.name for m in sub.videos] == ["run.mkv"]
    for name in ("voice.ogg", "music.ogg", "notes.ogg"):
        path = folder / name
        assert classify(name, lambda p=path: p.open("rb")) == ROLE_OTHER
    _check_video_found([folder], video, tmp_path / "spool")
