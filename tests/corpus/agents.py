"""Scripted agents that read the emulator's RAM, one per game, and a "human" for the human stretch.

Each agent returns the presses a model call asks for: a list of (button, hold_frames). They are
deterministic given their `random.Random`. They try to make presses that show on screen (no press
into a wall), as a real agent mostly does, but not always: some presses change nothing.
"""

from __future__ import annotations

import random

Press = tuple[str, int]


def breakout(ram, rng: random.Random) -> list[Press]:
    """Breakout (screen moves on its own once the ball is served): chase the ball's x."""
    paddle_x, ball_x, ball_y = int(ram[72]), int(ram[99]), int(ram[101])
    if ball_y == 0 and rng.random() < 0.4:  # no ball in play: serve
        return [("FIRE", 4)]
    presses: list[Press] = []
    x = paddle_x
    for _ in range(rng.randint(1, 3)):
        target = ball_x if ball_y and rng.random() < 0.6 else rng.randint(60, 185)
        diff = target - x
        if abs(diff) < 10:
            diff = 30 if x < 120 else -30
        if x > 180:
            diff = -abs(diff)
        if x < 65:
            diff = abs(diff)
        hold = min(20, max(5, abs(diff) // 3))
        presses.append(("RIGHT" if diff > 0 else "LEFT", hold))
        x = max(55, min(191, x + (1 if diff > 0 else -1) * hold * 2))
    return presses


def pitfall(ram, rng: random.Random) -> list[Press]:
    """Pitfall! (screen mostly still; Harry moves on input): walk, sometimes back, sometimes jump."""
    r = rng.random()
    if r < 0.15:
        return [("FIRE", 3)]
    if r < 0.35:
        return [("LEFT", rng.randint(6, 20))]
    presses = [("RIGHT", rng.randint(8, 30))]
    if rng.random() < 0.3:
        presses.append(("FIRE", 3))
    return presses


def pong(ram, rng: random.Random) -> list[Press]:
    """Pong (ball and the other paddle move on their own): follow the ball's height."""
    player_y, ball_y = int(ram[51]), int(ram[54])
    presses: list[Press] = []
    for _ in range(rng.randint(1, 2)):
        diff = ball_y - player_y + rng.randint(-15, 15)
        if abs(diff) < 8:
            diff = rng.choice((-20, 20))
        # In Pong's minimal action set RIGHT moves the paddle up and LEFT down.
        presses.append(("LEFT" if diff > 0 else "RIGHT", min(16, max(4, abs(diff) // 3))))
        player_y += diff // 2
    return presses


def riverraid(ram, rng: random.Random) -> list[Press]:
    """River Raid (held out: never tuned on; the river scrolls all the time): steer, shoot."""
    if rng.random() < 0.25:
        return [("FIRE", 3)]
    return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 14))]


def ms_pacman(ram, rng: random.Random) -> list[Press]:
    """Ms. Pac-Man (held out: never tuned on; a maze, the ghosts move on their own): turn."""
    return [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(6, 20))
            for _ in range(rng.randint(1, 2))]


# Held out, second set (issue 13's independent check: never tuned on; tests/corpus/heldout.py).
# They read no RAM: a plausible agent's habits for each game's controls, one screen type each.


def freeway(ram, rng: random.Random) -> list[Press]:
    """Freeway (cars stream across on their own; the chicken moves only on input): cross."""
    if rng.random() < 0.15:
        return [("DOWN", rng.randint(4, 10))]
    return [("UP", rng.randint(8, 30))]


def space_invaders(ram, rng: random.Random) -> list[Press]:
    """Space Invaders (the invaders march on their own; the cannon moves on input): dodge, shoot."""
    presses: list[Press] = [(rng.choice(("LEFT", "RIGHT")), rng.randint(5, 18))]
    if rng.random() < 0.6:
        presses.append(("FIRE", 3))
    return presses


def seaquest(ram, rng: random.Random) -> list[Press]:
    """Seaquest (the sub moves in four directions; sharks and divers cross on their own)."""
    move = rng.choice(("DOWN", "DOWN", "LEFT", "RIGHT", "UP", "DOWNLEFT", "DOWNRIGHT"))
    presses: list[Press] = [(move, rng.randint(6, 20))]
    if rng.random() < 0.4:
        presses.append((rng.choice(("FIRE", "LEFTFIRE", "RIGHTFIRE")), 4))
    return presses


def enduro(ram, rng: random.Random) -> list[Press]:
    """Enduro (once the car drives the road and the other cars scroll on their own): accelerate
    (FIRE), steer while accelerating, now and then brake."""
    r = rng.random()
    if r < 0.45:
        return [("FIRE", rng.randint(20, 40))]
    if r < 0.9:
        return [(rng.choice(("LEFTFIRE", "RIGHTFIRE")), rng.randint(6, 16))]
    return [("DOWN", rng.randint(6, 12))]


def boxing(ram, rng: random.Random) -> list[Press]:
    """Boxing (the computer's boxer moves on its own; the player's on input): step and punch."""
    presses: list[Press] = [(rng.choice(("UP", "DOWN", "LEFT", "RIGHT")), rng.randint(5, 16))]
    if rng.random() < 0.5:
        presses.append(("FIRE", 3))
    return presses


def asteroids(ram, rng: random.Random) -> list[Press]:
    """Asteroids (rocks drift on their own, drawn on alternate frames: flicker): turn, thrust,
    shoot."""
    r = rng.random()
    if r < 0.35:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 14))]
    if r < 0.55:
        return [("UP", rng.randint(4, 10))]
    return [("FIRE", 3)]


