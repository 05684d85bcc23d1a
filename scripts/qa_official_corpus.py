"""Write the adversarial official-run corpus of tests/verify/test_official_qa.py to a folder.

    .venv/bin/python scripts/qa_official_corpus.py OUT [--include-slow]

One sub-folder per case holds the submission exactly as the test builds it and
`expected.json` (exit code, verdict, events, first error rule and line, chain.first_break,
the xfail reason when the tool is known to be wrong, the CLI arguments). Useful to replay a
case by hand (`moderator-app verify OUT/<case>/... --json`) or to feed another verifier.
Cases with seeds need the test's evaluator secret in ALE_EVALUATOR_SECRET (a fake value,
defined in the test module; `expected.json` names the variable, never its value).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the tests' helpers
sys.path.insert(0, str(ROOT / "tests" / "verify"))  # where the module is

import test_official_qa as qa  # noqa: E402 - the corpus lives with its assertions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--include-slow", action="store_true", help="also the 10 MB cases")
    args = ap.parse_args(argv)
    n = 0
    for case in qa.CASES:
        if case.slow and not args.include_slow:
            continue
        d = args.out / case.name
        d.mkdir(parents=True, exist_ok=False)
        cli_args = case.build(d)
        expected = {
            "rc": case.rc, "verdict": "pass" if case.rc == 0 else "fail",
            "events": case.events,
            "first_error_rule": case.rule,
            "first_error_line": "events+1" if case.line == qa.AFTER else case.line,
            "first_break": None if case.brk is None else {"line": case.brk[0],
                                                          "kind": case.brk[1]},
            "known_tool_bug": case.xfail,
            "env": sorted(case.env),
            "args": [str(Path(a).relative_to(d)) if a.startswith(str(d)) else a
                     for a in cli_args],
        }
        (d / "expected.json").write_text(json.dumps(expected, indent=2) + "\n")
        n += 1
    print(f"{n} cases written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
