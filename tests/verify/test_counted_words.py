"""Counts a person reads are plural by count (session 12's walk: "1 errors" in the status bar,
"1 seed commitment(s)" in the findings, "(1 episodes)" in the walkthrough), and a count read
from a submission is shown as it is, whatever it holds."""

from __future__ import annotations

from moderator_app.core.text import counted


def test_counted_is_plural_by_count():
    assert [counted(n, "error") for n in (0, 1, 2, 19480)] == [
        "0 errors", "1 error", "2 errors", "19,480 errors"]
    assert counted(1, "more finding", "more findings") == "1 more finding"


def test_a_count_from_a_submission_is_shown_as_it_is():
    # the evaluator's `episodes` is the trajectory's: any JSON value
    assert counted("many", "episode") == "many episodes"
    assert counted(True, "episode") == "True episodes"
    assert counted(2.5, "episode") == "2.5 episodes"
    assert counted(None, "episode") == "None episodes"


def test_one_unchecked_seed_commitment_is_said_in_the_singular(tmp_path):
    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory
    from moderator_app.core.verify.pipeline import verify_paths

    path = tmp_path / "events.jsonl"
    write_trajectory(path, make_run_events(40, seed=5, step_s=0.04), compress=False)
    report = verify_paths([path]).report
    assert [f.message for f in report.findings.sorted() if f.rule == "seed.not_checked"] == [
        "1 seed commitment not checked (no seeds and evaluator secret given)"]
