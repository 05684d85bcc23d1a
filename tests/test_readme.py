"""The README's quick start and shortcut table stay true to the code."""

from __future__ import annotations

from conftest import REPO

from moderator_app.ui.shortcuts import markdown_table

README = (REPO / "README.md").read_text(encoding="utf-8")


def test_quick_start_is_make_run_and_make_test():
    quick = README.split("## Quick start", 1)[1].split("```", 2)[1]
    assert [line.split("#")[0].strip() for line in quick.strip().splitlines()[1:]] == [
        "make run", "make test"]


def test_shortcut_table_is_generated_from_the_one_source():
    assert markdown_table().strip() in README
