"""Deterministic test videos with a known ground truth, made with the real ffmpeg.

Every frame shows its own source frame number as a 16-bit pattern of black and white blocks
(two rows of eight 20x12 blocks at the top left; `read_code` reads it back from a decoded picture),
over a moving scene, so a test can tell exactly which frame a decoder returned. Scripted
stretches (frozen picture, black, a hard cut to another scene) are drawn into the raw frames
before encoding, and the container shapes (fragmented MP4, Matroska without cues, VP9, VFR,
stream-copied cuts, short audio) are made by ffmpeg from the same raw frames. Files are cached
under `.cache/video-corpus/` keyed by the recipe, so they are built once per machine.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import struct
import subprocess
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Protocol

import cachelock
import numpy as np
import pytest

W, H = 320, 240
BLOCK_W, BLOCK_H = 20, 12
BITS = 16


def draw_frame(n: int, scene: int = 0) -> np.ndarray:
    """RGB picture of source frame `n` (moving scene `scene`) with `n` coded at the top."""
    y, x = np.mgrid[0:H, 0:W]
    if scene == 0:
        r = (x + 3 * n) % 256
        g = (y * 2 + n) % 256
        b = np.full_like(x, 96)
    else:
        r = np.full_like(x, 200)
        g = (((x + 2 * n) // 20 + y // 20) % 2) * 200
        b = (255 - (y + 5 * n) % 256)
    img = np.stack([r, g, b], axis=-1).astype(np.uint8)
    # a moving square, so motion never stops
    cx = 40 + (7 * n) % (W - 80)
    img[150:190, cx:cx + 40] = (255, 255, 0) if scene == 0 else (0, 0, 255)
    code_area = img[0:2 * BLOCK_H, 0:8 * BLOCK_W]
    code_area[:] = 0
    for bit in range(BITS):
        if n >> bit & 1:
            row, col = divmod(bit, 8)
            code_area[row * BLOCK_H:(row + 1) * BLOCK_H, col * BLOCK_W:(col + 1) * BLOCK_W] = 255
    return img


def read_code(img: np.ndarray) -> int:
    """The frame number coded in a decoded picture (RGB, BGR or gray, any scale)."""
    h, w = img.shape[:2]
    sy, sx = h / H, w / W
    gray = img if img.ndim == 2 else img.mean(axis=2)
    n = 0
    for bit in range(BITS):
        row, col = divmod(bit, 8)
        cy = int((row * BLOCK_H + BLOCK_H / 2) * sy)
        cx = int((col * BLOCK_W + BLOCK_W / 2) * sx)
        if gray[cy, cx] > 128:
            n |= 1 << bit
    return n


@dataclass(frozen=True)
class Script:
    """What the raw frames show: `frames` at `fps`, with scripted stretches (frame ranges)."""

    frames: int = 900
    fps: int = 30
    frozen: tuple[int, int] | None = None  # frames [a, b) repeat frame a, then jump to b
    pause: tuple[int, int] | None = None  # frames [a, b) repeat frame a, then go on from a+1
    black: tuple[int, int] | None = None  # frames [a, b) are black
    cut: int | None = None  # from this frame on, another scene

    def picture(self, n: int) -> np.ndarray:
        if self.black and self.black[0] <= n < self.black[1]:
            return np.zeros((H, W, 3), np.uint8)
        src = n
        if self.frozen and self.frozen[0] <= n < self.frozen[1]:
            src = self.frozen[0]
        if self.pause and n >= self.pause[0]:
            src = self.pause[0] + max(0, n - self.pause[1] + 1)
        scene = 1 if self.cut is not None and n >= self.cut else 0
        return draw_frame(src, scene)


@dataclass(frozen=True)
class Recipe:
    name: str
    script: Script = field(default_factory=Script)
    ext: str = "mp4"
    encode: tuple[str, ...] = ("-c:v", "libx264", "-preset", "ultrafast", "-g", "60",
                               "-bf", "2", "-pix_fmt", "yuv420p")
    pipe_out: bool = False  # write to a pipe (Matroska without cues or duration)
    post: tuple[str, ...] = ()  # a second ffmpeg pass on the first result: args between -i and out
    post_input: tuple[str, ...] = ()  # args before -i of the second pass (e.g. -ss 4)
    audio: float | None = None  # seconds of a 440 Hz tone, muxed in
    audio_filter: str | None = None  # an -af filter for the tone (e.g. cut a hole in it)

    def key(self) -> str:
        blob = json.dumps([self.name, repr(self.script), self.ext, self.encode, self.pipe_out,
                           self.post, self.post_input, self.audio, self.audio_filter, 4])
        return hashlib.sha256(blob.encode()).hexdigest()[:12]


def cache_dir() -> Path:
    root = Path(os.environ.get("MODERATOR_VIDEO_CORPUS",
                               Path(__file__).resolve().parents[1] / ".cache" / "video-corpus"))
    root.mkdir(parents=True, exist_ok=True)
    return root


def _ffmpeg(args: list[str], stdin_frames: Script | None = None, stdout=None) -> None:
    cmd = ["ffmpeg", "-nostdin" if stdin_frames is None else "-hide_banner", "-v", "error",
           "-y", *args]
    if stdin_frames is None:
        subprocess.run(cmd, check=True, stdout=stdout)
        return
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=stdout)
    assert proc.stdin is not None
    try:
        for n in range(stdin_frames.frames):
            proc.stdin.write(stdin_frames.picture(n).tobytes())
    finally:
        proc.stdin.close()
    if proc.wait() != 0:
        raise RuntimeError(f"ffmpeg failed: {' '.join(cmd)}")


def encode(out: Path, args: list[str], frames: int = 150, fps: str = "30",
           first: int = 0, stdout: bool = False) -> Path:
    """`frames` pictures of `draw_frame` at `fps` (a rate ffmpeg reads: "30000/1001") encoded
    by ffmpeg with `args` (encoder and muxer options) into `out`: a small file for one test,
    made in its tmp_path. `first`: the number drawn on the first picture (a recording joined
    after another numbers on); `stdout`: written to a pipe (Matroska without Cues, of unknown
    size, as a live capture stopped hard leaves it; `args` then name the format)."""
    pictures = Script(frames=frames) if not first else _Shifted(frames, first)
    raw = ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{W}x{H}", "-r", fps, "-i", "-", *args]
    if not stdout:
        _ffmpeg([*raw, str(out)], pictures)  # type: ignore[arg-type]
        return out
    with open(out, "wb") as fh:
        _ffmpeg([*raw, "-"], pictures, stdout=fh)  # type: ignore[arg-type]
    return out


class Pictures(Protocol):
    """Footage drawn in the test: `frames` RGB pictures, `picture(n)` the n-th (H x W x 3)."""

    frames: int

    def picture(self, n: int) -> np.ndarray: ...


# H.264, a keyframe every 2 s at 30 fps. crf 12: the held-picture tests' footage, where a
# beacon of a few pixels 40 levels bright must survive the codec; crf 18: coarser footage
H264_CRF12 = ("-c:v", "libx264", "-preset", "ultrafast", "-crf", "12", "-g", "60",
              "-pix_fmt", "yuv420p")
H264_CRF18 = (*H264_CRF12[:4], "-crf", "18", *H264_CRF12[6:])


def encode_pictures(out: Path, footage: Pictures, size: tuple[int, int], fps: int | str = 30,
                    args: tuple[str, ...] | list[str] = H264_CRF12) -> Path:
    """The test's own footage (`footage.picture(n)` for n < `footage.frames`, `size` = (width,
    height)) piped raw into ffmpeg at `fps` and encoded with `args` into `out`. Why one helper:
    the held-picture tests drew footage of their own and each spelled the same rawvideo pipe
    (session 40's duplicates D13-D18)."""
    w, h = size
    _ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{w}x{h}", "-r", str(fps), "-i", "-",
             *args, str(out)], footage)  # type: ignore[arg-type]
    return out


