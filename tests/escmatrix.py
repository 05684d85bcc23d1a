"""Keys glued into escaped base64 and chance key shapes in honest escaped base64: a family x
escaping x place x kind matrix (session 47, redact; issue 15, review s46 R2's blob and
escaped-wrap sets, QA s46 T4 / T7), rebuilt here from the reviewer's and QA's scripts.

A tool prints base64 of a file inside JSON, as writers spell it: PHP's `json_encode` (`/`
written `\\/`) of `chunk_split` (`\\r\\n` every 76), PEM's 64 columns (`\\n`), .NET's `\\u002F`,
JSON inside JSON (every escape escaped again: `\\\\\\/`, `\\\\r\\\\n`; and again, three deep),
a URL query (`%2F`, `%2B`). A hostile case glues a key (a letter either side) into such a
blob: across a break (its first half before it), in a line's middle, or opening a line; the
blob is base64 of random bytes (`bin`: a key there is starred or named) or of text (`txt`:
named). An honest case writes a chance key shape (`AIza`, `AKIA`, `ASIA`, `ATATT3`, `ABIA`)
over a binary blob's own characters, no glue, in a short (under 4 KiB of base64) or a long
blob: it must be published (starred at most), never warned of or refused.

Deterministic: every draw comes from a `random.Random` seeded by the case's name."""

from __future__ import annotations

import base64
import random
import string
from collections.abc import Iterator
from dataclasses import dataclass

from gluedmatrix import ALNUM, draw

_UPPER = string.ascii_uppercase + string.digits
_HEX = "0123456789abcdef"
_GLUE = "bcdfgkmnpq"


def _lean(rng: random.Random, n: int) -> str:
    """`n` letters of both cases and exactly one digit (a real key drawn so ~1 time in 100:
    review s46 R2's last blob cells, `r8_` and `LTAI` with one digit, were published)."""
    text = list(draw(rng, string.ascii_letters, n))
    text[rng.randrange(n)] = rng.choice(string.digits)
    if not any(c.isupper() for c in text) or not any(c.islower() for c in text):
        return _lean(rng, n)
    return "".join(text)


# family -> a key drawn from its `random.Random`
FAMILIES = {
    "sk48": lambda r: "sk-" + draw(r, ALNUM, 48),
    "skproj": lambda r: "sk-proj-" + draw(r, ALNUM, 156),
    "hf": lambda r: "hf_" + draw(r, ALNUM, 34),
    "ghp": lambda r: "ghp_" + draw(r, ALNUM, 36),
    "aiza": lambda r: "AIza" + draw(r, ALNUM, 35),
    "akia": lambda r: "AKIA" + draw(r, _UPPER, 16),
    "sklive": lambda r: "sk_live_" + draw(r, ALNUM, 24),
    "rklive": lambda r: "rk_live_" + draw(r, ALNUM, 24),
    "npm": lambda r: "npm_" + draw(r, ALNUM, 36),
    "r8": lambda r: "r8_" + draw(r, ALNUM, 37),
    "dapi": lambda r: "dapi" + draw(r, _HEX, 32),
    "ltai": lambda r: "LTAI" + draw(r, ALNUM, 20),
    "xai": lambda r: "xai-" + draw(r, ALNUM, 80),
    "r8lean": lambda r: "r8_" + _lean(r, 37),
    "ltailean": lambda r: "LTAI" + _lean(r, 20),
}


@dataclass(frozen=True)
class Escaping:
    """How a tool's text spells base64: its line width (0: one line), the line break and `/`
    and `+` as written, and the command line before it."""

    width: int
    brk: str
    slash: str
    plus: str = "+"
    head: str = "$ php -r 'echo json_encode([\"b\" => chunk_split(base64_encode($j))]);'\n{\"b\":\""
    tail: str = "\"}"


