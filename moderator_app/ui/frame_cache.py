"""The exact frames the player already has in the workstation's process (issue 11 point 8).

Every exact frame that came from the isolated decoder (a selection's, a step's, each frame
of a playback stream, each frame a warm-up decoded while the moderator read: the neighbouring
events and findings) is kept here, as it came: fitted to the view's size at the time, in
the pixels the view paints. Going back to one of them (the event that was current while
playing, a finding looked at before, a step back after a pause) shows it at once, on the
GUI thread, with no request to the decoder: no seek, no decode of its group of pictures,
no pipe, no thread hop. Before, such a selection cost what any other did: 202 ms median on
the 1080p60 bench file at load 8-9 (session 15), all of it a decode of up to 120 frames
the decoder had already decoded seconds earlier.

A frame is known by its number and the size it was fitted to (`FrameWorker._size`): after
the view changes size the frames kept are not used (they would be painted scaled), and
they age out. Keyframe previews (dragging) are never kept: they are not the exact frame.

Two pools, each bounded by bytes, least recently used out first: the frames sent ahead (a
playback stream's and a warm-up's: `played`) and the frames asked for one by one
(selections, steps). A play
sends 60 frames a second, and in one pool it pushed out every selection within seconds;
going back to a finding looked at before is as likely as going back to what just played.
`POOL_BYTES` holds 42 frames of a 1080p video in the 1920x1080 window's view (834x468, 4
bytes a pixel: 0.7 s at 60 fps) and 107 of a 720p one in the 1280x720 window's (526x296:
3.6 s at 30 fps), per pool.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict

from PySide6.QtGui import QImage

POOL_BYTES = 64 << 20

#: The pixels the player asks the decoder for: Qt's `Format_RGB32` (0xffRRGGBB words) in
#: this machine's byte order, which the scaler writes for less CPU than RGB24 and Qt paints
#: as it is (`pixels.to_rgb`).
PLAYER_PIXELS = "bgra" if sys.byteorder == "little" else "argb"


def frame_qimage(data: bytes, w: int, h: int) -> QImage:
    """A frame in `PLAYER_PIXELS` -> a QImage that owns its pixels (safe across threads);
    ValueError when the bytes are not a whole w x h frame (a malformed answer)."""
    if len(data) != w * h * 4:
        raise ValueError("not a whole frame")
    return QImage(data, w, h, 4 * w, QImage.Format.Format_RGB32).copy()

Size = tuple[int | None, int | None]  # the fitted size asked for (None, None: as stored)


class _Pool:
    """Frames by (number, fitted size), least recently used out first past `max_bytes`."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.frames: OrderedDict[tuple[int, Size], QImage] = OrderedDict()
        self.bytes = 0

    def put(self, key: tuple[int, Size], image: QImage) -> None:
        cost = image.sizeInBytes()
        if image.isNull() or cost > self.max_bytes:
            return
        self.drop(key)
        self.frames[key] = image
        self.bytes += cost
        while self.bytes > self.max_bytes:
            _, gone = self.frames.popitem(last=False)
            self.bytes -= gone.sizeInBytes()

    def drop(self, key: tuple[int, Size]) -> None:
        old = self.frames.pop(key, None)
        if old is not None:
            self.bytes -= old.sizeInBytes()


class FrameCache:
    """Exact frames by (number, fitted size), in two pools (played, asked for). Thread-safe:
    the frame worker puts, the GUI thread gets."""

    def __init__(self, pool_bytes: int = POOL_BYTES) -> None:
        self._played = _Pool(pool_bytes)
        self._asked = _Pool(pool_bytes)
        self._lock = threading.Lock()
        self.hits = 0  # frames served from here (tests, the bench)

    def put(self, n: int, size: Size, image: QImage, played: bool = False) -> None:
        """Keep exact frame `n`, fitted to `size` (as it was asked for); `played`: sent by a
        playback stream (its own pool)."""
        with self._lock:
            (self._played if played else self._asked).put((int(n), size), image)

    def get(self, n: int, size: Size) -> QImage | None:
        """Exact frame `n` fitted to `size`, or None when it is not kept. A played frame
        that is asked for again moves to the pool of frames asked for."""
        key = (int(n), size)
        with self._lock:
            image = self._asked.frames.get(key)
            if image is not None:
                self._asked.frames.move_to_end(key)
            else:
                image = self._played.frames.get(key)
                if image is None:
                    return None
                self._played.drop(key)
                self._asked.put(key, image)
            self.hits += 1
            return image

    def __len__(self) -> int:
        with self._lock:
            return len(self._played.frames) + len(self._asked.frames)

    def clear(self) -> None:
        with self._lock:
            for pool in (self._played, self._asked):
                pool.frames.clear()
                pool.bytes = 0