def frozen_spans(result) -> list[tuple[str, float, float]]:
    """A scan result's `video.frozen` spans as (severity, start, end), to the 1/100 s: what the
    held-picture tests assert exactly."""
    return [(s.severity, round(s.start_s, 2), round(s.end_s, 2)) for s in result.spans
            if s.rule == "video.frozen"]


needs_ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg")


def ffprobe_frames(path, stream: str = "v:0") -> int:
    """The frames ffprobe decodes in the first video stream (`-count_frames`; `stream`: another
    stream specifier, e.g. the recording's index where a cover picture comes first): the count
    a recording's frame count is judged against."""
    out = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", stream,
                          "-show_entries", "stream=nb_read_frames", "-of", "json", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return int(json.loads(out)["streams"][0]["nb_read_frames"])


def display_matrix(angle: float, hflip: bool = False, vflip: bool = False) -> list[int]:
    """The 9 ints FFmpeg's `av_display_rotation_set(angle)` then `av_display_matrix_flip(hflip,
    vflip)` write (what `ffmpeg -display_rotation A -display_hflip` stores; ffmpeg 5.1 has no
    such options)."""
    r = -angle * math.pi / 180.0
    c, s = math.cos(r), math.sin(r)
    m = [round(c * 65536), round(-s * 65536), 0, round(s * 65536), round(c * 65536), 0,
         0, 0, 1 << 30]
    flip = (-1 if hflip else 1, -1 if vflip else 1, 1)
    return [v * flip[i % 3] for i, v in enumerate(m)]


def with_display_matrix(src: Path, out: Path, matrix: list[int]) -> Path:
    """A copy of the MP4 `src` whose video track header (`tkhd`, version 0) carries `matrix`:
    the bytes a phone or an editor writes for a turned or mirrored recording."""
    data = bytearray(src.read_bytes())
    at = data.find(b"tkhd")
    assert at > 0 and data[at + 4] == 0, "a version-0 track header"
    # after size+type: version/flags 4, times 8, track id 4, reserved 4, duration 4,
    # reserved 8, layer 2, group 2, volume 2, reserved 2
    off = at - 4 + 8 + 4 + 8 + 4 + 4 + 4 + 8 + 8
    data[off:off + 36] = struct.pack(">9i", *matrix)
    out.write_bytes(bytes(data))
    return out


def expected_code(script: Script, source_frame: int) -> int:
    """The number coded in the picture of source frame `source_frame` (what a test reads)."""
    if script.frozen and script.frozen[0] <= source_frame < script.frozen[1]:
        return script.frozen[0]
    if script.pause and source_frame >= script.pause[0]:
        return script.pause[0] + max(0, source_frame - script.pause[1] + 1)
    return source_frame


