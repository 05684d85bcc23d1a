"""Rule catalogue: every finding the verifiers can emit has one `Rule` here.

Each verifier module declares its rules with `rule(...)` at import time; `catalogue.all_rules()`
imports them all and lists them for Help > Formats, the docs and the tests that check every rule
is exercised. The rule id is the stable contract of the JSON report: never rename one, add a new
one instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from moderator_app.core.text import safe_text


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem (or note) about the evidence, located by file and 1-based line."""

    severity: Severity
    rule: str
    message: str
    file: str | None = None
    line: int | None = None

    def to_dict(self) -> dict:
        return {
            "severity": self.severity.value,
            "rule": self.rule,
            "message": self.message,
            "file": self.file,
            "line": self.line,
        }


@dataclass(frozen=True, slots=True)
class Rule:
    """A check with a stable id (e.g. `log.seq`), a default severity and a one-line summary."""

    id: str
    severity: Severity
    summary: str
    group: str

    def at(self, message: str, file: str | None = None, line: int | None = None) -> Finding:
        # Messages quote untrusted text (names, values): escaped here, once, for every
        # reader of the finding (terminal, JSON, GUI, ledger), see core/text.py.
        return Finding(self.severity, self.id, safe_text(message), file, line)


_REGISTRY: dict[str, Rule] = {}


def rule(rule_id: str, severity: Severity | str, summary: str, group: str) -> Rule:
    """Declare a rule. Declaring the same id twice with a different meaning is a bug."""
    sev = Severity(severity)
    new = Rule(rule_id, sev, summary, group)
    old = _REGISTRY.get(rule_id)
    if old is not None and old != new:
        raise ValueError(f"rule {rule_id!r} declared twice with different definitions")
    _REGISTRY[rule_id] = new
    return new


def declared_rules() -> list[Rule]:
    """The rules declared so far: those of the modules imported so far. The complete
    catalogue is `core.catalogue.all_rules()`, which imports every declaring module."""
    return list(_REGISTRY.values())
