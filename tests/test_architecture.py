"""The layering of docs/architecture.md, enforced: core and CLI never import Qt; the import
contracts of pyproject.toml hold (`lint-imports`); core type-checks (`mypy`)."""

from __future__ import annotations

import json
import pkgutil
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from conftest import REPO, SAMPLES

import moderator_app.core

BIN = Path(sys.executable).parent


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


def test_verify_of_a_log_only_submission_never_imports_a_video_library(tmp_path):
    """`verify` on a community run without a video runs to its verdict without OpenCV or
    PyAV ever loaded (they cost start-up time and hold native decoders)."""
    shutil.copy(SAMPLES / "community-sample" / "agent-log.jsonl", tmp_path / "agent-log.jsonl")
    code = (
        "import sys\n"
        "from moderator_app.cli import main\n"
        f"rc = main(['verify', '--json', {str(tmp_path)!r}])\n"
        "sys.stderr.write(repr(sorted(m for m in ('cv2', 'av') if m in sys.modules)))\n"
        "sys.exit(rc)\n")
    got = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    report = json.loads(got.stdout)
    assert got.returncode == 1 and report["verdict"] == "fail"
    assert [f["rule"] for f in report["findings"] if f["severity"] == "error"] == [
        "input.no_video"]
    assert got.stderr.strip().splitlines()[-1] == "[]"


def test_verify_of_an_official_run_imports_only_what_it_uses(tmp_path):
    """`verify` on a plain official run loads neither the ledger, nor the other commands, nor
    the archive readers, nor the community-run thresholds (start-up was a third of a small
    run's instructions), nor the community log's checker, the video's or the sync's modules,
    nor the report sections only they build (issue 15: start-up is ~0.3x of a small file's
    floor), and still reaches its verdict; `decide` and an archive still load theirs."""
    shutil.copy(SAMPLES / "official-sample" / "events.jsonl.zst", tmp_path / "events.jsonl.zst")
    unused = ("moderator_app.core.ledger.records", "moderator_app.cli.decisions",
              "moderator_app.cli.frame", "moderator_app.core.formats.archive", "tarfile",
              "zipfile", "moderator_app.core.thresholds", "moderator_app.core.verify.agent_log",
              "moderator_app.core.verify.sections_video",
              "moderator_app.core.verify.sections_community", "moderator_app.core.video",
              "moderator_app.core.sync", "cv2", "av", "numpy", "PySide6")
    code = (
        "import sys\n"
        "from moderator_app.cli import main\n"
        f"rc = main(sys.argv[1:])\n"
        f"sys.stderr.write(repr([m for m in {unused!r} if m in sys.modules]))\n"
        "sys.exit(rc)\n")
    got = subprocess.run([sys.executable, "-c", code, "verify", "--json", str(tmp_path)],
                         cwd=REPO, capture_output=True, text=True)
    report = json.loads(got.stdout)
    assert got.returncode == 0 and report["verdict"] == "pass" and report["events"] == 120
    assert got.stderr.strip().splitlines()[-1] == "[]"
    bundle = tmp_path / "run.tar"
    with tarfile.open(bundle, "w") as tar:
        tar.add(tmp_path / "events.jsonl.zst", "events.jsonl.zst")
    got = subprocess.run([sys.executable, "-c", code, "verify", "--json", str(bundle)],
                         cwd=REPO, capture_output=True, text=True)
    assert got.returncode == 0 and json.loads(got.stdout)["events"] == 120
    assert "'moderator_app.core.formats.archive'" in got.stderr.strip().splitlines()[-1]


def test_no_qt_import_statement_in_core_sources():
    offenders = []
    for path in list((REPO / "moderator_app" / "core").rglob("*.py")) + list(
            (REPO / "moderator_app" / "cli").rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            s = line.strip()
            if s.startswith(("import PySide6", "from PySide6", "import shiboken6")):
                offenders.append(f"{path.name}:{n}")
    assert offenders == []


def _pyproject() -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10 (the README's floor): the same parser, from PyPI
        import tomli as tomllib
    with open(REPO / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)


def test_import_contracts_hold():
    """The layers, the independence of the two verifiers and the absence of import cycles, as
    declared in pyproject.toml ([tool.importlinter])."""
    got = subprocess.run([str(BIN / "lint-imports")], cwd=REPO, capture_output=True, text=True)
    assert got.returncode == 0, got.stdout[-3000:] + got.stderr[-2000:]
    assert "0 broken" in got.stdout


def test_every_room_of_core_is_placed_in_the_layers():
    """A new module or subpackage of core/ must be given its layer (or the contract would
    silently not cover it)."""
    contracts = _pyproject()["tool"]["importlinter"]["contracts"]
    (core,) = [c for c in contracts if c.get("containers") == ["moderator_app.core"]]
    placed = {name.strip(" ()") for layer in core["layers"]
              for name in layer.replace("|", ":").split(":")}
    rooms = {m.name for m in pkgutil.iter_modules(moderator_app.core.__path__)}
    assert rooms - placed == set()



def test_core_type_checks():
    """mypy over moderator_app/core, configured in pyproject.toml ([tool.mypy])."""
    got = subprocess.run([str(BIN / "mypy"), "moderator_app/core"], cwd=REPO,
                         capture_output=True, text=True)
    assert got.returncode == 0, got.stdout[-4000:]


def test_the_code_cites_the_product_definition_in_the_repository():
    """The code names the copy of the product definition in this repository (docs/DESIGN.md),
    never one outside it."""
    assert (REPO / "docs" / "DESIGN.md").is_file()
    stray = []
    for folder in ("moderator_app", "tests", "scripts", "bench"):
        for path in (REPO / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if path.name != "test_architecture.py" and (
                    text.count("DESIGN.md") != text.count("docs/DESIGN.md")):
                stray.append(str(path.relative_to(REPO)))
    assert stray == []
