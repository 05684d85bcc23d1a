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
    assert pool == reserved - set(p["taken"])
    assert "breakout" in games and "pacman" in reserved


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