def build(recipe: Recipe) -> Path:
    """The file for `recipe`, made once and cached."""
    out = cache_dir() / f"{recipe.name}-{recipe.key()}.{recipe.ext}"
    s = recipe.script
    raw_in = ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{W}x{H}", "-r", str(s.fps),
              "-i", "-"]
    audio_in: list[str] = []
    if recipe.audio is not None:
        audio_in = ["-f", "lavfi", "-i", f"sine=frequency=440:sample_rate=48000:duration="
                    f"{recipe.audio}"]
        if recipe.audio_filter:
            audio_in += ["-af", recipe.audio_filter]
        audio_in += ["-c:a", "aac" if recipe.ext != "webm" else "libopus", "-b:a", "64k"]
    fmt = ["-f", {"mkv": "matroska", "webm": "webm", "mp4": "mp4", "ts": "mpegts",
                  "mov": "mov"}.get(recipe.ext, recipe.ext)]

    def make(tmp: Path) -> None:
        first = tmp if not recipe.post else tmp.with_name(tmp.stem + ".src." + recipe.ext)
        if recipe.pipe_out:
            with open(first, "wb") as fh:
                _ffmpeg([*raw_in, *audio_in, *recipe.encode, *fmt, "-"], s, stdout=fh)
        else:
            _ffmpeg([*raw_in, *audio_in, *recipe.encode, *fmt, str(first)], s)
        if recipe.post:
            _ffmpeg([*recipe.post_input, "-i", str(first), *recipe.post, *fmt, str(tmp)])
            first.unlink()
    return cachelock.made(out, make)


X264 = ("-c:v", "libx264", "-preset", "ultrafast", "-g", "60", "-bf", "2", "-pix_fmt", "yuv420p")
RECIPES = {
    "mp4": Recipe("mp4"),
    "fmp4": Recipe("fmp4", encode=(*X264, "-movflags", "frag_keyframe+empty_moov")),
    "mkv": Recipe("mkv", ext="mkv"),
    "mkv_nocues": Recipe("mkv_nocues", ext="mkv", pipe_out=True),
    "webm": Recipe("webm", ext="webm", encode=("-c:v", "libvpx-vp9", "-deadline", "realtime",
                                                "-cpu-used", "8", "-g", "60", "-b:v", "400k")),
    # a 5 s pause whose repeated frames the encoder dropped (one frame held 5 s)
    "vfr": Recipe("vfr", script=Script(pause=(300, 450)),
                  encode=("-vf", "mpdecimate=hi=1:lo=1:frac=0", "-fps_mode", "vfr", *X264)),
    # AVI: the demuxer makes pts up (B-frames come out in another order than they say)
    "avi": Recipe("avi", ext="avi"),
    # MPEG-TS, MPEG-2 with open GOPs: seeks by timestamp land late
    "ts": Recipe("ts", ext="ts", encode=("-c:v", "mpeg2video", "-bf", "2", "-g", "15",
                                         "-q:v", "4")),
    # MPEG-TS with H.264 (what OBS and many capture tools write): the same late seeks
    "ts_h264": Recipe("ts_h264", ext="ts"),
    "mov": Recipe("mov", ext="mov"),
    "cut": Recipe("cut", post_input=("-ss", "5"), post=("-c", "copy")),
    "audio_short": Recipe("audio_short", audio=20.0),
    # 2 s of footage dropped (frames 300-359 never written; the timestamps keep the hole)
    "gap": Recipe("gap", encode=("-vf", "select='not(between(n\\,300\\,359))'",
                                 "-fps_mode", "passthrough", *X264)),
    # the audio track has a 1 s hole at 5 s (Matroska keeps each block's timestamp)
    "audio_gap": Recipe("audio_gap", ext="mkv", audio=30.0,
                        audio_filter="aselect='not(between(t\\,5\\,6))'"),
    "scan": Recipe("scan", script=Script(frames=1800, frozen=(300, 420), black=(600, 690),
                                         cut=1200)),
}


def build_lavfi(name: str, args: tuple[str, ...], ext: str = "mp4") -> Path:
    """A file made by ffmpeg from its own sources (lavfi: testsrc2, ...) with `args` between
    `ffmpeg` and the output, cached by the arguments: content other than `draw_frame`'s."""
    key = hashlib.sha256(json.dumps([name, args, ext]).encode()).hexdigest()[:12]
    out = cache_dir() / f"{name}-{key}.{ext}"
    return cachelock.made(out, lambda tmp: _ffmpeg([*args, str(tmp)]))


# A capture of a frozen screen at a constant rate with a keyframe every 2 s (OBS's default):
# testsrc2 with frames 150-269 (5-9 s) all showing frame 150; keyframes at 6 s and 8 s recode
# the held picture (issue 12 QA, session 5: the freeze was split and missed).
CAPTURE_FREEZE = ("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=14",
                  "-vf", "select='lte(n\\,150)+gte(n\\,270)',"
                  "loop=loop=119:size=1:start=150,setpts=N/30/TB",
                  "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-bf", "2",
                  "-pix_fmt", "yuv420p")

# A still screen that lives (a game's idle sprite, a cursor): over still colour bars a 16x16
# square moves for 3 s, rests 3-9 s while a 6x6 spot beside it blinks every 0.5 s, then moves
# on (issue 12 QA, session 13: H.E.R.O.'s idle hero blinking was a `video.frozen` warning).
# `frozen`: the same footage with frames 90-269 all showing frame 90 (a freeze inserted into
# the still screen: the blink stops too), re-encoded. `gop`: the encoder's keyframe options.
def blink(gop: tuple[str, ...] = ("-g", "60"), frozen: bool = False) -> tuple[str, ...]:
    hold = ",select='lte(n\\,90)+gte(n\\,270)',loop=loop=179:size=1:start=90," \
        "setpts=N/30/TB" if frozen else ""
    return ("-f", "lavfi", "-i", "smptebars=s=320x240:r=30:d=12",
            "-f", "lavfi", "-i", "color=c=white:s=16x16:r=30:d=12",
            "-f", "lavfi", "-i", "color=c=yellow:s=6x6:r=30:d=12",
            "-filter_complex",
            "[0][1]overlay=y=150:x='if(lt(t,3),20+50*t,if(lt(t,9),170,170+50*(t-9)))'[a];"
            "[a][2]overlay=x=200:y=60:enable='lt(mod(t,1),0.5)'" + hold,
            "-c:v", "libx264", "-preset", "veryfast", *gop, "-bf", "2", "-pix_fmt", "yuv420p")


