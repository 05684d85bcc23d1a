"""The "Run" panel: what the report says about the run as a whole, for the reviewer's eye.

Trusted reviewers need the chain status, each producer with its trust level, and the
evaluator's score shown apart from any score the agent claimed (docs/DESIGN.md decision 7); the
moderator of a community run needs the game, model, scaffold, video and coverage at a glance.
Every value comes from the report dicts built by the core; all of it is shown as plain text in
item views (which never interpret markup), and tooltips go through `tooltip.plain_tooltip`
(Qt would render a tooltip that looks like markup).
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from moderator_app.core.text import safe_text
from moderator_app.core.verify.sections import OfficialRun
from moderator_app.core.verify.sections_community import CommunityRun
from moderator_app.ui.session import ReviewSession
from moderator_app.ui.tooltip import plain_tooltip

MAX_CLAIMS_SHOWN = 50


def _official_run(run: OfficialRun) -> list[tuple[str, list[tuple[str, str]]]]:
    """The producers, the score (the evaluator's apart from every claim) and the run."""
    out = [("Producers (trust level, events)", [
        (str(name), f"{_text(p.trust_level)} · {_text(p.events)} events")
        for name, p in sorted(run.producers.items())])]
    score = run.score
    rows = [("evaluator (authoritative)", _text(score.authoritative)
             + (f"  [line {score.authoritative_line}]" if score.authoritative_line else ""))]
    for claim in score.untrusted_claims[:MAX_CLAIMS_SHOWN]:
        rows.append(("UNTRUSTED claim", _text(claim)))
    if score.untrusted_claims_total > MAX_CLAIMS_SHOWN:
        rows.append(("UNTRUSTED claims", f"{score.untrusted_claims_total} in all"))
    out.append(("Score", rows))
    out.append(("Run", [
        ("run_id", _text(run.run_id)),
        ("started / ended", f"{_text(run.started_at)} → {_text(run.ended_at)}"),
        ("duration", f"{_text(run.duration_s)} s ({_text(run.span_from)})"),
        ("seed commitments", f"{_text(run.seeds.get('commitments'))}, checked: "
                             f"{_text(run.seeds.get('checked'))}"),
        ("suspected secrets", _text(run.secrets_suspected)),
    ]))
    return out


def _text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    return str(value)


def summary_sections(report: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """(section title, [(field, value)]) for a report: the panel's content, testable alone."""
    out: list[tuple[str, list[tuple[str, str]]]] = []
    summary = report.summary()
    out.append(("Verdict", [
        ("verdict", report.verdict.upper()),
        ("verification level", report.verification_level),
        ("errors / warnings", f"{summary['errors']} / {summary['warnings']}"),
        ("events read", str(report.events)),
        ("complete", _text(report.complete)),
    ]))
    run = report.run
    if report.kind.has_chain:
        chain = report.chain
        brk = chain.first_break if chain else None
        out.append(("Chain", [
            ("valid end to end", _text(chain and chain.valid)),
            ("complete", _text(chain and chain.complete)),
            ("events", _text(chain and chain.events)),
            ("breaks", _text(chain and chain.breaks)),
            ("first break", f"line {brk.line} ({brk.kind})" if brk else "none"),
            ("head hash", _text(chain and chain.head)),
        ]))
        if isinstance(run, OfficialRun):
            out.extend(_official_run(run))
    else:
        start = run.start if isinstance(run, CommunityRun) else None
        out.append(("Run", [
            ("game", _text(start and start.game)),
            ("category", _text(start and start.category)),
            ("model", _text(start and start.model)),
            ("scaffold", _text(start and start.scaffold)),
            ("started_at", _text(start and start.started_at)),
            ("ended_at", _text(run and run.ended_at)),
            ("duration_s", _text(run and run.duration_s))]))
    video = report.video
    if video is not None:
        out.append(("Video", [
            ("file", _text(video.file)), ("codec", _text(video.codec)), ("fps", _text(video.fps)),
            ("frame_count", _text(video.frame_count)), ("width", _text(video.width)),
            ("height", _text(video.height)), ("duration_s", _text(video.duration_s)),
            ("method", _text(video.method))]))
    cov = report.coverage
    if cov is not None:
        out.append(("Coverage", [
            ("covered", _text(cov.covered)),
            ("missing", f"{_text(cov.missing_s)} s (limit {_text(cov.tolerance_s)} s)"),
            ("run / video", f"{_text(cov.run_duration_s)} s / {_text(cov.video_duration_s)} s"),
            ("offset", f"{_text(cov.offset_s)} s (at verification)"),
        ]))
    out.append(("Files (SHA-256)", [(f.name, f"{f.size} bytes · {f.sha256}")
                                     for f in report.files]))
    return out


#: A value longer than this is cut on screen (its tooltip and Copy value hold it whole): a
#: submitted model name of 10 KB must not make one row taller than the dock.
MAX_SHOWN_CHARS = 300
#: A run of this many characters without a space (a SHA-256, a run id) gets break
#: opportunities (zero-width spaces, on screen only) so that it wraps instead of being cut.
_BREAK_EVERY = 16
_UNBROKEN = re.compile(rf"\S{{{_BREAK_EVERY + 1},}}")


def shown_value(text: str) -> str:
    """A value as drawn in the narrow dock: controls and bidi overrides as visible escapes
    (a model name holding U+202E was drawn reversed, "xxxledom"), cut to MAX_SHOWN_CHARS,
    long words breakable."""
    text = safe_text(text)
    if len(text) > MAX_SHOWN_CHARS:
        text = text[:MAX_SHOWN_CHARS] + "…"
    return _UNBROKEN.sub(lambda m: "\u200b".join(
        m.group()[i:i + _BREAK_EVERY] for i in range(0, len(m.group()), _BREAK_EVERY)), text)


class _WrapDelegate(QStyledItemDelegate):
    """Rows as tall as their wrapped text in the column's current width.

    A QTreeView sizes a row from its delegate's size hint, which wraps to the option's rect;
    the view passes no width, so every row stayed one line high and a value wider than the
    column was cut ("trusted_e…" at 1280x720). This hint wraps each cell to its column (a
    section title spanning the row: to the viewport)."""

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self.tree = tree

    def displayText(self, value, locale) -> str:  # noqa: N802 - Qt override
        return shown_value(str(value))

    def sizeHint(self, option, index):  # noqa: N802 - Qt override
        opt = QStyleOptionViewItem(option)
        tree = self.tree
        depth = 0
        parent = index.parent()
        while parent.isValid():
            depth += 1
            parent = parent.parent()
        if index.column() == 0 and tree.isFirstColumnSpanned(index.row(), index.parent()):
            width = tree.viewport().width() - tree.indentation()
        elif index.column() == 0:
            width = tree.columnWidth(0) - tree.indentation() * (depth + 1)
        else:
            width = tree.columnWidth(index.column())
        opt.rect = QRect(0, 0, max(width, 24), 1 << 16)
        return super().sizeHint(opt, index)


class RunSummaryPanel(QWidget):
    """A two-column tree (field, value), rebuilt whenever the session's result changes.

    In the 288 px dock of a 1280x720 screen the values wrap (the Field column is as wide as
    its longest field, at most half the width; section titles span both columns), every
    value has its whole text as a plain-text tooltip, and Copy value (Ctrl+C, right click)
    puts it on the clipboard as it is (a SHA-256 to compare)."""

    FIELD_SHARE = 0.5

    def __init__(self, session: ReviewSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.tree = QTreeWidget()
        self.tree.setObjectName("runSummary")
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Field", "Value"])
        self.tree.setUniformRowHeights(False)
        self.tree.setWordWrap(True)
        self.tree.setIndentation(14)  # two levels of 20 px took 40 of the dock's 270
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.setItemDelegate(_WrapDelegate(self.tree))
        header = self.tree.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)  # the user may too
        header.sectionResized.connect(lambda *_: self.tree.doItemsLayout())
        self._field_w = 0  # the widest field's text (set by refresh)
        self.copy_action = QAction("Copy value", self.tree)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.copy_action.triggered.connect(self.copy_value)
        self.tree.addAction(self.copy_action)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.tree)
        session.report_changed.connect(self.refresh)  # verdict and coverage follow the offset
        self.refresh()

    def refresh(self) -> None:
        self.tree.clear()
        report = self.session.report
        if report is None:
            QTreeWidgetItem(self.tree, ["No submission", ""])
            return
        fm = self.tree.fontMetrics()
        widest = 0
        for title, rows in summary_sections(report):
            top = QTreeWidgetItem(self.tree, [title, ""])
            top.setFirstColumnSpanned(True)
            for field, value in rows:
                item = QTreeWidgetItem(top, [field, value])
                item.setToolTip(0, plain_tooltip(field))
                item.setToolTip(1, plain_tooltip(value))
                widest = max(widest, fm.horizontalAdvance(field))
            top.setExpanded(True)
        self._field_w = widest
        self.fit_columns()

    def fit_columns(self) -> None:
        """The Field column as wide as its widest field (and the tree's indentation), at most
        FIELD_SHARE of the width: the rest is the values'."""
        if not self._field_w:
            return
        want = self._field_w + 2 * self.tree.indentation() + 12
        room = int(self.tree.viewport().width() * self.FIELD_SHARE)
        self.tree.setColumnWidth(0, max(60, min(want, room)))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.fit_columns()
        self.tree.doItemsLayout()

    def copy_value(self) -> str:
        """The selected row's value (or a section's title) on the clipboard, as it is."""
        item = self.tree.currentItem()
        if item is None:
            return ""
        text = item.text(1) if item.parent() is not None else item.text(0)
        QGuiApplication.clipboard().setText(text)
        return text
