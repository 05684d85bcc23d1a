"""`moderator-app` and `python -m moderator_app`: a known command runs the headless CLI;
anything else (no argument, or a submission path) opens the workstation.

The routing is decided here from argv alone, so that CLI commands never import Qt.
"""

from __future__ import annotations

import os
import sys

CLI_COMMANDS = {"verify", "withhold", "decide", "decisions", "rules", "frame", "queue",
                "claim", "release"}


VIDEO_CHILD = "--video-child"  # the isolated video process (core/video/isolate.py)
VERIFY_CHILD = "--verify-child"  # the workstation's verification process (core/verify/child.py)


EXIT_INTERRUPTED = 130  # 128 + SIGINT


def main(argv: list[str] | None = None) -> int:
    # SIGINT/SIGTERM wait until the heavy imports are done (a Ctrl+C inside orjson's
    # initialisation was a SIGSEGV): the CLI lets them through inside its try
    # (core/stop_signals.py); the other paths right after their imports.
    from moderator_app.core.stop_signals import hold_stop_signals

    hold_stop_signals()
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == [VERIFY_CHILD]:  # runs as the CLI does: glibc's arenas, no Qt
        from moderator_app.core.verify.child import main as verify_child

        return _released(verify_child)
    gui = not (args and (args[0] in CLI_COMMANDS or args[0] in ("-h", "--help", "--version")))
    if gui:  # the workstation and its video process: before any second thread allocates
        from moderator_app.core.arenas import lean_address_space

        lean_address_space()
    if args[:1] == [VIDEO_CHILD]:  # also how the frozen bundle starts its video process
        # As the CLI's below: no collection while PyAV and numpy import (child.main freezes
        # what they made and resumes it), 0.02 s of the child's ~0.2 s of start-up CPU
        import gc

        gc.disable()
        from moderator_app.core.arenas import small_thread_stacks

        small_thread_stacks()
        from moderator_app.core.video.child import main as video_child

        return _released(video_child)
    if not gui:
        # The cyclic collector is paused while the command imports its modules, and the
        # objects they made are frozen out of its reach when it resumes (`cli.main`): at
        # start-up it ran gen-2 passes over the same ~100,000 objects, 15-20 ms of the ~0.1 s
        # a command's start costs (the floor a 300 MB verification is measured against is
        # ~0.35 s). Imports make no cyclic garbage worth collecting.
        import gc

        gc.disable()
        from moderator_app.core.arenas import one_blas_thread

        one_blas_thread()  # before a command that reads a video imports numpy
        from moderator_app.cli import main as cli_main  # releases the signals itself

        code = quiet_on_closed_pipe(cli_main, args)
        if argv is None and args[:1] == ["verify"]:
            end_without_teardown(code)
        return code
    from moderator_app.ui.app import run_app  # Qt is imported only on this path

    return _released(run_app, args)


def _released(fn, *args) -> int:
    """Let SIGINT/SIGTERM through, then run `fn`: one that arrived during the imports ends
    the process here with 130 (SIGTERM's default action, once unblocked, ends it as such)."""
    from moderator_app.core.stop_signals import release_stop_signals

    try:
        release_stop_signals()
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return fn(*args)


def end_without_teardown(code: int) -> int:
    """End a finished `verify` now: its exit handlers run (the video children, the temporary
    folders) and its output is flushed, then `os._exit`, skipping the
    interpreter's teardown, which only frees what the process is about to give back: the
    collection of every module's objects and their finalisation, ~10 ms of CPU (5.7 % of a
    small-file scan's process tree, issue 12; the CLI's start and end are most of what that
    scan costs beyond its decode floor). Only for `verify` run as the program: it writes no
    file of its own after its report (the ledger's commands keep the full teardown), and only
    when no other thread runs (the interpreter would wait for it). Returns `code` where it
    does not end the process."""
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return code
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            code = EXIT_CLOSED_PIPE if stream is sys.stdout else code
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(code)


EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a writer whose reader left


def quiet_on_closed_pipe(fn, args: list[str]) -> int:
    """`moderator-app decisions list | head -1`: when the reader closes the pipe, stop
    quietly (no BrokenPipeError traceback), like any Unix tool killed by SIGPIPE."""
    try:
        code = fn(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # Python flushes stdout again at exit: point it at /dev/null so that flush is silent.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_CLOSED_PIPE


if __name__ == "__main__":
    sys.exit(main())
