"""Rule catalogue: every finding the verifiers can emit has one `Rule` here.

Each verifier module declares its rules with `rule(...)` at import time; `catalogue.all_rules()`
imports them all and lists them for Help > Formats, the docs and the tests that check every rule
is exercised. The rule id is the stable contract of the JSON report: never rename one, add a new
one instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import Enum

from moderator_app.core.text import safe_text


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


#: The times a finding may carry, in seconds, named by their clock (docs/DESIGN.md, "Times in
#: findings"): video time from the first frame shown, run time since run_start. In this order in
#: the report's JSON, after `line`.
TIME_KEYS = ("video_s", "video_start_s", "video_end_s", "run_s", "run_start_s", "run_end_s")


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem (or note) about the evidence, located by file and 1-based line, and, for
    a finding about a moment or a span of the video, by its times: a client jumps there
    without knowing the sync offset, and nobody parses the message for them (the workstation
    read `video.joined_undecodable`'s stretch out of its wording, and sent a footage gap to
    the first frame)."""

    severity: Severity
    rule: str
    message: str
    file: str | None = None
    line: int | None = None
    video_s: float | None = None
    video_start_s: float | None = None
    video_end_s: float | None = None
    run_s: float | None = None
    run_start_s: float | None = None
    run_end_s: float | None = None

    def to_dict(self) -> dict:
        d = {
            "severity": self.severity.value,
            "rule": self.rule,
            "message": self.message,
            "file": self.file,
            "line": self.line,
        }
        # Only the times it has: a finding without any is the object report/v1 always had,
        # byte for byte (readers that do not know the keys are unaffected).
        for k in TIME_KEYS:
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        return d

    def on_run_clock(self, offset_s: float) -> Finding:
        """This finding with its run times too, where it has video times only (a probe's or a
        scan's finding is found on the video's clock): run time = video time - the offset that
        places run_start on the video. "Where both clocks are known, both are given"
        (docs/DESIGN.md); a finding that has run times, or no times, is returned as it is."""
        if self.run_s is not None or self.run_start_s is not None or self.run_end_s is not None:
            return self
        if self.video_s is None and self.video_start_s is None and self.video_end_s is None:
            return self

        def run(v: float | None) -> float | None:
            return None if v is None else _time(v - offset_s)

        return replace(self, run_s=run(self.video_s), run_start_s=run(self.video_start_s),
                       run_end_s=run(self.video_end_s))

    @property
    def video_start(self) -> float | None:
        """Where the finding starts on the video's clock (its instant or its span's start)."""
        return self.video_s if self.video_s is not None else self.video_start_s

    @property
    def run_start(self) -> float | None:
        """Where the finding starts on the run's clock (its instant or its span's start)."""
        return self.run_s if self.run_s is not None else self.run_start_s


def _time(x: float | None) -> float | None:
    """A time as the report writes it: to the microsecond, as the coverage section; a value
    that is no finite number is no time (JSON has no NaN)."""
    if x is None:
        return None
    x = float(x)
    return round(x, 6) if math.isfinite(x) else None


@dataclass(frozen=True, slots=True)
class Rule:
    """A check with a stable id (e.g. `log.seq`), a default severity and a one-line summary."""

    id: str
    severity: Severity
    summary: str
    group: str

    def at(self, message: str, file: str | None = None, line: int | None = None, *,
           video_s: float | None = None, video_start_s: float | None = None,
           video_end_s: float | None = None, run_s: float | None = None,
           run_start_s: float | None = None, run_end_s: float | None = None) -> Finding:
        # Messages quote untrusted text (names, values): escaped here, once, for every
        # reader of the finding (terminal, JSON, GUI, ledger), see core/text.py.
        return Finding(self.severity, self.id, safe_text(message), file, line,
                       _time(video_s), _time(video_start_s), _time(video_end_s), _time(run_s),
                       _time(run_start_s), _time(run_end_s))


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
