"""The player's controls and how they are laid out: the scrubber on a row of its own, under it
the frame step, play and speed buttons and the position label, all fixed in width so that the
video and the table beside it never move as their texts change.

Kept apart from `video_player` (which holds the playback and the seeking) so that a layout
change is one file; `build_controls` sets the widgets as attributes of the player, as
`window_layout` does for the window.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSlider,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
)

from moderator_app.ui.player_parts import NO_FOOTAGE, SPEEDS

if TYPE_CHECKING:
    from moderator_app.ui.video_player import VideoPlayer

PLAY_TEXT = "▶"
# Pause: two bars in ASCII, no wider than "▶" (27 px on Xvfb; "❚❚" was 37 px and comes from
# a fallback font, which a machine without one shows as boxes).
PAUSE_TEXT = "||"


def build_controls(player: VideoPlayer) -> None:
    """The controls under `player.view`, and the player's layout."""
    player.play_button = QToolButton(text=PLAY_TEXT)
    player.play_button.setToolTip("Play / pause (Space)")
    # One width for both faces: "❚❚" was 10 px wider than "▶", so at 1280x720, where the
    # video has its controls' minimum width, each Play moved the video and the table
    # beside it by 10 px, and they stayed there (seen on Xvfb). Fixed at the wider face.
    faces = []
    for text in (PLAY_TEXT, PAUSE_TEXT):
        player.play_button.setText(text)
        faces.append(player.play_button.sizeHint().width())
    player.play_button.setText(PLAY_TEXT)
    player.play_button.setFixedWidth(max(faces))
    player.back_button = QToolButton(text="◀|")
    player.back_button.setToolTip("Previous frame (,)")
    player.fwd_button = QToolButton(text="|▶")
    player.fwd_button.setToolTip("Next frame (.)")
    player.step_n = QSpinBox()
    player.step_n.setRange(1, 10000)
    player.step_n.setValue(10)
    player.step_n.setPrefix("N=")
    player.step_n.setToolTip("Frames stepped by [ and ]")
    player.speed_box = QComboBox()
    for s in SPEEDS:
        player.speed_box.addItem(f"{s:g}x", s)
    player.speed_box.setCurrentIndex(SPEEDS.index(1.0))
    player.slider = QSlider(Qt.Orientation.Horizontal)
    player.slider.setRange(0, 0)
    player.position_label = QLabel()
    player.position_label.setTextFormat(Qt.TextFormat.PlainText)
    player.position_label.setObjectName("positionLabel")
    font = player.position_label.font()
    font.setFamily("monospace")
    player.position_label.setFont(font)
    # As wide as its widest text from the start: "no footage at this time" (or a longer
    # frame number) widened the player, and the splitter moved the video panel and the
    # table beside it each time the playhead left the footage (seen at 1280x720).
    fm = player.position_label.fontMetrics()
    player.position_label.setMinimumWidth(4 + max(
        fm.horizontalAdvance(f"{NO_FOOTAGE}  88:88:88.888"),
        fm.horizontalAdvance("frame 8888888 / 8888888  88:88:88.888")))
    player.position_label.setAlignment(Qt.AlignmentFlag.AlignRight
                                       | Qt.AlignmentFlag.AlignVCenter)

    controls = QHBoxLayout()
    # 1 px above and below (was 2): at 1280x720 the view is then 421 px tall, a 320x420
    # Atari source shown 1:1 (419 px: scaled to 99.8 %, every row resampled)
    controls.setContentsMargins(4, 1, 4, 1)
    for w in (player.back_button, player.play_button, player.fwd_button, player.step_n,
              player.speed_box):
        controls.addWidget(w)
    controls.addStretch(1)
    controls.addWidget(player.position_label)
    # The scrubber has a row of its own, the full width of the picture (as in mpv and
    # YouTube): beside the buttons it collapsed to a bare handle in a narrow dock.
    player.slider.setMinimumWidth(120)
    scrub = QHBoxLayout()
    scrub.setContentsMargins(4, 0, 4, 0)
    scrub.addWidget(player.slider, 1)
    layout = QVBoxLayout(player)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    layout.addWidget(player.view, 1)
    layout.addLayout(scrub)
    layout.addLayout(controls)
