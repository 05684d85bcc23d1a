"""The payload shapes QA held out, then added to the bench: what a harness logged that no
shape before it had (issue 15, "measured on shapes you have not seen").

Why a module of their own: each came from a QA pass as a miss (the engine slow, or a line
declined, on a payload no bench had timed), and the QA scripts that found it build their
corpora from these very generators, so they are kept exactly as they were (one copy; a change
here changes what a past pass measured). `payload_shapes.shaped_payload` offers them by name
(`HELD_OUT`) beside the shapes the engineers wrote.

Shapes QA held out in session 23 (issue 15, QA s23 Q4; scripts/qa_session23.py builds its
corpora from these very generators), added to the bench in session 24:

* `html`: a browser agent's DOM snapshot in one string: an escaped `"` every ~15 bytes, `<`,
  `>`, `&` as written, `\\n` and indentation, an occasional U+00A0;
* `boolgrid`: a board's state as arrays nested 3 deep of `true`, `false`, `null` and small
  integers: the per-value cost of the three literals (no string, no member name).

A shape QA held out in session 27 (QA s27 T7), added to the bench in session 28 (issue 15):

* `nullsparse`: a database export's sparse records of 5-10 members named at length (15-21
  bytes, in reverse order), 80 % of the values `null`: the per-member cost of long names.

A shape QA held out in session 28 (QA s28, issue 15):

* `phpslashes`: a PHP harness' request log, URLs and paths (a `/` every ~6 bytes). PHP's
  json_encode writes every `/` as `\\/`, schema included: `php_spelling` respells a line so
  (the hash, of the canonical form, stays intact); no writer the spelling check knows spells
  such a line, and the C scan declined every line for its escaped schema (30x the floor).

Shapes QA held out in sessions 32 (T8), 33 (T7), 34 (T7) and 35 (T5), added to the bench a session
later:

* `uuidmap`: a game's entity table keyed by UUIDs (36-byte names, none repeated);
* `sqlrows`: a SQL result's rows as arrays of mixed scalars (an integer, a 2-decimal float, a
  short string with a quote, comma, escape or non-ASCII letter, null, a boolean);
* `tuplelog`: a game server's log rows mixing a 13-digit int, strings, a 3-decimal float, a
  small object (an int and a 2-int array), null, a bool and a tiny float Python spells with an
  exponent (`bench_chain.py` writes it with Python's compact `json.dumps`, as QA s34 did);
* `keymap`: QA s35's per-tick maps of mixed scalars under shuffled names whose RFC 8785 (UTF-16)
  order is not code point order (emoji, halfwidth, accented, an escaped NUL), with `-0.0`,
  `4e+22` and control characters (written with Python's compact `json.dumps`, as QA s35 did).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

_TAGS = ("div", "span", "a", "button", "input", "li", "td", "p", "label", "svg")
_ATTRS = ("class", "id", "href", "aria-label", "data-testid", "role", "style", "title")
_VALUES = ("btn btn-primary", "nav-item", "x&amp;y", "/path?a=1&b=2", "col-3", "Submit\u00a0form")


def html_payload(rng: random.Random, size: int) -> dict:
    """A browser agent's DOM snapshot: HTML in one string (an escaped quote every ~15 bytes,
    `<`, `>`, `&` as written, newlines and indentation, a non-breaking space now and then)."""
    out, n, depth = [], 0, 0
    while n < size:
        tag = rng.choice(_TAGS)
        attrs = " ".join(f'{rng.choice(_ATTRS)}="{rng.choice(_VALUES)}"'
                         for _ in range(rng.randint(1, 3)))
        text = rng.choice(("Next", "OK", "Score: 12", "&nbsp;")) if rng.random() < 0.5 else ""
        line = "  " * depth + f"<{tag} {attrs}>" + text
        if rng.random() < 0.5 and depth < 12:
            depth += 1
        else:
            line += f"</{tag}>"
            depth = max(0, depth - rng.randint(0, 1))
        out.append(line)
        n += len(line) + 1
    return {"url": "https://game.example.test/play?level=3", "dom": "\n".join(out),
            "viewport": [1280, 720]}


def boolgrid_payload(rng: random.Random, size: int) -> dict:
    """A board game's state: rows of true/false/null literals and small integers (occupancy,
    visibility), nested 3 deep: per-value cost of the three literals, no string, no member."""
    rows, n = [], 0
    while n < size:
        row = [[rng.choice((True, False, None, 0, 1, 2)) for _ in range(8)] for _ in range(4)]
        rows.append(row)
        n += 4 * 8 * 5 + 8
    return {"board": rows, "turn": rng.randrange(500), "done": False}


# QA s27's held-out `nullsparse` (scripts/qa_session27.py), here since session 28 so that the
# bench times it: names of 15-21 bytes, past `short_name`'s first 16-byte load
_NK = ("feature_flag_enabled", "last_checkpoint_path", "override_reward_scale",
       "parent_episode_id", "terminated_reason", "truncated_reason", "video_segment_url",
       "aux_loss_weight", "teacher_forcing_ratio", "curriculum_stage_name")


def _nullsparse_payload(rng: random.Random, size: int) -> dict:
    """Sparse records from a database export: long member names (in reverse order), 80 % of
    the values null, the rest true / false / a short string."""
    rows, used = [], 0
    while used < size - 40:
        keys = rng.sample(_NK, rng.randint(5, 10))
        keys.sort(reverse=True)
        row = {k: (None if rng.random() < 0.8 else rng.choice((True, False, "n/a", "v2")))
               for k in keys}
        rows.append(row)
        used += len(json.dumps(row, separators=(",", ":")))
    return {"records": rows}


_HOSTS = ("cdn.example.com", "api.example.org", "static.assets.example.net", "img.example.io")
_SEGS = ("v1", "v2", "users", "avatars", "2026", "build", "static", "js", "img", "thumb", "run")


def _phpslashes_payload(rng: random.Random, size: int) -> dict:
    """A PHP harness' request log: URLs and paths (spelled `\\/` by `php_spelling`)."""
    rows, used = [], 0
    while used < size - 50:
        path = "/".join(rng.choice(_SEGS) for _ in range(rng.randint(3, 7)))
        row = {"url": f"https://{rng.choice(_HOSTS)}/{path}/{rng.randrange(10**6)}.png",
               "file": f"/var/www/html/{path}/index.php", "status": rng.choice((200, 304, 404))}
        rows.append(row)
        used += len(json.dumps(row, separators=(",", ":"))) + path.count("/") * 2 + 8
    return {"requests": rows}


