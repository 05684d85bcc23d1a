"""The real-game corpus: runs of Atari games played by a scripted agent in the Arcade Learning
Environment (ale-py), recorded with ffmpeg (H.264), with ground truth, genuine and tampered.

    import corpus
    run = corpus.build("breakout-cut")   # built once, then read from the cache
    run.log, run.video, run.truth        # paths and the truth dict
    run.action_times, run.run_end_s      # what the sync analysis reads from the log
    corpus.NAMES                         # every run of the first set: {game}-{kind}
    corpus.HELD_OUT_NAMES                # the second held-out set (`heldout`): new games and
                                         # recorders, {game}-{kind}[@{recorder}]

Runs are cached under `.cache/corpus/v{GENERATOR_VERSION}/` in the repository (gitignored);
MODERATOR_CORPUS_DIR moves the cache. `make corpus` (or `python -m corpus` with tests/ on the
path) builds them all. Format: the `build` module's docstring.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cachelock

from . import heldout
from .build import GAMES, GENERATOR_VERSION, KINDS, generate

NAMES = tuple(f"{g}-{k}" for g in GAMES for k in KINDS)
HELD_OUT_NAMES = heldout.NAMES2
REPO = Path(__file__).resolve().parents[2]


def cache_dir() -> Path:
    root = Path(os.environ.get("MODERATOR_CORPUS_DIR", REPO / ".cache" / "corpus"))
    return root / f"v{GENERATOR_VERSION}"


@dataclass(frozen=True)
class Run:
    name: str
    folder: Path

    @property
    def log(self) -> Path:
        return self.folder / "agent-log.jsonl"

    @property
    def video(self) -> Path:
        return self.folder / self.truth.get("video", "video.mp4")

    @property
    def truth(self) -> dict:
        return json.loads((self.folder / "truth.json").read_text())

    def _events(self, kind: str) -> list[float]:
        lines = self.log.read_bytes().splitlines()
        return [e["elapsedMs"] / 1000 for e in map(json.loads, lines) if e["type"] == kind]

    @property
    def action_times(self) -> list[float]:
        """The logged actions' run times (s), in log order: the sync analysis' input."""
        return self._events("action")

    @property
    def run_end_s(self) -> float:
        """run_start to run_end (s), as the log says."""
        return self._events("run_end")[-1]


def available() -> str | None:
    """Why the corpus cannot be built here (None when it can)."""
    if shutil.which("ffmpeg") is None:
        return "ffmpeg is not installed"
    try:
        import ale_py  # noqa: F401
    except ImportError:
        return "ale-py is not installed (pip install -e '.[test]')"
    return None


def build(name: str) -> Run:
    """The run `name` ({game}-{kind}, or a held-out {game}-{kind}[@{recorder}]), generated into
    the cache when not there yet."""
    game, kind = name.split("-", 1)
    if game in GAMES and kind in KINDS:
        def make(out: Path) -> dict:
            return generate(game, kind, out)
    else:
        g, k, seed, rec, rec_name = heldout.spec(name)

        def make(out: Path) -> dict:
            return generate(g, k, out, seed=seed, rec=rec, rec_name=rec_name)
    return cached(name, make)


def cached(name: str, make) -> Run:
    """The run `name` from the cache, made first by `make(folder)` when it is not there yet:
    atomically (a half-built run is never read) and once (a second asker, another worker of the
    suite or another checkout sharing MODERATOR_CORPUS_DIR, waits for the first's build)."""
    folder = cache_dir() / name
    if (folder / "truth.json").exists():
        return Run(name, folder)
    with cachelock.locked(folder):  # two workers of the suite asking at once: one build
        if not (folder / "truth.json").exists():
            tmp = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=folder.parent))
            try:
                make(tmp)
                tmp.rename(folder)  # atomic: a half-built run is never read
            except OSError:
                if not (folder / "truth.json").exists():
                    raise
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    return Run(name, folder)


def build_with(name: str, game: str, agent, kind: str, seed: int, rec, rec_name: str) -> Run:
    """A run of a game the corpus has no agent for (QA's games), `agent` playing it: built
    once into the cache as `cached` builds, the agent registered only while it plays."""
    from . import agents

    def make(out: Path) -> dict:
        old = agents.AGENTS.get(game)
        agents.AGENTS[game] = agent
        try:
            return generate(game, kind, out, seed=seed, rec=rec, rec_name=rec_name)
        finally:
            if old is None:
                agents.AGENTS.pop(game, None)
            else:
                agents.AGENTS[game] = old
    return cached(name, make)
