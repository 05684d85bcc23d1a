"""A listed join with an empty item or more than 256 items (session 36, issue 15, review V4):
`["dckr_pat_", "", "QA36..."].join("")` and a key one character an item after 256 others
ended the list, and `withhold` published the key. An item may now be empty and a list hold
4,096; honest lists of words with empty items stay quiet."""

from __future__ import annotations

import pytest
from secretshelp import obs_line, quiet, refused_and_named

from moderator_app.core.formats.secrets_join import LISTING

KEYS = [("Docker token", "dckr_pat_" + "QA36listEmpty0aB1cD2eF3gH4iJ"),
        ("GitHub token", "ghp_" + "QA36listItems0aB1cD2eF3gH4iJ5kL6mN7o"),
        ("Supabase token", "sbp_" + "3a5f0c1e9d7b2a4c6e8f0a1b3c5d7e9f1a2b4c6d")]


def _empty(key: str) -> str:
    parts = [key[:5], "", key[5:14], "", "", key[14:]]
    return "const pat = [" + ", ".join(f'"{p}"' for p in parts) + '].join("");'


def _long(key: str) -> str:
    items = [f"'{c}'" for c in key] + ["'.'"] * (300 - len(key))
    return "token = ''.join([\n    " + ",\n    ".join(items) + ",\n])"


@pytest.mark.parametrize("spelled", [_empty, _long], ids=["an empty item", "300 items"])
@pytest.mark.parametrize("label, key", KEYS, ids=[k[0] for k in KEYS])
def test_a_key_in_a_list_with_an_empty_item_or_300_items_is_refused_alike(tmp_path, spelled,
                                                                          label, key):
    refused_and_named(tmp_path, obs_line(spelled(key)), LISTING, label)


@pytest.mark.parametrize("summary", [
    'label = ["Level", "", "3", "", "Frame", "24"].join("")',
    "row = ''.join([" + ", ".join(f"'{w}'" for w in ["ship", "", "left"] * 120) + "])",
    'ids = ["b2ea6ec9", "", "663147087"].join(""); path = "".join(["sprites/", "", "ship.png"])',
])
def test_honest_lists_with_empty_items_stay_quiet(tmp_path, summary):
    quiet(tmp_path, obs_line(summary))
