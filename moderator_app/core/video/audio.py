"""Audio in step with the picture (issue 12 point 3), Qt-free.

The audio track is decoded in the isolated video process (`child.py`, op "audio") in short
windows, as 48 kHz stereo s16 PCM on the video's clock (rebased on the first video frame, as
the frame index is). `AudioTrack.pcm(t0, t1)` always returns exactly (t1 - t0) of samples:
silence where the track has none (before it starts, after it ends, in its gaps, or when the
video has no audio at all), so the picture's clock never waits for sound and a track shorter
or longer than the video cannot drift it.

`AudioFeeder` keeps a sink fed a little ahead of the playback clock while the player plays at
1x and is not muted; at any other speed it is muted (no pitch correction), and a seek or a
pause flushes the sink. Where the picture shows no footage (`silent`: the player's spans from
`export.no_footage_spans`, footage gaps, joined recordings that do not decode, before and
after the video) the sink is fed silence, to the sample: the sound of a span the verdict
counts missing is no more evidence than its picture (session 23). Output devices: PySide6-Essentials has no QtMultimedia, so the sink
is a pipe to the platform's player command when one exists (`pw-play`, `paplay`, `aplay`,
with a sound device), else `NullSink` (everything up to the device still runs and is tested).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from bisect import bisect_right
from collections.abc import Callable
from pathlib import Path

from .isolate import VideoProcess, VideoProcessError

RATE = 48000
FRAME_BYTES = 4  # s16 stereo
SINK_LATENCY_MS = 50  # the output buffer asked of the sound server (see default_sink)


def samples(seconds: float) -> int:
    return max(0, int(round(seconds * RATE)))


class AudioTrack:
    """Windows of PCM from a video's first audio track (decoded in an isolated process)."""

    def __init__(self, path: Path | str, video_start_s: float = 0.0) -> None:
        self.path = Path(path)
        self.video_start_s = video_start_s
        self._proc: VideoProcess | None = None
        self.failed: str | None = None
        self.joined = None  # the FrameIndex of joined recordings (`for_index`), else None

    @classmethod
    def for_index(cls, path: Path | str, index) -> AudioTrack:
        """The track of the video `index` (a `FrameIndex`) describes, on its clock (rebased on
        its first frame). In recordings joined with their timestamps restarting
        (`FrameIndex.segments`), the sound's timestamps restart too: a window is sought by the
        byte position of a keyframe of the picture (`joined_seek`), never by a time that means
        two places, and each recording's sound is shifted as its picture is."""
        start = float(index.pts[0] * index.time_base) if index.frame_count else 0.0
        track = cls(path, start)
        if index.segments or _joins(path):
            # or recordings joined whose times go on (an MP4 initialisation segment sent
            # again, a Matroska clock read shifted: `joined_clock.origin_shift`): each
            # recording's sound is read from its own header (`child_audio`)
            track.joined = index
        return track

    def open(self) -> None:
        """Start the decoding process now (the player does on load), so that the first play
        is not late by a process start-up."""
        if self._proc is None and not self.failed:
            try:
                self._proc = VideoProcess(self.path, timeout_s=20.0)
            except VideoProcessError as exc:
                self.failed = exc.reason

    def pcm(self, t0: float, t1: float) -> bytes:
        """Exactly samples(t1 - t0) stereo frames for video time [t0, t1)."""
        n = samples(t1 - t0)
        out = bytearray(n * FRAME_BYTES)
        if n == 0 or self.failed:
            return bytes(out)
        try:
            if self._proc is None:
                self._proc = VideoProcess(self.path, timeout_s=20.0)
            req = {"op": "audio", "t0": t0, "t1": t1, "keep": True,
                   "video_start_s": self.video_start_s}
            if self.joined is not None:
                req["joined"] = joined_seek(self.joined, t0)
            msg = self._proc.request(req)
        except VideoProcessError as exc:
            self.failed = exc.reason
            self.close()
            return bytes(out)
        start = msg.header.get("start_s")
        data = msg.blobs[0] if msg.blobs else b""
        if start is None or not data:
            return bytes(out)
        skip = samples(t0 - float(start))  # > 0: the decoded window starts before t0
        if skip >= 0:
            src = data[skip * FRAME_BYTES:]
            dst = 0
        else:
            src = data
            dst = -skip * FRAME_BYTES
        k = min(len(src), len(out) - dst)
        if k > 0:
            out[dst:dst + k] = src[:k - k % FRAME_BYTES]
        return bytes(out)

    def close(self) -> None:
        if self._proc is not None:
            self._proc.close()
            self._proc = None