# Footage missing where the picture barely moves (as in a real Atari game: a 1.5 s hole whose
# ball moved a few pixels): a 24x24 square moves, holds still from 7 s (repeats stored), frames
# of 8-9.5 s are gone, and after the hole the square is 10 px further on.
STILL_THEN_GAP = ("-f", "lavfi", "-i", "color=c=0x203040:s=320x240:r=30:d=14",
                  "-f", "lavfi", "-i", "color=c=white:s=24x24:r=30:d=14",
                  "-filter_complex",
                  "[0][1]overlay=y=100:x='if(lt(t,7),20+mod(90*t,240),"
                  "if(lt(t,9.5),170,180+mod(90*(t-9.5),100)))',"
                  "select='not(between(t,8,9.499))'",
                  "-fps_mode", "passthrough", "-c:v", "libx264", "-preset", "veryfast",
                  "-g", "60", "-pix_fmt", "yuv420p")


@dataclass(frozen=True)
class BusyScene:
    """Content that changes a third of the picture every frame (diagonal stripes moving 4 px a
    frame, a bouncing disc, a sweeping bar, cells with pseudo-random check bits). `dropped`:
    source frames left out with their timestamps kept (a hole: the change across it saturates
    at 1.5x one frame's, issue 12 QA); `held`: frames [a, b) repeat frame a, then the scene
    goes on from a+1 (a pause; with `dropped` None the encoder drops the repeats, VFR)."""

    frames: int = 600
    dropped: tuple[int, int] | None = (300, 345)
    held: tuple[int, int] | None = None

    def picture(self, n: int) -> np.ndarray:
        if self.held and n >= self.held[0]:
            n = self.held[0] + max(0, n - self.held[1] + 1)
        y, x = np.mgrid[0:H, 0:W]
        r = ((x + y + 4 * n) // 12 % 2) * 120 + 60
        g = y * 255 // (H - 1)
        b = (x * 3 + n * 2) % 256
        img = np.stack([r, g, b], axis=-1).astype(np.uint8)
        per = 2 * (W - 60)
        px = (5 * n) % per
        cx = 30 + (px if px < W - 60 else per - px)
        cy = int(H * 0.3 + H * 0.15 * np.sin(n / 9.0))
        img[(x - cx) ** 2 + (y - cy) ** 2 < 24 ** 2] = (255, 240, 0)
        bx = (3 * n) % W
        img[:int(0.55 * H), bx:bx + 4] = 255
        band = img[int(0.60 * H):int(0.94 * H)]  # a black band, cells: n and 8 check bits
        band[:] = 0
        code = n | (((n * 149 + 83) ^ (n >> 8) * 37) & 0xFF) << 16
        for bit in range(24):
            if code >> bit & 1:
                row, col = divmod(bit, 12)
                band[4 + row * 40:36 + row * 40, 13 + col * 24:33 + col * 24] = 255
        return img


def build_busy(scene: BusyScene = BusyScene()) -> Path:
    """`scene` at 30 fps in Matroska: its dropped frames' timestamps kept (a hole), or, with
    nothing dropped, repeated frames dropped by the encoder (mpdecimate, VFR)."""
    if scene.dropped:
        a, b = scene.dropped
        shape = ["-vf", f"select='not(between(n\\,{a}\\,{b - 1}))'", "-fps_mode", "passthrough"]
    else:
        shape = ["-vf", "mpdecimate=hi=1:lo=1:frac=0", "-fps_mode", "vfr"]
    key = hashlib.sha256((repr(scene) + " v1").encode()).hexdigest()[:12]
    out = cache_dir() / f"busy-{key}.mkv"
    return cachelock.made(out, lambda tmp: _ffmpeg(
        ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{W}x{H}", "-r", "30", "-i", "-",
         *shape, "-c:v", "libx264", "-preset", "veryfast", "-g", "60",
         "-pix_fmt", "yuv420p", "-f", "matroska", str(tmp)], scene))  # type: ignore[arg-type]

