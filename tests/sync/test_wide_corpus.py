"""The wide training set's game list (scripts/wide_corpus.py, issue 13): every ale-py ROM is
either played by the set or kept in the reserved pool for future held-out QA passes, never
both, and the plan names one genuine run, one tampering and a second genuine run per game.

The script is run in a subprocess (`pool`), never imported: the tests must not import a
generator (its build installs QA's recorders into the corpus package).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "wide_corpus.py"


def _pool() -> dict:
    out = subprocess.run([sys.executable, str(SCRIPT), "pool"], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


def test_reserved_pool_and_games_are_disjoint_and_cover_the_roms() -> None:
    p = _pool()
    games, reserved, pool = set(p["games"]), set(p["reserved"]), set(p["pool"])
    assert len(reserved) == 32 and len(p["all"]) == 108
    assert set(p["all"]) - reserved <= games <= set(p["all"])
    assert not games & pool
    used, broken, taken = set(p["script_used"]), set(p["not_loading"]), set(p["taken"])
    assert pool == reserved - taken - used - broken
    assert "breakout" in games and "pacman" in reserved


def test_the_reserved_ids_are_told_apart() -> None:
    """QA s32's judge note 0: 7 of RESERVED were played by older sync scripts, 4 do not load,
    QA s32 took 7 (TAKEN was empty although it took them), QA s33 took 7, QA s34 took 4, QA
    s35 the last 3: the pool is empty."""
    p = _pool()
    reserved, games = set(p["reserved"]), set(p["games"])
    used, broken, taken = set(p["script_used"]), set(p["not_loading"]), set(p["taken"])
    assert used == {"air_raid", "asterix", "atlantis", "demon_attack", "berzerk",
                    "road_runner", "yars_revenge"}
    assert broken == {"combat", "joust", "maze_craze", "warlords"}
    assert set(p["taken"].values()) == {32, 33, 34, 35} and taken == {
        "miniature_golf", "tetris", "jamesbond", "battle_zone", "darkchambers", "crossbow",
        "krull", "trondead", "lost_luggage", "word_zapper", "et", "superman", "king_kong",
        "pacman", "flag_capture", "earthworld", "double_dunk", "pitfall2", "entombed", "klax",
        "space_war"}
    assert taken | used | broken <= reserved and not (taken | used | broken) & games
    assert not used & taken and not broken & taken and not used & broken
    assert p["pool"] == []


def test_the_list_is_the_installed_ale_py_roms() -> None:
    roms = pytest.importorskip("ale_py.roms")
    assert sorted(_pool()["all"]) == sorted(roms.get_all_rom_ids())


def test_plan_gives_each_game_three_runs_on_three_recorders() -> None:
    p = _pool()
    by_game: dict[str, list[tuple[str, str]]] = {}
    for name in p["plan"]:
        game, _, rest = name.partition("-")
        kind, _, rec = rest.partition("@")
        by_game.setdefault(game, []).append((kind, rec))
    assert sorted(by_game) == sorted(p["games"])
    for game, runs in by_game.items():
        kinds = [k for k, _ in runs]
        assert kinds[0] == "genuine" and kinds[2] == "genuine2", game
        assert kinds[1] not in ("genuine", "genuine2"), game
        assert len({r for _, r in runs}) == 3, game
    tampers = {k for runs in by_game.values() for k, _ in runs[1:2]}
    assert {"cut", "insert", "freeze", "deleted", "human"} <= tampers
    assert any(k.startswith("speed") for k in tampers)
    assert any(k.startswith("slow") for k in tampers)


def test_the_tuned_split_is_a_fixed_list_of_session_32s_52_games() -> None:
    """Session 34: the split is frozen in the script (session 33 read 76/76 from the folders of
    a new machine, session 32 52/24): 52 tuned games of the wide set's 76, QA s32's and s33's
    games named apart (taken from RESERVED, so none of the 76), and the four games corpus v2
    holds `qaNN-` repros of named among the 24 untuned."""
    p = _pool()
    games, tuned, qa, old = set(p["games"]), set(p["tuned"]), set(p["tuned_qa"]), \
        set(p["old_repros"])
    assert len(p["tuned"]) == len(tuned) == 52 and tuned <= games
    assert len(games - tuned) == 24 and "adventure" in games - tuned
    assert {"beam_rider", "star_gunner", "freeway", "surround"} <= tuned
    # a QA pass's games join TUNED_QA once that pass is judged (s32-s35's by session 36; the
    # current pass's taken games stay out until its stop)
    assert qa == {g for g, s in p["taken"].items() if s <= 35} and len(qa) == 21
    assert not qa & games
    assert old == {"hero", "video_pinball", "private_eye", "pooyan"} and old <= games - tuned


def _table(tmp_path: Path, rows: list[dict]) -> dict[str, dict]:
    sweep = tmp_path / "sweep.jsonl"
    sweep.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = subprocess.run([sys.executable, str(SCRIPT), "table", str(sweep)],
                         capture_output=True, text=True, check=True).stdout
    counts = {}
    for ln in out.split("## per class")[0].splitlines()[1:]:
        label, _, js = ln.partition(" ")
        counts[label] = json.loads(js)
    return counts


def _tampered(name: str, tamper: dict, warnings: list) -> dict:
    game, _, rest = name.partition("-")
    cell = {"exit": 0, "sug": None, "conf": 0.0, "warnings": warnings, "drift": [], "stderr": ""}
    return {"run": name, "game": game, "kind": rest.partition("@")[0], "rec": "x", "fps": 30,
            "truth_s": 2.0, "shift_s": 0.5, "tamper": tamper, "wide": {},
            "auto": {**cell, "warnings": []}, "truth": cell}


def test_placed_means_a_warning_starting_at_the_tamperings_start(tmp_path: Path) -> None:
    """An insertion 20-24 s of the truth (20.5-24.5 s in the file, shifted 0.5 s): a sync.*
    warning starting at 24.3 s (its end, battle_zone's answer 4 s late) is "near" (sessions
    32-33's measure) but not placed; one starting at 21.2 s is both. A freeze's video.frozen
    starting 2.4 s early (a game's own hold running into it) is near only."""
    plan = _pool()["plan"]
    ins = [n for n in plan if "-insert@" in n][:2]
    frz = next(n for n in plan if "-freeze@" in n)
    span = {"kind": "insert", "video_s": 20.0, "video_end_s": 24.0}
    rows = [_tampered(ins[0], span, [["sync.offset_jump", 24.3, 30.0, None]]),
            _tampered(ins[1], span, [["sync.offset_jump", 21.2, 22.0, None]]),
            _tampered(frz, {"kind": "freeze", "video_start_s": 20.0, "video_end_s": 24.0},
                      [["video.frozen", 18.1, 24.5, None]])]
    c = _table(tmp_path, rows)["all"]
    assert (c["tampered"], c["placed_truth"], c["near_truth"]) == (3, 1, 3)
    assert c["placed_auto"] == c["near_auto"] == 0


def test_no_offset_is_right_only_where_the_truth_shows_at_most_a_tenth(tmp_path: Path) -> None:
    """Issue 13's bar ("not enough signal" only where the run truly has none): a genuine run
    without an offset counts as right with 2 of 25 presses shown, as missed with 20 of 25."""
    plan = [n for n in _pool()["plan"] if "-genuine@" in n][:2]
    rows = []
    for name, shown in zip(plan, (2, 20), strict=True):
        r = _tampered(name, {"kind": "genuine"}, [])
        r["wide"] = {"presses": 25, "shown": shown}
        rows.append(r)
    c = _table(tmp_path, rows)["all"]
    assert (c["genuine"], c["nosignal"], c["nosignal_right"], c["nosignal_missed"]) == (2, 2, 1, 1)