# Held out after the second set (session 9's QA, issue 13): found false warnings on main.


def frostbite(ram, rng: random.Random) -> list[Press]:
    """Frostbite (the ice floes drift on their own, a step every few frames, and the picture
    stands still between steps; the player walks on the shore and hops on input): mostly hop
    down the floes and back up, and walk. Some presses show nothing (a hop up on the shore, a
    walk into the edge)."""
    r = rng.random()
    if r < 0.45:
        return [("DOWN", rng.randint(3, 6))]
    if r < 0.65:
        return [("UP", rng.randint(3, 6))]
    return [(rng.choice(("LEFT", "RIGHT")), rng.randint(8, 24))]


def skiing(ram, rng: random.Random) -> list[Press]:
    """Skiing (the slope scrolls up on its own all the time, flags and trees with it; the
    skier turns on input): turn left or right, short or long, as a run down the gates needs."""
    return [(rng.choice(("LEFT", "RIGHT")), rng.randint(4, 16))
            for _ in range(rng.randint(1, 2))]


# Held out after session 10's QA (issue 13): Tennis ignores every press between points (the
# picture stands still 2.08 s, presses in it), a false `sync.no_reaction` on main; Kangaroo
# moves on its own everywhere (monkeys, apples).


def tennis(ram, rng: random.Random) -> list[Press]:
    """Tennis (the ball and the opponent move on their own all the time; the player runs on
    input and swings with FIRE, which also serves)."""
    if rng.random() < 0.6:
        return [(rng.choice(("LEFT", "RIGHT", "UP", "DOWN")), rng.randint(6, 20))]
    return [("FIRE", rng.randint(3, 5))]


def kangaroo(ram, rng: random.Random) -> list[Press]:
    """Kangaroo (monkeys climb and throw apples on their own; the mother kangaroo walks, climbs
    ladders, ducks and punches on input): a plausible agent's habits, RAM-free."""
    r = rng.random()
    if r < 0.55:
        return [(rng.choice(("LEFT", "RIGHT")), rng.randint(8, 24))]
    if r < 0.7:
        return [("UP", rng.randint(4, 12))]
    if r < 0.8:
        return [("DOWN", rng.randint(4, 8))]
    return [("FIRE", rng.randint(3, 6))]


AGENTS = {"breakout": breakout, "pitfall": pitfall, "pong": pong, "riverraid": riverraid,
          "ms_pacman": ms_pacman, "freeway": freeway, "space_invaders": space_invaders,
          "seaquest": seaquest, "enduro": enduro, "boxing": boxing, "asteroids": asteroids,
          "frostbite": frostbite, "skiing": skiing, "tennis": tennis, "kangaroo": kangaroo}
