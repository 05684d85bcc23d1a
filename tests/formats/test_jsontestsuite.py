"""Every line of JSONTestSuite's n_ files used as an event is a finding, never a crash."""

from __future__ import annotations

import pytest
from conftest import need_testdata
from trajhelp import chain_lines, errors, join, verify_bytes

# Every test here runs on both engines (conftest.engine): their reports must be the same.
pytestmark = pytest.mark.usefixtures("engine")


def test_every_n_file_is_a_finding_at_its_line():
    folder = need_testdata("JSONTestSuite") / "test_parsing"
    files = sorted(folder.glob("n_*.json"))
    assert len(files) > 150
    good = chain_lines(4, seed=9)
    for path in files:
        data = path.read_bytes()
        for k, bad in enumerate(data.split(b"\n")):
            if b"\n" in bad:
                continue
            lines = [*good[:2], bad, *good[2:]]
            rep = verify_bytes(join(lines))
            errs = errors(rep)
            assert errs, f"{path.name} line {k + 1}: no error"
            assert errs[0].line == 3, (path.name, errs[0])
            assert rep.verdict == "fail"


def test_n_files_as_whole_streams_never_crash():
    folder = need_testdata("JSONTestSuite") / "test_parsing"
    for path in sorted(folder.glob("n_*.json")):
        rep = verify_bytes(path.read_bytes())
        assert rep.verdict == "fail", path.name
