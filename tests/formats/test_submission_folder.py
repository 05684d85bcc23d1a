"""A folder submission is listed like an archive: at most `MAX_MEMBERS` members, then one
`archive.too_many_members` error (issue 15: a folder of a million files must not become a
million members). The cap is lowered here through `load_submission`'s parameter."""

from __future__ import annotations

import orjson
import pytest
from loghelp import base

from moderator_app.core.errors import InputError
from moderator_app.core.formats.submission import load_submission
from moderator_app.core.verify.options import VerifyOptions
from moderator_app.core.verify.pipeline import verify_submission


def _folder(tmp_path, extra: int, log_name: str = "agent-log.jsonl"):
    root = tmp_path / "sub"
    root.mkdir()
    (root / log_name).write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in base()))
    for i in range(extra):
        (root / f"z{i:03d}.txt").write_bytes(b"")
    return root


def test_a_folder_over_the_cap_lists_the_first_members_and_fails(tmp_path):
    root = _folder(tmp_path, 30)
    sub = load_submission([root], max_members=10)
    assert [m.name for m in sub.members] == ["agent-log.jsonl"] + [f"z{i:03d}.txt"
                                                                   for i in range(9)]
    assert [(f.rule, f.message, f.file) for f in sub.findings] == [
        ("archive.too_many_members", "more than 10 members", "sub")]
    report = verify_submission(sub, VerifyOptions(probe_video=False)).report
    assert report.verdict == "fail"
    assert report.findings.by_rule["archive.too_many_members"] == 1


def test_a_folder_at_the_cap_is_listed_whole(tmp_path):
    root = _folder(tmp_path, 9)
    sub = load_submission([root], max_members=10)
    assert len(sub.members) == 10 and sub.findings == ()


def test_the_evidence_beyond_the_cap_is_unreadable_and_the_error_names_the_cap(tmp_path):
    root = _folder(tmp_path, 30, log_name="zz_agent-log.jsonl")
    with pytest.raises(InputError, match="more than 10 members"):
        load_submission([root], max_members=10)

