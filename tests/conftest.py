"""Shared fixtures. Test data from ../shared/testdata (beside the clone, in CI too)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# A suite started as a background job of a non-interactive shell (`make test &` in a script,
# `nohup`, some CI runners) inherits SIGINT ignored, and an ignored signal stays ignored in
# every child: the tests that interrupt a `moderator-app` process saw it finish (exit 0, not
# 130) on such a run of a fresh clone (session 15). The tests need the default disposition;
# a handler (unlike SIG_IGN) is reset to the default in each program the suite starts.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("MODERATOR_SHARED", REPO.parent / "shared"))
TESTDATA = SHARED / "testdata"
SAMPLES = REPO / "resources" / "samples"

# Widget tests run offscreen unless a test starts its own X server.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Property tests draw the same examples on every run (docs/DECISIONS.md, "Tests are
# deterministic"): a fresh clone has no example database, so a random draw made `make test`
# red once on an expectation that was the test's, not the product's. HYPOTHESIS_PROFILE=explore
# draws at random, for hunting.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def need_testdata(sub: str) -> Path:
    """A folder of ../shared/testdata; skipped locally when absent, a failure in CI."""
    p = TESTDATA / sub
    if not p.exists():
        if os.environ.get("CI"):
            pytest.fail(f"shared test data missing in CI: {p}")
        pytest.skip(f"shared test data not found: {p}")  # counted in the summary below
    return p


#: The app's own settings read from the environment: a developer's (or an earlier test's) must
#: not reach a test. A test that needs one sets it with monkeypatch.
_APP_ENV = ("MODERATOR_APP_CACHE", "MODERATOR_APP_STORE", "MODERATOR_APP_STORE_FILE",
            "MODERATOR_APP_NATIVE", "MODERATOR_APP_WORKERS", "MODERATOR_APP_DEBUG",
            "MODERATOR_APP_SPELLING_CHECK", "MODERATOR_VIDEO_FAULT", "MODERATOR_VIDEO_MEM")


@pytest.fixture(autouse=True)
def _own_user_folders(tmp_path_factory, monkeypatch):
    """Each test gets a home and XDG folders of its own, and ends the video readers it had
    started ahead.

    Why: the app keeps per-user state there (the video-scan cache, the queue's report cache,
    the default decision store, the error log, settings). Shared, a video scanned by one test
    was a cache hit in the next, and in the next `make test` of the same machine: the second
    run took other paths (no scan process, no scan signal) than the first, so a test could pass
    once and fail on the rerun the judges do. Children started ahead (`isolate.prestart`) are
    module state too: one left by an earlier test was counted by a later one (CI, session 5)."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for var, sub in (("XDG_CONFIG_HOME", ".config"), ("XDG_CACHE_HOME", ".cache"),
                     ("XDG_DATA_HOME", ".local/share"), ("XDG_STATE_HOME", ".local/state")):
        monkeypatch.setenv(var, str(home / sub))
    for var in _APP_ENV:
        monkeypatch.delenv(var, raising=False)
    yield
    isolate = sys.modules.get("moderator_app.core.video.isolate")
    if isolate is not None:
        isolate.discard_spares()


@pytest.fixture
def testdata() -> Path:
    return need_testdata("")


@pytest.fixture(params=["native", "python"])
def engine(request, monkeypatch) -> str:
    """Both verification engines: the C accelerator (moderator_app/core/formats/_jcs.c) and the
    pure-Python path, which must give the same reports. The environment variable reaches a
    worker process too. Modules opt in with `pytestmark = pytest.mark.usefixtures("engine")`."""
    from moderator_app.core.formats import native

    if request.param == "python":
        monkeypatch.setattr(native, "JCS", None)
        monkeypatch.setattr(native, "SKIM", None)
        monkeypatch.setattr(native, "UNESCAPE", None)
        from moderator_app.core.formats import secrets_decode

        monkeypatch.setattr(secrets_decode, "_unquote", secrets_decode._unquote_py)
        monkeypatch.setattr(secrets_decode, "_unescape", secrets_decode._unescape_py)
        monkeypatch.setattr(secrets_decode, "_unicode", secrets_decode._unicode_py)
        monkeypatch.setenv("MODERATOR_APP_NATIVE", "0")
    elif native.JCS is None:
        pytest.skip("the C accelerator is not built here")
    return request.param


def es6_float_lines():
    """(double, its ECMAScript spelling) for each of the 100,000 lines of the JCS float file."""
    import gzip
    import struct

    with gzip.open(need_testdata("jcs") / "es6testfile100k.txt.gz", "rt") as fh:
        for line in fh:
            bits, expected = line.rstrip("\n").split(",")
            yield struct.unpack(">d", bytes.fromhex(bits.zfill(16)))[0], expected


