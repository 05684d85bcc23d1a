"""The scan's fixed costs (issue 12 point 5, QA session 13's F7): verify --scan probes and scans
in one isolated process, the audio envelope is reduced in batches with the frame-by-frame
definition's values, and the isolated process starts without running a program to find libc.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import av
import numpy as np
import pytest
import video_corpus as vc

from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.core.video import isolate
from moderator_app.core.video.scan import run_scan
from moderator_app.core.video.signals import ENVELOPE_S, _mono

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def _count_spawns(monkeypatch) -> list[int]:
    spawned: list[int] = []
    real = isolate._spawn

    def counting(sock, fork=False):  # forked or started: one process each (forking.py)
        spawned.append(1)
        return real(sock, fork)

    monkeypatch.setattr(isolate, "_spawn", counting)
    return spawned


def test_verify_scan_probes_and_scans_in_one_process(tmp_path, monkeypatch):
    # main: two isolated processes (the probe's and the scan's, both started ahead), and the
    # scan's was started for nothing when the scan came from the cache
    make_agent_log(tmp_path / "agent-log.jsonl", n_events=12, seed=1)
    video = tmp_path / "run.mkv"
    shutil.copyfile(vc.build(vc.RECIPES["audio_gap"]), video)
    isolate.discard_spares()
    spawned = _count_spawns(monkeypatch)
    first = verify_paths([tmp_path], VerifyOptions(scan_video=True)).report
    assert len(spawned) == 1
    scan = first.video_scan
    assert scan.frames == first.video.frame_count and scan.complete and not scan.from_cache
    alone = run_scan(video, cache=False)
    assert [(f.rule, f.start_s, f.end_s) for f in scan.findings] == \
        [(s.rule, round(s.start_s, 3), round(s.end_s, 3)) for s in alone.spans]
    assert any(f.rule == "audio.gap" for f in scan.findings)
    spawned.clear()
    again = verify_paths([tmp_path], VerifyOptions(scan_video=True)).report
    assert again.video_scan.from_cache and len(spawned) == 1
    assert [f.to_dict() for f in again.video_scan.findings] == \
        [f.to_dict() for f in scan.findings]


def test_a_failed_probe_leaves_no_scan_and_no_process(tmp_path, monkeypatch):
    make_agent_log(tmp_path / "agent-log.jsonl", n_events=12, seed=1)
    (tmp_path / "run.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(4000))
    isolate.discard_spares()
    spawned = _count_spawns(monkeypatch)
    report = verify_paths([tmp_path], VerifyOptions(scan_video=True)).report
    assert len(spawned) == 1
    assert not report.video_scan.ran
    assert report.video_scan.reason == "the video cannot be read"
    assert [f.rule for f in report.findings if f.rule.startswith("video.")] == ["video.truncated"]


def _envelope_frame_by_frame(path) -> np.ndarray:
    """The envelope as the scan computed it before batching, one frame at a time."""
    acc, env, rate = None, [], 0
    with av.open(str(path)) as c:
        for pk in c.demux(c.streams.audio[0]):
            for af in pk.decode():
                rate = af.sample_rate or rate
                mono = _mono(af)
                acc = mono if acc is None else np.concatenate((acc, mono))
                win = max(1, int(rate * ENVELOPE_S))
                k = acc.shape[0] // win
                if k:
                    blk = acc[:k * win].reshape(k, win)
                    env.extend((10 * np.log10(np.mean(blk * blk, axis=1) + 1e-10)).tolist())
                    acc = acc[k * win:]
    return np.asarray(env, np.float32)


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True)


@pytest.fixture(scope="module")
def audio_files(tmp_path_factory):
    """Short videos whose sound takes every path of the reduction: planar float mono (AAC),
    six planar channels, packed 16-bit stereo, packed unsigned 8-bit, and a sample rate that
    changes mid-stream (two MPEG-TS parts joined: the windows change width)."""
    d = tmp_path_factory.mktemp("audio")
    pic = ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=30"]
    x264 = ["-c:v", "libx264", "-preset", "ultrafast"]

    def tone(rate: int, hz: int = 440) -> list[str]:
        return ["-f", "lavfi", "-i", f"sine=frequency={hz}:sample_rate={rate}"]

    _ffmpeg(*pic, *tone(48000), *x264, "-c:a", "aac", "-t", "3", str(d / "aac.mp4"))
    _ffmpeg(*pic, "-f", "lavfi", "-i", "aevalsrc=sin(440*2*PI*t)|sin(550*2*PI*t)|0|"
            "0.2*random(0)|0.5*sin(660*2*PI*t)|sin(100*2*PI*t):s=48000",
            "-channel_layout", "5.1", *x264, "-c:a", "aac", "-t", "3", str(d / "six.mp4"))
    _ffmpeg(*pic, *tone(44100), "-ac", "2", *x264, "-c:a", "pcm_s16le", "-t", "3",
            str(d / "s16.mkv"))
    _ffmpeg(*pic, *tone(8000, 300), "-c:v", "mpeg4", "-c:a", "pcm_u8", "-t", "3",
            str(d / "u8.avi"))
    for i, rate in enumerate((44100, 48000)):
        _ffmpeg(*pic, *tone(rate, 440 * (i + 1)), *x264, "-c:a", "aac", "-t", "3", "-f",
                "mpegts", str(d / f"p{i}.ts"))
    (d / "list.txt").write_text("file 'p0.ts'\nfile 'p1.ts'\n")
    _ffmpeg("-f", "concat", "-safe", "0", "-i", str(d / "list.txt"), "-c", "copy",
            str(d / "rates.ts"))
    return d


@pytest.mark.parametrize("name", ["aac.mp4", "six.mp4", "s16.mkv", "u8.avi", "rates.ts"])
def test_the_batched_envelope_is_the_frame_by_frame_one(audio_files, name):
    path = audio_files / name
    want = _envelope_frame_by_frame(path)
    got = run_scan(path, cache=False).audio_envelope_db
    assert want.shape[0] > 50  # 3 s or more of sound in 50 ms windows
    assert got.dtype == np.float32 and got.tobytes() == want.tobytes()


def test_the_video_process_finds_libc_without_running_a_program():
    # ctypes.util.find_library("c") ran /sbin/ldconfig -p, twice per video process start
    code = ("import subprocess\n"
            "def refuse(*a, **k):\n"
            "    raise RuntimeError('a program was started: ' + repr(a[:1]))\n"
            "subprocess.Popen = refuse\n"
            "from moderator_app.core.arenas import limit_malloc_arenas, small_thread_stacks\n"
            "print(limit_malloc_arenas(), small_thread_stacks())\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == (["True", "True"] if sys.platform.startswith("linux")
                                else ["False", "False"])
