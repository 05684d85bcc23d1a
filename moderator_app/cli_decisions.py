"""`decide` and `decisions` commands (issue 5). Qt-free. Placeholder until the ledger lands."""

from __future__ import annotations

import argparse


def add_decision_commands(sub: argparse._SubParsersAction) -> None:
    """Register `decide` and `decisions` on the CLI's subparsers (set `handler` defaults)."""
