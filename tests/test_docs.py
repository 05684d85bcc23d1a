"""The user docs stay true to the code: the rule reference is generated and current, links and
screenshots point at files that exist, and the facts the guides state match the constants."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import REPO

from moderator_app import cli
from moderator_app.cli import common as cli_common
from moderator_app.core.catalogue import all_rules
from moderator_app.core.ledger.records import CHECKLIST_IDS, REJECT_REASONS

DOCS = REPO / "docs"
GUIDES = ("moderator-guide.md", "submitter-guide.md", "reviewer-guide.md", "rules.md")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _gen():
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import gen_rules_doc
    finally:
        sys.path.pop(0)
    return gen_rules_doc


def test_rules_doc_is_up_to_date():
    expected = _gen().render()
    current = (DOCS / "rules.md").read_text(encoding="utf-8")
    assert current == expected, "docs/rules.md is stale: run scripts/gen_rules_doc.py"


def test_rules_doc_lists_every_rule_once():
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    for r in all_rules():
        assert text.count(f"| `{r.id}` |") == 1, r.id


def test_gen_rules_doc_check_mode_detects_staleness(tmp_path, monkeypatch):
    gen = _gen()
    monkeypatch.setattr(gen, "OUT", tmp_path / "rules.md")
    monkeypatch.setattr(gen, "REPO", tmp_path)
    (tmp_path / "rules.md").write_text("old\n")
    assert gen.main(["--check"]) == 1
    assert gen.main([]) == 0
    assert gen.main(["--check"]) == 0


def test_guides_exist_and_links_resolve():
    for name in GUIDES:
        path = DOCS / name
        text = path.read_text(encoding="utf-8")
        for target in LINK.findall(text):
            if target.startswith(("http://", "https://", "mailto:", "#")):
                continue
            resolved = (path.parent / target.split("#")[0]).resolve()
            assert resolved.exists(), f"{name}: broken link {target}"
            assert REPO in resolved.parents, f"{name}: link outside the repository: {target}"


def test_screenshots_referenced_by_the_guide_are_png():
    text = (DOCS / "moderator-guide.md").read_text(encoding="utf-8")
    shots = re.findall(r"!\[[^\]]*\]\((screenshots/[^)]+)\)", text)
    assert "screenshots/workstation.png" in shots
    script = (REPO / "scripts" / "screenshots.py").read_text(encoding="utf-8")
    for shot in shots:
        data = (DOCS / shot).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", shot
        # Made by `make screenshots`, not by hand.
        assert f'"{shot.split("/", 1)[1]}"' in script, f"{shot} is not made by the script"


def test_submitter_guide_states_the_real_exit_codes():
    text = (DOCS / "submitter-guide.md").read_text(encoding="utf-8")
    for code, word in ((cli_common.EXIT_PASS, "pass"), (cli_common.EXIT_FAIL, "fail"),
                       (cli_common.EXIT_UNREADABLE, "the input could not be read")):
        assert re.search(rf"^\| {code} \| {word}", text, re.M), (code, word)
    assert "moderator-app/report/v1" in text


def test_reviewer_guide_matches_checklist_secret_and_reasons():
    text = (DOCS / "reviewer-guide.md").read_text(encoding="utf-8")
    assert cli_common.SECRET_ENV in text
    for item in CHECKLIST_IDS:
        assert f"`{item}`" in text, item
    for reason in re.findall(r"--reason ([a-z-]+)", text):
        assert reason in REJECT_REASONS, reason
    # The secret is never shown as a command-line argument.
    assert not re.search(r"--secret\b", text)


def test_documented_commands_parse():
    """Every `moderator-app ...` command line in the guides is accepted by the real parser."""
    parser = cli.build_parser()
    seen = 0
    for name in GUIDES:
        for line in (DOCS / name).read_text(encoding="utf-8").splitlines():
            m = re.match(r"^(?:[A-Z_]+=\S+ )?moderator-app ((?:verify|withhold|decide|decisions|rules)"
                         r"\b[^#|>]*)", line.strip())
            if not m:
                continue
            args = m.group(1).replace('"', " ").split()
            note = [i for i, a in enumerate(args) if a == "--note"]
            if note:  # quoted free text was split on spaces: keep one word
                args = args[:note[0] + 2]
            try:
                ns = parser.parse_args(args)
            except SystemExit as exc:
                raise AssertionError(f"{name}: {line}") from exc
            assert ns.command, line
            seen += 1
    assert seen >= 10


def test_moderator_app_rules_matches_doc_count():
    out = subprocess.run([sys.executable, "-m", "moderator_app", "rules"], cwd=REPO,
                         capture_output=True, text=True, check=True).stdout
    assert len(out.splitlines()) == len(all_rules())
    assert f"{len(all_rules())} rules" in (DOCS / "rules.md").read_text(encoding="utf-8")