# QA s32's held-out `uuidmap` (scripts/qa_session32.py, miss T8), here since session 33 so that
# the bench times it: an object of ~20 members a payload, each name new
_ENTITIES = ("goblin", "coin", "door", "torch", "crate", "bat")


def _uuidmap_payload(rng: random.Random, size: int) -> dict:
    """A game's entity table as an engine dumps it: an object keyed by UUIDs (36-character
    names, none repeated across events), each value a short object of a type tag, a position
    pair and flags."""
    ents, used = {}, 20
    while used < size - 90:
        h = f"{rng.getrandbits(128):032x}"
        k = f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{h[16:20]}-{h[20:]}"
        v = {"t": rng.choice(_ENTITIES), "p": [rng.randint(0, 639), rng.randint(0, 479)],
             "on": rng.random() < 0.7, "hp": rng.randint(0, 9)}
        ents[k] = v
        used += len(k) + len(json.dumps(v, separators=(",", ":"))) + 4
    return {"frame": rng.randint(0, 99999), "entities": ents}


# QA s33's held-out `sqlrows` (scripts/qa_session33.py, miss T7), here since session 34 so that
# the bench times it: short strings with a quote, a comma, an escape or a non-ASCII letter
_SQL_WORDS = ("ok", "Jane O'Neil", 'say "hi"', "a,b;c", "tab\there", "C:\\tmp", "<b>x</b>",
              "naïve", "100%", "", "NULL", "line\nbreak", "emoji 🎮", "x" * 12)


def _sqlrows_payload(rng: random.Random, size: int) -> dict:
    """A SQL query's result as a harness dumps it: a column list, then rows as arrays of mixed
    scalars (an integer, a 2-decimal float, a short string, null or a digit, a boolean, a date
    or null), no member names per row."""
    rows, used = [], 60
    while used < size - 60:
        row = [rng.randint(-99999, 99999), round(rng.uniform(-1000, 1000), 2),
               rng.choice(_SQL_WORDS), None if rng.random() < 0.3 else rng.randint(0, 9),
               rng.random() < 0.5, rng.choice(("2026-12-05", "2026-12-06", None))]
        rows.append(row)
        used += len(json.dumps(row, ensure_ascii=False, separators=(",", ":"))) + 1
    return {"sql": "SELECT id, score, name, lvl, alive, day FROM players",
            "columns": ["id", "score", "name", "lvl", "alive", "day"], "rows": rows}


