"""Finding the files under `resources/` (the icon, the bundled sample) from wherever we run.

`resources/` sits beside the package, not inside it, so that the sample submission is not
installed into site-packages. Three layouts are supported, in this order:

1. the PyInstaller bundle: the spec copies `resources/icons` and `resources/samples` into the
   bundle, found under `sys._MEIPASS`;
2. a source checkout or an editable install (`make setup`): `<repo>/resources`;
3. a desktop install: the icon from the icon theme (`moderator-app` in hicolor, installed from
   the rendered PNGs, see packaging/README.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon

ICON_NAME = "moderator-app"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def resources_dir() -> Path | None:
    """The `resources/` folder of the bundle or of the source checkout, if there is one."""
    candidates = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        candidates.append(Path(bundle) / "resources")
    candidates.append(Path(__file__).resolve().parents[2] / "resources")
    for c in candidates:
        if (c / "icons").is_dir() or (c / "samples").is_dir():
            return c
    return None


def resource_path(*parts: str) -> Path | None:
    """A path under `resources/` if it exists (e.g. `resource_path("samples",
    "community-sample")`), else None."""
    root = resources_dir()
    if root is None:
        return None
    p = root.joinpath(*parts)
    return p if p.exists() else None


def app_icon() -> QIcon:
    """The application icon at every size: the SVG (crisp at any DPI) plus the rendered PNGs
    (exact at small sizes, and used where the SVG image plugin is missing)."""
    icon = QIcon()
    icons = resource_path("icons")
    if icons is not None:
        for size in ICON_SIZES:
            png = icons / f"{ICON_NAME}-{size}.png"
            if png.exists():
                icon.addFile(str(png), QSize(size, size))
        svg = icons / f"{ICON_NAME}.svg"
        if svg.exists():
            icon.addFile(str(svg))
    if icon.isNull():
        icon = QIcon.fromTheme(ICON_NAME)
    return icon
