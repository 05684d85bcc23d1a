"""Every rule the report can name: the rule catalogue, complete.

Rules are declared where they are checked (a rule id's prefix names its room: `log.*` in
verify/agent_log, `traj.*`/`chain.*` in verify/trajectory, `video.*` in video/, `sync.*` in
sync/, ...) and registered by `rules.rule()` when that module is imported. This module imports
every declaring module, so `all_rules()` is the whole list for `moderator-app rules`, Help >
Formats and docs/rules.md. It sits at the top of core (the import contracts in pyproject.toml):
a room that declares rules adds its module here, and tests/test_docs.py checks every rule is
documented.
"""

from __future__ import annotations

import moderator_app.core.formats.archive
import moderator_app.core.sync.rules
import moderator_app.core.verify.agent_log.rules
import moderator_app.core.verify.coverage
import moderator_app.core.verify.input_rules
import moderator_app.core.verify.seeds
import moderator_app.core.verify.trajectory.rules
import moderator_app.core.video.probe
import moderator_app.core.video.scan  # noqa: F401 - each import above registers its rules
from moderator_app.core.rules import Rule, declared_rules


def all_rules() -> list[Rule]:
    """Every rule, sorted by (group, id)."""
    return sorted(declared_rules(), key=lambda r: (r.group, r.id))
