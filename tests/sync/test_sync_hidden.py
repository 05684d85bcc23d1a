"""A scan's held picture that hides no button press of the log is a note beside the log, not
a warning (issues 12/13, QA s33 T2/T4; core/sync/hidden.py through run.py `wait_note`), and
a run of unanswered NOOPs is no "actions in a row with no visible reaction".

Built on QA s33's Tron Dead (the opening held 0.05-5.29 s, to the first press's answer) and
E.T. (15.76-23.38 s held under three NOOPs, ended by a DOWNLEFT's answer at 23.33 s: a
warning since review R14, as an edited freeze under NOOPs reads the same), with a frozen
recording beside each: the same holds with a button pressed under them and not
answered, or ended off the run's delay, keep their warnings.
"""

from __future__ import annotations

from dataclasses import replace

from moderator_app.core.rules import Finding, Severity
from moderator_app.core.sync.hidden import without_noop_misses
from moderator_app.core.sync.reactions import Reaction
from moderator_app.core.sync.records import SyncAnalysis, SyncFinding
from moderator_app.core.sync.run import wait_note

OFFSET = 3.35


def _analysis(presses: list[tuple[float, str, float | None]]) -> SyncAnalysis:
    """At OFFSET: each press (run time, button, the picture's delay or None: unanswered);
    presses at 30-39 s answer at +0.02 s, the run's usual delay."""
    presses = presses + [(30.0 + k, "LEFT", 0.02) for k in range(10)]
    rs, kinds = [], []
    for i, (t, button, d) in enumerate(presses):
        exp = OFFSET + t
        rs.append(Reaction(i, t, exp, None if d is None else exp + d, d,
                           0.0 if d is None else 0.9))
        kinds.append(f"press button={button}")
    return SyncAnalysis(OFFSET, 0.8, 10, len(rs), 1.0, "", OFFSET, reactions=rs,
                        kinds=tuple(kinds))


def _said(start: float, end: float, a: SyncAnalysis) -> Finding:
    f = Finding(Severity.WARNING, "video.frozen", "the picture is frozen",
                video_start_s=start, video_end_s=end)
    return wait_note(f, a)


def test_the_opening_held_to_the_first_presss_answer_is_a_note():
    a = _analysis([(1.866, "DOWNRIGHT", 0.04), (3.656, "LEFTFIRE", 0.0)])
    said = _said(0.048, 5.286, a)
    assert said.severity is Severity.INFO
    assert "held from before the log's first button press" in said.message
    assert "5.26 s" in said.message  # the answer (3.35 + 1.866 + 0.04)


def test_an_opening_resumed_before_the_first_press_is_due_is_a_note():
    a = _analysis([(1.866, "DOWNRIGHT", 0.04)])
    assert _said(0.6, 4.3, a).severity is Severity.INFO


def test_a_freeze_ended_off_the_runs_delay_keeps_its_warning():
    # the first press answered 0.5 s late (a cut landing near it, not the game's answer)
    a = _analysis([(1.866, "DOWNRIGHT", 0.5)])
    assert _said(0.048, 5.716, a).severity is Severity.WARNING


def test_a_hold_under_noops_inside_the_run_keeps_its_warning():
    # review R14: to the log, a game standing still under NOOPs until its next button and
    # footage frozen by an edit under NOOPs, resumed at that button's answer, are the same;
    # hidden.py leaves it to the picture's change where it resumes (waits.py)
    a = _analysis([(10.0, "UPRIGHT", 0.01), (13.9, "NOOP", None), (16.4, "NOOP", None),
                   (18.4, "NOOP", None), (19.99, "DOWNLEFT", -0.01)])
    said = _said(15.76, 23.38, a)
    assert said.severity is Severity.WARNING
    assert said.message == "the picture is frozen"


def test_a_hold_whose_buttons_the_picture_answered_is_a_note():
    # a picture that moves in changes the scan's share counts as held: the FIRE under it
    # answered at the run's delay (QA s33's Superman)
    a = _analysis([(10.0, "UPRIGHT", 0.01), (13.9, "NOOP", None), (16.4, "FIRE", 0.01),
                   (18.4, "NOOP", None), (19.99, "DOWNLEFT", -0.01)])
    said = _said(15.76, 23.38, a)
    assert said.severity is Severity.INFO
    assert "every button pressed under it answered (video 19.76 s)" in said.message


def test_a_hold_hiding_a_button_press_keeps_its_warning():
    # the same hold with a FIRE under it the picture never answered: frozen footage
    a = _analysis([(10.0, "UPRIGHT", 0.01), (13.9, "NOOP", None), (16.4, "FIRE", None),
                   (18.4, "NOOP", None), (19.99, "DOWNLEFT", -0.01)])
    assert _said(15.76, 23.38, a).severity is Severity.WARNING


