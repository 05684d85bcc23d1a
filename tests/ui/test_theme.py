"""The theme: both palettes apply, switch, keep text readable, and own the severity colours."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette

from moderator_app.core.rules import Severity
from moderator_app.ui import theme


def _luminance(hex_color: str) -> float:
    c = QColor(hex_color)

    def chan(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * chan(c.red()) + 0.7152 * chan(c.green()) + 0.0722 * chan(c.blue())


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_of_known_pair():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)


def test_themes_tuple_and_default():
    assert theme.THEMES == ("dark", "light")
    assert theme.DEFAULT_THEME == "dark"


@pytest.mark.parametrize("name", ["dark", "light"])
def test_apply_theme_sets_palette_style_and_name(themed_app, name):
    theme.apply_theme(themed_app, name)
    c = theme.colors(name)
    pal = themed_app.palette()
    assert pal.color(QPalette.ColorRole.Window).name() == c.window
    assert pal.color(QPalette.ColorRole.Base).name() == c.base
    assert pal.color(QPalette.ColorRole.Text).name() == c.text
    assert pal.color(QPalette.ColorRole.Highlight).name() == c.accent
    assert c.border in themed_app.styleSheet()
    assert theme.current_theme() == name
    assert theme.colors() is c


def test_switching_back_and_forth(themed_app):
    theme.apply_theme(themed_app, "light")
    assert themed_app.palette().color(QPalette.ColorRole.Window).name() == theme.LIGHT.window
    theme.apply_theme(themed_app)  # default
    assert themed_app.palette().color(QPalette.ColorRole.Window).name() == theme.DARK.window
    assert theme.current_theme() == "dark"


def test_unknown_theme_is_refused(themed_app):
    with pytest.raises(ValueError, match="unknown theme 'solarized'"):
        theme.apply_theme(themed_app, "solarized")


@pytest.mark.parametrize("c", [theme.DARK, theme.LIGHT], ids=["dark", "light"])
def test_text_contrast_for_long_sessions(c):
    # Body text: WCAG AAA (7:1) on panels and fields; secondary text: AA (4.5:1).
    assert contrast(c.text, c.base) >= 12
    assert contrast(c.text, c.window) >= 12
    assert contrast(c.text, c.alt_base) >= 7
    assert contrast(c.muted, c.window) >= 4.5
    assert contrast(c.accent_text, c.accent) >= 4.5
    # The dark theme is calm: no pure black background, no pure white text.
    if c.name == "dark":
        assert c.base != "#000000" and c.text != "#ffffff"


@pytest.mark.parametrize("c", [theme.DARK, theme.LIGHT], ids=["dark", "light"])
def test_severity_marks_stand_out_on_the_track(c):
    # Non-text graphics (timeline marks): WCAG 1.4.11 asks 3:1 against what is around them.
    # Amber on white is the weak pair; the warning colour is chosen to still pass 2.2:1 there
    # and is always drawn with an outline or beside its label in the light theme.
    for sev in (c.error, c.warning, c.info, c.ok):
        assert contrast(sev, c.base) >= (3.0 if c.name == "dark" else 2.2), sev


@pytest.mark.parametrize("c", [theme.DARK, theme.LIGHT], ids=["dark", "light"])
def test_severity_words_are_readable(c):
    for sev in (c.error_text, c.warning_text, c.info_text, c.ok_text):
        assert contrast(sev, c.base) >= 4.5, sev
        assert contrast(sev, c.alt_base) >= 4.5, sev


def test_severity_text_variant_follows_the_theme(themed_app):
    theme.apply_theme(themed_app, "light")
    assert theme.severity_color("warning", text=True).name() == theme.LIGHT.warning_text
    assert theme.severity_color("warning").name() == theme.WARNING  # marks keep the hue
    theme.apply_theme(themed_app, "dark")
    assert theme.severity_color(Severity.INFO, text=True).name() == theme.DARK.info_text


def test_severity_color_accepts_enum_and_value(themed_app):
    theme.apply_theme(themed_app, "dark")
    assert theme.severity_color(Severity.ERROR).name() == theme.ERROR
    assert theme.severity_color("warning").name() == theme.WARNING
    assert theme.severity_color(Severity.INFO).name() == theme.INFO
    assert theme.severity_color("bogus").name() == theme.DARK.muted
    assert set(theme.SEVERITY_COLORS) == {s.value for s in Severity}
