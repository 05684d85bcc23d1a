"""Which QA passes the reader's measure may read (scripts/reader_recall_s34.py `judged_qa`):
only passes whose doc holds their results, never the pass running this session.

Why: a QA pass commits docs/qa/sessionNN.md with its expectations before any product run, and
its runs must stay held out until its results land (the "### Misses" heading, landed last);
reading a doc's mere presence let the running pass in (session 35's review V1). The script runs
in a subprocess, as tests/sync/test_wide_corpus.py does: tests never import a generator.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _judged(cache: Path, docs: Path) -> list[str]:
    code = ("import json, sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
            "import reader_recall_s34 as r; r.QA_DOCS = Path(sys.argv[3]); "
            "print(json.dumps([p.parent.name for p in r.judged_qa(Path(sys.argv[2]))]))")
    out = subprocess.run([sys.executable, "-c", code, str(SCRIPTS), str(cache), str(docs)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_a_pass_with_only_its_expectations_is_held_out(tmp_path: Path) -> None:
    cache, docs = tmp_path / "cache", tmp_path / "docs"
    docs.mkdir()
    for n in (33, 34, 35, 36):
        (cache / f"qa-s{n}" / "sync").mkdir(parents=True)
    (docs / "session33.md").write_text("# QA 33\n## Expectations\n### Misses\n- T1\n")
    (docs / "session34.md").write_text("# QA 34\n### Summary\n\n### Misses\n")
    (docs / "session35.md").write_text("# QA 35\n## Expectations (before any run)\n")
    # qa-s36 has runs and no doc at all
    assert _judged(cache, docs) == ["qa-s33", "qa-s34"]