# QA s34's held-out `tuplelog` (miss T7), here since session 35 so that the bench times it: rows
# that nest an object and an array among scalars, with an exponent float. scripts/qa_session34.py
# builds its chain with this generator (one copy; session 36, review V2)
_LEVELS = ("INFO", "WARN", "DEBUG", "ERROR", "TRACE")
_ZONES = ("zone-7", "Höhle/2", "b\"q\"", "a\\b", "", "東-3", "x y", None)


def _tuplelog_payload(rng: random.Random, size: int) -> dict:
    """A game server's event log as a harness dumps it: one array a row, mixing a 13-digit
    millisecond int, a level string, a 3-decimal float, a small object (`hp`, `pos` as a
    2-int array), null, a short string (quotes, backslash, non-ASCII) or null, a bool and a
    tiny float that Python spells with an exponent (`3.5e-05`, which RFC 8785 spells
    `0.000035`)."""
    rows, used, t = [], 40, 1796000000000
    while used < size - 80:
        t += rng.randint(1, 900)
        row = [t, rng.choice(_LEVELS), round(rng.uniform(-50, 50), 3),
               {"hp": rng.randint(0, 100), "pos": [rng.randint(-99, 99), rng.randint(-99, 99)]},
               None, rng.choice(_ZONES), rng.random() < 0.5,
               rng.randint(1, 99) * 10.0 ** -rng.randint(5, 9)]
        rows.append(row)
        used += len(json.dumps(row, ensure_ascii=False, separators=(",", ":"))) + 1
    return {"schema": ["t_ms", "level", "dx", "unit", "parent", "zone", "ok", "eps"],
            "rows": rows}


def php_spelling(line: bytes) -> bytes:
    """A compact JSON line as PHP's json_encode writes it by default: every `/` as `\\/`."""
    return line.replace(b"/", b"\\/")


# QA s35's held-out `keymap` (miss T5)
#: keys whose RFC 8785 order (UTF-16 code units) differs from code-point order: a
#: supplementary-plane key (a surrogate pair, 0xD83D...) sorts BEFORE a key of U+FF61-FFFF
_KEYMAP_KEYS = ("hp", "Hp", "x", "y", "é", "ｱｲ", "\U0001F47E", "ß", "z_1", "z10", "z2", "ｶ",
         "\U0001D11E", "a\u0000b", "tag")


def _keymap_payload(rng: random.Random, size: int) -> dict:
    """A game server's per-tick state as a map of maps: `{"ticks": {"t000123": {...}}}`, each
    inner object written in SHUFFLED key order with keys whose RFC 8785 order is not code-
    point order (a key of a surrogate pair before `ｱｲ`; an escaped NUL), values mixing ints,
    negative floats, `1e21`-scale floats (RFC 8785: `1e+21`), `-0.0` (RFC 8785: `0`), 1e-7
    (`1e-7`), bools, null and short strings with a control character. No pass used maps of
    mixed scalars under non-BMP keys (uuidmap: uuid keys to flat rows; keys sorted ASCII).
    Here since session 36 so that the bench times it; scripts/qa_session35.py builds its chain
    with it."""
    ticks, used, t = {}, 30, 100
    while used < size - 120:
        t += rng.randint(1, 7)
        keys = rng.sample(_KEYMAP_KEYS, rng.randint(6, 9))
        obj = {}
        for k in keys:
            r = rng.random()
            obj[k] = (rng.randint(-2 ** 31, 2 ** 31) if r < 0.2 else
                      -round(rng.uniform(0, 999), 4) if r < 0.35 else
                      rng.randint(1, 9) * 10.0 ** rng.choice((21, 22, -7, -8)) if r < 0.45 else
                      -0.0 if r < 0.5 else rng.random() < 0.5 if r < 0.62 else
                      None if r < 0.7 else
                      rng.choice(("ok", "tab\there", "bell\u0007", "ÿ", "\U0001F47E")))
        ticks[f"t{t:06d}"] = obj
        used += len(json.dumps({f"t{t:06d}": obj}, ensure_ascii=False,
                               separators=(",", ":")))
    return {"schema": "tickstate/2", "ticks": ticks}


#: shape name -> generator, for `payload_shapes.shaped_payload`
HELD_OUT: dict[str, Callable[[random.Random, int], dict]] = {
    "html": html_payload, "boolgrid": boolgrid_payload, "nullsparse": _nullsparse_payload,
    "phpslashes": _phpslashes_payload, "uuidmap": _uuidmap_payload, "sqlrows": _sqlrows_payload,
    "tuplelog": _tuplelog_payload, "keymap": _keymap_payload}