@dataclass(frozen=True)
class _BusyCut:
    """`BusyScene` (nothing dropped) whose upper half, from frame `cut` on, shows the same
    busy scene shifted by a third of its height and half its width: a hard cut to another view
    of content that changes a third of the picture every frame. Its motion energy is only
    ~1.6x the local level (saturated), under the 3x of a motion-peak cut (issue 12 QA)."""

    frames: int = 600
    cut: int = 300

    def picture(self, n: int) -> np.ndarray:
        img = BusyScene(dropped=None).picture(n)
        if n >= self.cut:
            h = H // 2
            img[:h] = np.roll(img[:h], (h // 3, W // 2), axis=(0, 1))
        return img


def build_busy_cut() -> Path:
    """`_BusyCut` at 30 fps in Matroska, every frame kept: the cut is at 10.0 s."""
    scene = _BusyCut()
    key = hashlib.sha256((repr(scene) + " v1").encode()).hexdigest()[:12]
    out = cache_dir() / f"busy_cut-{key}.mkv"
    return cachelock.made(out, lambda tmp: _ffmpeg(
        ["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{W}x{H}", "-r", "30", "-i", "-",
         "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-pix_fmt", "yuv420p",
         "-f", "matroska", str(tmp)], scene))  # type: ignore[arg-type]


# An honest VFR recording of a small sprite (as in an Atari game: a ball a few pixels wide)
# whose encoder drops exact repeats: a 3x3 square moves 1 px every 3 frames, then rests for
# 1.5 s of every 3 s; the rests and the frames between its steps are not written (holes).
# At the scan's resolution its moving frames are "the same picture" as a freeze's, but they
# are not stored repeats (issue 12 QA, session 5: each rest was reported as missing footage).
SPRITE_VFR = ("-f", "lavfi", "-i", "color=c=0x203040:s=320x240:r=30:d=12",
              "-f", "lavfi", "-i", "color=c=white:s=3x3:r=30:d=12",
              "-filter_complex",
              "[0][1]overlay=y=120:x='20+floor(10*min(mod(t,3),1.5))+15*floor(t/3)',"
              "mpdecimate=hi=64:lo=64:frac=0",
              "-fps_mode", "vfr", "-c:v", "libx264", "-preset", "veryfast", "-g", "60",
              "-pix_fmt", "yuv420p")

# A recording whose frame rate changes mid-stream: every second frame of a 60 fps source for
# 6 s (30 fps), then every frame (60 fps), timestamps kept as they are.
RATE_CHANGE = ("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=60:duration=10",
               "-vf", "select='gte(t\\,6)+not(mod(n\\,2))'",
               "-fps_mode", "passthrough", "-c:v", "libx264", "-preset", "veryfast",
               "-g", "60", "-pix_fmt", "yuv420p")

# A VP9 WebM whose frame rate changes every 3 s (60, 30, 20 fps in turn: every 2nd, 4th, 6th
# frame of a 120 fps source, timestamps kept, millisecond timestamps: 16/17 ms jitter), 11
# changes in 36 s (issue 12: fixed 2 s windows reported the 5 on a window's edge).
RATE_STEPS = ("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=120:duration=36",
              "-vf", "select='not(mod(n\\,if(eq(mod(floor(t/3)\\,3)\\,0)\\,2\\,"
              "if(eq(mod(floor(t/3)\\,3)\\,1)\\,4\\,6))))'",
              "-fps_mode", "passthrough", "-c:v", "libvpx-vp9", "-deadline", "realtime",
              "-cpu-used", "8", "-g", "60", "-pix_fmt", "yuv420p")

# An OBS-like capture at a constant 60 fps: each timestamp jittered by up to +-2 ms (a sine of
# the frame number: the same file every time), one frame in 37 dropped under load, Matroska's
# millisecond timestamps. No rate changes.
OBS_JITTER = ("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=60:duration=20",
              "-vf", "select='not(eq(mod(n\\,37)\\,36))',settb=1/1000,"
              "setpts='(T+0.002*sin(N*2.7))/TB'",
              "-fps_mode", "passthrough", "-enc_time_base:v", "1:1000", "-c:v", "libx264", "-preset", "veryfast",
              "-g", "120", "-pix_fmt", "yuv420p")

# A capture whose timestamps jitter by +-30 % of its frame interval (a sine of the frame number:
# the same file every time; Matroska's millisecond timestamps), at 30 fps for 5 s then 60 fps
# (a real rate change at 5.0 s), and the same capture at a steady 60 fps (no change).
JITTER_RATE = ("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=60:duration=10",
               "-vf", "select='gte(t\\,5)+not(mod(n\\,2))',settb=1/1000,"
               "setpts='(T+if(lt(T\\,5)\\,0.010\\,0.005)*sin(N*2.7))/TB'",
               "-fps_mode", "passthrough", "-enc_time_base:v", "1:1000", "-c:v", "libx264",
               "-preset", "veryfast", "-g", "120", "-pix_fmt", "yuv420p")
JITTER_STEADY = ("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=60:duration=10",
                 "-vf", "settb=1/1000,setpts='(T+0.005*sin(N*2.7))/TB'",
                 "-fps_mode", "passthrough", "-enc_time_base:v", "1:1000", "-c:v", "libx264",
                 "-preset", "veryfast", "-g", "120", "-pix_fmt", "yuv420p")

# An honest VFR recording (exact repeats dropped) whose sprite steps every second frame, or
# every frame, with pauses: windows of irregular intervals whose median follows the content
# (as a real VFR Pitfall recording's: ten false frame-rate changes, issue 12 QA, session 5).
STEPS_VFR = ("-f", "lavfi", "-i", "color=c=0x203040:s=320x240:r=60:d=16",
             "-f", "lavfi", "-i", "color=c=white:s=16x16:r=60:d=16",
             "-filter_complex",
             "[0][1]overlay=y=100:x='if(lt(mod(t\\,4)\\,2.5)\\,20+floor(n/2)+floor(n/7)\\,"
             "20+floor(n/7))',mpdecimate=hi=64:lo=64:frac=0",
             "-fps_mode", "vfr", "-c:v", "libx264", "-preset", "veryfast", "-g", "120",
             "-pix_fmt", "yuv420p")


# A game's full-screen flashes (Bank Heist, QA s14 G9: bursts of 4 flashes 0.25 s apart, each
# the whole picture brightened at once and fading back over a few frames: 28 `video.cut`
# candidates on an honest 40 s run), 30 fps: a dark scene with a sprite, two bursts of 4
# flashes (frames 120-151 and 272-303, every 8 frames), a hard cut to testsrc2 at 14.0 s
# (frame 420), and a splice hidden behind a dip to white at 17.0 s (frame 510: white for 3
# frames, smptebars behind it from 17.033 s, fading in over 3 frames): the picture after
# that flash is not the one before it.
FLASHES = ("-f", "lavfi", "-i", "color=c=0x303848:s=320x240:r=30:d=20",
           "-f", "lavfi", "-i", "color=c=white:s=16x16:r=30:d=20",
           "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=20",
           "-f", "lavfi", "-i", "smptebars=s=320x240:r=30:d=20",
           "-filter_complex",
           "[0][1]overlay=y=100:x='20+mod(60*t\\,280)'[a];"
           "[a][2]overlay=enable='gte(t\\,13.99)'[b];"
           "[b][3]overlay=enable='gte(t\\,17.02)',"
           "eq=eval=frame:brightness='if(between(n\\,120\\,151)+between(n\\,272\\,303)\\,"
           "0.35*max(0\\,1-mod(n\\,8)/3)\\,"
           "if(between(n\\,510\\,512)\\,1\\,if(between(n\\,513\\,515)\\,"
           "(516-n)*0.3\\,0)))'",
           "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-pix_fmt", "yuv420p")


# A recorder that drops repeated frames (mpdecimate: the sprite rests 3 frames at 2, 7, 12 and
# 17 s) and halves its rate at 10 s (every 2nd frame of the 60 fps source from then on), to
# the end (`back` None) or back to 60 fps at `back` s (a game drawing every 2nd frame for a
# while, as Space Invaders does).
def drop_rate_fall(back: float | None = None) -> tuple[str, ...]:
    until = f"+gte(t\\,{back})" if back is not None else ""
    return ("-f", "lavfi", "-i", "color=c=0x203040:s=320x240:r=60:d=20",
            "-f", "lavfi", "-i", "color=c=white:s=16x16:r=60:d=20",
            "-filter_complex",
            "[0][1]overlay=y=100:x='if(between(mod(t\\,5)\\,2\\,2.05)\\,100\\,"
            "20+mod(2*n\\,280))',"
            f"select='lt(t\\,10){until}+not(mod(n\\,2))',mpdecimate=hi=64:lo=64:frac=0",
            "-fps_mode", "vfr", "-c:v", "libx264", "-preset", "veryfast", "-g", "120",
            "-pix_fmt", "yuv420p")


def build_joined_ts(parts: tuple[tuple[int, float], ...] = ((300, 0.0), (300, 2.0)),
                    sound: tuple[str, ...] | None = None) -> Path:
    """MPEG-TS captures appended byte for byte (what a capture tool that restarts, or `cat`,
    leaves): part k holds the next `frames` source frames (`draw_frame` numbers run on across
    the parts) with its timestamps starting `start` s after the first part's. A later part
    starting before the previous one ends restarts the timestamps earlier (the default: the
    second capture's first 8 s share the first's timestamps, issue 12 QA). `sound`: each part
    also records a 440 Hz tone as long as its picture, through that part's audio filter
    (`anull`: as it is)."""
    key = hashlib.sha256(json.dumps([parts, "joined v1", *(sound or ())]).encode()
                         ).hexdigest()[:12]
    out = cache_dir() / f"joined-{key}.ts"

    def make(tmp: Path) -> None:
        first = 0
        with open(tmp, "wb") as joined:
            for k, (frames, start) in enumerate(parts):
                piece = tmp.with_name(f"{tmp.stem}.{k}.ts")
                tone = [] if sound is None else [
                    "-f", "lavfi", "-i", f"sine=frequency=440:sample_rate=48000:duration="
                    f"{frames / 30}", "-af", sound[k], "-c:a", "aac", "-b:a", "64k"]
                _ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{W}x{H}", "-r", "30",
                         "-i", "-", *tone, *X264, "-output_ts_offset", str(start),
                         "-f", "mpegts", str(piece)], _Shifted(frames, first))  # type: ignore[arg-type]
                joined.write(piece.read_bytes())
                piece.unlink()
                first += frames
    return cachelock.made(out, make)