# -- a loud skip: tests that need ../shared/testdata say so in the summary, not silently ------

_NO_TESTDATA = "shared test data not found"
_skipped_for_data: list[str] = []


_NO_SOUND = "no PulseAudio to test audio output"  # tests/video/test_video_audio_device.py
_skipped_for_sound: list[str] = []


def pytest_runtest_logreport(report) -> None:
    if report.skipped and _NO_TESTDATA in str(report.longrepr):
        _skipped_for_data.append(report.nodeid)
    if report.skipped and _NO_SOUND in str(report.longrepr):
        _skipped_for_sound.append(report.nodeid)


def pytest_terminal_summary(terminalreporter) -> None:
    tr = terminalreporter
    if _skipped_for_sound:
        tr.write_sep("!", f"{len(_skipped_for_sound)} test SKIPPED: {_NO_SOUND}", red=True,
                     bold=True)
        tr.write_line("Sound reaching a device is tested on a PulseAudio null sink: install "
                      "pulseaudio and pulseaudio-utils (.ci/run does).")
    if not _skipped_for_data:
        return
    tr.write_sep("!", f"{len(_skipped_for_data)} tests SKIPPED: {_NO_TESTDATA} at {TESTDATA}",
                 red=True, bold=True)
    tr.write_line("They check RFC 8785 and JSON parsing against third-party vectors and run in "
                  "CI. Put the data beside the clone (../shared/testdata) or point "
                  "MODERATOR_SHARED at its parent; see README, 'Quick start'.")
from pghelp import pg_dsn, pg_server  # noqa: E402,F401 - real PostgreSQL fixtures (team mode)


@pytest.fixture
def store(tmp_path) -> Path:
    """Where a test's decision store (SQLite) goes; created by the first append."""
    return tmp_path / "ledger" / "decisions.sqlite3"


@pytest.fixture
def themed_app(qapp):
    """The shared QApplication, for a test that applies a theme (ui/theme.py), restored
    afterwards so other tests see the default look."""
    palette, sheet, style = qapp.palette(), qapp.styleSheet(), qapp.style().name()
    prop = qapp.property("moderator_app_theme")
    yield qapp
    qapp.setStyle(style)
    qapp.setPalette(palette)
    qapp.setStyleSheet(sheet)
    qapp.setProperty("moderator_app_theme", prop)


@pytest.fixture(scope="module")
def submission(tmp_path_factory) -> Path:
    """A valid community submission: a real agent log and a real mp4 video covering it."""
    from moderator_app.core.samples.community import make_agent_log, make_video

    d = tmp_path_factory.mktemp("sub") / "run-42"
    d.mkdir()
    duration = make_agent_log(d / "agent-log.jsonl", 20, seed=3)
    make_video(d / "run.mp4", duration)
    return d


@pytest.fixture
def decodes(tmp_path, monkeypatch):
    """A fresh scan cache, and the list of decoding ("scan") requests sent to the isolated
    video process: the one seam every decode goes through (core/video/isolate.py)."""
    from moderator_app.core.video import isolate

    monkeypatch.setenv("MODERATOR_APP_CACHE", str(tmp_path / "cache"))
    sent: list[str] = []
    real = isolate.VideoProcess.request

    def counting(self, req, *a, **kw):
        if req.get("op") == "scan":
            sent.append(req["op"])
        return real(self, req, *a, **kw)

    monkeypatch.setattr(isolate.VideoProcess, "request", counting)
    return sent


# -- The widget tests' guard: no test leaves a thread running -------------------------------
# Why (session 17): the suite is one process. A frame worker blocked on its decoder after a
# widget test had timed out was still running minutes later in tests/verify, where
# `trajectory.worker.can_fork` is False beside any other thread: the trajectory worker was
# spawned instead of forked and four tests that patch it failed. A leak is now reported by the
# test that made it, not by an unrelated test later on.

#: How long the threads a widget test ended may take to finish after it (a QThread leaves its
#: event loop, a cancelled scan's process is killed: asynchronous). Only how long the guard
#: waits, never a bound on what a test measures.
THREADS_SETTLE_S = 20.0

#: Qt's own idle pool workers (image scaling and conversion in QtGui's thread pool): they hold
#: nothing of the test's and expire by themselves after 30 s.
QT_POOLED = "Thread (pooled)"


def _threads() -> set[str]:
    """This process's threads other than the main one, by name and id (`/proc/self/task`)."""
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return set()
    names = set()
    for tid in tasks:
        if int(tid) == os.getpid():
            continue
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                name = f.read().strip()
        except OSError:
            continue  # it ended while being listed
        if name != QT_POOLED:
            names.add(f"{name} (tid {tid})")
    return names


