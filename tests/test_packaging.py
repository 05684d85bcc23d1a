"""Packaging: the desktop entry, the AppStream metainfo, the icon, the PyInstaller spec, and a
smoke test of the built bundle (verify on the sample, then a window on a real X server).

The static checks are fast and always run. The bundle tests are `slow`: they use
`dist/moderator-app/` when it is newer than every source file (run `make package` first), or
build it themselves when MODERATOR_APP_BUILD_BUNDLE=1 (about a minute on 2 cores); otherwise
they are skipped with the reason. MODERATOR_APP_USE_BUNDLE=1 uses an existing dist/ as it is.
"""

from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import REPO, SAMPLES

from moderator_app import __version__

PACKAGING = REPO / "packaging"
ICONS = REPO / "resources" / "icons"
DESKTOP = PACKAGING / "moderator-app.desktop"
METAINFO = PACKAGING / "io.github.moderator_app.metainfo.xml"
SPEC = PACKAGING / "moderator-app.spec"
BUNDLE = REPO / "dist" / "moderator-app"
BUNDLE_EXE = BUNDLE / "moderator-app"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)

# Keys of the Desktop Entry Specification 1.5 that an Application entry may carry.
DESKTOP_KEYS = {
    "Type", "Version", "Name", "GenericName", "NoDisplay", "Comment", "Icon", "Hidden",
    "OnlyShowIn", "NotShowIn", "DBusActivatable", "TryExec", "Exec", "Path", "Terminal",
    "Actions", "MimeType", "Categories", "Implements", "Keywords", "StartupNotify",
    "StartupWMClass", "PrefersNonDefaultGPU", "SingleMainWindow",
}
MAIN_CATEGORIES = {"AudioVideo", "Audio", "Video", "Development", "Education", "Game",
                   "Graphics", "Network", "Office", "Science", "Settings", "System", "Utility"}


def _desktop_entry() -> dict[str, str]:
    cp = configparser.ConfigParser(interpolation=None, strict=True)
    cp.optionxform = str  # keys are case-sensitive
    cp.read_string(DESKTOP.read_text(encoding="utf-8"))
    assert cp.sections() == ["Desktop Entry"]
    return dict(cp["Desktop Entry"])


# --- static checks ----------------------------------------------------------------------------


def test_desktop_entry_is_valid():
    entry = _desktop_entry()
    assert set(entry) <= DESKTOP_KEYS, set(entry) - DESKTOP_KEYS
    assert entry["Type"] == "Application"
    assert entry["Name"] == "Moderator Workstation"
    assert entry["Exec"].split()[0] == "moderator-app"
    assert entry["TryExec"] == "moderator-app"
    assert entry["Terminal"] == "false" and entry["StartupNotify"] in ("true", "false")
    assert entry["Icon"] == "moderator-app" and (ICONS / "moderator-app.svg").exists()
    for list_key in ("Categories", "Keywords"):
        assert entry[list_key].endswith(";"), list_key
    cats = set(entry["Categories"].rstrip(";").split(";"))
    assert len(cats & MAIN_CATEGORIES) == 1
    # Field codes: at most one of the file/URL codes, and no deprecated ones.
    codes = [w for w in entry["Exec"].split() if w.startswith("%")]
    assert codes == ["%F"]


def test_desktop_file_validate_if_available():
    exe = shutil.which("desktop-file-validate")
    if exe is None:
        pytest.skip("desktop-file-validate not installed (desktop-file-utils)")
    proc = subprocess.run([exe, str(DESKTOP)], capture_output=True, text=True)
    assert proc.returncode == 0 and "error" not in proc.stdout.lower(), proc.stdout


def test_metainfo_is_wellformed_with_required_elements():
    root = ET.parse(METAINFO).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    for tag in ("id", "name", "summary", "metadata_license", "project_license"):
        el = root.find(tag)
        assert el is not None and (el.text or "").strip(), tag
    assert root.findtext("id") == "io.github.moderator_app"
    assert root.findtext("metadata_license") == "CC0-1.0"  # what AppStream accepts for metadata
    assert root.findtext("project_license") == "MIT"  # as in pyproject.toml
    assert len(root.findtext("summary")) < 80 and not root.findtext("summary").endswith(".")
    assert root.find("description/p") is not None
    assert root.findtext("launchable") == DESKTOP.name
    assert root.find("launchable").get("type") == "desktop-id"
    assert root.findtext("icon") == _desktop_entry()["Icon"]
    assert root.findtext("provides/binary") == "moderator-app"
    assert root.find("content_rating").get("type") == "oars-1.1"
    assert [r.get("version") for r in root.findall("releases/release")][0] == __version__


