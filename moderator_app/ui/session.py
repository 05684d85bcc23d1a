"""The state of one review, shared by every panel of the workstation.

Panels never talk to each other directly: they read a `ReviewSession` and listen to its
`changed` signal, so the sync controls, the retime panel and the decision panel agree on one
offset and one pair of retime marks without knowing about each other.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from moderator_app.core.verify.at_offset import result_at_offset
from moderator_app.core.verify.pipeline import VerifyResult
from moderator_app.core.verify.report import Report
from moderator_app.ui.decision_text import MODERATOR


class ReviewSession(QObject):
    """What is being reviewed and the moderator's working values.

    `offset_s` is the video time of `run_start` (docs/DESIGN.md's sync offset). The retime marks are
    video seconds taken from decoded frame timestamps, so they are frame-exact.

    `result` is the verification as it was run; `report` is its report at the current offset
    (`core.verify.at_offset`), which is what every view shows and what a decision records, so
    that the screen, the ledger and `moderator-app decide --offset` agree.
    """

    changed = Signal()
    # Emitted with the new offset only, for views that recompute coverage live.
    offset_changed = Signal(float)
    result_changed = Signal()
    # The report at the current offset changed (new result or new offset).
    report_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.result: VerifyResult | None = None
        self._at_offset: VerifyResult | None = None
        self.offset_s: float = 0.0
        #: Who set `offset_s`: None (never set: a new submission's 0), `decision_text.AUTO_SYNC`
        #: (the suggestion applied) or `MODERATOR` (typed, nudged, "run_start here"). The ledger
        #: binds the offset whoever set it (docs/DESIGN.md), so the decision's confirmation says
        #: which: QA s41's GUI walk recorded +0.000 s beside "not enough signal" (truth 0.85 s)
        #: with nothing saying that nobody had set it.
        self.offset_by: str | None = None
        self.retime_start_s: float | None = None
        self.retime_end_s: float | None = None
        self.store_path: Path | None = None
        self.paths: list[Path] = []

    # -- setters: each emits `changed` only when the value really changes -----------------

    def set_result(self, result: VerifyResult | None) -> None:
        self.result = result
        self._at_offset = None if result is None else result_at_offset(result, self.offset_s)
        self.result_changed.emit()
        self.report_changed.emit()
        self.changed.emit()

    def set_paths(self, paths: list[Path]) -> None:
        self.paths = [Path(p) for p in paths]
        self.changed.emit()

    def set_offset(self, offset_s: float, by: str | None = MODERATOR) -> None:
        """`by`: who sets it (`offset_by`); the same value set by someone else is said so."""
        offset_s = float(offset_s)
        if offset_s == self.offset_s:
            if by != self.offset_by:
                self.offset_by = by
                self.changed.emit()
            return
        self.offset_s, self.offset_by = offset_s, by
        if self.result is not None:
            self._at_offset = result_at_offset(self.result, offset_s)
        self.offset_changed.emit(offset_s)
        self.report_changed.emit()
        self.changed.emit()

    def set_retime_start(self, t: float | None) -> None:
        if t == self.retime_start_s:
            return
        self.retime_start_s = t
        self.changed.emit()

    def set_retime_end(self, t: float | None) -> None:
        if t == self.retime_end_s:
            return
        self.retime_end_s = t
        self.changed.emit()

    def set_store_path(self, path: Path | str | None) -> None:
        from moderator_app.core.ledger.postgres import is_postgres

        # A team store stays a connection string (Path would fold its "//").
        self.store_path = None if path is None else (
            path if is_postgres(path) else Path(path))
        self.changed.emit()

    # -- derived values --------------------------------------------------------------------

    @property
    def report(self) -> Report | None:
        """The report at the current offset: what the views show and a decision records."""
        return None if self._at_offset is None else self._at_offset.report

    @property
    def result_at_offset(self) -> VerifyResult | None:
        """The verification result with `report` (for `build_record`)."""
        return self._at_offset

    @property
    def video_duration_s(self) -> float | None:
        """The measured duration of the playable video, None without one."""
        report = self.report
        video = report.video if report is not None else None
        return None if video is None else video.measured_s

    @property
    def retime_video_s(self) -> float | None:
        """Video-measured duration between the retime marks, when both are set."""
        if self.retime_start_s is None or self.retime_end_s is None:
            return None
        return self.retime_end_s - self.retime_start_s

    @property
    def display_name(self) -> str:
        """The submission's folder or file name, for the window title."""
        if self.result is not None:
            return self.result.submission.display_name
        if self.paths:
            return self.paths[0].name or str(self.paths[0])
        return ""
