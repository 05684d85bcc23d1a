"""The workstation's two themes, "dark" (default) and "light", and the one source of colours.

Moderators review for hours: the dark theme is a calm charcoal (never pure black, which makes
text "glow"), body text stays above 12:1 contrast, and accents are kept for meaning. Severity
colours (error red, warning amber, info blue) live here and only here, so the timeline, the
findings table and the help dialogs agree; widgets ask `colors()` or `severity_color()` rather
than hard-coding hex values. The Fusion style is used on every platform so that the palette is
honoured the same way on Linux, macOS and Windows.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleOption

THEMES: tuple[str, ...] = ("dark", "light")
DEFAULT_THEME = "dark"

# Spacing, in device-independent pixels: layouts use these so every panel breathes alike.
SPACING = 6
MARGIN = 8

# Severity colours for marks (timeline ticks, badges): the same hue in both themes so that a
# moderator learns them once. As *text* on the light theme's white, amber and red are too
# pale, so each theme also carries text variants (`ThemeColors.error_text`, ...): use
# `severity_color(sev, text=True)` for words, `severity_color(sev)` for marks.
ERROR = "#e5484d"    # red
WARNING = "#e89b0c"  # amber
INFO = "#3e8ed0"     # blue
OK = "#30a46c"       # green: a passing verdict, an accepted decision
SEVERITY_COLORS: dict[str, str] = {"error": ERROR, "warning": WARNING, "info": INFO}

_PROPERTY = "moderator_app_theme"  # QApplication dynamic property: the theme in use


@dataclass(frozen=True, slots=True)
class ThemeColors:
    """Every colour a custom-painted widget needs (hex strings, `#rrggbb`)."""

    name: str
    window: str        # panel background
    base: str          # text fields, tables, the timeline track
    alt_base: str      # alternate table rows
    text: str          # body text
    muted: str         # secondary text, axis labels
    border: str        # frames, separators, grid lines
    accent: str        # selection, focus, the current item
    accent_text: str   # text on the accent colour
    playhead: str      # the timeline cursor (current video frame)
    button: str        # push button face
    button_border: str # push button outline (3:1 against the panel: findable without hover)
    error: str = ERROR
    warning: str = WARNING
    info: str = INFO
    ok: str = OK
    error_text: str = ERROR      # severity words, 4.5:1 on `base` at least
    warning_text: str = WARNING
    info_text: str = "#5ea2e0"
    ok_text: str = OK


DARK = ThemeColors(
    name="dark", window="#1f2228", base="#181a1f", alt_base="#22252c", text="#e6e8eb",
    muted="#9aa1ab", border="#3a3f48", accent="#3b6fc4", accent_text="#ffffff",
    playhead="#f2f4f7", button="#2c3039", button_border="#5c6470", error_text="#ff6369")
LIGHT = ThemeColors(
    name="light", window="#eef0f3", base="#ffffff", alt_base="#f5f6f8", text="#1b1e23",
    muted="#5b636e", border="#c4c9d0", accent="#2f62b8", accent_text="#ffffff",
    playhead="#1b1e23", button="#f9fafb", button_border="#8a929c",
    error_text="#c4272d", warning_text="#8f5a00", info_text="#1f62a6", ok_text="#1c7a4d")
_COLORS = {"dark": DARK, "light": LIGHT}


def colors(name: str | None = None) -> ThemeColors:
    """The colours of theme `name`, or of the theme applied to the running application."""
    if name is None:
        app = QApplication.instance()
        name = app.property(_PROPERTY) if app is not None else None
        name = name if name in _COLORS else DEFAULT_THEME
    if name not in _COLORS:
        raise ValueError(f"unknown theme {name!r}; expected one of {', '.join(THEMES)}")
    return _COLORS[name]


def severity_color(severity: object, text: bool = False) -> QColor:
    """The colour for a severity (a `Severity` member or its value: "error", "warning",
    "info") in the current theme; `text=True` for the readable variant used for words."""
    key = str(getattr(severity, "value", severity))
    c = colors()
    if key not in SEVERITY_COLORS:
        return QColor(c.muted)
    return QColor(getattr(c, f"{key}_text" if text else key))


def current_theme() -> str:
    """The theme applied to the running application ("dark" before any was applied)."""
    return colors().name


def _palette(c: ThemeColors) -> QPalette:
    p = QPalette()
    role = QPalette.ColorRole
    for r, value in (
        (role.Window, c.window), (role.WindowText, c.text), (role.Base, c.base),
        (role.AlternateBase, c.alt_base), (role.Text, c.text), (role.Button, c.alt_base),
        (role.ButtonText, c.text), (role.BrightText, "#ffffff"), (role.Highlight, c.accent),
        (role.HighlightedText, c.accent_text), (role.ToolTipBase, c.base),
        (role.ToolTipText, c.text), (role.PlaceholderText, c.muted), (role.Link, c.info),
        (role.LinkVisited, c.info), (role.Light, c.border), (role.Midlight, c.border),
        (role.Mid, c.border), (role.Dark, c.window), (role.Shadow, "#000000"),
    ):
        p.setColor(r, QColor(value))
    disabled = QPalette.ColorGroup.Disabled
    for r in (role.WindowText, role.Text, role.ButtonText):
        p.setColor(disabled, r, QColor(c.muted))
    p.setColor(disabled, role.Highlight, QColor(c.border))
    return p


def stylesheet(c: ThemeColors) -> str:
    """A small stylesheet on top of the palette: focus rings, frames, spacing. Kept short on
    purpose, since a large stylesheet fights the Fusion style and every widget's own layout."""
    return f"""
QToolTip {{ color: {c.text}; background: {c.base}; border: 1px solid {c.border};
           padding: 4px; }}
QToolBar {{ spacing: {SPACING}px; padding: 2px {MARGIN // 2}px; border: none; }}
QStatusBar {{ border-top: 1px solid {c.border}; }}
QStatusBar::item {{ border: none; }}
QSplitter::handle {{ background: {c.border}; }}
QSplitter::handle:horizontal {{ width: 1px; }}
QSplitter::handle:vertical {{ height: 1px; }}
QGroupBox {{ border: 1px solid {c.border}; border-radius: 4px; margin-top: 1.2em;
            padding: {SPACING}px; }}
QGroupBox::title {{ subcontrol-origin: margin; left: {MARGIN}px; padding: 0 3px;
                   color: {c.muted}; }}
QHeaderView::section {{ background: {c.window}; color: {c.muted}; border: none;
                       border-right: 1px solid {c.border}; border-bottom: 1px solid {c.border};
                       padding: 3px {SPACING}px; }}
QTableView, QTreeView, QListView {{ gridline-color: {c.border}; border: 1px solid {c.border};
                                   selection-background-color: {c.accent};
                                   selection-color: {c.accent_text}; }}
QTableView::item:hover:!selected, QTreeView::item:hover:!selected,
QListView::item:hover:!selected {{ background: {c.alt_base}; color: {c.text}; }}
QLineEdit, QPlainTextEdit, QTextEdit, QComboBox {{
    border: 1px solid {c.border}; border-radius: 3px; padding: 2px 4px; }}
QLineEdit:focus, QPlainTextEdit:focus, QTextEdit:focus, QComboBox:focus, QTableView:focus,
QTreeView:focus, QListView:focus {{ border: 1px solid {c.accent}; }}
QPushButton {{ background: {c.button}; color: {c.text}; border: 1px solid {c.button_border};
              border-radius: 4px; padding: 4px 14px; min-height: 1.4em; }}
QPushButton:hover {{ border-color: {c.muted}; }}
QPushButton:pressed, QPushButton:checked {{ background: {c.border}; }}
QPushButton:focus, QPushButton:default {{ border: 1px solid {c.accent}; }}
QPushButton:disabled {{ color: {c.muted}; border-color: {c.border}; background: {c.window}; }}
QDockWidget::title {{ background: {c.alt_base}; padding: 4px {SPACING}px;
                     border-bottom: 1px solid {c.border}; }}
QMenu::separator {{ height: 1px; background: {c.border}; margin: 4px 8px; }}
"""


