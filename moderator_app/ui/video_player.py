"""The video player: OpenCV decoding in worker threads, a painted frame view and controls.

Two threads per video: the *frame worker* owns a `FrameSource` and serves exact frames and
scrub previews (requests are coalesced: only the latest one is served, so dragging the scrubber
never builds a queue); the *scan worker* decodes the video once to learn every frame's timestamp
and make preview thumbnails. The GUI thread only paints and keeps the clock.

Position: `current_frame` / `current_time` is where the moderator *is* (set at once on every
seek so that the playhead moves immediately); `shown_frame` is the frame actually on screen.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
from PySide6.QtCore import QObject, QRectF, QSize, Qt, QThread, QTimer, Signal, Slot
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from moderator_app.core.video.frames import (
    FrameSource,
    FrameTimes,
    TimestampScanner,
    open_capture,
    read_info,
)
from moderator_app.ui.timefmt import format_timecode

MAX_DISPLAY_WIDTH = 1920
SPEEDS = (0.25, 0.5, 1.0, 1.5, 2.0, 4.0)


def to_qimage(img: np.ndarray, max_width: int = MAX_DISPLAY_WIDTH) -> QImage:
    """BGR ndarray -> QImage that owns its pixels (safe to hand across threads)."""
    h, w = img.shape[:2]
    if w > max_width:
        img = cv2.resize(img, (max_width, max(1, h * max_width // w)),
                         interpolation=cv2.INTER_AREA)
        h, w = img.shape[:2]
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    img = np.ascontiguousarray(img)
    return QImage(img.data, w, h, img.strides[0], QImage.Format.Format_BGR888).copy()


class FrameWorker(QObject):
    """Serves frame requests in its own thread. Only the newest request is served."""

    # index, time, exact time (0/1: an int, not a bool, which PySide ref-counts badly across
    # threads), image
    frame_ready = Signal(int, float, int, QImage)
    preview_ready = Signal(float, QImage)
    error = Signal(str)
    _wake = Signal()

    def __init__(self, path: Path, times: FrameTimes) -> None:
        super().__init__()
        self.path = path
        self.times = times
        self.source: FrameSource | None = None
        self._lock = threading.Lock()
        self._pending: tuple | None = None
        # Widest picture worth sending to the GUI thread (the view's width in device pixels):
        # scaling here keeps painting cheap on the GUI thread. Set from the GUI thread.
        self.max_width = MAX_DISPLAY_WIDTH
        self._wake.connect(self._serve, Qt.ConnectionType.QueuedConnection)

    def request_frame(self, n: int, cache_before: int = 2) -> None:
        """Thread-safe: ask for exact frame `n` (replaces any request not yet served)."""
        with self._lock:
            self._pending = ("frame", n, cache_before)
        self._wake.emit()

    def request_preview(self, t: float) -> None:
        with self._lock:
            self._pending = ("preview", t, 0)
        self._wake.emit()

    @Slot()
    def _serve(self) -> None:
        with self._lock:
            req, self._pending = self._pending, None
        if req is None:
            return
        try:
            if self.source is None:
                self.source = FrameSource(self.path, self.times)
            kind, value, cache_before = req
            if kind == "frame":
                frame = self.source.read(int(value), cache_before)
                if frame is not None:
                    self.frame_ready.emit(frame.index, frame.time, int(frame.exact_time),
                                          to_qimage(frame.image, self.max_width))
            else:
                img = self.source.preview(float(value))
                if img is not None:
                    self.preview_ready.emit(float(value), to_qimage(img, 960))
        except Exception as exc:  # noqa: BLE001 - a broken video must not kill the GUI
            self.error.emit(f"{type(exc).__name__}: {exc}")

    @Slot()
    def close(self) -> None:
        if self.source is not None:
            self.source.close()
            self.source = None


class ScanWorker(QObject):
    """Decodes the video once for exact frame timestamps and preview thumbnails."""

    progress = Signal(int)
    done = Signal()

    def __init__(self, path: Path, times: FrameTimes) -> None:
        super().__init__()
        self.path = path
        self.times = times
        self.stop = False

    @Slot()
    def run(self) -> None:
        scanner = TimestampScanner(self.path, self.times)
        try:
            while not self.stop:
                more = scanner.step(32)
                self.progress.emit(len(self.times))
                if not more:
                    break
        except Exception:  # noqa: BLE001 - positions fall back to header fps estimates
            pass
        finally:
            scanner.close()
        self.done.emit()
        QThread.currentThread().quit()  # direct: the GUI thread may be waiting on us


class FrameView(QWidget):
    """Paints the current frame, letterboxed, with an 'approximate' badge while scrubbing."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image: QImage | None = None
        self.approximate = False
        self.message = "No video"
        self.setMinimumSize(320, 180)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(800, 450)

    def set_image(self, image: QImage | None, approximate: bool = False) -> None:
        self.image = image
        self.approximate = approximate
        self.update()

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt override
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(0, 0, 0))
        if self.image is None or self.image.isNull():
            p.setPen(QColor(160, 160, 160))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.message)
            return
        iw, ih = self.image.width(), self.image.height()
        scale = min(self.width() / iw, self.height() / ih)
        w, h = iw * scale, ih * scale
        target = QRectF((self.width() - w) / 2, (self.height() - h) / 2, w, h)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, not self.approximate)
        p.drawImage(target, self.image)
        if self.approximate:
            p.setPen(QColor(255, 200, 0))
            p.drawText(target.adjusted(8, 8, -8, -8),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, "preview")


