"""The headless command line: `moderator-app verify | withhold | decide | decisions | rules |
frame`.

Never imports Qt (checked by tests/test_architecture.py): submitters self-check on machines
without a display, and `verify` on a small submission must answer in well under half a
second. Video is read only in the isolated video process (core/video/isolate.py).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys

from moderator_app import __version__
from moderator_app.cli.common import EXIT_UNREADABLE, SafeStream, safe_text
from moderator_app.core.stop_signals import release_stop_signals

# The module that registers each command. `verify` on a small run spent a third of its
# start-up importing the ledger's records and the frame command for a parser it never used.
_COMMAND_MODULES = {"verify": "verify", "withhold": "verify", "rules": "verify",
                    "decide": "decisions", "decisions": "decisions", "queue": "decisions",
                    "claim": "decisions", "release": "decisions", "frame": "frame"}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """One parser; each command module registers its sub-commands and a `handler`. Given the
    `command` about to run, only the module that owns it is imported and registered (its
    options, help and errors are the same); otherwise every command is (`--help`)."""
    owner = _COMMAND_MODULES.get(command or "")

    p = _Parser(
        prog="moderator-app",
        description="Verify and judge AI-agent game runs. Without a command, opens the "
                    "workstation (moderator-app [PATH]).")
    p.add_argument("--version", action="version", version=f"moderator-app {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    if owner in (None, "verify"):
        from moderator_app.cli.verify import add_verify_commands

        add_verify_commands(sub)
    if owner in (None, "decisions"):
        from moderator_app.cli.decisions import add_decision_commands

        add_decision_commands(sub)
    if owner in (None, "frame"):
        from moderator_app.cli.frame import add_frame_command

        add_frame_command(sub)
    return p


class _Parser(argparse.ArgumentParser):
    """argparse's parser, keeping its last usage error (sub-command parsers are made of the
    same class): `verify --json` with a bad option printed nothing on stdout, where a script
    is promised one JSON object whatever stopped the command (s28 hostile sweep:
    `--offset=0x10 --json`)."""

    last_error: str | None = None

    def error(self, message: str):  # type: ignore[override]
        _Parser.last_error = message
        super().error(message)


def _usage_json(raw: list[str]) -> None:
    """The one `unreadable` report object of `verify --json` stopped by wrong usage."""
    head = raw[: raw.index("--")] if "--" in raw else raw
    if head[:1] == ["verify"] and "--json" in head and _Parser.last_error is not None:
        from moderator_app.core.text import safe_json

        sys.stdout.write(safe_json({"schema": "moderator-app/report/v1",
                                    "verdict": "unreadable",
                                    "error": f"wrong usage: {_Parser.last_error}"}) + "\n")


# Free-text options whose value may itself start with `-` (`--note -x`, `--note "-- ok"`):
# argparse would take that value for an option and refuse. Joined to `--note=-x` unless the
# value is one of the parser's own options (then the text was forgotten: argparse says so).
TEXT_OPTIONS = ("--note", "--override-note", "--override-claim", "--reviewer")


def _option_strings(parser: argparse.ArgumentParser) -> set[str]:
    found: set[str] = set()
    stack = [parser]
    while stack:
        p = stack.pop()
        for action in p._actions:
            found.update(action.option_strings)
            if isinstance(action, argparse._SubParsersAction):
                stack.extend(action.choices.values())
    return found


def join_text_options(argv: list[str], known: set[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if (arg in TEXT_OPTIONS and i + 1 < len(argv) and argv[i + 1].startswith("-")
                and argv[i + 1].split("=", 1)[0] not in known and argv[i + 1] != "--"):
            out.append(f"{arg}={argv[i + 1]}")
            i += 2
            continue
        out.append(arg)
        i += 1
    return out


def main(argv: list[str] | None = None) -> int:
    """Run one command. Exit codes keep their meaning whatever happens: 0 pass, 1 fail,
    2 unreadable input or wrong usage; an interrupt is 130 (143 for SIGTERM) after the
    temporary files are removed. No traceback reaches the user: an unexpected error is one
    line on stderr (MODERATOR_APP_DEBUG=1 shows the traceback) and exit 2."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)
    previous = _on_sigterm()
    try:
        raw = sys.argv[1:] if argv is None else list(argv)
        parser = build_parser(raw[0] if raw else None)
        # held since the entry point (core/stop_signals.py): one that came during the
        # imports is raised here, and ends as any interrupt does
        release_stop_signals()
        try:
            args = parser.parse_args(join_text_options(raw, _option_strings(parser)))
        except SystemExit as exc:
            if exc.code == 2:
                _usage_json(raw)
            raise
        imports_done()
        if hasattr(args, "handler"):
            return args.handler(args)
        parser.print_help()
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        print("moderator-app: interrupted", file=sys.stderr)
        return 130
    except (SystemExit, BrokenPipeError):
        raise  # a closed pipe (`… | head -1`) is a quiet exit 141, in moderator_app.__main__
    except MemoryError:  # a resource, not a bug: said as such (issue 15), exit 2, no report
        print("moderator-app: out of memory: this command needed more memory than this "
              "process may use; nothing was judged or recorded", file=sys.stderr)
        return EXIT_UNREADABLE
    except Exception as exc:  # noqa: BLE001 - the last line of defence: no traceback
        if os.environ.get("MODERATOR_APP_DEBUG"):
            raise
        print(f"moderator-app: internal error ({type(exc).__name__}): {safe_text(exc)}; "
              "please report it (MODERATOR_APP_DEBUG=1 shows the details)", file=sys.stderr)
        return EXIT_UNREADABLE
    finally:
        with contextlib.suppress(BaseException):  # only if the try ended before it
            release_stop_signals()
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        sys.stdout, sys.stderr = saved
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def imports_done() -> None:
    """The command's modules are imported: the cyclic collector, paused for the start-up by
    `moderator_app.__main__`, resumes, and the objects made so far (modules, classes,
    functions: they live as long as the process) are frozen (`gc.freeze`), so no later
    collection walks them again; a forked worker then also leaves their pages shared. A
    no-op where the collector was running (in-process callers, tests)."""
    import gc

    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _on_sigterm():
    """SIGTERM unwinds like Ctrl+C (finally blocks remove temporary files), with exit 143."""
    def handler(signum, frame):
        raise SystemExit(128 + signum)

    try:
        return signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread
        return None
