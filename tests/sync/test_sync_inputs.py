"""Which logged events are game inputs for the sync analysis, and their run times."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import orjson
import pytest

from moderator_app.core.formats.submission import load_submission
from moderator_app.core.samples.community import make_agent_log
from moderator_app.core.samples.trajectory_writer import write_trajectory
from moderator_app.core.sync.inputs import input_times, is_official_input

T0 = datetime(2026, 11, 30, 20, 0, 0, tzinfo=timezone.utc)


def _event(i, producer, etype, payload, at_s):
    at = (T0 + timedelta(seconds=at_s)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    trust = {"agent": "untrusted_agent", "harness": "trusted_harness"}[producer]
    return {"schema": "ale-trajectory-event/v1", "producer_sequence": i, "wall_time": at,
            "run_id": "run_x", "trust_level": trust, "producer": producer, "type": etype,
            "payload": payload}


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.zst"])
def test_official_inputs_are_harness_actions_and_game_tool_calls(tmp_path, suffix):
    events = [
        _event(0, "harness", "run_start", {"game": "ale/pong-v5"}, 0.0),
        _event(0, "agent", "tool_call", {"tool": "shell", "command": "ls"}, 0.5),
        _event(1, "harness", "action", {"button": "UP"}, 1.25),
        _event(1, "agent", "tool_call", {"tool": "press", "button": "A"}, 2.5),
        _event(2, "agent", "model_message", {"text": "press"}, 3.0),
        _event(2, "harness", "env_step", {"action": 3}, 4.75),
        _event(3, "harness", "run_end", {"status": "completed"}, 6.0),
    ]
    write_trajectory(tmp_path / f"events{suffix}", events)
    sub = load_submission([tmp_path / f"events{suffix}"])
    assert sub.kind == "official"
    assert input_times(sub) == pytest.approx([1.25, 2.5, 4.75])
    assert not is_official_input({"type": "tool_call", "payload": {"tool": "shell"}})
    assert not is_official_input({"type": "tool_call", "payload": "press"})


def test_community_inputs_are_actions_at_their_elapsed_ms(tmp_path):
    make_agent_log(tmp_path / "agent-log.jsonl", n_events=40, seed=2)
    lines = (tmp_path / "agent-log.jsonl").read_bytes().splitlines()
    want = [orjson.loads(x)["elapsedMs"] / 1000 for x in lines
            if orjson.loads(x)["type"] == "action"]
    lines.insert(5, b"{not json")  # a bad line is the verifier's finding, skipped here
    (tmp_path / "agent-log.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    assert input_times(load_submission([tmp_path / "agent-log.jsonl"])) == want
    assert len(want) >= 5


def test_each_input_has_a_kind_its_button_not_its_hold(tmp_path):
    """The kinds beside the times (`inputs`): the sync analysis reads the offset from the
    kind of input the game answers first (core/sync/kinds.py). A press held 20 frames is
    the same kind as one held 4; a hostile log's long names are cut."""
    from moderator_app.core.formats.input_events import KIND_MAX_CHARS
    from moderator_app.core.sync.inputs import inputs

    events = [
        _event(0, "harness", "run_start", {"game": "ale/pong-v5"}, 0.0),
        _event(1, "harness", "action", {"button": "UP", "frames": 4}, 1.25),
        _event(1, "agent", "tool_call", {"tool": "press", "button": "A"}, 2.5),
        _event(2, "harness", "env_step", {"action": 3}, 4.75),
        _event(3, "harness", "action", {"button": "UP", "frames": 20}, 5.0),
    ]
    write_trajectory(tmp_path / "events.jsonl", events)
    times, kinds = inputs(load_submission([tmp_path / "events.jsonl"]))
    assert times == pytest.approx([1.25, 2.5, 4.75, 5.0])
    assert kinds == ["action button=UP", "press button=A", "env_step action=3",
                     "action button=UP"]

    log = tmp_path / "c" / "agent-log.jsonl"
    log.parent.mkdir()
    rows = [{"seq": 0, "elapsedMs": 0, "type": "run_start", "data": {}},
            {"seq": 1, "elapsedMs": 1000, "type": "action",
             "data": {"name": "press", "args": {"button": "RIGHT", "frames": 20}}},
            {"seq": 2, "elapsedMs": 2000, "type": "action",
             "data": {"name": "press", "args": {"button": "x" * 10_000}}},
            {"seq": 3, "elapsedMs": 3000, "type": "action", "data": "not an object"}]
    log.write_bytes(b"\n".join(orjson.dumps(r) for r in rows) + b"\n")
    times, kinds = inputs(load_submission([log]))
    assert times == [1.0, 2.0, 3.0]
    assert kinds[0] == "press button=RIGHT"
    assert kinds[1].startswith("press button=x") and len(kinds[1]) == KIND_MAX_CHARS
    assert kinds[2] == ""
