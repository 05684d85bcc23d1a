"""The decision record: bound to the evidence, default reasons from the findings."""

from __future__ import annotations

import re

import pytest
from ledgerhelp import SHA_LOG, SHA_VIDEO, fake_result

from moderator_app import __version__
from moderator_app.core.formats.canonical import canonical_json
from moderator_app.core.ledger.records import (
    CHECKLIST_IDS,
    DecisionError,
    DecisionRecord,
    build_record,
    default_reason,
    evidence_digest,
    reason_for_rule,
    suggested_reason,
)
from moderator_app.core.verify.agent_log.rules import WITHHELD_LEAK as LEAK
from moderator_app.core.verify.coverage import NOT_COVERED
from moderator_app.core.verify.input_rules import MISSING_VIDEO
from moderator_app.core.verify.report import FileDigest


def test_record_carries_every_binding_field():
    res = fake_result("official")
    res.report.add(MISSING_VIDEO.at("no video"))
    r = build_record(res, "reject", note="seen", reviewer=" carol ", offset_s=1.25,
                     retime_start_s=3.5, retime_end_s=250.0, decided_at="2026-11-30T06:00:00.000Z")
    d = r.to_dict()
    assert d["decision"] == "reject" and d["reason"] == "video-coverage"
    assert d["reviewer"] == "carol" and d["app_version"] == __version__
    assert d["kind"] == "official" and d["submission"] == "sub"
    assert d["files"] == [
        {"name": "agent-log.jsonl", "role": "agent_log", "size": 1234, "sha256": SHA_LOG},
        {"name": "run.mp4", "role": "video", "size": 98765, "sha256": SHA_VIDEO}]
    assert d["chain_head"] == "c" * 64
    assert d["summary"]["verdict"] == "fail" and d["summary"]["errors"] == 1
    assert d["summary"]["rules"] == {"input.no_video": 1}
    assert (d["sync_offset_s"], d["retime_start_s"], d["retime_end_s"]) == (1.25, 3.5, 250.0)
    assert DecisionRecord.from_dict(d) == r
    canonical_json(d)  # representable exactly


def test_utc_time_format():
    r = build_record(fake_result(), "accept", reviewer="a")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", r.decided_at)


def test_community_record_has_no_chain_head():
    assert build_record(fake_result(), "accept", reviewer="a").chain_head is None


def test_evidence_digest_ignores_names_and_order_but_not_bytes():
    a = [FileDigest("a", "agent_log", 1, SHA_LOG), FileDigest("b", "video", 2, SHA_VIDEO)]
    b = [FileDigest("y", "video", 2, SHA_VIDEO), FileDigest("x", "agent_log", 1, SHA_LOG)]
    c = [FileDigest("a", "agent_log", 1, SHA_LOG), FileDigest("b", "video", 2, "f" * 64)]
    assert evidence_digest(a) == evidence_digest(b) != evidence_digest(c)


@pytest.mark.parametrize(("rule_id", "reason"), [
    ("log.withheld_leak", "withheld-leak"),
    ("seed.leak", "withheld-leak"),
    ("log.action_not_requested", "human-input"),
    ("log.action_unknown_call", "human-input"),
    ("chain.prev_hash", "chain-broken"),
    ("chain.link", "chain-broken"),
    ("secret.suspect", "withheld-leak"),
    ("traj.zstd_truncated", "log-invalid"),
    ("coverage.missing", "video-coverage"),
    ("input.no_video", "video-coverage"),
    ("video.unreadable", "video-coverage"),
    ("log.seq", "log-invalid"),
    ("log.json", "log-invalid"),
    ("weird.thing", "other"),
])
def test_reason_for_rule(rule_id, reason):
    assert reason_for_rule(rule_id) == reason


def test_default_reason_prefers_the_most_serious_finding():
    res = fake_result()
    assert default_reason(res.report) == "ok"
    assert suggested_reason(res.report, "reject") == "other"
    res.report.add(NOT_COVERED.at("missing 9 s"))
    assert default_reason(res.report) == "video-coverage"
    res.report.add(LEAK.at("leaked", "agent-log.jsonl", 7))
    assert default_reason(res.report) == "withheld-leak"
    assert suggested_reason(res.report, "accept") == "ok"


def test_reasons_are_validated():
    with pytest.raises(DecisionError, match="not valid for accept"):
        build_record(fake_result(), "accept", reason="human-input", reviewer="a")
    with pytest.raises(DecisionError, match="not valid for reject"):
        build_record(fake_result(), "reject", reason="ok", reviewer="a")
    with pytest.raises(DecisionError, match="accept or reject"):
        build_record(fake_result(), "maybe", reviewer="a")
    with pytest.raises(DecisionError, match="reviewer"):
        build_record(fake_result(), "accept", reviewer="  ")
    with pytest.raises(DecisionError, match="finite"):
        build_record(fake_result(), "accept", reviewer="a", offset_s=float("nan"))


def test_walkthrough_override_note_is_required_only_when_enforced_and_incomplete():
    off = fake_result("official")
    with pytest.raises(DecisionError, match="override note: seeds-checked, no-leaks"):
        build_record(off, "accept", reviewer="a", require_checklist=True,
                     checklist=["chain-verified", "score-reviewed", "video-watched"])
    r = build_record(off, "accept", reviewer="a", require_checklist=True,
                     checklist=["video-watched", "chain-verified"], override_note="trusted")
    assert r.checklist == ("chain-verified", "video-watched")  # canonical item order
    assert r.override_note == "trusted"
    full = build_record(off, "accept", reviewer="a", require_checklist=True,
                        checklist=list(CHECKLIST_IDS))
    assert full.checklist == CHECKLIST_IDS and full.override_note is None
    # Rejecting never needs the walkthrough; community runs have none.
    build_record(off, "reject", "other", note="why", reviewer="a", require_checklist=True)
    # A reject with reason `other` names no cause: the note must say it.
    with pytest.raises(DecisionError, match="needs a note"):
        build_record(off, "reject", "other", note="  ", reviewer="a")
    build_record(fake_result(), "accept", reviewer="a", require_checklist=True)
    with pytest.raises(DecisionError, match="unknown checklist item"):
        build_record(off, "accept", reviewer="a", checklist=["made-up"])