def test_a_hold_not_ended_at_a_press_keeps_its_warning():
    # resumed 1 s before the next press is due: nothing the log did ends it
    a = _analysis([(10.0, "UPRIGHT", 0.01), (13.9, "NOOP", None), (19.99, "DOWNLEFT", -0.01)])
    assert _said(15.76, 22.3, a).severity is Severity.WARNING


def test_a_pause_keeps_its_warning():
    # the corpus' Breakout pause: the log silent from 16.05 to 26.65 s of the run, the
    # picture held with it, resumed at the next press's answer
    a = _analysis([(15.47, "LEFT", 0.01), (16.054, "RIGHT", 0.01), (26.654, "LEFT", 0.01)])
    assert _said(20.2, 30.03, a).severity is Severity.WARNING
    # a FIRE answered just inside the hold, then the log silent for 9 s: a pause
    a = _analysis([(15.47, "LEFT", 0.01), (16.054, "RIGHT", 0.01), (17.5, "FIRE", 0.01),
                   (26.654, "LEFT", 0.01)])
    assert _said(20.2, 30.03, a).severity is Severity.WARNING
    # the same hold with the agent's NOOPs under it every 2 s: no pause, but no button under
    # it either, which an edited freeze under NOOPs reads as too (review R14): still a warning
    a = _analysis([(15.47, "LEFT", 0.01), (16.054, "RIGHT", 0.01)]
                  + [(18.0 + 2 * k, "NOOP", None) for k in range(5)] + [(26.654, "LEFT", 0.01)])
    assert _said(20.2, 30.03, a).severity is Severity.WARNING


def _missed(a: SyncAnalysis, run_from: float, run_to: float, n: int) -> SyncAnalysis:
    f = SyncFinding("sync.no_reaction", f"{n} actions in a row with no visible reaction",
                    OFFSET + run_from, OFFSET + run_to + 1.0, run_from, run_to, actions=n)
    return replace(a, findings=[f])


def test_a_run_of_unanswered_noops_is_no_miss():
    # T4: et-freeze's genuine hold, three NOOPs unanswered between two shown buttons
    a = _missed(_analysis([(12.28, "UPRIGHT", 0.01), (13.91, "NOOP", None),
                           (16.38, "NOOP", None), (18.37, "NOOP", None),
                           (19.99, "DOWNLEFT", -0.01)]), 12.43, 18.37, 3)
    assert without_noop_misses(a).findings == []


def test_a_button_the_rules_window_answered_is_no_miss_of_the_run():
    # the per-action reader attributes no frame to the FIRE (its 0.15 s window), but the
    # rule's 0.5 s window holds an answer (`within_rule`): the finding's misses are the NOOPs
    # alone, so the run of NOOPs is no miss (review s36 V1: read as `video_s is None`, the
    # FIRE would count as a missed button and keep the finding)
    a = _missed(_analysis([(12.28, "UPRIGHT", 0.01), (13.91, "NOOP", None),
                           (15.2, "FIRE", None), (16.38, "NOOP", None),
                           (18.37, "NOOP", None), (19.99, "DOWNLEFT", -0.01)]), 12.43, 18.37, 3)
    rs = [replace(r, within_rule=True) if a.kinds[r.index] == "press button=FIRE" else r
          for r in a.reactions]
    assert without_noop_misses(replace(a, reactions=rs)).findings == []
    # and without the rule's answer the FIRE is a missed button: the finding stays
    assert [f.rule for f in without_noop_misses(a).findings] == ["sync.no_reaction"]


def test_a_run_of_unanswered_buttons_keeps_its_finding():
    # the freeze of the same run: a FIRE and a LEFT under it, unanswered
    a = _missed(_analysis([(3.82, "UPRIGHT", 0.01), (5.64, "FIRE", None),
                           (6.5, "NOOP", None), (7.32, "LEFT", None),
                           (8.62, "FIRE", 0.01)]), 5.64, 7.32, 3)
    assert [f.rule for f in without_noop_misses(a).findings] == ["sync.no_reaction"]


def test_the_reports_summary_counts_misses_as_the_rule_does():
    # review s36 V2: with the per-action reader on, a press answered 0.15-0.5 s late has no
    # attributed frame (video_s None) but is answered for `sync.no_reaction`: the summary
    # says so (answered_late) instead of counting it without reaction
    from moderator_app.core.sync.run import SyncSection

    a = _analysis([(5.0, "FIRE", None), (6.0, "LEFT", None), (7.0, "UP", 0.05)])
    rs = [replace(r, within_rule=True) if r.index == 0 else r for r in a.reactions]
    d = SyncSection(replace(a, reactions=rs)).to_dict()
    s = d["reactions_summary"]
    assert (s["measured"], s["without_reaction"], s["answered_late"]) == (11, 1, 1)
    assert [r["missed"] for r in d["reactions"][:3]] == [False, True, False]
