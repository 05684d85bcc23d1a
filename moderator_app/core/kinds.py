"""The two kinds of run a moderator judges, and everything that differs between them.

A community run is judged on its agent log (`agent-log.jsonl`), an official run on the
evaluator's hash-chained trajectory (`events.jsonl(.zst)`). Code asks the kind what it needs
(`report.kind.units`, `sub.kind.evidence_role`, `kind.has_checklist`) instead of comparing
strings: a third kind, or a change to one, is then made here. The model is Anki's browser,
whose `ItemState` (cards or notes) answers the questions the views would otherwise branch on.

`Kind` is a `str` enum: it is written as its name ("community", "official") in the JSON report,
the ledger and f-strings, and compares equal to that name. What each kind is verified by is
chosen in `verify/pipeline.py` (the floor does not import the verifiers above it).
"""

from __future__ import annotations

from enum import Enum


class Kind(str, Enum):
    """A kind of run. Attributes: `evidence_role` (the submission member verified, see
    `formats.members`), `evidence_name`, `unit`/`units` (what its lines are called),
    `lane_title`/`all_lanes` (how the event table groups lines: by event type or by producer;
    `type_column`: a Type column besides the lanes, where the lanes are not the types),
    `has_chain` (a hash chain, a `chain` report section, a chain head in the decision record),
    `has_checklist` (the reviewer's walkthrough before an accept) and `video_required` (a
    submission without a video fails)."""

    evidence_role: str
    evidence_name: str
    unit: str
    units: str
    lane_title: str
    all_lanes: str
    type_column: bool
    has_chain: bool
    has_checklist: bool
    video_required: bool

    def __new__(cls, name: str, evidence_role: str, evidence_name: str, unit: str, units: str,
                lane_title: str, all_lanes: str, type_column: bool, has_chain: bool,
                has_checklist: bool,
                video_required: bool) -> Kind:
        obj = str.__new__(cls, name)
        obj._value_ = name
        obj.evidence_role = evidence_role
        obj.evidence_name = evidence_name
        obj.unit, obj.units = unit, units
        obj.lane_title, obj.all_lanes, obj.type_column = lane_title, all_lanes, type_column
        obj.has_chain, obj.has_checklist = has_chain, has_checklist
        obj.video_required = video_required
        return obj

    COMMUNITY = ("community", "agent_log", "agent log", "log line", "log lines", "Type",
                 "All types", False, False, False, True)
    OFFICIAL = ("official", "trajectory", "trajectory", "event", "events", "Producer",
                "All producers", True, True, True, False)

    @classmethod
    def named(cls, name: str) -> Kind:
        """The kind called `name` ("community", "official"; a Kind is itself). ValueError for
        any other name."""
        for kind in cls:
            if kind.value == name:
                return kind
        raise ValueError(f"no kind of run is called {name!r}")

    # Written as the plain name everywhere, on Python 3.10 and 3.11+ alike.
    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, spec: str) -> str:
        return str.__format__(self, spec)
