"""The painted frame view: the frame letterboxed at the scale `picture_scale` chooses (whole
factors, sharp, for small sources), a 'preview' badge while scrubbing, a dimmed picture while
a seek's exact frame is decoded, or a message on black. No decoding here: the player
(`video_player.py`) hands it images from its frame worker (`player_parts.py`)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget


class FrameView(QWidget):
    """Paints the current frame, letterboxed, with a 'preview' badge while scrubbing, or a
    message (no video, no footage at this time, a decoder failure) on black."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image: QImage | None = None
        self.approximate = False
        self.pending: str | None = None  # the picture is an older frame: what is awaited
        self.message = "No video"
        self.setMinimumSize(320, 180)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(800, 450)

    def set_image(self, image: QImage | None, approximate: bool = False) -> None:
        self.image = image
        self.approximate = approximate
        self.pending = None
        self.update()

    def set_pending(self, text: str | None) -> None:
        """The picture on screen is not the frame the label names yet (a seek's exact frame
        is being decoded): it is dimmed and says so, until `set_image` brings the frame. On
        a 10-minute 720p run at load 20 that took 1.9 s, during which the label said
        "frame 8960" over frame 149 (seen on Xvfb at 1920x1080)."""
        if text != self.pending:
            self.pending = text
            self.update()

    def picture(self) -> tuple[QRectF, bool] | None:
        """Where the frame is painted (letterboxed, centred) and whether it is smoothed; None
        when there is no frame. See `picture_scale` for the scale."""
        if self.image is None or self.image.isNull():
            return None
        iw, ih = self.image.width(), self.image.height()
        scale, sharp = picture_scale(self.width(), self.height(), iw, ih)
        w, h = iw * scale, ih * scale
        # whole-pixel corners: a sharp picture's pixel squares stay the same size
        return QRectF((self.width() - w) // 2, (self.height() - h) // 2, w, h), not sharp

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt override
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(0, 0, 0))
        placed = self.picture()
        if placed is None:
            p.setPen(QColor(200, 200, 200))
            p.drawText(self.rect().adjusted(16, 0, -16, 0),
                       Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.message)
            return
        target, smooth = placed
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform,
                        smooth and not self.approximate)
        p.drawImage(target, self.image)
        badge = "preview (keyframe)" if self.approximate else self.pending
        if self.pending is not None:
            p.fillRect(target, QColor(0, 0, 0, 140))
        if badge:
            p.setPen(QColor(255, 200, 0))
            p.drawText(target.adjusted(8, 8, -8, -8),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, badge)


def picture_scale(view_w: int, view_h: int, img_w: int, img_h: int) -> tuple[float, bool]:
    """The scale a frame of img_w x img_h is painted at in a view of view_w x view_h, and
    whether it is painted sharp (nearest-neighbour, no smoothing).

    - It fits: the largest scale at which the whole frame is in view (letterboxed).
    - Within 1 % above 1:1 (a frame fitted by the decoder, a few px short): 1:1, sharp.
    - 2x or more (a small source, such as a 160x210 Atari screen, in a large view): the
      largest whole factor, nearest-neighbour, so every source pixel is the same square of
      screen pixels with the file's own colours. Smoothing at 2x blends a one-pixel sprite
      edge into its background over 2-3 px, and a fractional factor makes pixels of a row
      1 and 2, or 2 and 3, px wide (the playfield's lines waver as the picture moves). The
      whole factor gives up at most a third of the size (2.99x -> 2x) for that.
    - Between 1x and 2x: the fitted scale, smoothed (nearest-neighbour would double one row
      of pixels in two and drop none: uneven by 100 %); below 1x the decoder has already
      scaled the frame to the view (`FrameWorker._size`)."""
    if img_w <= 0 or img_h <= 0 or view_w <= 0 or view_h <= 0:
        return 1.0, True
    scale = min(view_w / img_w, view_h / img_h)
    if 1.0 <= scale < 1.01:
        return 1.0, True
    if scale >= 2.0:
        return float(int(scale)), True
    return scale, False
