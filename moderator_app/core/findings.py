"""Collecting findings with flat memory.

A 1 GB log in which every line is wrong must not grow memory without bound: we keep the first
`per_rule_cap` findings of each rule, and count all of them. The counts, not the kept list,
decide the verdict.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from moderator_app.core.rules import Finding, Severity

DEFAULT_PER_RULE_CAP = 500


class FindingLog:
    """Append-only list of findings with per-rule caps and exact totals."""

    def __init__(self, per_rule_cap: int = DEFAULT_PER_RULE_CAP) -> None:
        self.per_rule_cap = per_rule_cap
        self._kept: list[Finding] = []
        self.by_rule: Counter[str] = Counter()
        self.by_severity: Counter[Severity] = Counter()
        self.dropped = 0

    def add(self, finding: Finding) -> None:
        self.by_rule[finding.rule] += 1
        self.by_severity[finding.severity] += 1
        if self.by_rule[finding.rule] <= self.per_rule_cap:
            self._kept.append(finding)
        else:
            self.dropped += 1

    def room(self, rule_id: str) -> int:
        """How many more findings of `rule_id` would be kept."""
        return max(0, self.per_rule_cap - self.by_rule[rule_id])

    def count_dropped(self, rule_id: str, severity: Severity, n: int) -> None:
        """`n` more findings of a rule whose cap is reached (`room` is 0): counted as `add`
        counts them, never made. Why: a flood of one finding (a warning on each of 120,000
        lines) built, escaped and dropped each message, ~40 % of a verify (issue 15)."""
        if self.room(rule_id):
            raise ValueError(f"{rule_id} has room: add its findings")
        self.by_rule[rule_id] += n
        self.by_severity[severity] += n
        self.dropped += n

    def replacing(self, drop: Callable[[Finding], bool],
                  new: Iterable[Finding]) -> FindingLog:
        """A copy in which every finding for which `drop` is true is replaced by `new`, at the
        place of the first one dropped (else at the end), so that reading order is what a
        fresh verification would give. `drop` must select whole rules (all findings of a rule
        share its severity), so the counts stay exact beyond the per-rule cap."""
        out = FindingLog(self.per_rule_cap)
        gone = {f.rule: f.severity for f in self._kept if drop(f)}
        at = next((i for i, f in enumerate(self._kept) if drop(f)), len(self._kept))
        kept = [f for f in self._kept if not drop(f)]
        out.by_rule = Counter(self.by_rule)
        out.by_severity = Counter(self.by_severity)
        out.dropped = self.dropped
        for rule_id, sev in gone.items():
            n = out.by_rule.pop(rule_id, 0)
            out.by_severity[sev] -= n
            out.dropped -= max(0, n - self.per_rule_cap)
        head, tail = kept[:at], kept[at:]
        out._kept = head
        for f in new:
            out.add(f)
        out._kept.extend(tail)
        return out

    def rewording(self, change: Callable[[Finding], Finding]) -> FindingLog:
        """A copy in which each kept finding is `change(finding)` (same rule, same place;
        its severity and wording may differ), the counts by severity following. Why: a note
        that another analysis explains a finding (the game's wait beside a scan's held
        picture, core/sync/run.py `wait_notes`) changes one finding, not its whole rule."""
        out = FindingLog(self.per_rule_cap)
        out.by_rule = Counter(self.by_rule)
        out.by_severity = Counter(self.by_severity)
        out.dropped = self.dropped
        for f in self._kept:
            g = change(f)
            if g.rule != f.rule:
                raise ValueError(f"rewording {f.rule} as {g.rule}")
            out.by_severity[f.severity] -= 1
            out.by_severity[g.severity] += 1
            out._kept.append(g)
        return out

    def extend(self, findings) -> None:
        for f in findings:
            self.add(f)

    @property
    def errors(self) -> int:
        return self.by_severity[Severity.ERROR]

    @property
    def warnings(self) -> int:
        return self.by_severity[Severity.WARNING]

    @property
    def infos(self) -> int:
        return self.by_severity[Severity.INFO]

    def sorted(self) -> list[Finding]:
        """Kept findings in reading order: by line, then whole-file findings (no line) last.

        Python's sort is stable, so findings on one line keep the order they were found in.
        """
        return sorted(self._kept, key=lambda f: (f.line is None, f.line or 0))

    def first_error(self) -> Finding | None:
        errs = [f for f in self._kept if f.severity is Severity.ERROR]
        if not errs:
            return None
        return min(errs, key=lambda f: (f.line is None, f.line or 0))

    def __iter__(self):
        return iter(self.sorted())

    def __len__(self) -> int:
        return len(self._kept)