@dataclass(frozen=True)
class _Shifted:
    """`frames` pictures of `draw_frame`, numbered from `first` (one part of a joined file)."""

    frames: int
    first: int

    def picture(self, n: int) -> np.ndarray:
        return draw_frame(self.first + n)


def ffmpeg_truth(path: Path, stream: str = "v:0") -> tuple[list[int], list[float]]:
    """The frame numbers ffmpeg shows, in its output order, and their best-effort timestamps
    from the first one (video time starts at the first frame shown); `stream`: which video
    stream (an ffprobe specifier: "3" is the stream of index 3). Pictures are scaled back to
    the drawn size, so a recording made at another size (H.263's CIF, DV's 720x576) reads."""
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(path), "-map",
                          f"0:{stream}", "-fps_mode", "passthrough", "-vf", f"scale={W}:{H}",
                          "-pix_fmt", "gray", "-f", "rawvideo", "-"],
                         capture_output=True, check=True).stdout
    codes = [read_code(img) for img in np.frombuffer(raw, np.uint8).reshape(-1, H, W)]
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", stream, "-show_entries",
                          "frame=best_effort_timestamp_time", "-of", "json", str(path)],
                         capture_output=True, check=True, text=True).stdout
    ts = [float(f.get("best_effort_timestamp_time", "nan")) for f in json.loads(out)["frames"]]
    if ts and all(np.isnan(ts)):
        # an elementary stream with no times at all (raw H.264, HEVC): ffmpeg writes its
        # frames one frame of the stream's rate apart (25 fps unless told), from 0
        rate = subprocess.run(["ffprobe", "-v", "error", "-select_streams", stream,
                               "-show_entries", "stream=r_frame_rate", "-of", "csv=p=0",
                               str(path)], capture_output=True, check=True, text=True).stdout
        ts = [i / float(Fraction(rate.strip())) for i in range(len(ts))]
    # the last frame of an AVI with B-frames comes out of the decoder's flush with no
    # timestamp at all: one frame interval after the one before it, where ffmpeg writes it
    step = float(np.nanmedian(np.diff(ts)))
    for i in range(1, len(ts)):
        ts[i] = ts[i - 1] + step if np.isnan(ts[i]) else ts[i]
    assert not np.isnan(ts[0])
    return codes, [t - ts[0] for t in ts]


