"""How a command starts: the cyclic collector is paused while it imports its modules, then
resumes with those objects frozen out of its reach (DECISIONS, "Speed of official-run
verification", session 12)."""

from __future__ import annotations

import gc

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
