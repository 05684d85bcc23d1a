"""The video player: exact frames decoded in the isolated video process, a painted frame view
and controls.

One worker thread per video owns a persistent isolated decoder (core/video/isolate.py): frame
requests are coalesced (only the latest is served, so dragging never builds a queue), frames
come back scaled to the view's size (so painting stays cheap), and a decoder crash is a message
on the picture, never the end of the workstation. Positions come from the frame index
(core/video/index.py), complete when the video is opened: no timestamp scan, no estimates.

Outside the footage (before the first frame, after the last, inside a footage gap) there is no
frame to show: the picture and the frame label say "no footage at this time" and no frame from
another moment is shown (issue 11). While dragging the scrubber or the timeline
(`set_scrubbing`), the keyframe before the position is shown as a preview (one packet to
decode, so the picture keeps up with the hand); the exact frame follows on release.

The controls and their layout are in player_controls.py, the speed and sound controls in
player_speed.py, the decoding worker, the frame view
and the clock in player_parts.py, the background scan and the ending of threads in
player_threads.py.

Position: `current_frame` / `current_time` is where the moderator *is* (set at once on every
seek so that the playhead moves immediately); `shown_frame` is the frame actually on screen
(-1 for none, as in the no-footage state).
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt, QThread, QTimer, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QWidget,
)

from moderator_app.core.video.index import FrameIndex
from moderator_app.core.video.probe import NoFootage
from moderator_app.core.video.scan import ScanResult
from moderator_app.ui.frame_view import FrameView
from moderator_app.ui.player_controls import PAUSE_TEXT, PLAY_TEXT, build_controls
from moderator_app.ui.player_parts import (
    BACK_STEP_CACHE,
    MAX_DISPLAY_WIDTH,
    NO_FOOTAGE,
    FrameWorker,
    PlayerTimes,
    save_frame_dialog,  # noqa: F401 - File > Save frame, imported from here by the window
    save_frame_png,
)
from moderator_app.ui.player_speed import PlayerSpeed
from moderator_app.ui.player_threads import ScanRunner, end_thread
from moderator_app.ui.timefmt import format_timecode

# How often the views around the player follow it while playing (the picture itself moves
# at the video's rate): a playhead moving 15 times a second reads as moving smoothly.
FOLLOW_HZ = 15.0


class VideoPlayer(PlayerSpeed, QWidget):
    """Frame-accurate player. Emits `position_changed(frame, video_time_s)` on every move."""

    position_changed = Signal(int, float)
    loaded = Signal()
    frame_shown = Signal(int)
    footage_changed = Signal(bool)  # False: the playhead is where the video has no footage
    scan_progress = Signal(int, int)  # frames scanned, frames in all
    scan_ready = Signal(object)  # ScanResult (or a str reason): the screen activity lane
    decoder_error = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path: Path | None = None
        self.times: PlayerTimes | None = None
        self.current_frame = 0
        self.current_time = 0.0
        self.shown_frame = -1
        self.in_footage = True
        self.no_footage_why = ""  # why there is no picture (in_footage False)
        self.playing = False
        self.speed = 1.0
        self.muted = False
        self.scan_result = None
        # sound: fed from the isolated decoder when there is an output device (audio.py)
        self.audio = None
        self._requested = -1
        self._play_wall0: float | None = None  # None: the clock waits for the first frame
        self._play_video0 = 0.0
        self._moved_at = 0.0  # when `position_changed` was last emitted while playing
        self._move_due = False  # a move while playing that the views have not been told
        self._worker: FrameWorker | None = None
        self._worker_thread: QThread | None = None
        self._scanner = ScanRunner(self)
        self._scanner.progress.connect(self.scan_progress)
        self._scanner.done.connect(self._on_scan_done)
        self._dragging = False  # the scrubber's handle is held
        self._scrubbing = False  # a drag on the timeline: keyframe previews until release

        self.view = FrameView(self)
        build_controls(self)

        self.play_button.clicked.connect(self.toggle_play)
        self.back_button.clicked.connect(lambda: self.step(-1))
        self.fwd_button.clicked.connect(lambda: self.step(1))
        self.speed_box.currentIndexChanged.connect(
            lambda i: self.set_speed(self.speed_box.itemData(i)))
        self.slider.sliderPressed.connect(self._slider_pressed)
        self.slider.sliderMoved.connect(self._slider_moved)
        self.slider.sliderReleased.connect(self._slider_released)
        self.slider.valueChanged.connect(self._slider_value)

        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._tick)
        self._update_label()

    # -- loading ---------------------------------------------------------------------------

    def load(self, path: Path | None, index: FrameIndex | None = None,
             sha256: str | None = None, scan: bool = True,
             no_footage: tuple[NoFootage, ...] = ()) -> bool:
        """Open a video (or clear the player with None). `index` is the probe's frame index
        and `no_footage` its spans without footage (probed here, in the isolated process, when
        no index is given). False when it cannot be opened. `scan`: run the integrity scan in
        the background (the GUI's default)."""
        self.unload()
        if path is None:
            return False
        if index is None:
            from moderator_app.core.video.probe import probe_video
            probe = probe_video(Path(path), Path(path).name)
            index = probe.index if probe.ok else None
            no_footage = probe.no_footage
            if index is None:
                reason = "; ".join(f.message for f in probe.findings) or "unreadable"
                self.view.message = f"Cannot open the video: {reason}"
                self.view.update()
                return False
        if index.frame_count == 0:
            self.view.message = "The video has no frames"
            self.view.update()
            return False
        self.path = Path(path)
        self.times = PlayerTimes(index, no_footage)
        self._worker = FrameWorker(self.path, index)
        self._worker_thread = QThread(self)
        self._worker.moveToThread(self._worker_thread)
        self._worker.frame_ready.connect(self._on_frame)
        self._worker.preview_ready.connect(self._on_preview)
        self._worker.error.connect(self._on_error)
        self._worker_thread.start()
        self.slider.setRange(0, max(0, self.times.frame_count - 1))
        self.audio = self._audio_for(index)
        self.view.message = "Loading…"
        self.seek_frame(0)
        self.loaded.emit()
        if scan:
            self.start_scan(sha256)
        return True

    def _audio_for(self, index: FrameIndex):
        from moderator_app.core.video.audio import AudioFeeder, AudioTrack, NullSink, default_sink
        sink = default_sink()
        if isinstance(sink, NullSink):
            return None  # no sound device: nothing to feed (core/video/audio.py is tested)
        assert self.path is not None
        track = AudioTrack.for_index(self.path, index)
        track.open()  # its decoder starts now, not on the first play (sound would be late)
        # silent where the picture shows no footage (gaps, joined recordings that do not
        # decode, before and after the video): the sound there is no footage either
        silent = self.times.silent_spans() if self.times is not None else ()
        return AudioFeeder(track, sink, clock=self.clock, silent=silent)

    def clock(self) -> float:
        """The picture's video time now, while playing (what `_tick` follows). It stands at
        the position the play started from until the stream's first frame is there."""
        if self._play_wall0 is None:
            return self._play_video0
        return self._play_video0 + (time.monotonic() - self._play_wall0) * self.speed

    def start_scan(self, sha256: str | None = None) -> None:
        """The integrity scan in the background (progress via `scan_progress`, the result via
        `scan_ready`); cancelled by `unload`."""
        if self.path is None or self.times is None or self._scanner.running:
            return
        self._scanner.start(self.path, sha256, self.times.frame_count)
        # Said at once: the first report comes after 256 frames, or after the sync analysis'
        # decode of the same file, which the scan waits for (the lane was blank for minutes
        # on a 1080p VP9 file at load 20, session 12's walk).
        self.scan_progress.emit(0, self.times.frame_count)

    @property
    def scanning(self) -> bool:
        """The integrity scan of the loaded video is running: its end lists findings and fills
        the activity lane (`MainWindow.busy`)."""
        return self._scanner.running and self.scan_result is None

    @property
    def frame_pending(self) -> bool:
        """A frame was asked for (a seek, a step) and is not on screen yet; never while
        playing or dragging, where pictures stream or are previews (`MainWindow.busy`)."""
        return (self._worker is not None and self._requested >= 0
                and self._requested != self.shown_frame
                and not (self.playing or self._scrubbing or self._dragging))

    def _on_scan_done(self, result) -> None:
        if isinstance(result, ScanResult) and self.times is not None:
            # the picture findings inside a span without footage are dropped, as verify does
            result = result.outside(self.times.no_footage)
        self.scan_result = result
        self.scan_ready.emit(result)

    def unload(self) -> None:
        """Close the video: the scan stops (its decoding process ends at once) and every
        thread of the player has ended, or is kept until it has (player_threads.py)."""
        self.pause()
        if self.audio is not None:
            self.audio.close()
            self.audio = None
        self._scanner.stop()
        if self._worker is not None:
            self._worker.halt()  # a warm-up must not hold the thread's end
        if self._worker_thread is not None and end_thread(self._worker_thread, self._worker) \
                and self._worker is not None:
            self._worker.close()
        self._worker = self._worker_thread = None
        self.times = None
        self.path = None
        self.scan_result = None
        self.shown_frame = -1
        self._requested = -1
        self._scrubbing = False
        self.in_footage = True
        self.current_frame, self.current_time = 0, 0.0
        self.view.message = "No video"
        self.view.set_image(None)
        self.slider.setRange(0, 0)
        self._update_label()

    def wait_for_timestamps(self, timeout_ms: int = 30000) -> bool:
        """Kept for callers of the old timestamp scan: the frame index is complete on load."""
        return self.times is not None

    @property
    def has_video(self) -> bool:
        return self.times is not None

    @property
    def duration(self) -> float | None:
        return None if self.times is None else self.times.duration

    @property
    def frame_count(self) -> int:
        return 0 if self.times is None else self.times.frame_count

    def frame_duration(self) -> float:
        if self.times is None:
            return 1.0 / 30.0
        return self.times.frame_duration_at(self.current_frame)

    # -- moving ----------------------------------------------------------------------------

    def _set_footage(self, inside: bool) -> None:
        if inside and self.no_footage_why:
            self.no_footage_why = ""
            self.position_label.setToolTip("")
        if inside != self.in_footage:
            self.in_footage = inside
            self.footage_changed.emit(inside)

    def seek_frame(self, n: int, cache_before: int = 2) -> None:
        """Go to frame `n` exactly: the position moves now, the picture follows."""
        if self.times is None or self._worker is None:
            return
        n = max(0, min(int(n), max(self.times.frame_count - 1, 0)))
        if not self.times.shows(n):  # a frame of a span without footage: never its picture
            self._show_no_footage(self.times.time_of(n), n)
            return
        self.current_frame = n
        self.current_time = self.times.time_of(n)
        self._set_footage(True)
        self._requested = n
        self._fit_worker()
        if self.playing:  # a seek while playing: the stream starts again from there
            self._start_stream()
        elif self._scrubbing:  # the playhead follows the drag; the picture is a keyframe's
            self._worker.request_preview(self.times.keyframe_frame(n))
        elif (hit := self._worker.cached_frame(n)) is not None:
            # decoded before (ui/frame_cache.py): on screen now, no request
            self._worker.drop_request()
            self._on_frame(n, hit)
        else:
            if not self.playing and n != self.shown_frame and self.view.image is not None:
                self.view.set_pending(f"frame {n}: decoding…")  # until it is shown
            self._worker.request_frame(n, cache_before)
        self._sync_slider()
        self._update_label()
        self.position_changed.emit(n, self.current_time)

    def _fit_worker(self) -> None:
        """Frames come scaled to the view's size in device pixels."""
        assert self._worker is not None
        ratio = self.view.devicePixelRatioF()
        self._worker.max_size = (max(320, min(MAX_DISPLAY_WIDTH, int(self.view.width() * ratio))),
                                 max(180, int(self.view.height() * ratio)))

    def prefetch_times(self, times: list[float]) -> None:
        """Video times the moderator may go to next (the neighbouring events and findings):
        their frames are decoded while the player is idle, and a selection of one of them is
        then served without a decode (issue 11 point 8)."""
        if self.times is None or self._worker is None:
            return
        frames: list[int] = []
        for t in times:
            n = self.times.footage_at(t)
            if n is not None and n != self.current_frame and n not in frames:
                frames.append(n)
        self._worker.hint(frames)

    def seek_time(self, t: float) -> None:
        """Go to video time `t`: the frame on screen then, or the no-footage state (before the
        video, after it, in a gap) where no frame from another moment is shown."""
        if self.times is None:
            return
        n = self.times.footage_at(t)
        if n is not None:
            self.seek_frame(n)
            return
        self._show_no_footage(t)

    def _show_no_footage(self, t: float, n: int | None = None) -> None:
        """No picture at `t` (frame `n` when a frame of a span without footage was asked
        for): the picture says so and why (`PlayerTimes.why_none`, as `moderator-app frame`)."""
        assert self.times is not None
        self.current_time = float(t)
        self.current_frame = self.times.frame_at(t) if n is None else n
        self._requested = -1
        self.shown_frame = -1
        self._set_footage(False)
        self.no_footage_why = self.times.why_none(t) or ""
        self.view.message = f"{NO_FOOTAGE}\n{self.no_footage_why}".strip()
        self.position_label.setToolTip(self.no_footage_why)
        if self.view.image is not None:
            self.view.set_image(None)
        self._sync_slider()
        self._update_label()
        self._moved()

    def step(self, k: int) -> None:
        """Step `k` frames (negative: backwards, with the cache primed for more back-steps)."""
        if self.times is None:
            return
        self.pause()
        cache = BACK_STEP_CACHE if k < 0 else 2
        on_frame = self.times.time_of(self.current_frame) == self.current_time
        if not self.in_footage and not on_frame:  # to the nearest frame that way
            n = self.times.frame_at(self.current_time)
            if k > 0 and self.times.time_of(n) < self.current_time:
                n += 1
            self.seek_frame(n + (k - 1 if k > 0 else k + 1), cache)
            return
        self.seek_frame(self.current_frame + k, cache)

    def step_n_frames(self, direction: int) -> None:
        self.step(direction * self.step_n.value())

    def skip_seconds(self, s: float) -> None:
        if self.times is None:
            return
        t = self.current_time + s
        self.seek_time(min(max(t, 0.0), self.times.time_of(self.times.frame_count - 1)))

    # -- playback --------------------------------------------------------------------------

    def play(self) -> None:
        if self.times is None or self.playing:
            return
        if self.current_frame >= self.times.frame_count - 1 and self.in_footage:
            self.seek_frame(0)
        self.playing = True
        if self._worker is not None:
            self._worker.playing = True
        self.play_button.setText(PAUSE_TEXT)
        self._start_stream()
        self._timer.start(max(4, int(1000 * self.times.index.frame_duration_s / self.speed / 4)))

    def _start_stream(self) -> None:
        """Playback from the position: the decoding child streams frames ahead of the clock
        (`FrameWorker.start_play`), and the clock starts when the first one is there."""
        assert self.times is not None and self._worker is not None
        self._play_wall0 = None
        self._play_video0 = self.current_time
        if self.in_footage:
            n = self.current_frame
        else:  # from a moment without footage: the first frame after it
            n = self.times.frame_at(self.current_time)
            if self.times.time_of(n) < self.current_time:
                n += 1
        self._fit_worker()
        self._worker.start_play(n, self._play_video0, self.speed, self._stride())

    def pause(self) -> None:
        if not self.playing:
            return
        self.playing = False
        if self._worker is not None:
            self._worker.playing = False
            self._worker.stop_play()
        if self._move_due:  # the views learn where the play stopped
            self._moved()
        self.play_button.setText(PLAY_TEXT)
        self._timer.stop()
        if self.audio is not None:
            self.audio.reset()

    def toggle_play(self) -> None:
        self.pause() if self.playing else self.play()

    def _tick(self) -> None:
        """While playing: show the last frame the stream sent ahead at or before the clock's
        time (`FrameWorker.take`), never one before its time; when none has come the picture
        keeps its frame. The position is always the frame on screen."""
        if self.times is None or self._worker is None:
            self.pause()
            return
        if self._play_wall0 is None:
            self._play_wall0 = self._worker.anchor()
            if self._play_wall0 is None:
                return  # the stream's first frame is being made: the clock waits for it
        t = self.clock()
        if t >= self.times.duration:
            self._end_on_last_frame()
            return
        if self.audio is not None:  # sound follows the clock (silence where it has none)
            self.audio.tick(t, True, self.speed, self.muted)
        n = self.times.footage_at(t)
        if n is None:
            self._show_no_footage(t)  # a gap: the clock runs on, no frame is shown
            return
        got = self._worker.take(n)
        if got is not None:
            self._show_streamed(*got)

    def _show_streamed(self, m: int, image: QImage) -> None:
        """Frame `m` from the playback stream on screen: the position is the frame shown."""
        assert self.times is not None
        if not self.times.shows(m):  # the last frame, at the end, inside a span without footage
            self._show_no_footage(self.times.time_of(m), m)
            return
        self.current_frame, self.current_time = m, self.times.time_of(m)
        self._requested = self.shown_frame = m
        self._set_footage(True)
        self.view.set_image(image)
        self._sync_slider()
        self._update_label()
        self.frame_shown.emit(m)
        self._moved()

    def _end_on_last_frame(self) -> None:
        """The clock passed the end: pause on the last frame, always. Under load the clock
        could pass the end before the stream had sent the last frame (or a stride above 1x
        stepped over it), and the play stopped on the frame before it (58 of 59, seen once
        at load 20): the last frame is taken from the stream when it is there, else asked
        for exactly, as a seek would."""
        assert self.times is not None and self._worker is not None
        last = self.times.frame_count - 1
        got = self._worker.take(last)
        self.pause()
        if got is not None and got[0] == last:
            self._show_streamed(*got)
        elif self.shown_frame != last:
            self.seek_frame(last)

    def _moved(self) -> None:
        """`position_changed`, for the views around the player (the timeline, the plots and
        lanes, the table and the detail that follow). While playing, at most FOLLOW_HZ times
        a second, and once more at the pause: a playhead that moves 15 times a second reads
        as smooth, and each move still costs the GUI thread the table's and the detail's
        follow and the old and new playhead strips of every lane (their static pictures are
        layers built once, ui/layer.py; before those, a move repainted each view whole: 23 ms
        of the GUI thread's Python at load 7, profiled on Xvfb at 1920x1080)."""
        now = time.monotonic()
        if self.playing and now - self._moved_at < 1.0 / FOLLOW_HZ:
            self._move_due = True
            return
        self._moved_at, self._move_due = now, False
        self.position_changed.emit(self.current_frame, self.current_time)

    # -- worker results --------------------------------------------------------------------

    def _on_frame(self, n: int, image: QImage) -> None:
        if n != self._requested or self.playing:
            return  # an older request finished after a newer one was made (or a play began)
        self.shown_frame = n
        if not self._dragging:
            self.view.set_image(image)
        self._update_label()
        self.frame_shown.emit(n)

    def _on_preview(self, n: int, image: QImage) -> None:
        ok = self.times is not None and self.times.shows(
            self.slider.value() if self._dragging else self.current_frame)
        if ok and (self._dragging or self._scrubbing):
            self.view.set_image(image, approximate=True)

    def _on_error(self, reason: str) -> None:
        self.pause()
        self.view.message = f"The video cannot be decoded here: {reason}"
        self.view.set_image(None)
        self.decoder_error.emit(reason)

    # -- evidence --------------------------------------------------------------------------

    def save_frame(self, out: Path) -> str:
        """Write the frame on screen, at full resolution, as a PNG (`save_frame_png`)."""
        return save_frame_png(self, out)

    # -- scrubber --------------------------------------------------------------------------

    def set_scrubbing(self, on: bool) -> None:
        """A drag on the timeline (or any other view of the video's clock) starts (True) or
        ends (False). While it lasts, seeks move the position at once and show the keyframe
        before it (one packet to decode, as the scrubber does); on release the exact frame of
        the last position follows."""
        on = bool(on)
        if on == self._scrubbing:
            return
        self._scrubbing = on
        if on:
            self.pause()
        elif self.times is not None and self.in_footage:
            self.seek_frame(self.current_frame)

    def _slider_pressed(self) -> None:
        self._dragging = True
        self.pause()

    def _slider_moved(self, value: int) -> None:
        if self.times is None or self._worker is None:
            return
        if not self.times.shows(value):  # no preview of a smear: the no-footage state
            self.view.message = f"{NO_FOOTAGE}\n{self.times.why_none(self.times.time_of(value))}"
            self.view.set_image(None)
            self.position_label.setText(f"{NO_FOOTAGE}  "
                                        f"{format_timecode(self.times.time_of(value))}")
            return
        self._worker.request_preview(self.times.keyframe_frame(value))
        self.position_label.setText(self._label_text(value, self.times.time_of(value)))

    def _slider_released(self) -> None:
        self._dragging = False
        self.seek_frame(self.slider.value())

    def _slider_value(self, value: int) -> None:
        if not self._dragging and value != self.current_frame:
            self.seek_frame(value)  # clicks and keyboard on the slider

    def _sync_slider(self) -> None:
        if self._dragging:
            return
        self.slider.blockSignals(True)
        self.slider.setValue(self.current_frame)
        self.slider.blockSignals(False)

    # -- label -----------------------------------------------------------------------------

    def _label_text(self, n: int, t: float) -> str:
        total = self.frame_count
        return f"frame {n} / {max(total - 1, 0)}  {format_timecode(t)}"

    def _update_label(self) -> None:
        if self.times is None:
            self.position_label.setText("frame - / -  --:--:--.---")
            return
        if not self.in_footage:
            self.position_label.setText(f"{NO_FOOTAGE}  {format_timecode(self.current_time)}")
            return
        self.position_label.setText(self._label_text(self.current_frame, self.current_time))

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.unload()
        super().closeEvent(event)