def _joins(path: Path | str) -> bool:
    """Whether the file holds recordings joined (a walk of its top level's boxes or
    elements, `joined_headers.recording_joins`: no decoding, no demuxer)."""
    from .joined_headers import recording_joins
    return bool(recording_joins(str(path), 1))


def joined_seek(index, t: float, lead_s: float = 1.0) -> dict:
    """Where the sound of joined recordings is decoded from for video time `t`: the byte
    position of the picture's keyframe at or before `t - lead_s` (the sound there belongs to
    that keyframe's recording: the recordings follow each other in the file), the recording it
    starts in, the index's offsets (its time base) that put each on the picture's clock, and
    its pts (a joined Matroska is sought by it in the recording's own file: `child_audio`)."""
    if index.frame_count == 0:
        return {"pos": 0, "segment": 0, "offsets": [0], "tb": [1, 1], "pts": None}
    n = max(0, min(index.frame_count - 1, bisect_right(index.times_s, t - lead_s) - 1))
    i = index.keyframe_index(n)
    while i > 0 and int(index.pos[i]) < 0:  # a packet of unknown position: an earlier one
        i = index.keyframe_index(i - 1)
    pos = int(index.pos[i])
    timeline = index.timeline_at(int(index.pts[i]) if pos >= 0 else None)
    return {"pos": max(pos, 0), "segment": timeline.segment, "offsets": timeline.offsets,
            "tb": [index.time_base.numerator, index.time_base.denominator],
            "pts": int(index.pts[i]) if pos >= 0 else None}


class NullSink:
    """No sound device: counts what would have been played (and keeps it, for tests)."""

    name = "none"

    def __init__(self, keep: bool = False) -> None:
        self.written = 0
        self.keep = keep
        self.data = bytearray()
        self.flushes = 0

    def write(self, pcm: bytes) -> None:
        self.written += len(pcm)
        if self.keep:
            self.data += pcm

    def flush(self) -> None:
        self.flushes += 1

    def close(self) -> None:
        pass