@pytest.fixture(autouse=True)
def _no_thread_left_running(request):
    """After each test of tests/ui: every thread it started has ended (Qt's event loop is
    turned meanwhile, so that a QThread's `finished` handlers run). A thread already running
    before the test is not the test's own and is not counted."""
    if "ui" not in request.node.path.parent.parts[-1:]:
        yield
        return
    before = _threads()
    yield
    import time
    left = _threads() - before
    if not left:
        return
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance()
    end = time.monotonic() + THREADS_SETTLE_S
    while left and time.monotonic() < end:
        if app is not None:
            app.processEvents()
        time.sleep(0.02)
        left = _threads() - before
    if left:
        pytest.fail(f"{request.node.nodeid} left {len(left)} thread(s) running: "
                    f"{', '.join(sorted(left))}", pytrace=False)


# -- Stress: background work that lands late (MODERATOR_TEST_LAG=seconds) --------------------
# Why (session 18, issue 11): sessions 16 and 17 each lost a landing to a widget test that
# acted while the window's background work (the integrity scan, the sync analysis, a
# verification, the queue's listing, a search) was still to land; its end then re-listed the
# findings or re-selected a row under the test. Such a race fails only now and then, under
# load: only when the work lands between the test's action and its assertion. A lag alone
# does not show it (the work then lands after the test: 249 of 249 passed with a lag of
# 0.5 s), so with MODERATOR_TEST_LAG set two things happen:
# - every run of a `BackgroundOp` and every integrity scan hands its result over that many
#   seconds late (a cancel cuts the wait short);
# - a widget test whose main window is still busy (`MainWindow.busy`, but for a frame on its
#   way) when the test ends fails: it acted and asserted before that work landed, and on a
#   loaded machine the work may land in the middle instead. A test about the window while
#   the work runs waits for it at its end (`wait_analyses`).
# Off (0) by default: it changes nothing. `make test-lag` runs tests/ui so.

#: The lag in seconds (a float; 0 or unset: off).
TEST_LAG_S = float(os.environ.get("MODERATOR_TEST_LAG", "0") or 0)
#: The lanes whose end a test must have waited for (a frame asked for is not lagged, and a
#: test that seeks last need not wait for the picture it does not look at).
LAGGED_LANES = ("verify", "scan", "sync", "search", "queue")


def _lagged(fn):
    """`fn`, whose result is handed back TEST_LAG_S later (a cancel cuts the wait short)."""
    import time

    def late(*args, **kwargs):
        value = fn(*args, **kwargs)
        cancel = kwargs["cancel"] if "cancel" in kwargs else (args[1] if len(args) > 1
                                                               else None)
        end = time.monotonic() + TEST_LAG_S
        while time.monotonic() < end:
            if cancel is not None and getattr(cancel, "cancelled", False):
                break
            time.sleep(0.02)
        return value
    return late


def _is_widget_test(node) -> bool:
    return "ui" in node.path.parent.parts[-1:]


@pytest.fixture(autouse=True)
def _background_lag(request, monkeypatch):
    """With MODERATOR_TEST_LAG: the widget tests' background work lands late, and the main
    windows a test made are listed for the check at its end (see above)."""
    if not TEST_LAG_S or not _is_widget_test(request.node):
        yield
        return
    from moderator_app.core.video import scan
    from moderator_app.ui import background
    from moderator_app.ui.main_window import MainWindow

    real_run = background.BackgroundOp.run

    def run(self, fn, *args, **kwargs):
        return real_run(self, _lagged(fn), *args, **kwargs)

    monkeypatch.setattr(background.BackgroundOp, "run", run)
    monkeypatch.setattr(scan, "run_scan", _lagged(scan.run_scan))
    windows: list = []
    real_init = MainWindow.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        windows.append(self)

    monkeypatch.setattr(MainWindow, "__init__", init)
    request.node.stash[_WINDOWS] = windows
    yield
    windows.clear()


_WINDOWS = pytest.StashKey[list]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """With MODERATOR_TEST_LAG: a widget test that passed fails if one of its main windows
    is still busy as it ends (see above)."""
    result = yield
    for w in item.stash.get(_WINDOWS, ()):
        try:
            left = [lane for lane in w.busy() if lane in LAGGED_LANES]
        except RuntimeError:  # its Qt object was deleted by the test: nothing runs there
            continue
        if left:
            pytest.fail(f"the test ended while its window was busy with {', '.join(left)} "
                        f"(MODERATOR_TEST_LAG={TEST_LAG_S}): it acted before that work "
                        "landed; wait for it (open_and_wait, wait_analyses)", pytrace=False)
    return result
