"""A family x pad matrix of keys glued between pads (session 46, redact; review s45 R2 HIGH):
every key family a hostile submitter may glue into base64-looking text, between the pads a
reviewer or QA used (one repeated letter, two alternating vowels, digits, a word, a base64
blob), on one side or both. Deterministic: each key's random part is drawn from a
`random.Random` seeded by the family's name, so a case is the same on every machine."""

from __future__ import annotations

import random
import string
from collections.abc import Iterator
from dataclasses import dataclass

ALNUM = string.ascii_letters + string.digits
_HEX = "0123456789abcdef"
_B64 = ALNUM + "+/"


def draw(rng: random.Random, alphabet: str, n: int) -> str:
    """`n` characters of `alphabet`, holding upper and lower case and 2+ digits when the
    alphabet has them (a real key's random part; a draw of one case is drawn again)."""
    while True:
        text = "".join(rng.choice(alphabet) for _ in range(n))
        if alphabet is not ALNUM or (sum(c.isdigit() for c in text) >= 2
                                      and any(c.isupper() for c in text)
                                      and any(c.islower() for c in text)):
            return text


def _keys() -> dict[str, tuple[str, str]]:
    """family -> (the key, the label `scan_public` names it by)."""
    def r(name: str) -> random.Random:
        return random.Random("gluedmatrix/" + name)

    tg = r("telegram")
    return {
        "stripe": ("sk_live_" + draw(r("stripe"), ALNUM, 24), "Stripe secret key"),
        "stripe_rk": ("rk_live_" + draw(r("stripe_rk"), ALNUM, 24), "Stripe restricted key"),
        "npm": ("npm_" + draw(r("npm"), ALNUM, 36), "npm token"),
        "replicate": ("r8_" + draw(r("replicate"), ALNUM, 37), "Replicate token"),
        "databricks": ("dapi" + draw(r("databricks"), _HEX, 32), "Databricks token"),
        "mailgun": ("key-" + draw(r("mailgun"), _HEX, 32), "Mailgun key"),
        "alibaba": ("LTAI" + draw(r("alibaba"), ALNUM, 20), "Alibaba key id"),
        "telegram": ("".join(tg.choice(string.digits[1:]) for _ in range(9)) + ":AA"
                     + draw(tg, ALNUM + "_-", 33), "Telegram bot token"),
        # those named before this session
        "openai48": ("sk-" + draw(r("openai48"), ALNUM, 48), "API key (sk-...)"),
        "openai_proj": ("sk-proj-" + draw(r("openai_proj"), ALNUM, 48), "API key (sk-...)"),
        "hf": ("hf_" + draw(r("hf"), ALNUM, 34), "Hugging Face token"),
        "aws": ("AKIA" + draw(r("aws"), string.ascii_uppercase + string.digits, 16),
                "AWS access key id"),
    }


def _pads() -> dict[str, str]:
    blob = draw(random.Random("gluedmatrix/blob"), _B64, 64)
    return {"Q64": "Q" * 64, "x10": "x" * 10, "ae5": "ae" * 5, "digits": "1234567890",
            "word": "monkeybusiness", "blob": blob}


@dataclass(frozen=True)
class Case:
    """One glued key: its `text` (pad + key [+ pad]), the key and the label that names it."""

    name: str
    text: str
    key: str
    label: str


def cases() -> Iterator[Case]:
    """Every family x pad x side: the pad before and after the key (`both`), before it only
    (`before`, a space after), after it only (`after`, a space before)."""
    for family, (key, label) in _keys().items():
        for pad_name, pad in _pads().items():
            yield Case(f"{family}-{pad_name}-both", pad + key + pad, key, label)
            yield Case(f"{family}-{pad_name}-before", pad + key + " done", key, label)
            yield Case(f"{family}-{pad_name}-after", "got " + key + pad, key, label)
