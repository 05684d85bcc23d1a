"""The official-run walkthrough checklist of a trusted reviewer.

The items come from `core.decision.CHECKLIST_ITEMS` (their ids are stored in the record). The
checklist does not block a decision by itself: accepting with items unticked needs an
override note, which the decision panel asks for and `build_record` enforces.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from moderator_app.core.ledger.records import CHECKLIST_IDS, CHECKLIST_ITEMS
from moderator_app.core.text import counted
from moderator_app.core.verify.sections import OfficialRun
from moderator_app.ui.tooltip import plain_tooltip


class _ClickLabel(QLabel):
    """A label that toggles its check box when clicked, as a check box's own text does."""

    clicked = Signal()

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.clicked.emit()
        event.accept()


class _Hint(QLabel):
    """What the verifier says under an item, muted (it is not the reviewer's tick), on ONE
    line elided to the width (the whole text in `text()` and a plain-text tooltip): wrapped
    to 2-3 lines in the 288 px dock, the hints pushed the walkthrough below the fold at
    1280x720."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setIndent(22)
        # Any width: the text is elided to it, never sets the dock's minimum width.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def set_full_text(self, text: str) -> None:
        self.setText(text)
        self.setToolTip(plain_tooltip(f"What the verifier found: {text}") if text else "")

    def shown_text(self) -> str:
        """The line as drawn: the text, elided to the label's width."""
        room = self.contentsRect().width() - self.indent()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, room)

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        rect = self.contentsRect().adjusted(self.indent(), 0, 0, 0)
        # The theme's muted text (a disabled label's grey was too faint to read).
        painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         self.shown_text())


class ChecklistWidget(QWidget):
    """Five checkboxes, each with the verifier's one-line hint, and an override note.
    `changed` fires on any edit.

    Compact on purpose (no frame or heading, one-line hints, the override's explanation in
    its placeholder and tooltip): at 1280x720 the whole walkthrough must be in view in the
    Decision dock without scrolling (docs/DECISIONS.md, "walkthrough in view")."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 2)
        layout.setSpacing(1)
        self.boxes: dict[str, QCheckBox] = {}
        self.hints: dict[str, _Hint] = {}
        for item_id, label in CHECKLIST_ITEMS:
            # The box and its words apart, so the words wrap in a narrow dock (a QCheckBox's
            # own text never wraps and would set the dock's minimum width).
            box = QCheckBox(self)
            box.setObjectName(f"check-{item_id}")
            box.setAccessibleName(label)
            box.setToolTip("Tick when you checked this yourself: the ticks are recorded with "
                           "the decision")
            box.toggled.connect(self._on_change)
            words = _ClickLabel(label, self)
            words.setWordWrap(True)
            words.clicked.connect(box.toggle)
            row = QHBoxLayout()
            row.setSpacing(6)
            row.addWidget(box, 0, Qt.AlignmentFlag.AlignTop)
            row.addWidget(words, 1)
            layout.addLayout(row)
            self.boxes[item_id] = box
            hint = _Hint(self)
            hint.setObjectName(f"hint-{item_id}")
            layout.addWidget(hint)
            self.hints[item_id] = hint
        layout.addSpacing(2)
        self.override_edit = QLineEdit(self)
        self.override_edit.setObjectName("override-note")
        self.override_edit.setPlaceholderText("Override note: why accept with items unticked")
        self.override_edit.setToolTip("Needed to accept with walkthrough items unticked; "
                                      "recorded with the decision")
        self.override_edit.textChanged.connect(self._on_change)
        layout.addWidget(self.override_edit)

    def _on_change(self, *_: object) -> None:
        self.changed.emit()

    def ticked(self) -> list[str]:
        return [i for i in CHECKLIST_IDS if self.boxes[i].isChecked()]

    def missing(self) -> list[str]:
        return [i for i in CHECKLIST_IDS if not self.boxes[i].isChecked()]

    def set_ticked(self, ids: list[str] | tuple[str, ...]) -> None:
        for i, box in self.boxes.items():
            box.setChecked(i in ids)

    def override_note(self) -> str:
        return self.override_edit.text().strip()

    def set_report(self, report: Any | None) -> None:
        """Show, under each item, what the verifier found. Items are never ticked for the
        reviewer: the tick records that a person looked."""
        hints = report_hints(report) if report is not None else {}
        for item_id, label in self.hints.items():
            label.set_full_text(hints.get(item_id, ""))
            label.setVisible(bool(hints.get(item_id)))

    def reset(self) -> None:
        self.set_ticked(())
        self.override_edit.clear()


def _count(report: Any, *prefixes: str) -> int:
    return sum(n for rule_id, n in report.findings.by_rule.items()
               if rule_id.startswith(prefixes))


def _score_text(auth: Any) -> str:
    """The evaluator's result as words: `64.52 (2 episodes)`, never a Python dict."""
    if not isinstance(auth, dict):
        return str(auth)
    text = str(auth.get("score", "?"))
    if auth.get("episodes") is not None:
        text += f" ({counted(auth['episodes'], 'episode')})"
    return text


def report_hints(report: Any) -> dict[str, str]:
    """One line per walkthrough item from the report's chain, run and coverage sections:
    what the verifier found, short enough for one line of the 288 px dock (the panel says
    "the verifier" in each hint's tooltip; the words are never a tick)."""
    out: dict[str, str] = {}
    chain = report.chain
    if chain is not None:
        if chain.valid:
            out["chain-verified"] = (f"chain valid, {counted(chain.events, 'event')}, "
                                     f"head {str(chain.head or '')[:16]}…")
        else:
            brk = chain.first_break
            where = f", first break at line {brk.line}" if brk else ""
            out["chain-verified"] = f"chain NOT valid ({counted(chain.breaks, 'break')}{where})"
    run = report.run if isinstance(report.run, OfficialRun) else None
    if run is not None:
        score = run.score
        auth = score.authoritative
        out["score-reviewed"] = (
            (f"evaluator score {_score_text(auth)} (line {score.authoritative_line})"
             if auth is not None else "no evaluator score")
            + f"; {score.untrusted_claims_total} untrusted score claims")
    seeds = run.seeds if run is not None else {}
    if seeds or _count(report, "seed."):
        if _count(report, "seed.not_checked") or not seeds.get("checked"):
            out["seeds-checked"] = "NOT checked: no seeds or secret"
        else:
            bad = _count(report, "seed.commitment")
            out["seeds-checked"] = (f"{seeds.get('commitments', 0)} commitments checked, "
                                    f"{bad} problems")
    cov = report.coverage
    if cov is not None:
        out["video-watched"] = (f"video {'covers' if cov.covered else 'does NOT cover'}"
                                f" the run; missing {cov.missing_s:.1f} s")
    elif report.kind.has_checklist:
        out["video-watched"] = "no video checked against the run"
    leaks = _count(report, "seed.leak", "seed.secret_leak", "secret.", "log.withheld_leak")
    out["no-leaks"] = (f"{leaks} suspected leaks" if leaks
                       else "no leak found by the scanners")
    return out
