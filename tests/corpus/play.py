"""Play one real game run in the Arcade Learning Environment and keep every emulator frame.

The run's clock: emulator step k (60 per second) is shown at video time k / 60 s; `run_start`
happens at step `lead` (the lead-in before it is footage of the idle game). A scripted agent makes
"model calls" (request, a realistic model latency, response with 1-2 presses); each press is
applied to the emulator from the step of its logged `elapsedMs` for its `frames` steps. For each
press the generator also plays the same moment without it (a saved emulator state) and records
the first frame where the two differ: the frame where the action first shows (None if it never
does within half a second).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np

from . import agents

EMU_HZ = 60
_LOOKAHEAD = 30  # steps compared against the counterfactual


def ms_to_step(ms: float) -> int:
    return int(round(ms * EMU_HZ / 1000))


@dataclass
class PressTruth:
    """One logged press: where it was applied and where it first shows (emulator steps)."""

    elapsed_ms: int
    button: str
    hold: int
    step: int
    first_visible_step: int | None = None


@dataclass
class Played:
    game: str
    lead: int                  # step of run_start
    frames: np.ndarray         # (steps, 210, 160, 3) uint8, one per emulator step
    events: list[dict]         # the agent log's events (seq, at, elapsedMs, type, data)
    presses: list[PressTruth]  # logged presses in log order
    human_presses: list[PressTruth] = field(default_factory=list)  # unlogged (human stretch)


def _emulator(game: str, seed: int):
    import ale_py
    from ale_py import roms

    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setInt("random_seed", seed)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.setInt("frame_skip", 1)
    ale.loadROM(roms.get_rom_path(game))
    ale.reset_game()
    return ale, {a.name: a for a in ale.getMinimalActionSet()}


SLOW_CALL_MS = 9000  # kind `pause`: one model call this much slower (the tamperings' stretch)


def play(game: str, seed: int, run_s: float, *, human_span_ms: tuple[int, int] | None = None,
         start: str = "2026-11-30T20:00:00.000Z", lead_steps: int | None = None,
         emu_seed: int | None = None, slow_call_ms: int | None = None,
         slow_by_ms: int = SLOW_CALL_MS) -> Played:
    """Play `run_s` seconds of `game` after a seeded lead-in, and one second after run_end.
    `lead_steps` replaces the seeded lead-in (a recorder started earlier); `emu_seed` plays the
    emulator's seed with another agent's choices (a second attempt at the same game);
    `slow_call_ms`: the first model call from then on answers `slow_by_ms` late (a genuine run
    with a long log gap and no input on screen: the activity rule's negative control)."""
    from moderator_app.core.samples.community import format_at  # the sample log's `at` form

    rng = random.Random(seed)
    ale, actions = _emulator(game, seed if emu_seed is None else emu_seed)
    policy = agents.AGENTS[game]
    lead = 2 * rng.randint(45, 75)  # 1.5 to 2.5 s, even so a 30 fps recording keeps it whole
    if lead_steps is not None:
        lead = lead_steps
    run_ms = int(run_s * 1000)
    frames: list[np.ndarray] = []
    held: list = [None, 0]  # (button, until step)
    pending: list[tuple[PressTruth, list[np.ndarray]]] = []

    def advance_to(target: int) -> None:
        while len(frames) < target:
            k = len(frames)
            name = held[0] if held[0] and k < held[1] else "NOOP"
            ale.act(actions[name])
            frames.append(ale.getScreenRGB())
            if ale.game_over():  # the harness starts a new game, as a real one does
                ale.reset_game()

    def press(el_ms: int, button: str, hold: int) -> PressTruth:
        step = lead + ms_to_step(el_ms)
        advance_to(step)
        state = ale.cloneState()
        held_before = list(held)
        base = []
        for k in range(step, step + _LOOKAHEAD):  # the same moment without this press
            name = held[0] if held[0] and k < held[1] else "NOOP"
            ale.act(actions[name])
            base.append(ale.getScreenRGB())
            if ale.game_over():
                ale.reset_game()
        ale.restoreState(state)
        held[:] = held_before
        held[0], held[1] = button, step + hold
        truth = PressTruth(el_ms, button, hold, step)
        pending.append((truth, base))
        return truth

    t0 = datetime.fromisoformat(start.replace("Z", "+00:00"))
    events: list[dict] = []

    def emit(el: int, typ: str, data: dict) -> None:
        jitter = rng.randint(-3, 3) if events else 0
        events.append({"seq": len(events), "at": format_at(t0 + timedelta(milliseconds=el + jitter)),
                       "elapsedMs": el, "type": typ, "data": data})

    model = "provider/scripted-ram-agent"
    advance_to(lead)
    emit(0, "run_start", {"game": f"atari-{game}", "category": "any-percent", "model": model,
                          "scaffold": {"name": "corpus-agent", "version": "1.0.0"}})
    presses: list[PressTruth] = []
    human: list[PressTruth] = []
    t = rng.randint(200, 600)
    call = 0
    while t < run_ms - 3500:
        if human_span_ms and human_span_ms[0] <= t < human_span_ms[1]:
            # A person plays: presses at a human pace, nothing in the log.
            while t < human_span_ms[1] - 600:
                advance_to(lead + ms_to_step(t))
                for button, hold in policy(ale.getRAM(), rng):
                    human.append(press(t, button, hold))
                    t += int(hold * 1000 / EMU_HZ) + rng.randint(150, 400)
            t = human_span_ms[1]
            continue
        call += 1
        emit(t, "model_request", {"messages": [
            {"role": "system", "content": f"You play Atari {game}. Answer with button presses."},
            {"role": "user", "content": f"Screen {call}: what next?"}]})
        t += rng.randint(400, 1600)  # model latency
        if slow_call_ms is not None and t >= slow_call_ms:
            t, slow_call_ms = t + slow_by_ms, None  # the agent idles meanwhile
        advance_to(lead + ms_to_step(t))
        wanted = policy(ale.getRAM(), rng)
        acts = [{"name": "press", "args": {"button": b, "frames": h}} for b, h in wanted]
        emit(t, "model_response", {"id": f"c{call}", "model": model,
                                   "usage": {"input": rng.randint(700, 1400),
                                             "output": rng.randint(10, 60)},
                                   "text": "Pressing " + ", ".join(b for b, _ in wanted),
                                   "actions": acts})
        t += rng.randint(20, 50)
        for a, (button, hold) in zip(acts, wanted, strict=False):
            emit(t, "action", {"call": f"c{call}", **a})
            presses.append(press(t, button, hold))
            t += int(hold * 1000 / EMU_HZ) + rng.randint(150, 350)
        emit(t, "observation", {"summary": f"{len(wanted)} press(es) done"})
        t += rng.randint(100, 300)
    emit(run_ms, "run_end", {"reason": "time limit"})
    advance_to(lead + ms_to_step(run_ms) + EMU_HZ)
    arr = np.stack(frames)
    for n, (truth, base) in enumerate(pending):
        # Up to the next press: after it, a difference may be that press's.
        limit = pending[n + 1][0].step if n + 1 < len(pending) else len(arr)
        for i, ref in enumerate(base):
            k = truth.step + i
            if k < min(limit, len(arr)) and not np.array_equal(arr[k], ref):
                truth.first_visible_step = k
                break
    return Played(game, lead, arr, events, presses, human)