def test_metainfo_appstreamcli_if_available():
    exe = shutil.which("appstreamcli")
    if exe is None:
        pytest.skip("appstreamcli not installed")
    proc = subprocess.run([exe, "validate", "--no-net", str(METAINFO)], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_icon_svg_parses_and_is_square():
    root = ET.parse(ICONS / "moderator-app.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    x, y, w, h = (float(v) for v in root.get("viewBox").split())
    assert (x, y, w, h) == (0, 0, 512, 512)


def test_icon_renders_and_pngs_are_current(qapp):
    """The PNGs are the SVG rendered by scripts/render_icons.py: re-render and compare."""
    from PySide6.QtGui import QImage
    from PySide6.QtSvg import QSvgRenderer

    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import render_icons
    finally:
        sys.path.pop(0)
    renderer = QSvgRenderer(str(ICONS / "moderator-app.svg"))
    assert renderer.isValid()
    for size in SIZES:
        png = QImage(str(ICONS / f"moderator-app-{size}.png"))
        assert (png.width(), png.height()) == (size, size), size
    fresh = render_icons.render(64, renderer).convertToFormat(QImage.Format.Format_ARGB32)
    saved = QImage(str(ICONS / "moderator-app-64.png")).convertToFormat(
        QImage.Format.Format_ARGB32)
    diff = sum(abs(fresh.pixelColor(x, y).alpha() - saved.pixelColor(x, y).alpha())
               + abs(fresh.pixelColor(x, y).red() - saved.pixelColor(x, y).red())
               for x in range(0, 64, 2) for y in range(0, 64, 2))
    assert diff / (32 * 32) < 8, "run scripts/render_icons.py after editing the SVG"


def test_app_icon_loads_every_size(qapp):
    from PySide6.QtCore import QSize

    from moderator_app.ui.icons import app_icon, resource_path

    assert resource_path("icons", "moderator-app.svg") is not None
    icon = app_icon()
    assert not icon.isNull()
    assert QSize(16, 16) in icon.availableSizes() and QSize(512, 512) in icon.availableSizes()
    assert icon.pixmap(48, 48).width() == 48


def test_spec_compiles_and_points_at_real_files():
    source = SPEC.read_text(encoding="utf-8")
    compile(source, str(SPEC), "exec")
    assert 'NAME = "moderator-app"' in source
    assert (PACKAGING / "launcher.py").exists()
    compile((PACKAGING / "launcher.py").read_text(), "launcher.py", "exec")
    assert "from moderator_app.__main__ import main" in (PACKAGING / "launcher.py").read_text()
    assert '"resources/icons"' in source and '"resources/samples"' in source
    # The headless wheel only: the full opencv-python brings Qt plugins that break PySide6.
    pyproject = (REPO / "pyproject.toml").read_text()
    assert '"opencv-python-headless' in pyproject and '"opencv-python>' not in pyproject


def test_make_package_target():
    make = (REPO / "Makefile").read_text()
    assert "packaging/moderator-app.spec" in make and "--distpath dist" in make


# --- the built bundle (slow) ----------------------------------------------------------------


def _sources_mtime() -> float:
    paths = [SPEC, PACKAGING / "launcher.py", REPO / "pyproject.toml"]
    paths += list((REPO / "moderator_app").rglob("*.py"))
    paths += [p for p in (REPO / "resources").rglob("*") if p.is_file()]
    return max(p.stat().st_mtime for p in paths)


def _fresh() -> bool:
    return BUNDLE_EXE.exists() and BUNDLE_EXE.stat().st_mtime >= _sources_mtime()


@pytest.fixture(scope="module")
def bundle() -> Path:
    if not _fresh() and not (os.environ.get("MODERATOR_APP_USE_BUNDLE") == "1"
                             and BUNDLE_EXE.exists()):
        pyinstaller = Path(sys.executable).with_name("pyinstaller")
        if os.environ.get("MODERATOR_APP_BUILD_BUNDLE") != "1":
            pytest.skip("no fresh dist/moderator-app: run `make package` first, or set "
                        "MODERATOR_APP_BUILD_BUNDLE=1 to build it here")
        if not pyinstaller.exists():
            pytest.fail("MODERATOR_APP_BUILD_BUNDLE=1 but pyinstaller is not installed "
                        "(pip install -e '.[package]')")
        proc = subprocess.run(
            [str(pyinstaller), "--noconfirm", "--clean", "--log-level", "WARN",
             "--distpath", "dist", "--workpath", "build", str(SPEC)],
            cwd=REPO, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stderr[-4000:]
    assert BUNDLE_EXE.exists()
    return BUNDLE_EXE


def _clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """No venv, no PYTHONPATH, no Python on PATH: the bundle must carry everything."""
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
           "XDG_RUNTIME_DIR": str(tmp_path), "MODERATOR_APP_STORE": str(tmp_path / "d.db")}
    env.update(extra)
    return env


@pytest.mark.slow
def test_bundle_verifies_the_sample(bundle, tmp_path):
    sample = SAMPLES / "community-sample"
    assert sample.is_dir()
    # From outside the repo, so the checkout's moderator_app cannot be imported by accident.
    proc = subprocess.run([str(bundle), "verify", str(sample)], cwd=tmp_path,
                          env=_clean_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Verdict: PASS" in proc.stdout
    proc = subprocess.run([str(bundle), "verify", "--json", str(sample)], cwd=tmp_path,
                          env=_clean_env(tmp_path), capture_output=True, text=True, timeout=120)
    report = json.loads(proc.stdout)
    assert (proc.returncode, report["verdict"], report["kind"]) == (0, "pass", "community")
    # The sample and the icons travel inside the bundle too.
    internal = bundle.parent / "_internal" / "resources"
    assert (internal / "samples" / "community-sample").is_dir()
    assert (internal / "icons" / "moderator-app.svg").is_file()


@pytest.mark.slow
def test_bundle_verifies_an_official_run_with_its_accelerator_and_worker(bundle, tmp_path):
    """A 9 MB plain trajectory (past PARALLEL_MIN_BYTES, so a forked worker examines blocks in
    the bundle too) with the C accelerator the bundle carries: valid, then one byte edited."""
    import orjson

    from moderator_app.core.samples.trajectory_writer import chain_events, make_run_events
    from moderator_app.core.verify.trajectory import PARALLEL_MIN_BYTES

    assert list((bundle.parent / "_internal").rglob("_jcs*.so")), "the C accelerator is missing"
    assert list((bundle.parent / "_internal").rglob("_grid*.so")), "the scan's C is missing"
    lines = [orjson.dumps(e) for e in chain_events(make_run_events(7600, seed=4,
                                                                    text_bytes=1100))]
    path = tmp_path / "run" / "events.jsonl"
    path.parent.mkdir()
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    assert path.stat().st_size > PARALLEL_MIN_BYTES
    for edit, verdict, line in ((None, "pass", None), (4321, "fail", 4322)):
        if edit is not None:
            lines[edit] = lines[edit].replace(b'"producer_sequence":', b'"producer_sequence":1', 1)
            path.write_bytes(b"".join(x + b"\n" for x in lines))
        proc = subprocess.run([str(bundle), "verify", "--json", str(path.parent)], cwd=tmp_path,
                              env=_clean_env(tmp_path), capture_output=True, text=True,
                              timeout=300)
        report = json.loads(proc.stdout)
        assert (report["verdict"], report["events"]) == (verdict, 7600), proc.stderr[-2000:]
        assert report["summary"]["first_error_line"] == line


@pytest.mark.slow
@pytest.mark.xvfb
def test_bundle_opens_a_window_on_xvfb(bundle, tmp_path):
    for tool in ("Xvfb", "xwininfo"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} not installed (xvfb, x11-utils)")
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0",
                             "1600x1000x24", "-nolisten", "tcp"],
                            pass_fds=(write_fd,), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(write_fd)
    app = None
    try:
        with os.fdopen(read_fd) as f:
            display = ":" + f.readline().strip()
        env = _clean_env(tmp_path, DISPLAY=display, QT_QPA_PLATFORM="xcb")
        app = subprocess.Popen([str(bundle), str(SAMPLES / "community-sample")], cwd=tmp_path,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        # The main window titled after the sample proves the bundle opened and verified it
        # (Qt's 1x1 leader window is titled with the bare application name, so not that).
        title = re.compile(r'"community-sample \u2014 Moderator Workstation": \([^)]*\)\s+'
                           r'(\d+)x(\d+)')
        # a hang guard, not a timing: under load 20 a start can take a minute and more
        deadline, tree, found = time.monotonic() + 300, "", None
        while time.monotonic() < deadline and found is None:
            assert app.poll() is None, app.stdout.read().decode(errors="replace")
            tree = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True,
                                  text=True).stdout
            found = title.search(tree)
            if found is None:
                time.sleep(0.5)
        assert found is not None, tree[-2000:]
        assert int(found.group(1)) >= 800 and int(found.group(2)) >= 500, found.group(0)
    finally:
        if app is not None:
            app.terminate()
            try:
                app.wait(10)
            except subprocess.TimeoutExpired:
                app.kill()
                app.wait()
        xvfb.terminate()
        xvfb.wait(10)