_DOTNET = "$ dotnet run -- dump --json\n{\"raw\":\""
_Q = "$ curl -s api/last | jq -c .\n{\"body\":\"{\\\"raw\\\":\\\""
_Q3 = "$ curl -s api/wrap | jq -c .\n{\"w\":\"{\\\"body\\\":\\\"{\\\\\\\"raw\\\\\\\":\\\\\\\""
ESCAPINGS = {
    "php76": Escaping(76, "\\r\\n", "\\/"),
    "pem64": Escaping(64, "\\n", "\\/"),
    "oneline": Escaping(0, "", "\\/"),
    "plain76": Escaping(76, "\\r\\n", "/"),
    # (.NET's System.Text.Json spells `+` as `\\u002B` too)
    "u002f76": Escaping(76, "\\r\\n", "\\u002F", "\\u002B", _DOTNET),
    "u002f64": Escaping(64, "\\n", "\\u002F", "\\u002B", _DOTNET),
    # JSON inside JSON: PHP's output escaped again (QA s46 h46_07), or by a writer that leaves
    # `/` alone (the reviewer's `\\/`); three deep
    "json2": Escaping(76, "\\\\r\\\\n", "\\\\\\/", head=_Q, tail="\\\"}\"}"),
    "dbl76": Escaping(76, "\\\\r\\\\n", "\\\\/"),
    "json3": Escaping(76, "\\\\\\\\r\\\\\\\\n", "\\\\\\\\\\\\\\/", head=_Q3,
                      tail="\\\\\\\"}\\\"}\"}"),
    "percent": Escaping(0, "", "%2F", "%2B", head="$ echo $REDIRECT_URL\n"
                        "https://game.example/resume?state=", tail="&v=2"),
}
PLACES = ("across", "mid", "atbreak")
KINDS = ("bin", "txt")
CHANCE = {
    "AIza": lambda r: "AIza" + "".join(r.choice(ALNUM) for _ in range(35)),
    "AKIA": lambda r: "AKIA" + "".join(r.choice(_UPPER) for _ in range(16)),
    "ASIA": lambda r: "ASIA" + "".join(r.choice(_UPPER) for _ in range(16)),
    "ABIA": lambda r: "ABIA" + "".join(r.choice(_UPPER) for _ in range(16)),
    "ATATT3": lambda r: "ATATT3" + "".join(r.choice(ALNUM) for _ in range(180)),
}
SIZES = {"short": 1800, "long": 4000}  # (bytes: under and over 4 KiB of base64)


@dataclass(frozen=True)
class Case:
    """One tool output (`text`, an observation's summary) and the key or chance run in it."""

    name: str
    text: str
    key: str
    honest: bool


def spelled(blob: str, esc: Escaping) -> str:
    """`blob` (base64) as `esc` writes it: wrapped, its `/` and `+` spelled."""
    lines = [blob[i:i + esc.width] for i in range(0, len(blob), esc.width)] if esc.width \
        else [blob]
    body = esc.brk.join(line.replace("/", "\x00").replace("+", esc.plus).replace("\x00", esc.slash)
                        for line in lines)
    return esc.head + body + (esc.brk if esc.width else "") + esc.tail


def _at(esc: Escaping, place: str, n: int, line: int) -> int:
    """Where a key of `n` characters starts in the blob (`place`), on its `line`th line."""
    w = esc.width or 76
    return {"across": w * line - n // 2, "mid": w * line + 10, "atbreak": w * line}[place]


def _blob(rng: random.Random, kind: str, size: int) -> str:
    if kind == "bin":
        return base64.b64encode(rng.randbytes(size)).decode()
    words = ("level", "score", "ball", "paddle", "frame")
    text = " ".join(rng.choice(words) + str(rng.randint(0, 999)) for _ in range(size // 6))
    return base64.b64encode(text.encode()[:size]).decode()


def hostile() -> Iterator[Case]:
    """Every family x escaping x place x kind, a key glued into the blob (a letter each side)."""
    for family, make in FAMILIES.items():
        for esc_name, esc in ESCAPINGS.items():
            for place in PLACES:
                for kind in KINDS:
                    name = f"{family}.{esc_name}.{place}.{kind}"
                    rng = random.Random("escmatrix/" + name)
                    key = make(rng)
                    blob = _blob(rng, kind, 3000)
                    at = _at(esc, place, len(key), 11)
                    glued = (blob[:at - 1] + rng.choice(_GLUE) + key + rng.choice(_GLUE)
                             + blob[at + len(key) + 1:])
                    yield Case(name, spelled(glued, esc), key, False)


def honest() -> Iterator[Case]:
    """Every chance shape x escaping x place x size, written over a binary blob's characters."""
    for shape, make in CHANCE.items():
        for esc_name, esc in ESCAPINGS.items():
            for place in PLACES:
                for size_name, size in SIZES.items():
                    name = f"honest.{shape}.{esc_name}.{place}.{size_name}"
                    rng = random.Random("escmatrix/" + name)
                    run = make(rng)
                    blob = _blob(rng, "bin", size)
                    at = _at(esc, place, len(run), 7)
                    yield Case(name, spelled(blob[:at] + run + blob[at + len(run):], esc),
                               run, True)


def cases() -> Iterator[Case]:
    yield from hostile()
    yield from honest()
