"""`moderator-app` and `python -m moderator_app`: a known command runs the headless CLI;
anything else (no argument, or a submission path) opens the workstation.

The routing is decided here from argv alone, so that CLI commands never import Qt.
"""

from __future__ import annotations

import sys

CLI_COMMANDS = {"verify", "withhold", "decide", "decisions", "rules"}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and (args[0] in CLI_COMMANDS or args[0] in ("-h", "--help", "--version")):
        from moderator_app.cli import main as cli_main

        return cli_main(args)
    from moderator_app.ui.app import run_app  # Qt is imported only on this path

    return run_app(args)


if __name__ == "__main__":
    sys.exit(main())
