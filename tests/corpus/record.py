"""The "recorder": which emulator frames a capture keeps and how it encodes them.

The first five games each have one recorder (60 or 30 fps, nearest-neighbour upscale, H.264 CRF
20 in MP4). The held-out set (`heldout`) adds recorders the analysis was never tuned on: rates
that do not divide 60 (50, 25 fps), a recorder that misses frames (repeats the previous one, as
screen recorders do under load), bilinear upscaling, letterboxing, a low quality (CRF 32), a
longer lead-in, variable frame rate (duplicate frames dropped, timestamps kept) and MKV/WebM.
"""

from __future__ import annotations

import random
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

EMU_HZ = 60


@dataclass(frozen=True)
class Recorder:
    fps: int = 60
    scale: int = 1
    flags: str = "neighbor"            # ffmpeg's scaler: neighbor, bilinear
    pad: tuple[int, int] | None = None  # letterboxed into (width, height), picture centred
    crf: int = 20
    container: str = "mp4"             # mp4, mkv (H.264), webm (VP9)
    drop: float = 0.0                  # share of captured frames missed (previous one repeated)
    vfr: bool = False                  # duplicate frames not written (timestamps kept)
    lead_s: float | None = None        # the recorder started this long before run_start

    @property
    def video_name(self) -> str:
        return f"video.{self.container}"


def keep(n_frames: int, rec: Recorder, seed: str) -> np.ndarray:
    """Index of the emulator frame each captured frame shows: frame i is taken at i / fps, so
    it shows the emulator frame on screen then (floor); a missed capture repeats the last one."""
    idx = np.floor(np.arange(-(-n_frames * rec.fps // EMU_HZ)) * EMU_HZ / rec.fps).astype(int)
    if rec.drop:
        rng = random.Random(seed)
        for i in range(1, len(idx)):
            if rng.random() < rec.drop:
                idx[i] = idx[i - 1]
    return idx


def encode(frames: np.ndarray, folder: Path, rec: Recorder) -> Path:
    """Write `frames` (captured at rec.fps) as the recorder would; return the video's path."""
    h, w = frames.shape[1:3]
    path = folder / rec.video_name
    fps = rec.fps
    cmd = ["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
           "rgb24", "-s", f"{w}x{h}", "-r", str(fps), "-i", "-"]
    vf = []
    if rec.vfr:  # exact repeats only (a whole frame within 1 level per pixel)
        vf.append("mpdecimate=hi=64:lo=64:frac=0")
    if rec.scale != 1:
        vf.append(f"scale={w * rec.scale}:{h * rec.scale}:flags={rec.flags}")
    if rec.pad:
        pw, ph = rec.pad
        vf.append(f"pad={pw}:{ph}:(ow-iw)/2:(oh-ih)/2:black")
    if vf:
        cmd += ["-vf", ",".join(vf)]
    if rec.vfr:
        cmd += ["-fps_mode", "vfr"]
    if rec.container == "webm":
        cmd += ["-c:v", "libvpx-vp9", "-b:v", "0", "-crf", str(rec.crf + 12), "-deadline",
                "realtime", "-cpu-used", "8", "-row-mt", "1", "-pix_fmt", "yuv420p",
                "-g", str(2 * fps)]
    else:
        cmd += ["-c:v", "libx264", "-preset", "veryfast", "-crf", str(rec.crf), "-pix_fmt",
                "yuv420p", "-g", str(2 * fps)]
    if rec.container == "mp4":
        cmd += ["-movflags", "+faststart"]
    cmd.append(str(path))
    subprocess.run(cmd, input=np.ascontiguousarray(frames).tobytes(), check=True)
    return path


def size(frames: np.ndarray, rec: Recorder) -> list[int]:
    """The video's picture size (width, height)."""
    if rec.pad:
        return list(rec.pad)
    return [frames.shape[2] * rec.scale, frames.shape[1] * rec.scale]
