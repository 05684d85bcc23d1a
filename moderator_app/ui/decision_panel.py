"""The decision panel: accept or reject the submission under review, bound to its evidence.

It reads everything it records from the `ReviewSession` (the report at the current sync offset,
the offset, the retime marks, the store path), so the record is exactly what the moderator sees
and exactly what `moderator-app decide --offset` records for the same input and offset. After a
decision the form is cleared, the record is shown, and the next submission is offered. Saving is
a single SQLite append (a few milliseconds, durable on return), done on the GUI thread: there
is no queue that a crash could lose. The append first checks the ledger's chain; the walk of
the whole chain is done off the GUI thread when a store is shown (`walk_ahead`, a
`BackgroundOp`), so the append on the GUI thread checks only the records added since (session
30: ~0.7 s of CPU a decision at 10,000 decisions before). Every string from the submission is
shown as plain text.
"""

from __future__ import annotations

import dataclasses
import getpass
import os
from collections.abc import Callable

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from moderator_app.core.ledger.chained import LedgerError, StoredDecision
from moderator_app.core.ledger.claims import ClaimConflict
from moderator_app.core.ledger.config import describe_store, open_store, walk_ahead
from moderator_app.core.ledger.records import (
    ACCEPT,
    REASON_LABELS,
    REASON_OK,
    REASON_OTHER,
    REJECT,
    REJECT_REASONS,
    DecisionError,
    build_record,
    default_reason,
    evidence_digest,
    suggested_reason,
    utc_now,
)
from moderator_app.core.text import safe_cut, safe_output, safe_text
from moderator_app.ui.background import BackgroundOp
from moderator_app.ui.decision_text import confirmation_text, enter_confirms, offset_origin
from moderator_app.ui.shortcuts import by_action
from moderator_app.ui.tooltip import plain_tooltip

CHOOSE_REASON = "— choose a reason —"

SETTINGS_ORG = "moderator-app"
SETTINGS_APP = "moderator-app"
REVIEWER_KEY = "decisions/reviewer"
_KEYS = by_action()  # the one shortcut table (ui/shortcuts.py); this panel binds these two
ACCEPT_SHORTCUT = _KEYS["accept"].keys if "accept" in _KEYS else "Ctrl+Shift+A"
REJECT_SHORTCUT = _KEYS["reject"].keys if "reject" in _KEYS else "Ctrl+Shift+R"
NEXT_SHORTCUT = _KEYS["next_submission"].keys if "next_submission" in _KEYS else "Ctrl+Shift+N"


def default_reviewer() -> str:
    try:
        return os.environ.get("USER") or getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name is not an error, just no default
        return ""