class VideoPlayer(QWidget):
    """Frame-accurate player. Emits `position_changed(frame, video_time_s)` on every move."""

    position_changed = Signal(int, float)
    loaded = Signal()
    timestamps_progress = Signal(int, int)  # frames with known timestamps, scan complete (0/1)
    frame_shown = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path: Path | None = None
        self.times: FrameTimes | None = None
        self.current_frame = 0
        self.current_time = 0.0
        self.shown_frame = -1
        self.playing = False
        self.speed = 1.0
        self._requested = -1
        self._play_wall0 = 0.0
        self._play_video0 = 0.0
        self._worker: FrameWorker | None = None
        self._worker_thread: QThread | None = None
        self._scan: ScanWorker | None = None
        self._scan_thread: QThread | None = None
        self._dragging = False

        self.view = FrameView(self)
        self.play_button = QToolButton(text="▶")
        self.play_button.setToolTip("Play / pause (Space)")
        self.back_button = QToolButton(text="◀|")
        self.back_button.setToolTip("Previous frame (,)")
        self.fwd_button = QToolButton(text="|▶")
        self.fwd_button.setToolTip("Next frame (.)")
        self.step_n = QSpinBox()
        self.step_n.setRange(1, 10000)
        self.step_n.setValue(10)
        self.step_n.setPrefix("N=")
        self.step_n.setToolTip("Frames stepped by [ and ]")
        self.speed_box = QComboBox()
        for s in SPEEDS:
            self.speed_box.addItem(f"{s:g}x", s)
        self.speed_box.setCurrentIndex(SPEEDS.index(1.0))
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 0)
        self.position_label = QLabel()
        self.position_label.setTextFormat(Qt.TextFormat.PlainText)
        self.position_label.setObjectName("positionLabel")
        font = self.position_label.font()
        font.setFamily("monospace")
        self.position_label.setFont(font)

        controls = QHBoxLayout()
        controls.setContentsMargins(4, 2, 4, 2)
        for w in (self.back_button, self.play_button, self.fwd_button, self.step_n,
                  self.speed_box):
            controls.addWidget(w)
        controls.addWidget(self.slider, 1)
        controls.addWidget(self.position_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.view, 1)
        layout.addLayout(controls)

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

    def load(self, path: Path | None) -> bool:
        """Open a video (or clear the player with None). False when it cannot be opened."""
        self.unload()
        if path is None:
            return False
        cap = open_capture(path)
        ok = cap.isOpened()
        info = read_info(cap) if ok else None
        cap.release()
        if not ok or info is None:
            self.view.message = "Cannot open the video"
            self.view.update()
            return False
        self.path = Path(path)
        self.times = FrameTimes(info)
        self._worker = FrameWorker(self.path, self.times)
        self._worker_thread = QThread(self)
        self._worker.moveToThread(self._worker_thread)
        self._worker.frame_ready.connect(self._on_frame)
        self._worker.preview_ready.connect(self._on_preview)
        self._worker_thread.start()
        self._scan = ScanWorker(self.path, self.times)
        self._scan_thread = QThread(self)
        self._scan.moveToThread(self._scan_thread)
        self._scan_thread.started.connect(self._scan.run)
        self._scan.progress.connect(self._on_scan_progress)
        self._scan.done.connect(self._on_scan_done)
        self._scan_thread.start()
        self.slider.setRange(0, max(0, self.times.frame_count - 1))
        self.view.message = "Loading…"
        self.seek_frame(0)
        self.loaded.emit()
        return True

    def unload(self) -> None:
        self.pause()
        if self._scan is not None:
            self._scan.stop = True
        for thread in (self._scan_thread, self._worker_thread):
            if thread is not None:
                thread.quit()
                thread.wait(5000)
        if self._worker is not None:
            self._worker.close()
        self._worker = self._worker_thread = self._scan = self._scan_thread = None
        self.times = None
        self.path = None
        self.shown_frame = -1
        self._requested = -1
        self.current_frame, self.current_time = 0, 0.0
        self.view.message = "No video"
        self.view.set_image(None)
        self.slider.setRange(0, 0)
        self._update_label()

    def wait_for_timestamps(self, timeout_ms: int = 30000) -> bool:
        """Block until the timestamp scan ends (tests and benchmarks only)."""
        if self._scan_thread is None:
            return self.times is not None and self.times.complete
        return self._scan_thread.wait(timeout_ms) and self.times is not None

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

    def seek_frame(self, n: int, cache_before: int = 2) -> None:
        """Go to frame `n` exactly: the position moves now, the picture follows."""
        if self.times is None or self._worker is None:
            return
        n = max(0, min(int(n), max(self.times.frame_count - 1, 0)))
        self.current_frame = n
        self.current_time = self.times.time_of(n)
        self._requested = n
        ratio = self.view.devicePixelRatioF()
        self._worker.max_width = max(320, min(MAX_DISPLAY_WIDTH, int(self.view.width() * ratio)))
        self._worker.request_frame(n, cache_before)
        self._sync_slider()
        self._update_label()
        self.position_changed.emit(n, self.current_time)

    def seek_time(self, t: float) -> None:
        """Go to the frame shown at video time `t`."""
        if self.times is None:
            return
        self.seek_frame(self.times.frame_at(t))

    def step(self, k: int) -> None:
        """Step `k` frames (negative: backwards, with the cache primed for more back-steps)."""
        if self.times is None:
            return
        self.pause()
        cache = FrameSource.BACK_STEP_CACHE if k < 0 else 2
        self.seek_frame(self.current_frame + k, cache)

    def step_n_frames(self, direction: int) -> None:
        self.step(direction * self.step_n.value())

    def skip_seconds(self, s: float) -> None:
        if self.times is None:
            return
        self.seek_time(self.current_time + s)

    # -- playback --------------------------------------------------------------------------

    def play(self) -> None:
        if self.times is None or self.playing:
            return
        if self.current_frame >= self.times.frame_count - 1:
            self.seek_frame(0)
        self.playing = True
        self.play_button.setText("❚❚")
        self._play_wall0 = time.monotonic()
        self._play_video0 = self.current_time
        self._timer.start(max(4, int(1000 * self.times.info.frame_duration / self.speed / 2)))

    def pause(self) -> None:
        if not self.playing:
            return
        self.playing = False
        self.play_button.setText("▶")
        self._timer.stop()

    def toggle_play(self) -> None:
        self.pause() if self.playing else self.play()

    def set_speed(self, speed: float) -> None:
        speed = float(speed)
        if self.playing:  # re-anchor the clock so the position does not jump
            self._play_wall0 = time.monotonic()
            self._play_video0 = self.current_time
        self.speed = speed
        i = min(range(len(SPEEDS)), key=lambda j: abs(SPEEDS[j] - speed))
        self.speed_box.blockSignals(True)
        self.speed_box.setCurrentIndex(i)
        self.speed_box.blockSignals(False)
        if self.playing and self.times is not None:
            self._timer.start(max(4, int(1000 * self.times.info.frame_duration / speed / 2)))

    def faster(self) -> None:
        """L: play, or play faster when already playing."""
        if not self.playing:
            self.set_speed(1.0)
            self.play()
            return
        bigger = [s for s in SPEEDS if s > self.speed]
        if bigger:
            self.set_speed(bigger[0])

    def slower(self) -> None:
        """J: slower while playing; when paused, back one second."""
        if not self.playing:
            self.skip_seconds(-1.0)
            return
        smaller = [s for s in SPEEDS if s < self.speed]
        if smaller:
            self.set_speed(smaller[-1])

    def _tick(self) -> None:
        if self.times is None:
            self.pause()
            return
        if self._requested != self.shown_frame:
            return  # still decoding the previous frame: drop, do not queue
        t = self._play_video0 + (time.monotonic() - self._play_wall0) * self.speed
        n = self.times.frame_at(t)
        last = self.times.frame_count - 1
        if n >= last:
            n = last
            self.pause()
        if n != self.current_frame:
            self.seek_frame(n)

    # -- worker results --------------------------------------------------------------------

    def _on_frame(self, n: int, t: float, exact: int, image: QImage) -> None:
        if n != self._requested:
            return  # an older request finished after a newer one was made
        self.shown_frame = n
        if self.times is not None and n == self.current_frame:
            self.current_time = self.times.time_of(n)
        if not self._dragging:
            self.view.set_image(image)
        self._update_label()
        self.frame_shown.emit(n)

    def _on_preview(self, t: float, image: QImage) -> None:
        if self._dragging:
            self.view.set_image(image, approximate=True)

    def _on_scan_progress(self, count: int) -> None:
        if self.times is None:
            return
        self.slider.setMaximum(max(0, self.times.frame_count - 1))
        self.timestamps_progress.emit(count, int(self.times.complete))

    def _on_scan_done(self) -> None:
        if self.times is None:
            return
        self.slider.setMaximum(max(0, self.times.frame_count - 1))
        # The position label may have shown an estimate: now it is exact.
        self.current_time = self.times.time_of(self.current_frame)
        self._update_label()
        self.timestamps_progress.emit(len(self.times), 1)

    # -- scrubber --------------------------------------------------------------------------

    def _slider_pressed(self) -> None:
        self._dragging = True
        self.pause()

    def _slider_moved(self, value: int) -> None:
        if self.times is None or self._worker is None:
            return
        t = self.times.time_of(value)
        self._worker.request_preview(t)
        self.position_label.setText(self._label_text(value, t))

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
        exact = self.times is not None and self.times.is_exact(n)
        return f"frame {n} / {max(total - 1, 0)}  {format_timecode(t)}{'' if exact else '~'}"

    def _update_label(self) -> None:
        if self.times is None:
            self.position_label.setText("frame - / -  --:--:--.---")
            return
        self.position_label.setText(self._label_text(self.current_frame, self.current_time))

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.unload()
        super().closeEvent(event)
