"""How a command starts: the cyclic collector is paused while it imports its modules, then
resumes with those objects frozen out of its reach (DECISIONS, "Speed of official-run
verification", session 12); numpy, when a command imports it, starts no BLAS thread (session
19)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys

from conftest import SAMPLES

import moderator_app.cli as cli
import moderator_app.cli.verify as cli_verify
from moderator_app import __main__ as entry


def test_collector_paused_for_the_imports_and_running_for_the_command(monkeypatch):
    seen: dict[str, object] = {}
    build = cli.build_parser

    def recording_build(command=None):
        seen["while_importing"] = gc.isenabled()
        return build(command)

    def recording_rules(args):
        seen["in_command"] = gc.isenabled()
        seen["frozen"] = gc.get_freeze_count()
        return 0

    monkeypatch.setattr(cli, "build_parser", recording_build)
    monkeypatch.setattr(cli_verify, "cmd_rules", recording_rules)
    assert gc.isenabled()
    before = gc.get_freeze_count()
    try:
        assert entry.main(["rules"]) == 0
    finally:
        gc.unfreeze()  # (this test process keeps collecting as before)
        gc.enable()
    assert seen["while_importing"] is False
    assert seen["in_command"] is True
    assert seen["frozen"] > before


def test_in_process_callers_keep_their_collector(monkeypatch):
    """`cli.main` called directly (tests, the GUI's helpers) never freezes anything."""
    seen: dict[str, object] = {}

    def recording_rules(args):
        seen["frozen"] = gc.get_freeze_count()
        return 0

    monkeypatch.setattr(cli_verify, "cmd_rules", recording_rules)
    before = gc.get_freeze_count()
    assert cli.main(["rules"]) == 0
    assert gc.isenabled()
    assert seen["frozen"] == before


# A command's numpy, imported after the entry point: the BLAS setting it was given, and the
# threads of the process once it is imported (OpenBLAS starts its own at import)
_NUMPY_AFTER_A_COMMAND = (
    "import os, sys\n"
    "from moderator_app.__main__ import main\n"
    "main(['rules'])\n"
    "import numpy\n"
    "sys.stderr.write(os.environ.get('OPENBLAS_NUM_THREADS', 'unset') + ' '\n"
    "                 + str(len(os.listdir('/proc/self/task'))))\n")


def _blas_after_a_command(value: str | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if value is not None:
        env["OPENBLAS_NUM_THREADS"] = value
    r = subprocess.run([sys.executable, "-c", _NUMPY_AFTER_A_COMMAND], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stderr.split()


def test_a_command_imports_numpy_with_one_blas_thread():
    # main: unset, so `verify` of a submission with a video (numpy, for its frame index and
    # scan) started an OpenBLAS thread per core at import: ~13 ms of CPU on every such command
    setting, threads = _blas_after_a_command(None)
    assert setting == "1"
    if sys.platform.startswith("linux"):
        assert threads == "1"  # the main thread alone: no BLAS thread started


def test_a_blas_setting_the_user_gave_is_kept():
    assert _blas_after_a_command("2")[0] == "2"


# -- `verify` ends without the interpreter's teardown, its exit handlers run ------------------
_RUN_AS_THE_PROGRAM = (
    "import atexit, os, sys\n"
    "class Teardown:\n"
    "    def __del__(self, write=os.write):  # sys.stderr may be gone by then\n"
    "        write(2, b'teardown\\n')\n"
    "sys.modules['x_teardown'] = Teardown()  # the teardown clears sys.modules\n"
    "atexit.register(lambda: sys.stderr.write('exit handler\\n'))\n"
    "sys.argv = ['moderator-app', *sys.argv[1:]]\n"
    "from moderator_app.__main__ import main\n"
    "sys.exit(main())\n")


def _as_the_program(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _RUN_AS_THE_PROGRAM, *args],
                          capture_output=True, text=True, timeout=120)


def test_verify_ends_after_its_exit_handlers_without_the_teardown():
    sample = SAMPLES / "official-sample"
    got = _as_the_program("verify", "--json", str(sample))
    assert got.returncode == 0 and json.loads(got.stdout)["events"] == 120  # all of it
    assert got.stderr.splitlines() == ["exit handler"]
    failing = _as_the_program("verify", "--json", str(SAMPLES / "nowhere"))
    assert failing.returncode == 2 and failing.stderr.splitlines()[-1] == "exit handler"
    # another command keeps the interpreter's teardown
    other = _as_the_program("rules")
    assert other.returncode == 0 and other.stderr.splitlines() == ["exit handler", "teardown"]