class _Style(QProxyStyle):
    """Fusion, with check boxes and radio buttons drawn from the palette at full contrast.

    Fusion outlines indicators with a darker shade of the window colour, which all but
    disappears on a dark theme: an unticked walkthrough item must be unmistakable."""

    def drawPrimitive(self, element, option: QStyleOption, painter: QPainter,  # noqa: N802
                      widget=None) -> None:
        pe = QStyle.PrimitiveElement
        if element not in (pe.PE_IndicatorCheckBox, pe.PE_IndicatorRadioButton,
                           pe.PE_IndicatorItemViewItemCheck):
            super().drawPrimitive(element, option, painter, widget)
            return
        pal = option.palette
        state = option.state
        enabled = bool(state & QStyle.StateFlag.State_Enabled)
        on = bool(state & QStyle.StateFlag.State_On)
        partial = bool(state & QStyle.StateFlag.State_NoChange)
        accent = pal.color(QPalette.ColorRole.Highlight)
        edge = pal.color(QPalette.ColorRole.PlaceholderText)  # the muted text colour
        if not enabled:
            accent = edge = pal.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        side = min(option.rect.width(), option.rect.height()) - 2
        box = QRectF(0, 0, side, side)
        box.moveCenter(QRectF(option.rect).center())
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        filled = (on or partial) and enabled
        painter.setPen(QPen(accent if filled else edge, 1.2))
        painter.setBrush(accent if filled else pal.color(QPalette.ColorRole.Base))
        if element == pe.PE_IndicatorRadioButton:
            painter.drawEllipse(box)
            if on:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(pal.color(QPalette.ColorRole.HighlightedText))
                dot = side * 0.36
                painter.drawEllipse(box.center(), dot / 2, dot / 2)
        else:
            painter.drawRoundedRect(box, 2.5, 2.5)
            mark = QPen(pal.color(QPalette.ColorRole.HighlightedText), max(1.6, side / 7))
            mark.setCapStyle(Qt.PenCapStyle.RoundCap)
            mark.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(mark)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            x, y, w = box.x(), box.y(), box.width()
            if partial:
                painter.drawLine(QPointF(x + w * 0.25, y + w / 2), QPointF(x + w * 0.75, y + w / 2))
            elif on:
                painter.drawPolyline(QPolygonF([QPointF(x + w * 0.24, y + w * 0.52),
                                                QPointF(x + w * 0.43, y + w * 0.71),
                                                QPointF(x + w * 0.77, y + w * 0.30)]))
        painter.restore()


_STYLE: list[_Style] = []  # keep the Python side of the installed style alive


def apply_theme(app: QApplication, name: str = DEFAULT_THEME) -> None:
    """Apply theme `name` ("dark" or "light") to the whole application; callable again at run
    time to switch. Raises ValueError on an unknown name rather than guessing."""
    c = colors(name)
    style = _Style("Fusion")
    _STYLE[:] = [style]
    app.setStyle(style)
    app.setPalette(_palette(c))
    app.setStyleSheet(stylesheet(c))
    app.setProperty(_PROPERTY, c.name)
