"""What a decision's confirmation says: the record that will be stored, field by field.

Built from the `DecisionRecord` itself (not from the form), so that the dialog cannot say one
thing while the ledger stores another: "ACCEPT … with reason ok?" told the moderator neither
the verdict the record keeps nor that retime marks went with it (issue 11). Qt-free: plain text
for a `QMessageBox` set to PlainText; every string from the submission is escaped.
"""

from __future__ import annotations

from moderator_app.core.ledger.records import ACCEPT, REASON_LABELS, DecisionRecord
from moderator_app.core.text import counted, safe_text


def _secs(t: float | None) -> str:
    return "-" if t is None else f"{t:.3f} s"


def retime_text(start: float | None, end: float | None) -> str:
    """The retime marks as the record keeps them (video time), or "none"."""
    if start is None and end is None:
        return "none"
    return f"{_secs(start)} → {_secs(end)} (video time)"


def _counts(errors: int, warnings: int) -> str:
    return f"{counted(errors, 'error')}, {counted(warnings, 'warning')}"


#: `ReviewSession.offset_by`: the sync offset applied from auto-sync's suggestion, or set by
#: the moderator (typed, nudged, "run_start here"); None: never set (a new submission's 0).
AUTO_SYNC = "auto-sync"
MODERATOR = "moderator"


def offset_origin(by: str | None, auto_sync: str = "") -> str:
    """Who set the offset a decision records, for its confirmation: the ledger binds the
    offset whoever set it (docs/DESIGN.md, Decisions), and it decides what the verdict counts
    (coverage, the sync's findings). QA s41's GUI walk recorded +0.000 s while auto-sync said
    "not enough signal" (truth 0.85 s): nothing had asked for an offset, nor said that nobody
    had set one. Never set, the line says what auto-sync said (`auto_sync`: the Sync dock's
    first line): no suggestion, or one not applied."""
    if by == MODERATOR:
        return "set by you"
    if by == AUTO_SYNC:
        return "auto-sync's suggestion, applied"
    said = auto_sync.strip().split("\n")[0]
    return "never set (a new submission's 0)" + (f"; {safe_text(said)}" if said else "")


#: How the confirmation names a background analysis still running (`MainWindow.busy` lanes).
ANALYSES = {"scan": "the video's integrity scan", "sync": "auto-sync"}


def confirmation_text(record: DecisionRecord, store: str,
                      running: tuple[str, ...] = (), outside_warnings: int = 0,
                      offset_said: str = "") -> str:
    """Every field a moderator answers for, in the words of the record: decision, reason,
    note, verdict with its counts, sync offset, retime marks, walkthrough, reviewer, ledger.
    `running`: the background analyses not finished (`ANALYSES` keys); their findings (frozen
    or black stretches, actions no reaction answers) are not in the list yet. Session 40's
    walk accepted a run while the scan stood at 0 %; five `video.frozen` warnings came in
    seconds later, and the confirmation had not said that anything was still to come.
    `outside_warnings`: the warnings the findings list shows from those analyses; the verdict
    does not count them, and QA s41's walk read "Verdict recorded: PASS (0 errors, 0
    warnings)" beside two `video.frozen` warnings on the list, so the confirmation says them.
    `offset_said`: who set the offset (`offset_origin`), said after it."""
    s = record.summary
    reason = REASON_LABELS.get(record.reason, "")
    lines = [
        f"Record this decision on the {record.kind} run {safe_text(record.submission)!r}?",
        "",
        f"Decision: {record.decision.upper()}",
        f"Reason: {record.reason}" + (f" ({reason})" if reason else ""),
        "Note: " + (safe_text(" ".join(record.note.split())) if record.note.strip()
                    else "none"),
        f"Verdict recorded: {s.verdict.upper()} ({_counts(s.errors, s.warnings)}) at this "
        "offset",
        *([f"Not in the verdict: {counted(outside_warnings, 'warning')} from the video "
           "analysis, on the findings list"] if outside_warnings else []),
        f"Sync offset: {record.sync_offset_s:+.3f} s (run_start at video time "
        f"{record.sync_offset_s:.3f} s)" + (f": {offset_said}" if offset_said else ""),
        "Retime marks: " + retime_text(record.retime_start_s, record.retime_end_s),
    ]
    if record.checklist or record.override_note:
        lines.append(f"Walkthrough items ticked: {len(record.checklist)}"
                     + (f"; override: {safe_text(record.override_note)}"
                        if record.override_note else ""))
    lines.append(f"Reviewer: {safe_text(record.reviewer)}")
    lines.append(f"Ledger: {store}")
    if record.decision == ACCEPT and s.verdict != "pass":
        lines += ["", "The verification FAILED: accepting overrides it."]
    names = [ANALYSES[r] for r in running if r in ANALYSES]
    if names:
        what = "What they find" if len(names) > 1 else "What it finds"
        lines += ["", f"Still running: {' and '.join(names)}. {what} is not in the findings "
                  "yet (the verdict recorded does not count it)."]
    lines += ["", ENTER_RECORDS if enter_confirms(record, running, outside_warnings)
              else ENTER_CANCELS]
    return "\n".join(lines)


#: The confirmation's last line: what Enter does there (its default button), and why
ENTER_RECORDS = "Enter records it; Esc cancels."
ENTER_CANCELS = ("Enter cancels here, because of the above; Yes (Alt+Y) records it.")


def enter_confirms(record: DecisionRecord, running: tuple[str, ...] = (),
                   outside_warnings: int = 0) -> bool:
    """Whether Enter (the confirmation's default button) records the decision. Yes, unless
    the confirmation warns: an accept that overrides a failed verification, an accept beside
    warnings of the video analysis the verdict does not count (review s41 R9), or analyses
    whose findings are still to come. Enter cancelled every confirmation, and session 40's walk
    pressed it twice to record and got "Cancelled: nothing recorded." each time; a decision
    the moderator has just read field by field is recorded by the key that confirms
    everywhere else, and a warning still takes a deliberate Yes."""
    warned = record.decision == ACCEPT and (record.summary.verdict != "pass"
                                            or outside_warnings > 0)
    return not warned and not any(r in ANALYSES for r in running)
