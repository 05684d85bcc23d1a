"""How much of the main window each part gets: the default proportions, the findings dock's
rows, the plots under the timeline shown or not.

Kept apart from `window_layout` (which widget goes where) and `window_state` (what is saved
between starts): these are the sizes computed from the window's own size, on the first show and
on View > Reset layout, where a 1280x720 screen and a 2560x1440 one need different shares
(the video, the event table's Content column and six findings rows all competing at 1280x720).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSignalBlocker, Qt, QTimer

from moderator_app.ui.findings_panel import MIN_ROWS, ROW_LINES, SHORT_ROW_LINES

if TYPE_CHECKING:
    from moderator_app.ui.main_window import MainWindow

#: From this window height on, three-line findings rows and the plots under the timeline;
#: below (a 1280x720 screen), two-line rows and the plots' height for the video.
TALL_WINDOW = 900


def apply_default_proportions(self: MainWindow) -> None:
    """Default sizes in proportion to the window: the docks get about a quarter of the
    width (340-560 px), the video 60 % of the rest, the timeline a third of the height;
    so 1280x720 fits and 2560x1440 gives the video and the findings real room."""
    w = self.width()
    # 1280 wide: docks of 288 px (were 345, then 307) leave the event table's Content
    # its room beside a 540 px video (the Sync panel's widest row, the retime buttons,
    # needs 270 px beside its scroll bar); from 1500 px on the docks get 27 %.
    dock_w = int(min(max(w * (0.225 if w < 1500 else 0.27), 280), 560))
    self.resizeDocks([self.findings_dock], [dock_w], Qt.Orientation.Horizontal)
    central = max(400, w - dock_w)
    # Below 1500 px the video gets no more than its controls' minimum (540 px on Xvfb,
    # a 540x304 picture): the table needs every pixel for its Content column at 1280.
    share = 0.5 if w < 1500 else 0.6
    self.top_split.setSizes([int(central * share), central - int(central * share)])
    h = self.main_split.height() or self.height() - 60
    if self.height() < TALL_WINDOW:
        # A short window (1280x720): the video gets all the height the timeline's lanes
        # do not need (the splitter keeps the bottom at its minimum, per submission); at
        # two thirds a 320x420 Atari screen was shown at 75 % (526x317 view).
        self.main_split.setStretchFactor(0, 1)
        self.main_split.setStretchFactor(1, 0)  # a taller window: the video grows
        _bottom_at_minimum(self)
        QTimer.singleShot(0, self, lambda: _bottom_at_minimum(self))  # once laid out at its size
    else:
        self.main_split.setStretchFactor(0, 3)
        self.main_split.setStretchFactor(1, 1)
        self.main_split.setSizes([int(h * 0.66), h - int(h * 0.66)])
    # The findings and the tabs under them (Sync, Decision, Run, Queue): the findings get
    # six rows (2.5 were in view at 1280x720, session 13's O4), of two lines on a short
    # screen, the tabs the rest (the Decision tab's verdict and buttons stay pinned in
    # view, an official run's walkthrough scrolls there).
    fit_findings_dock(self)
    # again once laid out: the panel's own heights around the list are known then
    QTimer.singleShot(0, self, lambda: fit_findings_dock(self))


def _bottom_at_minimum(self: MainWindow) -> None:
    """The timeline's part of the height at its minimum, the rest to the video."""
    total = sum(self.main_split.sizes()) or self.main_split.height()
    self.main_split.setSizes([total, 0])


def fit_findings_dock(self: MainWindow) -> None:
    """The findings dock as tall as MIN_ROWS rows need: of three lines from a window
    900 px tall (a 1920x1080 screen showed 5 rows), else of two."""
    f = self.findings
    lines = ROW_LINES if self.height() >= TALL_WINDOW else SHORT_ROW_LINES
    # The message box at its minimum (it scrolls), the list takes the rest and all of
    # the dock's growth (the box does not stretch).
    sp, message_h = f.splitter, f.message.minimumHeight()
    total = sum(sp.sizes())
    if total > message_h:
        sp.setSizes([total - message_h, message_h])
    deficit = MIN_ROWS * f.row_height(lines) - f.view.viewport().height()
    self.resizeDocks([self.findings_dock], [self.findings_dock.height() + deficit],
                     Qt.Orientation.Vertical)


def show_plots_as_chosen(self: MainWindow) -> None:
    """The plots under the timeline as the moderator last chose (View > Plots), else
    shown on a window at least TALL_WINDOW px tall: on a 1280x720 screen their 102 px
    go to the video (with them a 320x420 source was shown at 75 %, without at 1:1)."""
    chosen = self.settings.value("view/plots")
    shown = (str(chosen).lower() in ("1", "true") if chosen is not None
             else self.height() >= TALL_WINDOW)
    self.plots.setVisible(shown)
    act = self.actions.get("show_plots")
    if act is not None:
        blocker = QSignalBlocker(act)
        act.setChecked(shown)
        del blocker


def set_plots_shown(self: MainWindow, shown: bool) -> None:
    """View > Plots: remembered (until View > Reset layout)."""
    self.settings.setValue("view/plots", int(bool(shown)))
    self.plots.setVisible(bool(shown))