class PipeSink:
    """Raw PCM into the platform's audio player command (restarted on flush: a seek must not
    play the old position's buffered sound).

    The command is started ahead (`prepare`, and again right after each flush), so that when
    sound starts the player process is already running and connected to the sound server.
    Started on the first write instead, its start-up (a process and a connection: 0.2 s and
    more on a loaded machine) was heard as sound that late after every play and seek."""

    def __init__(self, cmd: list[str]) -> None:
        self.cmd = cmd
        self.name = Path(cmd[0]).name
        self._proc: subprocess.Popen | None = None

    def prepare(self) -> None:
        """Start the player command now, ahead of the sound it will be given."""
        if self._proc is None:
            try:
                self._proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE,
                                              stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL)
            except OSError:
                self._proc = None

    def write(self, pcm: bytes) -> None:
        self.prepare()
        if self._proc is None:
            return
        try:
            assert self._proc.stdin is not None
            self._proc.stdin.write(pcm)
        except (BrokenPipeError, OSError):
            self.close()

    def flush(self) -> None:
        """Drop what is queued; the next play's process is started now, ahead of it."""
        self.close()
        self.prepare()

    def close(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            self._proc = None


def sound_device_present() -> bool:
    """Whether there is a sound server or device to play to (cheap: no process started)."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    return (os.path.exists("/dev/snd") or bool(os.environ.get("PULSE_SERVER"))
            or (uid is not None and os.path.exists(f"/run/user/{uid}/pulse")))


def plays_sound() -> bool:
    """Whether the player will feed sound here (a device and a player command, as
    `default_sink` finds them): its load then opens an audio track, a process of its own."""
    return not isinstance(default_sink(), NullSink)


def default_sink():
    """A pipe to pw-play / paplay / aplay when there is one and a sound server or device,
    else NullSink."""
    if not sound_device_present():
        return NullSink()
    raw = ["--format=s16", "--rate=48000", "--channels=2"]
    # A small output buffer, asked for explicitly: by default the sound server buffers ~2 s
    # before it starts playing (PulseAudio's tlength/prebuf), so sound came 1.5-2.5 s after
    # the picture and a play shorter than that was silent (measured on a PulseAudio null
    # sink, tests/video/test_video_audio_device.py).
    ms = SINK_LATENCY_MS
    for name, args in (("pw-play", [f"--latency={ms}ms", *raw, "-"]),
                       ("paplay", ["--raw", f"--latency-msec={ms}", *raw]),
                       ("aplay", ["-q", "-f", "S16_LE", "-r", "48000", "-c", "2", "-t", "raw",
                                  f"--buffer-time={ms * 1000}"])):
        exe = shutil.which(name)
        if exe:
            return PipeSink([exe, *args])
    return NullSink()


def silenced(pcm: bytes, t0: float, spans: tuple[tuple[float, float], ...]) -> bytes:
    """`pcm` (stereo s16 from video time `t0`) with the samples inside `spans` (sorted, not
    overlapping) set to silence: sample k is at t0 + k / RATE, as `AudioTrack.pcm` counts."""
    n = len(pcm) // FRAME_BYTES
    t1 = t0 + n / RATE
    i = max(0, bisect_right(spans, (t0, float("inf"))) - 1)
    out: bytearray | None = None
    while i < len(spans) and spans[i][0] < t1:
        a, b = spans[i]
        i += 1
        if b <= t0:
            continue
        ka = samples(max(a, t0) - t0)
        kb = min(n, samples(min(b, t1) - t0))
        if ka < kb:
            out = bytearray(pcm) if out is None else out
            out[ka * FRAME_BYTES:kb * FRAME_BYTES] = bytes((kb - ka) * FRAME_BYTES)
    return pcm if out is None else bytes(out)


class AudioFeeder:
    """Feeds `sink` from `track` up to `lead_s` ahead of the playback clock."""

    def __init__(self, track: AudioTrack | None, sink, lead_s: float = 0.3,
                 chunk_s: float = 0.2, clock: Callable[[], float] | None = None,
                 silent: tuple[tuple[float, float], ...] = ()) -> None:
        """`clock()`: the picture's video time now (the player's clock), read when the sink
        starts, so that sound is never started behind the picture. `silent`: spans of video
        time (sorted, not overlapping) where the sink gets silence instead of the track."""
        self.track, self.sink = track, sink
        self.silent = tuple(silent)
        self.lead_s, self.chunk_s = lead_s, chunk_s
        self.written_to: float | None = None  # video time up to which the sink has sound
        self.clock = clock
        self._starting = False  # (re)started, nothing written to the sink yet
        prepare = getattr(sink, "prepare", None)
        if track is not None and prepare is not None:
            prepare()  # a pipe sink's player process starts now, ahead of the first play

    def audible(self, playing: bool, speed: float, muted: bool) -> bool:
        return playing and speed == 1.0 and not muted and self.track is not None

    def tick(self, video_t: float, playing: bool, speed: float, muted: bool) -> None:
        """Call on every playback tick with the clock's video time."""
        if not self.audible(playing, speed, muted):
            self.reset()
            return
        if self.written_to is None or not (video_t - 0.1 <= self.written_to
                                           <= video_t + 2 * self.lead_s):
            self.reset()
            self.written_to = video_t  # (re)start at the picture's time
            self._starting = True
        while self.written_to < video_t + self.lead_s - 1e-6:
            t1 = self.written_to + self.chunk_s
            assert self.track is not None
            pcm = silenced(self.track.pcm(self.written_to, t1), self.written_to, self.silent)
            if self._starting and self.clock is not None:
                # The sink starts with this write: the sound the clock has already passed
                # while it was decoded (a process start-up, a loaded machine) is dropped, or
                # the whole play would be heard that much late (measured: 0.33 s).
                skip = samples(self.clock() - self.written_to)
                pcm = pcm[skip * FRAME_BYTES:] if skip > 0 else pcm
            if pcm:
                self._starting = False
            if pcm:
                self.sink.write(pcm)
            self.written_to = t1

    def reset(self) -> None:
        """A seek, a pause, a speed change or mute: drop what is queued."""
        if self.written_to is not None:
            self.sink.flush()
        self.written_to = None
        self._starting = False

    def close(self) -> None:
        self.reset()
        self.sink.close()
        if self.track is not None:
            self.track.close()