def pictures_at_moments(path: Path, stream: str, count: int, seed: int):
    """The product's probe of `path` and, at `count` moments drawn with `seed`, the codes of
    the pictures the player's core path reads (`got`, None where it has no frame) and of the
    frames ffmpeg shows there (`want`): equal lists mean 0 frames of error. Also ffmpeg's
    `codes` and the `moments` (video time), for further checks."""
    import random
    from bisect import bisect_right

    from moderator_app.core.video.export import frame_for_time, read_frames
    from moderator_app.core.video.probe import probe_video

    p = probe_video(path, path.name)
    assert p.ok and p.index is not None, [f.message for f in p.findings]
    codes, times = ffmpeg_truth(path, stream)
    rng = random.Random(seed)
    moments = [rng.uniform(0, p.index.duration_s) for _ in range(count)]
    frames = [frame_for_time(p.index, t, None) for t in moments]
    assert None not in frames
    got = [None if img is None else read_code(img)
           for img in read_frames(path, p.index, frames)]
    want = [codes[bisect_right(times, t + 1e-6) - 1] for t in moments]
    return p, codes, moments, got, want


# -- spans without footage (tests/video/test_video_no_footage.py, the player's) --------------
_H264_BF2_G30 = ["-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-bf", "2",
                 "-pix_fmt", "yuv420p", "-threads", "1"]
JOINED_SIZES_WHY = ("video.joined_undecodable: recording 2 of the 2 joined in the file does not "
                    "decode from 2.000 s to 5.000 s (its own header says h264 400x300; played "
                    "as h264 320x240)")
GAP_7S_WHY = "video.footage_gap: no frame from 2.000 s to 9.000 s"


def unreadable_own_header(mkv: bytes) -> bytes:
    """An H.264 Matroska file whose header's PPS (in its CodecPrivate, `avcC`) is overwritten
    after its first byte: its SPS still names its size, but no picture decodes from it.
    Since session 27 a joined recording of another picture size is read from its own header
    (`joined_chain.own_read`); one whose header gives no picture is still played with the
    first's and refused (T6): the no-footage fixtures below keep their stretch so."""
    i = mkv.index(b"\x63\xa2")  # CodecPrivate, its size in one byte (0x80 | n)
    assert mkv[i + 2] & 0x80
    n = mkv[i + 2] & 0x7F
    avcc = bytearray(mkv[i + 3:i + 3 + n])
    at = 8 + int.from_bytes(avcc[6:8], "big")  # the PPS count, after the one SPS
    assert avcc[0] == 1 and avcc[5] & 0x1F == 1 and avcc[at] & 0x1F == 1
    pps = int.from_bytes(avcc[at + 1:at + 3], "big")
    avcc[at + 4:at + 3 + pps] = b"\xff" * (pps - 1)
    return mkv[:i + 3] + bytes(avcc) + mkv[i + 3 + n:]


def build_joined_sizes(d: Path) -> Path:
    """2 s of 320x240 H.264 MKV (drawn 0-59) + 3 s of the same padded to 400x300 (drawn
    0-89), joined byte for byte (QA s22 join_mkv_h264_25_res, small), the second's own
    header made unreadable (`unreadable_own_header`: refused, no footage 2.0-5.0 s)."""
    a = encode(d / "a.mkv", [*_H264_BF2_G30, "-f", "matroska"], frames=60)
    b = encode(d / "b.mkv", ["-vf", "pad=400:300:0:0", *_H264_BF2_G30, "-f", "matroska"],
               frames=90)
    out = d / "joined.mkv"
    out.write_bytes(a.read_bytes() + unreadable_own_header(b.read_bytes()))
    return out


def build_gap_7s(d: Path) -> Path:
    """10 s at 30 fps with frames 60-269 never written: drawn 0-59, then 270-299 at 9.0 s."""
    return encode(d / "gap.mp4", ["-vf", "select='not(between(n\\,60\\,269))'",
                                  "-fps_mode", "passthrough", *_H264_BF2_G30], frames=300)


_H264_UF = ["-c:v", "libx264", "-preset", "ultrafast", "-bf", "2", "-g", "30",
            "-pix_fmt", "yuv420p", "-threads", "1"]


def build_gap_tone(d: Path) -> Path:
    """320x240 H.264 MKV at 10 fps, frames 0-19 at 0.0-1.9 s and 20-39 at 8.0-9.9 s (no frame
    from 2.0 to 8.0 s: a footage gap), over a 440 Hz tone (PCM: what the player is fed is the
    tone to the sample) that does not stop in the gap (session 23)."""
    out = d / "gap_tone.mkv"
    _ffmpeg(["-f", "lavfi", "-i", "testsrc=s=320x240:r=10", "-f", "lavfi", "-i",
             "sine=frequency=440:sample_rate=48000:duration=10", "-frames:v", "40", "-vf",
             "setpts='if(gte(N,20),N+60,N)'", "-fps_mode", "passthrough", *_H264_UF,
             "-c:a", "pcm_s16le", "-f", "matroska", str(out)])
    return out


