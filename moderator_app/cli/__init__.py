"""The headless command line: `moderator-app verify | withhold | decide | decisions | rules |
frame`.

Never imports Qt (checked by tests/test_architecture.py): submitters self-check on machines
without a display, and `verify` on a small submission must answer in well under half a
second. Video is read only in the isolated video process (core/video/isolate.py).
"""

from __future__ import annotations

import argparse

from moderator_app import __version__
from moderator_app.cli.common import EXIT_UNREADABLE


def build_parser() -> argparse.ArgumentParser:
    """One parser; each command module registers its sub-commands and a `handler`."""
    from moderator_app.cli.decisions import add_decision_commands
    from moderator_app.cli.frame import add_frame_command
    from moderator_app.cli.verify import add_verify_commands

    p = argparse.ArgumentParser(
        prog="moderator-app",
        description="Verify and judge AI-agent game runs. Without a command, opens the "
                    "workstation (moderator-app [PATH]).")
    p.add_argument("--version", action="version", version=f"moderator-app {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    add_verify_commands(sub)
    add_decision_commands(sub)
    add_frame_command(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if hasattr(args, "handler"):
        return args.handler(args)
    parser.print_help()
    return EXIT_UNREADABLE
