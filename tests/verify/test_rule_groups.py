"""Rule group titles and order: every declared group has a title, and the order is stable."""

from __future__ import annotations

from moderator_app.core.catalogue import all_rules
from moderator_app.core.rule_groups import GROUPS, group_summary, group_title, ordered_groups


def test_every_declared_group_has_a_title_and_summary():
    groups = {r.group for r in all_rules()}
    assert groups - set(GROUPS) == set(), "add the new group to core/rule_groups.py"
    for g in groups:
        assert group_title(g) != g and group_summary(g).endswith(".")


def test_order_known_first_then_unknown_alphabetically():
    assert ordered_groups(["video", "zeta", "input", "alpha", "agent-log"]) == [
        "input", "agent-log", "video", "alpha", "zeta"]
    assert group_title("zeta") == "zeta" and group_summary("zeta") == ""
