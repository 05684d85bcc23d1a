"""The layering of DESIGN.md, enforced: core and CLI never import Qt."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys; print('\\n'.join(sys.modules))"],
        cwd=REPO, capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_cli_and_core_do_not_import_qt():
    mods = _modules_after(
        "import pkgutil, importlib, moderator_app.core as c\n"
        "for m in pkgutil.walk_packages(c.__path__, c.__name__+'.'): importlib.import_module(m.name)\n"
        "import moderator_app.cli, moderator_app.cli.decisions, moderator_app.cli.verify\n"
        "moderator_app.cli.build_parser()")
    assert not {m for m in mods if m.startswith(("PySide6", "shiboken6"))}


def test_cli_verify_path_does_not_import_cv2_without_video():
    mods = _modules_after("import moderator_app.cli")
    assert "cv2" not in mods


def test_no_qt_import_statement_in_core_sources():
    offenders = []
    for path in list((REPO / "moderator_app" / "core").rglob("*.py")) + list(
            (REPO / "moderator_app" / "cli").rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            s = line.strip()
            if s.startswith(("import PySide6", "from PySide6", "import shiboken6")):
                offenders.append(f"{path.name}:{n}")
    assert offenders == []
