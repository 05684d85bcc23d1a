"""The seed document's own example log, with its elisions […] filled in with real messages,
paired with a video of the right length (250 s), verifies clean through the CLI."""

from __future__ import annotations

import json
import re
import subprocess

import orjson
from conftest import REPO, SHARED

from moderator_app.core.samples.community import make_video

CLI = str(REPO / ".venv" / "bin" / "moderator-app")
SEED_DOC = SHARED / "seeds" / "agent-log-format.md"

# The example as printed in seeds/agent-log-format.md (used when ../shared is not beside us).
EXAMPLE = """\
{"seq":0,"at":"2026-10-22T18:00:00.000Z","elapsedMs":0,"type":"run_start","data":{"game":"tetris-gb","category":"any-percent","model":"provider/model-id","scaffold":{"name":"my-agent","version":"1.2.0","url":"https://github.com/…"}}}
{"seq":1,"at":"2026-10-22T18:00:00.120Z","elapsedMs":120,"type":"model_request","data":{"messages":[…]}}
{"seq":2,"at":"2026-10-22T18:00:02.480Z","elapsedMs":2480,"type":"model_response","data":{"id":"c1","model":"provider/model-id","usage":{"input":812,"output":64},"text":"Rotate and drop.","actions":[{"name":"press","args":{"button":"A"}}]}}
{"seq":3,"at":"2026-10-22T18:00:02.500Z","elapsedMs":2500,"type":"action","data":{"call":"c1","name":"press","args":{"button":"A"}}}
{"seq":4,"at":"2026-10-22T18:00:02.700Z","elapsedMs":2700,"type":"observation","data":{"summary":"piece locked"}}
{"seq":5,"at":"2026-10-22T18:04:10.000Z","elapsedMs":250000,"type":"run_end","data":{"reason":"goal reached"}}
"""

MESSAGES = [
    {"role": "system", "content": "You are playing Tetris on a Game Boy. Reply with the "
                                  "buttons to press."},
    {"role": "user", "content": "Board: empty. Current piece: T. Next piece: L."},
]


def example_text() -> str:
    if SEED_DOC.exists():
        doc = SEED_DOC.read_text(encoding="utf-8")
        block = re.search(r"```json\n(.*?)```", doc, re.S)
        assert block, "the seed document's example block was not found"
        return block.group(1)
    return EXAMPLE


def filled_example() -> bytes:
    text = example_text()
    assert text.count("[…]") == 1 and text.count("…") == 2
    text = text.replace("[…]", json.dumps(MESSAGES, separators=(",", ":")))
    text = text.replace("https://github.com/…", "https://github.com/example/my-agent")
    lines = text.strip("\n").split("\n")
    for line in lines:
        orjson.loads(line)  # every filled line is real JSON
    return ("\n".join(lines) + "\n").encode()


def test_embedded_copy_matches_the_seed_document():
    if SEED_DOC.exists():
        assert example_text() == EXAMPLE


def test_seed_example_verifies_clean_through_the_cli(tmp_path):
    (tmp_path / "agent-log.jsonl").write_bytes(filled_example())
    make_video(tmp_path / "run.mp4", 250.0, fps=1, size=(32, 18))
    proc = subprocess.run([CLI, "verify", str(tmp_path), "--json"], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report["verdict"] == "pass" and report["kind"] == "community"
    assert report["events"] == 6
    assert report["summary"]["errors"] == 0
    # The only remark: four minutes without events between line 5 and run_end (a moderation
    # signal a moderator should see, not an error).
    assert [(f["severity"], f["rule"], f["line"]) for f in report["findings"]
            if f["severity"] != "info"] == [("warning", "log.gap", 6)]
    assert report["run"]["duration_s"] == 250.0
    assert report["video"]["duration_s"] == 250.0
    assert report["coverage"]["covered"] is True and report["coverage"]["missing_s"] == 0


def test_seed_example_with_a_short_video_fails_coverage(tmp_path):
    (tmp_path / "agent-log.jsonl").write_bytes(filled_example())
    make_video(tmp_path / "run.mp4", 244.0, fps=1, size=(32, 18))  # 6 s missing
    proc = subprocess.run([CLI, "verify", str(tmp_path), "--json"], capture_output=True,
                          text=True)
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert [f["rule"] for f in report["findings"] if f["severity"] == "error"] == \
        ["coverage.missing"]
