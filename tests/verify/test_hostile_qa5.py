"""Hostile inputs from the session-7 pass (issue 15, "as the judges will run it"): the shapes
that found bugs, each asserting the exact outcome through the CLI. The full corpus (61
submissions x 7 commands under `prlimit --as=536870912` and `timeout 30`, 17 ledger
tamperings) is kept outside the suite; docs/DECISIONS.md lists its classes and figures.
The workstation under the same address-space limit is tests/ui/test_xvfb_app.py.
"""

from __future__ import annotations

import json
import sqlite3

from hostile_corpus import run_cli

from moderator_app.core.samples.community import make_agent_log


def test_a_path_longer_than_the_file_system_allows_is_unreadable_not_internal(capsys,
                                                                             tmp_path):
    """`Path.exists` raises ENAMETOOLONG (it only swallows "not found"): verify, `--json`
    and decide ended in "internal error" with no report and nothing on stdout."""
    long = tmp_path / ("n" * 300)
    why = f"{long}: cannot be opened: File name too long"
    code, out, err = run_cli(capsys, "verify", "--json", long)
    assert code == 2 and err == f"moderator-app: {why}\n"
    report = json.loads(out)
    assert report["verdict"] == "unreadable"
    assert report["error"] == why
    code, out, err = run_cli(capsys, "verify", long)
    assert code == 2 and err == f"moderator-app: {why}\n"
    store = tmp_path / "d.sqlite3"
    code, _, err = run_cli(capsys, "decide", long, "--reject", "--reason", "other",
                           "--store", store)
    assert code == 2 and "cannot be opened: File name too long" in err
    assert not store.exists()


def test_a_trigger_planted_in_the_ledger_is_refused_before_it_can_delete(capsys, tmp_path):
    """A trigger `AFTER INSERT ON decisions ... DELETE ... seq = 1` ran inside decide's own
    transaction: decide printed "Recorded decision #3" while decision #1 vanished with it
    (`decisions verify` saw the gap only later). A ledger holding a trigger is now refused
    by every command, and nothing is recorded or deleted."""
    sub = tmp_path / "sub"
    sub.mkdir()
    make_agent_log(sub / "agent-log.jsonl", 12, 3)
    store = tmp_path / "decisions.sqlite3"
    decide = ("decide", sub, "--reject", "--reason", "other", "--note", "n", "--store", store)
    for _ in range(2):
        assert run_cli(capsys, *decide)[0] == 0
    with sqlite3.connect(store) as conn:
        conn.execute("CREATE TRIGGER t AFTER INSERT ON decisions BEGIN "
                     "DELETE FROM decisions WHERE seq = 1; END")
    refusal = f"{store} holds 1 trigger(s) that moderator-app never creates"
    code, _, err = run_cli(capsys, *decide)
    assert code == 2 and f"decision NOT recorded: {refusal}" in err
    code, _, err = run_cli(capsys, "decisions", "verify", "--store", store)
    assert code == 1 and refusal in err
    code, _, err = run_cli(capsys, "decisions", "list", "--store", store)
    assert code == 2 and refusal in err
    with sqlite3.connect(store) as conn:
        assert conn.execute("SELECT seq FROM decisions ORDER BY seq").fetchall() == [(1,), (2,)]
        conn.execute("DROP TRIGGER t")
    code, out, _ = run_cli(capsys, "decisions", "verify", "--store", store)
    assert code == 0 and "intact: 2 decisions" in out


def test_a_zstd_frame_made_with_a_dictionary_is_named_not_called_corrupt(capsys, tmp_path):
    """A valid frame compressed with a trained dictionary (`zstd -D`) was "corrupt zstd data
    ... Dictionary mismatch": an honest file called damaged. The finding now names what it
    needs (the rule stays `traj.zstd_corrupt`: the stream cannot be decoded)."""
    import zstandard

    from moderator_app.core.samples.trajectory_writer import make_run_events, write_trajectory

    write_trajectory(tmp_path / "plain.jsonl", make_run_events(8, seed=5))
    data = (tmp_path / "plain.jsonl").read_bytes()
    samples = [data[i:i + 300] for i in range(0, len(data) - 300, 37)] * 3
    trained = zstandard.train_dictionary(4096, samples, dict_id=4242)
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "events.jsonl.zst").write_bytes(
        zstandard.ZstdCompressor(dict_data=trained).compress(data))
    code, out, _ = run_cli(capsys, "verify", "--json", sub)
    assert code == 1
    (finding,) = json.loads(out)["findings"]
    assert finding["rule"] == "traj.zstd_corrupt"
    assert finding["message"].startswith(
        "zstd frame 1 was compressed with a dictionary (id 4242) that a trajectory does not "
        "carry, so it cannot be decoded: recompress without a dictionary (`zstd` without -D)")
    assert "corrupt" not in finding["message"]
