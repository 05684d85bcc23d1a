"""What the workstation opens at start (a newcomer's first start shows the bundled sample)."""

from __future__ import annotations

from pathlib import Path

from conftest import SAMPLES

from moderator_app.ui.app import initial_paths


def test_given_paths_win():
    assert initial_paths([Path("x")], ["y"]) == [Path("x")]


def test_first_start_opens_the_bundled_sample():
    assert initial_paths([], []) == [SAMPLES / "community-sample"]


def test_later_starts_open_nothing():
    assert initial_paths([], ["/some/earlier/submission"]) == []