def build_gap_and_join(d: Path) -> Path:
    """A footage gap and a joined recording that does not decode (session 23):
    `build_gap_tone` (no frame from 2.0 to 8.0 s), then 3 s of 400x300 over a 660 Hz tone
    appended byte for byte, its own header made unreadable (`unreadable_own_header`: played
    with the first header, no footage from 10.0 to 13.0 s)."""
    b = d / "b.mkv"
    _ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=400x300:r=10", "-f", "lavfi", "-i",
             "sine=frequency=660:sample_rate=48000:duration=3", "-frames:v", "30", *_H264_UF,
             "-c:a", "pcm_s16le", "-f", "matroska", str(b)])
    out = d / "gap_join.mkv"
    out.write_bytes(build_gap_tone(d).read_bytes() + unreadable_own_header(b.read_bytes()))
    return out


def build_two_tones_joined(d: Path) -> Path:
    """Two recordings that both decode, joined byte for byte (session 24): `build_gap_tone`
    (frames at 0.0-1.9 and 8.0-9.9 s over a 440 Hz tone that ends at 9.32 s, where ffmpeg
    stopped its sound) then 3 s of the same 320x240 H.264 at 10 fps over a 660 Hz tone (video
    10.0-13.0 s), both with PCM sound, so the tone heard tells the recording."""
    b = d / "b660.mkv"
    _ffmpeg(["-f", "lavfi", "-i", "testsrc=s=320x240:r=10", "-f", "lavfi", "-i",
             "sine=frequency=660:sample_rate=48000:duration=3", "-frames:v", "30", *_H264_UF,
             "-c:a", "pcm_s16le", "-f", "matroska", str(b)])
    out = d / "two_tones.mkv"
    out.write_bytes(build_gap_tone(d).read_bytes() + b.read_bytes())
    return out


def build_black_in_join(d: Path) -> Path:
    """1 s of 320x240 testsrc2 then 1 s of black (H.264 MKV), and a recording of 400x300
    (1 s of testsrc2, 2 s of black) appended byte for byte: played with the first header it
    gives no footage from 2.0 to 5.0 s, and its black pictures at 3.0-5.0 s are none
    (session 23: the scan's picture findings inside a span without footage). Its own header
    made unreadable (`unreadable_own_header`), so that it is still played with the first's."""
    a, b = d / "a.mkv", d / "b.mkv"
    for out, size, black_s in ((a, "320x240", 1), (b, "400x300", 2)):
        _ffmpeg(["-f", "lavfi", "-i", f"testsrc2=s={size}:r=30:d=1", "-f", "lavfi", "-i",
                 f"color=black:s={size}:r=30:d={black_s}", "-filter_complex",
                 "[0:v][1:v]concat=n=2:v=1[o]", "-map", "[o]", *_H264_UF, "-f", "matroska",
                 str(out)])
    out = d / "black_join.mkv"
    out.write_bytes(a.read_bytes() + unreadable_own_header(b.read_bytes()))
    return out


def moved_on(data: bytes, ticks: int | None = None, seconds: float | None = None) -> bytes:
    """A fragmented MP4 with every fragment's decode time (`tfdt`, version 1) moved on, as a
    recorder whose clock started earlier writes it (ffmpeg's `-output_ts_offset` does not move
    an `empty_moov` file's times): by `ticks` of every track's clock, or by `seconds`, each
    track's own ticks (its `mdhd` timescale: 15360 a second for 30 fps video, 48000 for
    48 kHz sound)."""
    b = bytearray(data)

    def boxes(lo: int, hi: int):
        while lo + 8 <= hi:
            n, kind = struct.unpack(">I4s", b[lo:lo + 8])
            yield lo, n, kind
            lo += n

    scales: dict[int, int] = {}
    for at, n, kind in boxes(0, len(b)):
        for t, tn, tk in (boxes(at + 8, at + n) if kind == b"moov" else ()):
            if tk != b"trak":
                continue
            track = scale = None
            for c, cn, ck in boxes(t + 8, t + tn):
                if ck == b"tkhd":
                    track = struct.unpack(">I", b[c + 28:c + 32] if b[c + 8] == 1
                                          else b[c + 20:c + 24])[0]
                if ck == b"mdia":
                    for m, _, mk in boxes(c + 8, c + cn):
                        if mk == b"mdhd":
                            scale = struct.unpack(">I", b[m + 28:m + 32] if b[m + 8] == 1
                                                  else b[m + 20:m + 24])[0]
            if track is not None and scale:
                scales[track] = scale
    for at, n, kind in boxes(0, len(b)):
        for t, tn, tk in (boxes(at + 8, at + n) if kind == b"moof" else ()):
            if tk != b"traf":
                continue
            track = None
            for f, _, fk in boxes(t + 8, t + tn):
                if fk == b"tfhd":
                    track = struct.unpack(">I", b[f + 12:f + 16])[0]
                if fk == b"tfdt" and b[f + 8] == 1:
                    by = ticks if seconds is None else \
                        int(round(seconds * scales.get(track or 0, 0)))
                    v = struct.unpack(">Q", b[f + 12:f + 20])[0]
                    b[f + 12:f + 20] = struct.pack(">Q", v + int(by or 0))
    return bytes(b)