def _plain(label: QLabel) -> QLabel:
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class DecisionPanel(QWidget):
    """Accept / Reject with reason, note, reviewer and (official runs) the walkthrough.

    `confirm` is the confirmation hook (a dialog by default); tests replace it. `decided`
    carries the ledger sequence number once the decision is durably stored.
    """

    decided = Signal(int)
    next_requested = Signal()
    notice = Signal()  # the status line says something new (a refusal, a record)
    fresh = Signal()  # another submission: a fresh form, read from its top

    def __init__(self, session, parent: QWidget | None = None,
                 settings: QSettings | None = None) -> None:
        super().__init__(parent)
        from moderator_app.ui.checklist import ChecklistWidget

        self.session = session
        self.confirm: Callable[[str, str], bool] = self._confirm_dialog
        #: The background analyses still running ("scan", "sync"), named in the confirmation;
        #: the window sets it (`MainWindow.busy`), a panel on its own has none.
        self.running: Callable[[], tuple[str, ...]] = tuple
        #: The warnings the findings list holds from those analyses, not in the verdict
        #: (`FindingsPanel.analysis_warnings`); the window sets it, a panel on its own has none.
        self.outside_warnings: Callable[[], int] = int
        #: What auto-sync says in the Sync dock (the main window's `AutoSyncBox` label), named
        #: in the confirmation beside an offset nobody set (`decision_text.offset_origin`).
        self.auto_sync: Callable[[], str] = str
        self._enter_confirms = False  # the open confirmation's Enter records (`_confirm_dialog`)
        self.last_saved: StoredDecision | None = None
        self._settings = settings if settings is not None else QSettings(SETTINGS_ORG,
                                                                         SETTINGS_APP)
        self._shown_digest: str | None = None
        self._shown_store = None
        # the ledger's chain walked ahead of the first decision, off the GUI thread
        self.walker = BackgroundOp("ledger-walk", self)
        self._walking: object = None  # the store the walker last walked (`load_history`)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(9, 2, 9, 9)  # 7 px less on top, 2 between: see checklist.py
        layout.setSpacing(4)
        self.title = _plain(QLabel("No submission open", self))
        self.title.setObjectName("decision-title")
        layout.addWidget(self.title)

        # The walkthrough first, under the title: at 1280x720 it was below the fold, under
        # the reason, note and reviewer (what a reviewer attests must be in view).
        self.checklist = ChecklistWidget(self)
        self.checklist.setVisible(False)
        layout.addWidget(self.checklist)

        form = QFormLayout()
        self.reason = QComboBox(self)
        self.reason.setObjectName("reject-reason")
        # The longest label must not set the dock's minimum width (it is elided instead).
        self.reason.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.reason.setMinimumContentsLength(14)
        self._reason_chosen = False  # True once the moderator picks a reason themselves
        self.reason.activated.connect(lambda _i: setattr(self, "_reason_chosen", True))
        # First, no reason: what a passing run's form starts with (the findings name none),
        # as `decide --reject` needs `--reason`. "other" preselected there read as the last
        # submission's reason left in the form (QA s14 G11, again in session 15).
        self.reason.addItem(CHOOSE_REASON, None)
        for code in REJECT_REASONS:
            self.reason.addItem(f"{code} — {REASON_LABELS[code]}", code)
        form.addRow("Reject reason:", self.reason)
        self.note = QPlainTextEdit(self)
        self.note.setObjectName("decision-note")
        self.note.setPlaceholderText("what you saw (kept in the record)")
        self.note.setTabChangesFocus(True)
        self.note.setMaximumHeight(90)
        form.addRow("Note:", self.note)
        self.reviewer = QLineEdit(self)
        self.reviewer.setObjectName("reviewer")
        self.reviewer.setText(str(self._settings.value(REVIEWER_KEY, "") or default_reviewer()))
        form.addRow("Reviewer:", self.reviewer)
        layout.addLayout(form)

        # What will be recorded (verdict, offset, retime marks) and Accept / Reject: a footer
        # the window pins under the panel's scroll area (`window_layout.build_docks`), so the
        # verdict is read beside the buttons and both stay in view however long the form.
        self.footer = QWidget(self)
        self.footer.setObjectName("decision-footer")
        footer = QVBoxLayout(self.footer)
        footer.setContentsMargins(0, 0, 0, 0)
        footer.setSpacing(4)
        self.summary = _plain(QLabel("", self.footer))
        self.summary.setObjectName("decision-summary")
        self.summary.setToolTip("What Accept or Reject records: the verdict at the current "
                                "sync offset, its error and warning counts, the offset and the "
                                "retime marks (video time)")
        footer.addWidget(self.summary)
        self.button_row = QWidget(self.footer)
        self.button_row.setObjectName("decision-buttons")
        buttons = QHBoxLayout(self.button_row)
        buttons.setContentsMargins(0, 0, 0, 0)
        self.accept_button = QPushButton("Accept", self)
        self.accept_button.setObjectName("accept")
        self.accept_button.setToolTip(f"Accept the submission ({ACCEPT_SHORTCUT})")
        self.reject_button = QPushButton("Reject", self)
        self.reject_button.setObjectName("reject")
        self.reject_button.setToolTip(f"Reject the submission ({REJECT_SHORTCUT})")
        self.accept_button.clicked.connect(lambda: self.decide(ACCEPT))
        self.reject_button.clicked.connect(lambda: self.decide(REJECT))
        buttons.addWidget(self.accept_button)
        buttons.addWidget(self.reject_button)
        footer.addWidget(self.button_row)
        layout.addWidget(self.footer)

        self.status = _plain(QLabel("", self))
        self.status.setObjectName("decision-status")
        layout.addWidget(self.status)

        self.next_button = QPushButton("Open the next submission", self)
        self.next_button.setObjectName("next-submission")
        self.next_button.setVisible(False)
        # The next submission's name is any length: it must not widen the panel past its
        # dock (at 1280x720 the button and the "Recorded" line beside it were cut off).
        self.next_button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.next_button.clicked.connect(self.next_requested)
        self._next_name: str | None = None  # the queue's next submission, shown elided
        layout.addWidget(self.next_button)

        layout.addWidget(QLabel("Earlier decisions on this evidence:", self))
        self.history = QListWidget(self)
        self.history.setObjectName("decision-history")
        self.history.setMaximumHeight(110)
        # Each earlier decision wrapped to the dock's width: one unwrapped line showed
        # "#1 2026-12-04T18:45:41.784Z REJECT (v" at 1280x720 and hid the reason, the
        # reviewer and the note behind a horizontal scroll (session 23's walk).
        self.history.setWordWrap(True)
        self.history.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.history.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.history.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout.addWidget(self.history)
        layout.addStretch(1)

        for seq, decision in ((ACCEPT_SHORTCUT, ACCEPT), (REJECT_SHORTCUT, REJECT)):
            sc = QShortcut(QKeySequence(seq), self)
            sc.setContext(Qt.ShortcutContext.WindowShortcut)
            sc.activated.connect(lambda d=decision: self.decide(d))

        session.changed.connect(self.refresh)
        self.refresh()

    # -- the next submission ----------------------------------------------------------------

    def offer_next(self, name: str | None, pending: bool = True) -> None:
        """The next button names the queue's next submission, elided in the middle to the
        button's width (the whole name in its tooltip): a two-line text wider than the
        288 px dock was cut on both sides ("pen the next submission (Ctrl+Shift+N" and a
        name without its start, seen on Xvfb at 1280x720)."""
        self._next_name = name
        if name is None:
            self.next_button.setText("No pending submission left in the queue" if pending
                                     else "Open the next submission")
            self.next_button.setToolTip("")
        else:
            # The name is the submitter's: as it is, `<b>…` made the tooltip rich text.
            self.next_button.setToolTip(plain_tooltip(f"Open {name} ({NEXT_SHORTCUT})"))
        self.next_button.setEnabled(name is not None or not pending)
        self._fit_next()

    def _fit_next(self) -> None:
        name = self._next_name
        if name is None:
            return
        button = self.next_button
        fm = button.fontMetrics()
        # The panel's width less its margins when the button is not laid out yet (hidden).
        width = button.width() if button.isVisible() else self.width() - 18
        first = "Open the next submission"
        room = max(40, width - 24)  # the style's button margins
        tail = f" ({NEXT_SHORTCUT})"
        if fm.horizontalAdvance(safe_text(name) + tail) > room:
            tail = ""  # the shortcut stays in the tooltip and the File menu
        line = fm.elidedText(safe_text(name), Qt.TextElideMode.ElideMiddle,
                             room - fm.horizontalAdvance(tail)) + tail
        button.setText(f"{fm.elidedText(first, Qt.TextElideMode.ElideRight, room)}:\n{line}")

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit_next()

    # -- state -----------------------------------------------------------------------------

    @property
    def result(self):
        """The verification result with its report at the current sync offset."""
        return self.session.result_at_offset

    def refresh(self) -> None:
        """Follow the session: new submission -> reset the form and show its history."""
        result = self.result
        has = result is not None
        self.accept_button.setEnabled(has)
        self.reject_button.setEnabled(has)
        if not has:
            self.title.setText("No submission open")
            self.summary.setText("")
            self.checklist.setVisible(False)
            self.history.clear()
            self._shown_digest = None
            return
        report = result.report
        digest = evidence_digest(report.files)
        self.title.setText(f"{report.kind} run: {safe_text(result.submission.display_name)}")
        s = report.summary()
        # What a click records, in one line of the 288 px dock as a rule (the walkthrough
        # above it must fit at 1280x720): the verdict, the counts that are not zero, the
        # offset; the retime marks when set.
        counts = [f"{n} {word}{'' if n == 1 else 's'}"
                  for n, word in ((s['errors'], "error"), (s['warnings'], "warning")) if n]
        retime = self._retime_text()
        self.summary.setText(" · ".join([s['verdict'].upper(), *([", ".join(counts)] if counts
                                                                 else []),
                                         f"offset {self.session.offset_s:+.3f} s"])
                             + (f" · {retime}" if retime else ""))
        self.checklist.setVisible(report.kind.has_checklist)
        self.checklist.set_report(report if report.kind.has_checklist else None)
        if digest != self._shown_digest:  # a different submission: start a fresh decision
            self._shown_digest = digest
            self._shown_store = self._store()
            self.note.clear()
            self.checklist.reset()
            self._suggest_reason()
            self.status.setText("")
            self.next_button.setVisible(False)
            self.load_history()
            self.fresh.emit()
        else:
            if not self._reason_chosen:  # the offset changed the findings: follow them
                self._suggest_reason()
            if self._store() != self._shown_store:  # another ledger: its history
                self._shown_store = self._store()
                self.load_history()

    def _store(self):
        return self.session.store_path

    def _retime_text(self) -> str:
        # Short: with the verdict and offset, two lines of the footer at 1280x720 (the long
        # words, "(video time), recorded with the decision", are in the footer's tooltip).
        start, end = self.session.retime_start_s, self.session.retime_end_s
        if start is None and end is None:
            return ""
        return "retime marks " + " → ".join("-" if t is None else f"{t:.3f} s"
                                            for t in (start, end))

    def _suggest_reason(self) -> None:
        """Preselect the reject reason the findings (at the current offset) point to, until
        the moderator picks one."""
        result = self.result
        if result is None:
            return
        report = result.report
        idx = (0 if default_reason(report) == REASON_OK  # no finding names a reason
               else self.reason.findData(suggested_reason(report, REJECT)))
        self.reason.blockSignals(True)
        self.reason.setCurrentIndex(max(idx, 0))
        self.reason.blockSignals(False)
        self._reason_chosen = False

    def clear_form(self) -> None:
        """After a decision: nothing of it stays in the form (the note, the reason, the
        walkthrough ticks) so that it cannot leak into the next one."""
        self.note.clear()
        self.checklist.reset()
        self._suggest_reason()

    def latest_decision(self):
        """The newest decision recorded on the open evidence (a `DecisionRecord`), or None."""
        result = self.result
        if result is None:
            return None
        try:
            with open_store(self._store(), create=False) as ledger:
                earlier = ledger.by_evidence(evidence_digest(result.report.files))
        except LedgerError:
            return None
        return earlier[-1].record if earlier else None

    def load_history(self) -> list[StoredDecision]:
        self.history.clear()
        result = self.result
        if result is None:
            return []
        store = self._store()
        # Damage found ahead is said in the history list, before the form is filled (not in
        # the status line, where it could hide the append's own refusal); the append checks
        # again, and refuses with the form kept. A walk of this store still running is not
        # started again: a walk does not stop when superseded, and each history load (every
        # submission shown, every decision) started one, several full walks at once on a
        # cold 10,000-decision ledger (session 30 review: 6.8 s of CPU for eight).
        if not (self.walker.busy and self._walking == store):
            self._walking = store
            self.walker.run(lambda _progress, cancel: walk_ahead(store, cancel),
                            on_done=self._walked_ahead)
        try:
            with open_store(self._store(), create=False) as ledger:
                earlier = ledger.by_evidence(evidence_digest(result.report.files))
        except LedgerError as exc:
            self.history.addItem(safe_text(f"cannot read the ledger: {exc}"))
            return []
        for d in earlier:
            r = d.record
            text = (f"#{d.seq} {r.decided_at} {r.decision.upper()} ({r.reason}) by "
                    f"{r.reviewer}" + (f": {r.note}" if r.note else ""))
            # QListWidget items are plain, but a ledger (a team store: other moderators' text)
            # may hold ESC or U+202E: escaped, as `decisions list` prints them
            self.history.addItem(safe_cut(text.replace("\n", " "), 300))
        if not earlier:
            self.history.addItem("none")
        return earlier

    def _walked_ahead(self, outcome) -> None:
        if outcome is not None and not outcome.ok:
            at = f" at seq {outcome.bad_seq}" if outcome.bad_seq is not None else ""
            self.history.addItem(safe_cut(
                f"this ledger is damaged{at} ({outcome.reason}): a decision here will not be "
                "recorded; see `moderator-app decisions verify`".replace("\n", " "), 300))

    # -- deciding --------------------------------------------------------------------------

    def _confirm_dialog(self, title: str, text: str) -> bool:
        box = QMessageBox(QMessageBox.Icon.Question, title, text,
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                          self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        # Enter records a plain decision; where the confirmation warns, and for any other
        # question (overriding a claim), Enter cancels: `decision_text.enter_confirms`
        box.setDefaultButton(QMessageBox.StandardButton.Yes if self._enter_confirms
                             else QMessageBox.StandardButton.Cancel)
        return box.exec() == QMessageBox.StandardButton.Yes

    def _warn(self, text: str) -> None:
        # a note, a reviewer or a ledger's message may hold controls and bidi overrides
        self.status.setText(safe_output(text))
        self.notice.emit()

    def decide(self, decision: str, confirm: bool = True) -> StoredDecision | None:
        """Record `decision` for the open submission; returns the stored decision or None
        when cancelled or refused (the reason is shown in the status line)."""
        result = self.result
        if result is None:
            return None
        report = result.report
        reviewer = self.reviewer.text().strip()
        if not reviewer:
            self._warn("Enter the reviewer name first.")
            self.reviewer.setFocus()
            return None
        code = self.reason.currentData()
        if decision == REJECT and code is None:
            self._warn("Choose a reject reason: the findings name none (as `moderator-app "
                       "decide --reject` needs `--reason`).")
            self.reason.setFocus()
            return None
        reason = "ok" if decision == ACCEPT else str(code)
        note = self.note.toPlainText()
        if decision == REJECT and reason == REASON_OTHER and not note.strip():
            self._warn("A reject with reason 'other' needs a note: the submitter must be able "
                       "to read why.")
            self.note.setFocus()
            return None
        checklist = report.kind.has_checklist
        missing = self.checklist.missing() if checklist else []
        override = self.checklist.override_note() if checklist else ""
        if decision == ACCEPT and missing and not override:
            self._warn("Accepting with walkthrough items unticked needs an override note ("
                       + ", ".join(missing) + ").")
            self.checklist.override_edit.setFocus()
            return None
        try:
            record = build_record(
                result, decision, reason=reason, note=note,
                reviewer=reviewer, offset_s=self.session.offset_s,
                retime_start_s=self.session.retime_start_s,
                retime_end_s=self.session.retime_end_s,
                checklist=self.checklist.ticked() if checklist else (),
                override_note=override or None, require_checklist=checklist)
        except DecisionError as exc:
            self._warn(f"NOT recorded: {exc}")
            return None
        # The confirmation is read from the record that will be stored, field by field.
        running, outside = self.running(), self.outside_warnings()
        self._enter_confirms = enter_confirms(record, running, outside)
        try:
            confirmed = not confirm or self.confirm(
                f"Confirm {decision}",
                confirmation_text(record, describe_store(self._store()), running, outside,
                                  offset_origin(self.session.offset_by, self.auto_sync())))
        finally:
            self._enter_confirms = False
        if not confirmed:
            self._warn("Cancelled: nothing recorded.")
            return None
        changed = getattr(result.submission, "changed_files", list)()
        if changed:  # swapped while the confirmation was open: as `build_record` refuses
            name = safe_text(os.path.basename(changed[0]))
            self._warn(f"NOT recorded: {name} changed since the submission was verified "
                       "(replaced, rewritten or removed): verify it again before deciding")
            return None
        record = dataclasses.replace(record, decided_at=utc_now())  # when confirmed
        try:
            with open_store(self._store()) as ledger:
                try:
                    stored = ledger.append(record)
                except ClaimConflict as exc:
                    # Someone else holds this run: an explicit override, the note says why.
                    if not note.strip() or not self.confirm(
                            "Claimed by someone else",
                            f"{exc}.\n\nDecide anyway, recording your note as the reason "
                            "for overriding the claim? (Enter cancels.)"):
                        self._warn(f"NOT recorded: {exc}. To override, write why in the "
                                   "note and confirm.")
                        return None
                    stored = ledger.append(dataclasses.replace(record, claim_override=note))
        except (DecisionError, LedgerError, OSError) as exc:
            self._warn(f"NOT recorded: {exc}")  # the form stays as it is, for a retry
            return None
        self._settings.setValue(REVIEWER_KEY, reviewer)
        self.last_saved = stored
        r = stored.record
        self._warn(f"Recorded #{stored.seq}: {r.decision.upper()} ({r.reason}) by {r.reviewer}, "
                   f"verdict {r.summary.verdict.upper()} at offset {r.sync_offset_s:+.3f} s"
                   + (f", note: {r.note}" if r.note else "") + f" — in {ledger.display}")
        self.clear_form()
        self.next_button.setVisible(True)
        self.load_history()
        self.decided.emit(stored.seq)
        return stored
