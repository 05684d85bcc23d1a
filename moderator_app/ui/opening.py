"""Opening a submission in the window: verify it in the background, show the result in every
view, clear the previous one (its index, its video, its decompressed spool).

The lifecycle of one submission, apart from the window that lays out and wires the views
(`main_window`): `open_paths` cancels a verification still running, clears the views, starts
the new one (`BackgroundOp`, newest wins) and `apply_result` fills the views when it is done.
The window keeps `open_paths`, `apply_result`, `is_verifying` and `cancel_verification` as its
public entry points (the queue, drag and drop, Open recent and the tests call them).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog

from moderator_app.core.formats.members import SNIFFED_VIDEO_EXTS, VIDEO_EXTS
from moderator_app.core.kinds import Kind
from moderator_app.core.text import safe_text
from moderator_app.core.verify import isolated
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import VerifyResult
from moderator_app.core.video.audio import plays_sound
from moderator_app.core.video.isolate import prestart
from moderator_app.ui.background import BackgroundOp

if TYPE_CHECKING:
    from moderator_app.ui.main_window import MainWindow

APP_TITLE = "Moderator Workstation"


def window_title(name: str) -> str:
    # the window manager shows it: a name's ESC, newline or RLO (a spoofed extension) escaped
    return f"{safe_text(name)} — {APP_TITLE}" if name else APP_TITLE


def close_result(result: VerifyResult | None) -> None:
    if result is not None and result.index is not None:
        result.index.close()


class SubmissionOpener(QObject):
    """Owns the verification's background operation and the spool of decompressed copies."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window
        self.loader = BackgroundOp("verify", window)
        self._spool_root = Path(tempfile.mkdtemp(prefix="moderator-spool-"))
        self._spool: Path | None = None
        # Start the next verification's process as soon as one ends (the application sets
        # it: core/verify/isolated.py); windows made by tests start theirs when they open.
        self.start_ahead = False

    def dialog_folder(self) -> str:
        """Where File > Open and Open a review queue start: the folder that holds the open
        submission (its queue, most often), else the one that held the last submission
        opened, else the working directory (""). Session 40's walk: the queue's dialog opened
        in the directory the app was started from, far from any submission."""
        paths = self.w.session.paths or [Path(p) for p in self.w.recent()[:1]]
        folder = paths[0].parent if paths else None
        try:
            return str(folder) if folder is not None and folder.is_dir() else ""
        except OSError:  # a name too long, a folder that cannot be looked up
            return ""

    def file_dialog(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self.w, "Open submission", self.dialog_folder(),
            "Submissions (*.jsonl *.zst *.zip *.tar *.tar.gz *.tgz *.tar.zst "
            + " ".join(f"*{ext}" for ext in dict.fromkeys((*VIDEO_EXTS, *SNIFFED_VIDEO_EXTS)))
            + ");;All files (*)")
        if files:
            self.open_paths([Path(f) for f in files])

    def folder_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.w, "Open submission folder",
                                                  self.dialog_folder())
        if folder:
            self.open_paths([Path(folder)])

    def open_paths(self, paths: list[Path]) -> None:
        """Start verifying a submission in the background; the window stays responsive."""
        paths = [Path(p) for p in paths]
        self.loader.cancel(wait=True)  # the old run must not write into a removed spool
        self.clear()
        # A new submission has its own sync: start from offset 0 and no retime marks.
        self.w.session.set_offset(0.0, by=None)  # never set: the confirmation says so
        self.w.session.set_retime_start(None)
        self.w.session.set_retime_end(None)
        self.w.session.set_paths(paths)
        name = paths[0].name if len(paths) == 1 else paths[0].parent.name or paths[0].name
        self.w.setWindowTitle(window_title(name))
        spool = self._spool = Path(tempfile.mkdtemp(dir=self._spool_root))
        options = VerifyOptions(offset=self.w.session.offset_s, build_index=True,
                                spool_dir=spool)
        self.w.progress.setRange(0, 0)
        self.w.progress.setVisible(True)
        self.w.cancel_button.setVisible(True)
        self.w.status_label.setText(f"Verifying {name}…")
        # The player's decoder, its sound's and the scan's start now and import while the
        # submission is verified: the first picture then costs an open and a decode (issue 11
        # point 8). The verification process starts its probe's itself (pipeline.py).
        prestart(3 if plays_sound() else 2)
        # Verified in a process of its own (core/verify/isolated.py): a crash, MemoryError or
        # hang there is a message here, never the end of the window (issue 15).
        self.loader.run(lambda progress, cancel: isolated.verify_isolated(
                            paths, options, progress, cancel),
                        self._on_verified, self._on_failed, self._on_cancelled,
                        discard=close_result)
        if len(paths) == 1:
            self.w._add_recent(paths[0])

    def cancel(self, wait: bool = False) -> None:
        self.loader.cancel(wait=wait)

    @property
    def busy(self) -> bool:
        return self.loader.busy

    def _end_progress(self) -> None:
        self.w.progress.setVisible(False)
        self.w.cancel_button.setVisible(False)

    def on_progress(self, done: int, total: int) -> None:
        if total > 0:
            self.w.progress.setRange(0, 1000)
            self.w.progress.setValue(int(1000 * min(done, total) / total))
        else:
            self.w.progress.setRange(0, 0)

    def _on_failed(self, message: str) -> None:
        self._end_progress()
        self.w.status_label.setText(f"Cannot open: {message}")
        self.w.findings.summary.setText(f"Cannot open this submission: {message}")

    def _on_cancelled(self) -> None:
        self._end_progress()
        self.w.status_label.setText("Verification cancelled")

    def clear(self) -> None:
        close_result(self.w.session.result)
        self.w.player.unload()
        self.w.table_model.set_index(None)
        self.w.timeline.set_index(None)
        self.w.timeline.set_no_footage(())
        self.w.plots.set_index(None)
        self.w.detail.clear()
        self.w.session.set_result(None)
        self.w.nav.reset()
        if self._spool is not None:  # decompressed copies of the previous submission
            shutil.rmtree(self._spool, ignore_errors=True)
            self._spool = None

    def _on_verified(self, result: VerifyResult) -> None:
        self._end_progress()
        self.apply_result(result)
        if self.start_ahead:  # the next submission's process imports while this one is read
            isolated.prestart()

    def apply_result(self, result: VerifyResult) -> None:
        """Show a verification result in every view (also used directly by tests)."""
        report = result.report
        self.w.setWindowTitle(window_title(result.submission.display_name))
        index = result.index
        kind = report.kind
        self.w.table_model.set_index(index, kind.lane_title, kind is Kind.OFFICIAL)
        # The columns chosen for this kind of run (ui/table_columns.py): community lanes
        # are the event types (no second Type column), an official run's producers are the
        # timeline's lanes; the event number repeats the line number.
        self.w.columns.apply(kind.value, kind.type_column)
        self.w.fit_columns()
        self.w.event_filter.set_lanes(kind, index)
        self.w.timeline.set_index(index)
        probe = result.video_probe
        self.w.timeline.set_no_footage(probe.no_footage if probe is not None else ())
        self.w.plots.set_index(index)
        self.w.session.set_result(result)
        self.w.nav.reset()
        if result.video_path is not None:
            probe = result.video_probe
            digest = result.report.digest_for(probe.file) if probe is not None else None
            self.w.player.load(result.video_path, probe.index if probe is not None else None,
                               digest.sha256 if digest is not None else None,
                               no_footage=probe.no_footage if probe is not None else ())
        self.w.timeline.fit()
        self.w.plots.set_view(self.w.timeline.v0, self.w.timeline.v1)
        self.w.event_filter.update_count()
        if index is not None and len(index):
            self.w.nav.select_event(0)
        self.w._update_status()

    def shutdown(self) -> None:
        """Stop the verification and remove every spool (idempotent)."""
        self.loader.cancel(wait=True)
        shutil.rmtree(self._spool_root, ignore_errors=True)
