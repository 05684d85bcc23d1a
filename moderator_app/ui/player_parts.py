"""The player's working parts: the frame worker thread that owns the isolated decoder, the
player's clock (`PlayerTimes`) and File > Save frame; the painted frame view is in
frame_view.py, the background scan and the ending of threads in player_threads.py.

Apart from `video_player.py`, which holds the widget, its playback and its seeking, and
`player_controls.py`, its buttons and their layout: these parts have no controls and are
driven by it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from bisect import bisect_right
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QWidget

from moderator_app.core.video.export import frame_for_time, no_footage_reason, no_footage_spans
from moderator_app.core.video.index import FrameIndex
from moderator_app.core.video.isolate import VideoProcess, VideoProcessError
from moderator_app.core.video.probe import NoFootage
from moderator_app.core.video.trace import trace
from moderator_app.ui.frame_cache import PLAYER_PIXELS, FrameCache, frame_qimage
from moderator_app.ui.timefmt import format_timecode

if TYPE_CHECKING:
    from moderator_app.ui.video_player import VideoPlayer

MAX_DISPLAY_WIDTH = 1920
SPEEDS = (0.25, 0.5, 1.0, 1.5, 2.0, 4.0)
NO_FOOTAGE = "no footage at this time"
BACK_STEP_CACHE = 48
WARM_TIMEOUT_S = 600.0
# An interrupted warm-up gives up at its next decoded frame (one frame of a niced thread); one
# that has not answered this long after the first interrupt is ended (`_warm_wait`)
WARM_GIVE_UP_S = 5.0


class PlayerTimes:
    """The player's view of the frame index (the API the window and the tools use).

    `frame_at(t)` is the nearest frame clamped to the video (for tools that need a frame);
    `footage_at(t)` is the frame on screen at `t`, or None where there is no footage (outside
    the video, in a footage gap, in a span the probe declares without footage: `no_footage`);
    `why_none(t)` says why, as `moderator-app frame` does."""

    def __init__(self, index: FrameIndex, no_footage: tuple[NoFootage, ...] = ()) -> None:
        self.index = index
        self.no_footage = no_footage
        self.complete = True
        self.frame_count = index.frame_count
        self.duration = index.duration_s

    def __len__(self) -> int:
        return self.frame_count

    def time_of(self, n: int) -> float:
        return self.index.time_of(min(max(n, 0), self.frame_count - 1))

    def is_exact(self, n: int) -> bool:
        return 0 <= n < self.frame_count

    def frame_duration_at(self, n: int) -> float:
        return self.index.duration_of(min(max(n, 0), self.frame_count - 1))

    def footage_at(self, t: float) -> int | None:
        return frame_for_time(self.index, t, no_footage=self.no_footage)

    def why_none(self, t: float) -> str | None:
        return no_footage_reason(self.index, t, no_footage=self.no_footage)

    def silent_spans(self) -> tuple[tuple[float, float], ...]:
        """Where `footage_at` gives no frame, as spans of video time: the sound is silent
        there (the player's `AudioFeeder`), as the picture is."""
        return no_footage_spans(self.index, no_footage=self.no_footage)

    def shows(self, n: int) -> bool:
        """Whether frame `n` is footage (not a frame of a span without footage: a joined
        recording decoded with another's parameters is a smear, never shown)."""
        return self.why_none(self.time_of(n)) is None

    def frame_at(self, t: float) -> int:
        n = self.footage_at(t)
        if n is not None:
            return n
        if t <= 0:
            return 0
        i = bisect_right(self.index.times_s, t + 1e-6) - 1
        return min(max(i, 0), self.frame_count - 1)

    def keyframe_frame(self, n: int) -> int:
        """The frame number of the keyframe at or before frame `n` (cheap to decode)."""
        return self.index.keyframe_index(n)


class FrameWorker(QObject):
    """Serves frame requests in its own thread from the isolated decoder. Only the newest
    request is served. When idle (paused, nothing pending), it has the decoder warm up the
    frames it was hinted (`hint`: the neighbouring events and findings), so that going there
    next is served from the decoder's cache; a request made meanwhile interrupts the warm-up
    at its next decoded frame (`VideoProcess.interrupt`)."""

    frame_ready = Signal(int, QImage)
    preview_ready = Signal(int, QImage)
    error = Signal(str)
    _wake = Signal()

    def __init__(self, path: Path, index: FrameIndex) -> None:
        super().__init__()
        self.path = path
        self.index = index
        self.proc: VideoProcess | None = None
        self._index_sent = False
        # The decoder process is taken now, on the GUI thread, before the audio track and
        # the scan take theirs: the one started ahead while the submission was verified
        # (`MainWindow.open_paths`), so the first picture costs an open and a decode, not a
        # process start and the imports. A failure here is reported by the first request.
        with contextlib.suppress(VideoProcessError):
            self.proc = VideoProcess(path, timeout_s=30.0)
        self._lock = threading.Lock()
        self._pending: tuple | None = None
        # the view's size in device pixels (set by the GUI thread): frames come fitted to it
        self.max_size = (MAX_DISPLAY_WIDTH, MAX_DISPLAY_WIDTH)
        self.playing = False  # set by the GUI thread: no warm-up while playing
        # Playback (`start_play`): the stream the GUI asked for, its generation (a new one
        # for every play, seek while playing, speed change and pause), the frames streamed
        # ahead of the clock by number (`take`), and the wall time the stream's clock
        # started at (its first frame's). All under the lock.
        self._play: dict | None = None
        self._play_gen = 0
        self._ring: dict[int, QImage] = {}
        self._anchor: float | None = None
        self.streamed = 0  # frames received from playback streams (tests, the bench)
        self.failures = 0
        self._hints: list[int] = []
        self._warming = False
        self._warm_gen = 0  # the generation of the last warm-up (its interrupts name it)
        self._halted = False
        self.warmed: list[int] = []  # the frames the last warm-up left decoded (tests)
        self.last_decoded = 0  # frames the decoder decoded for the last frame served (tests)
        # every exact frame received, by number and fitted size: shown again without a
        # request (`cached_frame`, ui/frame_cache.py)
        self.frames = FrameCache()
        self._asked: tuple = (None, None)  # the fitted size of the last frame request made
        self._wake.connect(self._serve, Qt.ConnectionType.QueuedConnection)

    def request_frame(self, n: int, cache_before: int = 2) -> None:
        """Thread-safe: ask for exact frame `n` (replaces any request not yet served)."""
        with self._lock:
            self._pending = ("frame", n, cache_before)
        trace("parent", f"request_frame {n} warming={self._warming}")
        self.interrupt_warm()
        self._wake.emit()

    def start_play(self, n: int, video0: float, speed: float, stride: int) -> None:
        """Thread-safe: stream frames from frame `n` on (every `stride`-th), the clock at video
        time `video0` when the first one is ready, running at `speed`. Replaces any stream:
        what the old one sent is dropped."""
        w, h = self._size()
        with self._lock:
            self._play = {"n": int(n), "video0": float(video0), "speed": float(speed),
                          "stride": max(1, int(stride)), "width": w, "height": h,
                          "pixels": PLAYER_PIXELS}
            self._play_gen += 1
            self._ring.clear()
            self._anchor = None
        self.interrupt_warm()
        self._wake.emit()

    def stop_play(self) -> None:
        """Thread-safe: end the stream (the worker then serves requests again)."""
        with self._lock:
            self._play = None
            self._play_gen += 1
            self._ring.clear()
            self._anchor = None

    def anchor(self) -> float | None:
        """Thread-safe: the monotonic time the stream's clock started at (when its first frame
        was ready), or None while the first frame is being made."""
        with self._lock:
            return self._anchor

    def take(self, n: int) -> tuple[int, QImage] | None:
        """Thread-safe, for the GUI's tick: the streamed frame to show when the clock is at
        frame `n`: the last one streamed at or before it (frame `n` itself when the stream
        keeps up), None when none has come since the last take (the picture then keeps its
        frame). A frame is never shown before its time, and the position is always the frame
        on screen. Streamed frames up to `n` are dropped: their time is over."""
        best: tuple[int, QImage] | None = None
        with self._lock:
            for m in [m for m in self._ring if m <= n]:
                img = self._ring.pop(m)
                if best is None or m > best[0]:
                    best = (m, img)
        return best

    def cached_frame(self, n: int) -> QImage | None:
        """Thread-safe: exact frame `n` at the view's fitted size when it came before (a
        selection, a step or a playback stream), else None; `max_size` must be current."""
        return self.frames.get(n, self._size())

    def drop_request(self) -> None:
        """Thread-safe: forget a frame request not yet served (the frame is on screen)."""
        with self._lock:
            self._pending = None

    def request_preview(self, n: int) -> None:
        with self._lock:
            self._pending = ("preview", n, 0)
        self.interrupt_warm()
        self._wake.emit()

    def hint(self, frames: list[int]) -> None:
        """Thread-safe: frames the moderator may go to next, warmed up when the worker is idle
        (replaces the previous hint)."""
        with self._lock:
            self._hints = [int(n) for n in frames]
        self._wake.emit()

    def halt(self) -> None:
        """Thread-safe, before the worker's thread is stopped: no warm-up from now on, and
        the one in flight ends at its next decoded frame (or its child is ended: `_warm_wait`)."""
        self._halted = True
        self.interrupt_warm()

    def interrupt_warm(self) -> None:
        """Thread-safe: stop a warm-up in flight at its next decoded frame (a request, or
        the player unloading, must not wait for it)."""
        proc = self.proc
        if self._warming and proc is not None:
            # the generation read after `_warming` (set after it, `_warm`): the warm-up in
            # flight or the one about to be sent; a late one (after its answer) is dropped
            proc.interrupt(self._warm_gen)

    def _size(self) -> tuple[int | None, int | None]:
        """The frame's size fitted inside the view (even numbers, aspect kept), or None when
        the source fits as it is. Fitted frames are painted 1:1: a scaled paint of an RGB
        frame costs the GUI thread ~2 ms each (0.1 ms unscaled, measured with QPainter)."""
        w, h = self.index.display_size
        mw, mh = self.max_size
        if w <= 0 or h <= 0 or (w <= mw and h <= mh):
            return None, None
        s = min(mw / w, mh / h)
        return max(16, int(w * s) // 2 * 2), max(2, int(h * s) // 2 * 2)

    def _with_index(self, req: dict) -> tuple[dict, bytes]:
        """The request and the frame index to send with it: the child (started here when
        there is none) gets the index once, with its first request."""
        if self.proc is None:
            self.proc = VideoProcess(self.path, timeout_s=30.0)
            self._index_sent = False
        if self._index_sent:
            return req, b""
        blob = self.index.to_bytes()
        return (dict(req, index_len=len(blob)) if blob else req), blob

    def _frame_request(self, n: int, cache_before: int) -> tuple[dict, bytes]:
        w, h = self._asked = self._size()
        return self._with_index({"op": "frame", "n": n, "keep": True,
                                 "cache_before": cache_before, "width": w, "height": h,
                                 "ahead": self.playing, "pixels": PLAYER_PIXELS})

    def _read(self, n: int, cache_before: int, sent: bool = False) -> QImage | None:
        """Exact frame `n` from the child (None: it cannot be decoded). `sent`: the request
        is already on its way (it ended a playback stream, `_end_stream`)."""
        req = None if sent else self._frame_request(n, cache_before)  # starts a child if none
        assert self.proc is not None
        try:
            if req is None:
                msg = self.proc.read_message(time.monotonic() + self.proc.timeout_s)
                if not msg.header.get("ok"):
                    raise VideoProcessError(str(msg.header.get("reason", "unknown failure")))
            else:
                msg = self.proc.request(*req)
            self._index_sent = True
        except VideoProcessError as exc:
            if exc.reason.startswith("frame "):
                self._index_sent = True
                return None
            self.proc.close()
            self.proc = None
            raise
        mw, mh = int(msg.header["width"]), int(msg.header["height"])
        self.last_decoded = int(msg.header.get("decoded", 0))
        try:
            return frame_qimage(msg.blobs[0], mw, mh)
        except ValueError:
            raise VideoProcessError("the video reader sent a malformed frame") from None

    def _warm(self) -> None:
        """Warm up the hinted frames, unless playing or a request is waiting. A failure here
        is not the moderator's: the decoder is restarted by the next request, which reports."""
        with self._lock:
            hints, self._hints = self._hints, []
        if not hints or self.proc is None or self.playing:
            return
        self._warm_gen += 1  # before `_warming`: an interrupt from now on names this warm-up
        gen = self._warm_gen
        self._warming = True
        try:
            # read after `_warming` is set: see `interrupt_warm` and `halt`
            if self._pending is None and not self._halted:
                # no deadline of a frame's: idle work at low priority may take long on a
                # loaded machine, and a request interrupts it anyway
                size = self._size()
                send = {"width": size[0], "height": size[1], "pixels": PLAYER_PIXELS}
                msg = self.proc.request({"op": "warm", "frames": hints, "keep": True,
                                         "send": send, "gen": gen}, timeout_s=WARM_TIMEOUT_S,
                                        on_wait=self._warm_wait(self.proc, gen))
                self._keep_warmed(msg, size)
                self.warmed = [int(n) for n in msg.header.get("done", ())]
        except VideoProcessError:
            self.proc.close()
            self.proc = None
        finally:
            self._warming = False

    def _warm_wait(self, proc: VideoProcess, gen: int):
        """The wait for a warm-up's answer, at every slice (`VideoProcess.request` `on_wait`):
        while a request or a play waits, the interrupt again, naming warm-up `gen` (a net
        for one lost anyway; the child drops one meant for an older warm-up) and the frame's
        own deadline (past it the decoder is restarted); closing (`halt`): the child ended.
        Before, a lost interrupt left a request behind up to WARM_TIMEOUT_S (session 16)."""
        due: list[float] = []

        def waiting() -> float | None:
            if self._halted:
                proc.kill()  # the answer is read at once (the pipe's end): nobody wants it
                return None
            if self._pending is None and self._play is None:
                return None
            proc.interrupt(gen)
            now = time.monotonic()
            if not due:
                due.append(now + proc.timeout_s)
                due.append(now + WARM_GIVE_UP_S)
            elif now > due[1]:
                trace("parent", f"child={proc.proc.pid} warm given up: pending {self._pending}")
                # interrupted and still no answer: the child is ended and the request served
                # by a new one (session 18: a warm-up's answer never came while the child sat
                # idle on its input, and the interrupts re-sent every slice made it look
                # merely slowed to the frame's deadline: 60 s without the frame). The cause,
                # an interrupt cutting the answer's write short, is mended (session 19,
                # core/video/wire.py); this stays as the net for any other silence
                proc.kill()
                return None
            return due[0]
        return waiting

    def _keep_warmed(self, msg, size: tuple) -> None:
        """The warmed frames the child sent back, kept with the frames sent ahead (shown at
        once when selected, `cached_frame`); a malformed one is dropped (a selection then
        asks the child, as before)."""
        sent, sizes = msg.header.get("sent", ()), msg.header.get("sizes", ())
        for n, wh, data in zip(sent, sizes, msg.blobs, strict=False):
            try:
                self.frames.put(int(n), size, frame_qimage(data, int(wh[0]), int(wh[1])),
                                played=True)
            except (ValueError, TypeError, IndexError):
                continue

    @Slot()
    def _serve(self) -> None:
        if self._play is not None and not self._halted:
            try:
                self._stream()
            except VideoProcessError as exc:
                # a frame that does not decode ended the stream, the decoder is sound
                if self.proc is not None and not exc.reason.startswith("frame "):
                    self.proc.close()
                    self.proc = None
                self.failures += 1
                self.error.emit(exc.reason)
                return
        with self._lock:
            req, self._pending = self._pending, None
        if req is None:
            self._warm()
            return
        if self._hints:
            self._wake.emit()  # the warm-up after this request (a newer request goes first)
        self._answer(req)

    def _answer(self, req: tuple, sent: bool = False) -> None:
        """Read the frame `req` asks for and hand it to the GUI (or say why not)."""
        kind, n, cache_before = req
        try:
            img = self._read(int(n), int(cache_before), sent)
        except VideoProcessError as exc:
            self.failures += 1
            self.error.emit(exc.reason)
            return
        if img is None:
            self.error.emit(f"frame {n} cannot be decoded")
            return
        if kind == "frame":  # exact (a preview is a keyframe's picture)
            self.frames.put(int(n), self._asked, img)
        (self.frame_ready if kind == "frame" else self.preview_ready).emit(int(n), img)

    def _stream(self) -> None:
        """Playback: the child decodes ahead of the clock on its own (child.py `op_play`) and
        this thread puts each frame it sends into the ring the GUI's tick takes from by
        presentation time (`take`), until the GUI pauses (or seeks, or changes the speed:
        another stream). Before, each frame was a round trip started by a tick (request,
        decode, the pixels over the pipe, two thread hops): under load the clock had moved
        on by the time the frame came, every other tick found the previous request still
        out, and 1080p60 played at 6-10 frames a second at load 7 (issue 11 point 8)."""
        running: int | None = None  # the generation of the stream the child is sending
        started = -1  # the last generation started (one that ended by itself stays ended)
        times = self.index.times_s
        while True:
            with self._lock:
                spec, gen = self._play, self._play_gen
                # a frame asked for after the pause (a selected event): its request ends
                # the stream, and is served next
                first = self._pending if spec is None and not self._halted else None
                if first is not None:
                    self._pending = None
            if running is not None and (gen != running or spec is None or self._halted):
                if spec is not None and gen != started and not self._halted:
                    # a seek while playing or a new speed: the new stream's line ends the old
                    self._end_stream(self._with_index(dict(spec, op="play", keep=True)))
                    running = started = gen
                    continue
                try:
                    self._end_stream(None if first is None else self._frame_request(*first[1:]))
                except VideoProcessError:
                    self._restore(first)  # asked again by the next wake, as before
                    raise
                running = None
                if first is not None:
                    self._answer(first, sent=True)
                    first = None
            self._restore(first)  # no stream was running: served as any request
            if spec is None or self._halted:
                return
            if gen != started:
                self._start_stream(spec)
                running = started = gen
            if running is None:  # the stream reached the video's end: the GUI pauses there
                time.sleep(0.01)
                continue
            assert self.proc is not None
            msg = self.proc.next_message(0.01)
            if msg is None:
                continue
            if "play" not in msg.header:  # the video's end: the stream's answer
                running = None
                with self._lock:
                    if self._play_gen == gen and self._anchor is None:
                        self._anchor = time.monotonic()  # nothing was sent: the clock runs
                continue
            m, w, h = int(msg.header["play"]), int(msg.header["width"]), int(msg.header["height"])
            try:
                img = frame_qimage(msg.blobs[0], w, h)
            except ValueError:
                raise VideoProcessError("the video reader sent a malformed frame") from None
            self.streamed += 1
            self.frames.put(m, (spec["width"], spec["height"]), img, played=True)
            with self._lock:
                if self._play_gen != gen:
                    continue
                if self._anchor is None:  # the clock starts with the first frame
                    self._anchor = time.monotonic()
                    clock = float(spec["video0"])
                else:
                    clock = spec["video0"] + (time.monotonic() - self._anchor) * spec["speed"]
                # frames whose time is over are never taken: they must not pile up while the
                # GUI thread is held up
                now = int(np.searchsorted(times, clock, side="right")) - 1
                for old in [k for k in self._ring if k < now - spec["stride"]]:
                    del self._ring[old]
                self._ring[m] = img

    def _restore(self, req: tuple | None) -> None:
        """Put back a request taken to end a stream with, unless a newer one came."""
        if req is not None:
            with self._lock:
                if self._pending is None:
                    self._pending = req

    def _start_stream(self, spec: dict) -> None:
        req, blob = self._with_index(dict(spec, op="play", keep=True))
        assert self.proc is not None
        self.proc.send(req, blob)
        self._index_sent = True

    def _end_stream(self, then: tuple[dict, bytes] | None = None) -> None:
        """End the child's stream and read what it sent until its answer (frames dropped): at
        most the frame it was making, and those already in the pipe. `then`: the request to
        serve next, sent as the line that ends the stream (the child handles that line as
        its next request), so it is on its way at once, not one round trip later: under load
        every round trip waits for the child and this thread to be scheduled."""
        assert self.proc is not None
        self.proc.send(*(then or ({"op": "stop", "keep": True},)))
        if then is not None:
            self._index_sent = True
        while True:
            try:
                msg = self.proc.next_message(self.proc.timeout_s)
            except VideoProcessError as exc:
                if exc.reason.startswith("frame "):
                    # the stream's answer: it ended on a frame it could not decode, and the
                    # decoder is sound. `then` is on its way and its answer comes next; taken
                    # for this request's own error, that answer was left unread and every
                    # later read was one answer behind (session 19)
                    return
                raise
            if msg is None:
                raise VideoProcessError("the video reader did not end its playback")
            if "play" not in msg.header:
                return

    @Slot()
    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None


def save_frame_dialog(parent: QWidget, player: VideoPlayer) -> str | None:
    """File > Save frame (S): ask where, write the exact frame on screen; the outcome goes to
    the window's status bar when it has one."""
    from PySide6.QtWidgets import QFileDialog, QMessageBox
    if not player.has_video:
        return None
    name = f"frame-{player.current_frame}.png"
    out, _ = QFileDialog.getSaveFileName(parent, "Save frame (PNG)", name, "PNG image (*.png)")
    if not out:
        return None
    try:
        what = player.save_frame(Path(out))
    except (ValueError, OSError, VideoProcessError) as exc:
        QMessageBox.warning(parent, "Save frame", f"Cannot save the frame: {exc}")
        return None
    status = getattr(parent, "statusBar", None)
    if callable(status):
        status().showMessage(f"Saved {what} to {out}", 5000)
    return out


def save_frame_png(player: VideoPlayer, out: Path) -> str:
    """Write the frame on screen, at full resolution, as a PNG (what `moderator-app frame`
    writes for this moment). Raises ValueError when there is no footage here, with the reason
    `moderator-app frame` gives."""
    from moderator_app.core.atomic import atomic_write
    from moderator_app.core.video.export import png_bytes, read_frames
    if player.times is None or player.path is None:
        raise ValueError("no video")
    if not player.in_footage:
        why = player.times.why_none(player.current_time)
        raise ValueError(f"{NO_FOOTAGE} ({format_timecode(player.current_time)}"
                         + (f": {why}" if why else "") + ")")
    n = player.current_frame
    img, = read_frames(player.path, player.times.index, [n])
    if img is None:
        raise ValueError(f"frame {n} cannot be decoded")
    atomic_write(out, png_bytes(img))
    return f"frame {n} at {format_timecode(player.times.time_of(n))}"
