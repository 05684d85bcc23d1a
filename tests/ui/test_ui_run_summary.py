"""The Run panel: the evaluator's score apart from agent claims, chain and trust levels."""

from __future__ import annotations

from dataclasses import replace

from conftest import SAMPLES

from moderator_app.core.verify.pipeline import verify_paths
from moderator_app.ui.run_summary import RunSummaryPanel, summary_sections
from moderator_app.ui.session import ReviewSession


def _rows(report) -> dict[str, dict[str, str]]:
    return {title: dict(rows) for title, rows in summary_sections(report)}


def test_official_sample_shows_chain_trust_and_authoritative_score():
    report = verify_paths([SAMPLES / "official-sample"]).report
    rows = _rows(report)
    assert rows["Verdict"]["verification level"] == "validated"
    assert rows["Chain"]["valid end to end"] == "yes"
    assert rows["Chain"]["first break"] == "none"
    assert rows["Chain"]["head hash"] == report.chain.head
    assert rows["Producers (trust level, events)"]["agent"].startswith("untrusted_agent")
    assert rows["Producers (trust level, events)"]["evaluator"].startswith("trusted_evaluator")
    assert "score: 64.52" in rows["Score"]["evaluator (authoritative)"]


def test_agent_score_claims_are_labelled_untrusted():
    report = verify_paths([SAMPLES / "official-sample"]).report
    report.run = replace(report.run, score=replace(
        report.run.score, untrusted_claims=({"score": 99, "line": 7, "producer": "agent"},)))
    sections = dict(summary_sections(report))
    labels = [field for field, _ in sections["Score"]]
    assert labels == ["evaluator (authoritative)", "UNTRUSTED claim"]


def test_panel_fills_from_the_session_and_keeps_markup_literal(qtbot):
    session = ReviewSession()
    panel = RunSummaryPanel(session)
    qtbot.addWidget(panel)
    assert panel.tree.topLevelItem(0).text(0) == "No submission"
    result = verify_paths([SAMPLES / "community-sample"])
    run = result.report.run
    result.report.run = replace(run, start=replace(
        run.start, model="<b>bold</b><img src='file:///etc/passwd'>"))
    session.set_result(result)
    titles = [panel.tree.topLevelItem(i).text(0) for i in range(panel.tree.topLevelItemCount())]
    assert titles[:2] == ["Verdict", "Run"]
    run = panel.tree.topLevelItem(1)
    values = {run.child(i).text(0): run.child(i).text(1) for i in range(run.childCount())}
    assert values["model"] == "<b>bold</b><img src='file:///etc/passwd'>"
